"""Every file a module of ``sim`` names in its text (``docs/scenario.md``, ``README.md``,
``scenarios/X.yaml``) is a file the repository has: no pointer to a page that is not there
(such as a design note kept outside the repository)."""
from __future__ import annotations

import re

from conftest import ROOT

NAMED = re.compile(r"(?<![\w/.{}-])((?:[A-Za-z0-9_-]+/)*[A-Za-z0-9_-]+\.(?:md|ipynb))\b")
# Pages a module writes into a folder it is given (``DIR/scenario.md``, the docs folder).
RELATIVE = {"scenario.md", "study.md", "extending.md"}


def test_every_file_a_module_names_is_in_the_repository():
    missing = []
    for path in sorted((ROOT / "sim").rglob("*.py")):
        for name in NAMED.findall(path.read_text(encoding="utf-8")):
            folder, _, base = name.rpartition("/")
            if base in RELATIVE and folder in ("", "DIR"):
                name = f"docs/{base}"
            # A page a module fills in the docs folder it is given (``docs / "background/architecture.md"``).
            if not (ROOT / name).exists() and not (ROOT / "docs" / name).exists():
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert missing == []


def test_the_check_sees_a_missing_page():
    assert NAMED.findall("see DESIGN.md's contracts, docs/scenario.md, ``rules/CATALOGUE.md``") \
        == ["DESIGN.md", "docs/scenario.md", "rules/CATALOGUE.md"]
    assert not (ROOT / "DESIGN.md").exists()
