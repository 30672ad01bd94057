"""Every lesson's exercises, checked by running the lesson's own code with the exercise's change.

An exercise is a markdown cell of a lesson (``notebooks/0*.ipynb``) that tells the student
what to change and what they should find; its cell metadata holds the same exercise in a
form a machine can run, under the key ``exercise``::

    {"exercise": {
        "cell": "c03",                          # the id of the code cell the student changes
        "replace": [["lane()", "lane(firer_at=(50, 56))"]],   # the change: old -> new text,
                                                # each old text found exactly once in that cell
        "run": ["c01", "c03"],                  # the code cells to run, in order (ids); the
                                                # changed one among them. Default: every code
                                                # cell from the first through "cell"
        "code": "x = ...",                      # optional: code the student adds, run last
        "value": "halt['pos'][0]",              # a Python expression over the notebook's names
        "answer": 42, "tol": 1e-9,              # the stated answer and its tolerance
        "check": "len(halts) == 1"}}            # optional: an expression that must be true
                                                # (e.g. what a picture should show)

The test runs the chosen cells, changed, in a fresh kernel from ``notebooks/`` (as a
teacher would; anything written lands in a temporary directory), and asserts that
|value − answer| ≤ tol and that ``check`` is true. The lessons' seeds are fixed, so a
simulated answer is deterministic: its tolerance says how far another run of the dice
could honestly stray, and the test checks that the lesson's own seeds land inside it.
The stated answer must appear in the exercise's text (formatted with ``:g``), so the text
and the check cannot drift apart.

The module also checks what every lesson shares: a link to the glossary
(``notebooks/glossary.md``, the docs site's ``tutorials/glossary``) at the top, every
``glossary.md#anchor`` naming one of its headings, and a replay embedded as a fragment
(``replay_fragment``), never as a whole page.

A glossary link names its entry as JupyterLab names a Markdown heading: the heading's text
with each space a hyphen, case and punctuation kept (``glossary.md#Common-random-numbers``;
JupyterLab 4's ``createHeaderId``, which its Markdown preview scrolls to when a notebook's
link opens the file). The docs site resolves the same name to the heading's own anchor
(``docs/conf.py``, ``_jupyterlab_anchors``). The glossary's headings are plain ASCII: a
browser sends a fragment's other characters percent-encoded, and JupyterLab looks the
encoded text up as it is.
"""
from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("0*.ipynb"))
GLOSSARY = NOTEBOOKS[0].parent / "glossary.md"
LIMIT = 600  # seconds: a cell that runs this long has hung (not a speed target)
KEYS = {"cell", "replace", "run", "code", "value", "answer", "tol", "check"}
MARK = "@@exercise@@"


def _exercises() -> list[tuple[Path, int, dict]]:
    found = []
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "markdown" and "exercise" in cell.metadata:
                found.append((path, i, cell.metadata["exercise"]))
    return found


EXERCISES = _exercises()
IDS = [f"{p.stem[:2]}-{nbformat.read(p, as_version=4).cells[i].get('id')}" for p, i, _ in EXERCISES]


def cells_run(order: list[str], spec: dict) -> list[str]:
    """The ids of the code cells an exercise runs, in order (``order``: the lesson's code cells)."""
    run = spec.get("run") or order[:order.index(spec["cell"]) + 1]
    assert spec["cell"] in run, "the changed cell is not run"
    return run


def changed(source: str, spec: dict) -> str:
    """The changed cell's source with the exercise's change made."""
    for old, new in spec["replace"]:
        assert source.count(old) == 1, f"{old!r} occurs {source.count(old)} times in cell {spec['cell']}"
        source = source.replace(old, new)
    return source


def probe(spec: dict) -> str:
    """The code that prints the exercise's value and check, as JSON after ``MARK``."""
    return (f"import json as _json\nprint({MARK!r} + _json.dumps("
            f"{{'value': float({spec['value']}), 'check': bool({spec.get('check', 'True')})}}))")


def check_answer(printed: str, spec: dict, where: str) -> None:
    """Assert that what ``probe`` printed is the stated answer, within its tolerance, and the check holds."""
    assert MARK in printed, f"{where}: the answer was not printed: {printed!r}"
    got = json.loads(printed.split(MARK, 1)[1].splitlines()[0])
    print(f"{where}: measured {got['value']:g}, stated {spec['answer']:g} ± {spec['tol']:g}", file=sys.stderr)
    assert math.isfinite(got["value"]), (where, got)
    assert abs(got["value"] - spec["answer"]) <= spec["tol"], (where, got)
    assert got["check"], f"{where}: the check {spec.get('check')!r} is false"


