"""The files a project is expected to have, and a README that fits on a screen: LICENSE is
the MIT text pyproject promises, CHANGELOG.md keeps a changelog, CITATION.cff is valid
CFF with pyproject's version, the pre-commit hooks are make test's checks, the README
links only to pages that exist, and no user-facing text names an issue number."""
from __future__ import annotations

import re
import tomllib

import yaml

from conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
# What readers read: the README, the changelog, the contributing guide, every docs page,
# the shipped scenarios and studies (their comments open the HTML report) and the plug-ins'.
USER_FACING = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "docs/**/*.md", "scenarios/*.yaml",
               "examples/**/*.md", "examples/**/*.yaml"]
ISSUE_NUMBER = re.compile(r"\bissues?[ _-]?#?\d+|(?<![\w&/])#\d+\b", re.IGNORECASE)
# A Markdown link or image to a file of the repository (not a web page, not an anchor).
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s#]+)(?:#[^)]*)?\)")


def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def test_license_is_the_mit_text_pyproject_promises():
    assert PYPROJECT["license"] == "MIT"
    text = " ".join(_text("LICENSE").split())
    assert text.startswith("MIT License Copyright (c) 2026 ")
    for sentence in (
            "Permission is hereby granted, free of charge, to any person obtaining a copy of this software "
            "and associated documentation files (the \"Software\"), to deal in the Software without restriction",
            "The above copyright notice and this permission notice shall be included in all copies or "
            "substantial portions of the Software.",
            "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND"):
        assert sentence in text


def test_changelog_keeps_a_changelog_with_an_unreleased_section_and_this_version():
    text = _text("CHANGELOG.md")
    assert text.startswith("# Changelog\n")
    assert "[Keep a Changelog](https://keepachangelog.com/en/1.1.0/)" in text
    versions = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.MULTILINE)
    assert versions[0] == ("Unreleased", "")
    assert (PYPROJECT["version"], "2026-12-01") in versions
    sections = set(re.findall(r"^### (\w+)$", text, re.MULTILINE))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_citation_is_valid_cff_with_pyprojects_version_and_license():
    cff = yaml.safe_load(_text("CITATION.cff"))
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title"):
        assert isinstance(cff[key], str) and cff[key]
    assert cff["authors"] and all("name" in a or "family-names" in a for a in cff["authors"])
    assert cff["version"] == PYPROJECT["version"]
    assert cff["license"] == PYPROJECT["license"]


def test_pre_commit_runs_make_tests_checks_with_the_venvs_tools():
    config = yaml.safe_load(_text(".pre-commit-config.yaml"))
    assert [r["repo"] for r in config["repos"]] == ["local"]
    hooks = config["repos"][0]["hooks"]
    assert all(h["language"] == "system" and h["pass_filenames"] is False for h in hooks)
    makefile = _text("Makefile")
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    checks = [line.strip().replace("$(VENV)", ".venv") for line in recipe if "pytest" not in line]
    assert [h["entry"] for h in hooks] == checks


def test_the_readme_fits_on_a_screen_and_links_to_pages_that_exist():
    text = _text("README.md")
    assert len(text.splitlines()) <= 160
    assert "make demo" in text and "make test" in text
    assert "docs/_build/html/index.html" in text
    targets = [t for t in LINK.findall(text) if "://" not in t]
    assert any(t.startswith("docs/") for t in targets)
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert missing == []


def test_no_user_facing_text_names_an_issue_number():
    found = []
    for pattern in USER_FACING:
        for path in sorted(ROOT.glob(pattern)):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if ISSUE_NUMBER.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []


def test_the_issue_number_check_sees_one():
    for line in ("Plans (issue 14) changed none", "before issue-17", "see #12", "Issues 3 and 4"):
        assert ISSUE_NUMBER.search(line), line
    for line in ("# Title", "## 2. Run it", "colour #ff0000", "page.md#a-heading", "seed 2026"):
        assert not ISSUE_NUMBER.search(line), line
