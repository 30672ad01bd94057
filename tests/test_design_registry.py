"""Study designs are declared objects in the registry: a new design is one new file and one
registration, and no code outside a design's own module names a design."""
from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

from sim.errors import InputError

ROOT = Path(__file__).resolve().parents[1]

# A user's design, one file: the corners of the factors' box, each ``repeat`` times.
CORNERS = '''\
"""``corners``: every corner of the factors' box (a user's design)."""
import itertools

import numpy as np
from pydantic import Field

from sim.study.plan.placing import unit_cube
from sim.systems.designs import DesignOptions


class CornersOptions(DesignOptions):
    """``corners``' option."""

    repeat: int = Field(1, ge=1, le=3, description="how many times each corner comes")


def rows(options, factors, seed):
    corners = list(itertools.product([0.0, 1.0], repeat=len(factors)))
    return np.array(corners * options.repeat, dtype=float)


def count(options, factors):
    return 2 ** len(factors) * options.repeat


DESIGN = unit_cube("corners", "every corner of the factors' box", CornersOptions, rows, count)
'''

STUDY = """\
study: corners_study
scenario: open_ground_advance.yaml
seed: 3
replications: 2
variants: {a: {}}
factors:
  design: corners
  repeat: 2
  vary:
    rules.snapfire.radius: [5.0, 15.0]
    turns: [4, 6]
metrics: [attacker_won]
"""


@pytest.fixture
def corners(tmp_path, monkeypatch):
    """The user's design, imported from its own file and registered from Python."""
    from sim.systems.designs import Design
    from sim.systems.registry import register, unregister

    (tmp_path / "corners_design.py").write_text(CORNERS)
    monkeypatch.syspath_prepend(str(tmp_path))
    import corners_design

    register(corners_design.DESIGN)
    yield corners_design.DESIGN
    unregister(Design, "corners")
    sys.modules.pop("corners_design", None)


def test_a_new_design_is_one_file_and_one_registration_end_to_end(tmp_path, corners):
    import sim
    from sim.reference.jsonschema import study_schema

    shutil.copy(ROOT / "scenarios" / "open_ground_advance.yaml", tmp_path)
    path = tmp_path / "study.yaml"
    path.write_text(STUDY)
    study = sim.load_study(str(path))
    # four corners, each twice in the rows: four distinct points, run once each
    assert sorted(dict(c.point)["turns"] for c in study.cells) == [4, 4, 6, 6]
    assert {dict(c.point)["rules.snapfire.radius"] for c in study.cells} == {5.0, 15.0}
    run = sim.run_study(study, executor="serial")
    assert sorted(run.summary.cells) == sorted(c.label for c in study.cells)
    assert all(run.summary.cells[c.label]["attacker_won"].n == 2 for c in study.cells)
    # its option is checked as a built-in design's are, and the schema offers it
    path.write_text(STUDY.replace("repeat: 2", "repeat: 9"))
    with pytest.raises(InputError, match="less than or equal to 3") as info:
        sim.load_study(str(path))
    assert info.value.place == "line 8, key factors.repeat"
    factors = study_schema()["definitions"]["Factors"]
    assert "corners" in factors["properties"]["design"]["enum"]
    assert any(b["if"]["properties"]["design"] == {"const": "corners"}
               and "repeat" in b["then"]["properties"] for b in factors["allOf"])


def _names_in_code(path: Path) -> set[str]:
    return {n.value for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)}


def test_no_code_outside_a_design_names_a_design():
    from sim.systems.registry import REGISTRY

    names = set(REGISTRY.designs.names())
    assert {"grid", "lhs", "nolh", "saltelli", "morris"} <= names
    own = ROOT / "sim" / "study" / "plan" / "designs"
    # The same word as a scenario's key, not a design: the editor writes a table's ``grid``.
    scenario_keys = {"sim/viz/editing/document.py": {"grid"}}
    found = []
    for folder in ("study", "cli", "reference", "viz"):
        for path in sorted((ROOT / "sim" / folder).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            mine = ({path.stem} if path.parent == own else set()) | scenario_keys.get(where, set())
            found += [f"{where}: {n!r}" for n in sorted(_names_in_code(path) & names - mine)]
    assert found == []