def _program(nb, spec: dict) -> list[str]:
    """The sources to run: the chosen code cells, with the exercise's change made."""
    code = {c.get("id"): c for c in nb.cells if c.cell_type == "code"}
    order = [c.get("id") for c in nb.cells if c.cell_type == "code"]
    sources = [changed(code[cid].source, spec) if cid == spec["cell"] else code[cid].source
               for cid in cells_run(order, spec)]
    if spec.get("code"):
        sources.append(spec["code"])
    return [*sources, probe(spec)]


def jupyterlab_id(heading: str) -> str:
    """The id JupyterLab gives a Markdown heading: its text (code spans as their text), each
    space a hyphen."""
    return heading.strip().replace("`", "").replace(" ", "-")


def _headings() -> list[str]:
    return re.findall(r"^#+ (.+)$", GLOSSARY.read_text(encoding="utf-8"), re.M)


def _links(text: str) -> list[str]:
    # the anchor of each glossary link; a destination may hold balanced parentheses
    return re.findall(r"\]\(glossary\.md#((?:[^()\s]|\([^()\s]*\))+)\)", text)


def test_jupyterlab_ids_are_the_headings_text_with_hyphens():
    assert jupyterlab_id("Common random numbers") == "Common-random-numbers"
    assert jupyterlab_id("`unit` (and `by`) in damage records") == "unit-(and-by)-in-damage-records"
    assert _links("[a](glossary.md#Reserve-(Sniper-Reserve)) and [b](glossary.md#KN).") == \
        ["Reserve-(Sniper-Reserve)", "KN"]


def test_the_glossary_headings_are_plain_and_its_own_links_land():
    ids = [jupyterlab_id(h) for h in _headings()]
    assert len(set(ids)) == len(ids) and all(i.isascii() and not re.search(r'["<>`]', i) for i in ids)
    text = GLOSSARY.read_text(encoding="utf-8")
    assert set(_links(text)) <= set(ids) and "](#" not in text   # in-page links by the file's name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_lesson_links_the_glossary_and_embeds_a_replay_fragment(path):
    nb = nbformat.read(path, as_version=4)
    assert "](glossary.md)" in nb.cells[0].source, "no glossary link at the top"
    anchors = {jupyterlab_id(h) for h in _headings()}
    linked = {a for c in nb.cells if c.cell_type == "markdown" for a in _links(c.source)}
    assert linked, "no glossary link in the lesson's text"
    assert linked <= anchors, f"no such glossary entry: {sorted(linked - anchors)}"
    # every "glossary.md#" is a link read whole (none the pattern above misses)
    markdown = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert sum(t.count("glossary.md#") for t in markdown) == sum(len(_links(t)) for t in markdown)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "replay_html(" not in code   # a whole page, whose styles would restyle the notebook


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_a_lesson_speaks_to_its_students_not_of_its_tests(path):
    # the tests check the lesson; the student reads what to change and what to find
    nb = nbformat.read(path, as_version=4)
    told = [c.get("id") for c in nb.cells
            if c.cell_type == "markdown" and re.search(r"\btests?/|test_\w+\.py", c.source)]
    assert told == []


def test_every_lesson_has_two_or_three_exercises():
    per = {p.stem: 0 for p in NOTEBOOKS}
    for path, _, _ in EXERCISES:
        per[path.stem] += 1
    assert len(per) == 9 and all(2 <= n <= 3 for n in per.values()), per


@pytest.mark.parametrize("path,index,spec", EXERCISES, ids=IDS)
def test_exercise_text_states_the_checked_answer(path, index, spec):
    assert set(spec) <= KEYS and {"cell", "replace", "value", "answer", "tol"} <= set(spec)
    text = nbformat.read(path, as_version=4).cells[index].source
    assert f"{spec['answer']:g}" in text, f"the text does not state the answer {spec['answer']:g}"
    assert "**Exercise" in text


@pytest.mark.parametrize("path,index,spec", EXERCISES, ids=IDS)
def test_exercise_answer_holds(path, index, spec, tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    nb = nbformat.read(path, as_version=4)
    program = nbformat.v4.new_notebook(metadata=nb.metadata)
    program.cells = [nbformat.v4.new_code_cell(s) for s in _program(nb, spec)]
    nbclient.NotebookClient(program, timeout=LIMIT, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    printed = "".join(o.get("text", "") for o in program.cells[-1].outputs if o.output_type == "stream")
    check_answer(printed, spec, f"{path.stem} exercise (cell {index})")
