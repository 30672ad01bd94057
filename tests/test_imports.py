"""The architecture holds: no import circle anywhere in ``sim`` (``TYPE_CHECKING`` imports
included), and the import contracts of ``pyproject.toml`` (``lint-imports``): the kernel
knows no toolkit and no rule system, the toolkit and the systems import only the kernel,
the toolkit and the public API, and each built-in system stands alone. Each check is also
shown to fail on a copy of the package with one wrong import added."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

CYCLES = """
import grimp, networkx as nx
g = grimp.build_graph("sim", exclude_type_checking_imports=False, cache_dir=None)
d = nx.DiGraph((m, t) for m in g.modules for t in g.find_modules_directly_imported_by(m))
print(sorted(sorted(c) for c in nx.strongly_connected_components(d) if len(c) > 1))
"""


def _cycles(root: Path) -> str:
    out = subprocess.run([sys.executable, "-c", CYCLES], cwd=root, env={"PYTHONPATH": str(root)},
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def _contracts(root: Path) -> subprocess.CompletedProcess[str]:
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(lint), "--no-cache"], cwd=root, env={"PYTHONPATH": str(root)},
                          capture_output=True, text=True)


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """A copy of the package and its contracts, to break."""
    root = tmp_path_factory.mktemp("arch")
    shutil.copytree(ROOT / "sim", root / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def test_no_import_circle_type_checking_imports_included():
    assert _cycles(ROOT) == "[]"


def test_the_import_contracts_hold():
    out = _contracts(ROOT)
    assert out.returncode == 0 and "4 kept, 0 broken" in out.stdout, out.stdout + out.stderr


def test_a_type_checking_import_that_closes_a_circle_is_found(copy):
    clock = copy / "sim" / "engine" / "clock.py"
    text = clock.read_text()
    clock.write_text(text + "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                            "    from sim.engine.battle import Battle\n")
    try:
        assert "sim.engine.battle" in _cycles(copy) and "sim.engine.clock" in _cycles(copy)
    finally:
        clock.write_text(text)


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("engine/clock.py", "import sim.toolkit.targets", "The kernel knows no toolkit"),
    ("toolkit/hunters.py", "import sim.systems.h17", "The toolkit knows no rule system"),
    ("systems/too/tables.py", "import sim.study", "import only the kernel, the toolkit"),
    ("systems/fow/events.py", "import sim.systems.snapfire.events", "stands alone"),
])
def test_a_wrong_import_breaks_its_contract(copy, module, line, contract):
    path = copy / "sim" / module
    text = path.read_text()
    path.write_text(text + f"\n{line}  # noqa\n")
    try:
        out = _contracts(copy)
    finally:
        path.write_text(text)
    assert out.returncode == 1, out.stdout
    # the report's "Broken contracts" part names the contract and the import
    assert "Broken contracts" in out.stdout, out.stdout
    broken = " ".join(out.stdout.split("Broken contracts", 1)[1].split())
    assert contract in broken and line.split()[-1].rsplit(".", 1)[0] in broken, out.stdout
