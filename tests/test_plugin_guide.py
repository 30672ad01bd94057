"""The rule-module guide (``docs/howto/write-a-plugin.md``) builds its plug-in as a reader
does, and its commands, the type check too, work as written.

The plug-in's folder is put together from the page's own blocks, as its first section lays
it out: ``pyproject.toml`` (the toml block), ``sim_overwatch/__init__.py`` (the python
blocks before the section "Try it before installing it", in order),
``tests/test_overwatch.py`` (the first python block of the section "Test it ...") and
``scenarios/patrol.yaml`` (the yaml block). It is installed as ``pip
install -e .`` installs it: the folder on the path, beside a distribution's metadata with
the entry points its ``pyproject.toml`` declares. Then:

- the page's python blocks run in one session with every ``DeprecationWarning`` an error
  (no name an earlier version exported), and each ``text`` block that follows one is what
  it prints (``tests/test_docs_code.py`` runs them too, as they are);
- every command of its shell blocks, from the folder, exits 0 (2 where its comment says
  so) and prints every line of the ``text`` block that follows, the type check included;
- the plug-in's own tests pass under pytest.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from conftest import PY, ROOT
from test_docs_code import blocks

PAGE = ROOT / "docs" / "howto" / "write-a-plugin.md"
HEADING = re.compile(r"^## \d+\. (.*)$", re.MULTILINE)
TRY = "Try it before installing it"   # the section after the module's own blocks
LIMIT = 600  # seconds a command may take: a hang, not a speed target


def page_blocks() -> list[tuple[str, int, str, str]]:
    """(title of its section, line, language, body) of every fenced block of the page, in order."""
    text = PAGE.read_text(encoding="utf-8")
    starts = [(text[:m.start()].count("\n") + 1, m[1]) for m in HEADING.finditer(text)]
    return [(([title for start, title in starts if start < line] or [""])[-1], line, language, body)
            for line, language, body in blocks(text)]


def after_module(found: list[tuple[str, int, str, str]]) -> int:
    """The index of the first block of the section that tries the module: its own blocks come before."""
    return next(i for i, (title, *_) in enumerate(found) if title == TRY)


def shown_after(found: list[tuple[str, int, str, str]], i: int) -> list[str]:
    """The lines of the ``text`` block right after block ``i`` in its section (none: [])."""
    if i + 1 < len(found) and found[i + 1][2] == "text" and found[i + 1][0] == found[i][0]:
        return found[i + 1][3].splitlines()
    return []


def one(found: list[tuple[str, int, str, str]], language: str) -> str:
    """The body of the page's one block in ``language``."""
    (body,) = [b for _, _, lang, b in found if lang == language]
    return body


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The sim-overwatch folder, assembled from the page and installed; the environment it runs in."""
    found = page_blocks()
    folder = tmp_path_factory.mktemp("guide") / "sim-overwatch"
    for sub in ("sim_overwatch", "tests", "scenarios"):
        (folder / sub).mkdir(parents=True)
    toml = one(found, "toml")
    (folder / "pyproject.toml").write_text(toml + "\n")
    module = [body for _, _, lang, body in found[:after_module(found)] if lang == "python"]
    (folder / "sim_overwatch" / "__init__.py").write_text("\n\n\n".join(module) + "\n")
    tests = next(body for title, _, lang, body in found if lang == "python" and title.startswith("Test it"))
    (folder / "tests" / "test_overwatch.py").write_text(tests + "\n")
    (folder / "scenarios" / "patrol.yaml").write_text(one(found, "yaml") + "\n")
    project = tomllib.loads(toml)["project"]
    info = folder.parent / "site" / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in points.items()) + "\n"
        for group, points in project["entry-points"].items()))
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(PY).parent), os.environ.get("PATH", "")]),
           "PYTHONPATH": os.pathsep.join([str(folder), str(info.parent), str(ROOT)]), "MPLBACKEND": "Agg"}
    return folder, env


_RUN = """
import json, sys
for name, line, body in json.load(sys.stdin):
    print(f"\\0{line}", flush=True)
    exec(compile("\\n" * line + body, name, "exec"), globals())
"""


def test_the_python_blocks_use_no_deprecated_name_and_print_what_the_page_shows(plugin):
    folder, env = plugin
    found = page_blocks()
    code = [(str(PAGE.relative_to(ROOT)), line, body) for _, line, lang, body in found if lang == "python"]
    session = {**env, "PYTHONPATH": str(ROOT)}   # before it is installed: the page registers it
    done = subprocess.run([PY, "-W", "error::DeprecationWarning", "-c", _RUN], input=json.dumps(code),
                          cwd=folder.parent, env=session, capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 0, done.stderr[-3000:]
    printed = {int(part.split("\n", 1)[0]): part.split("\n", 1)[1].splitlines()
               for part in done.stdout.split("\0")[1:]}
    outputs = [(line, shown_after(found, i)) for i, (_, line, lang, _) in enumerate(found) if lang == "python"]
    assert [line for line, shown in outputs if shown], "the page shows what its python prints"
    for line, shown in outputs:
        if shown:
            assert printed[line] == shown, f"the python block at line {line} prints otherwise"


def test_every_command_works_as_written_and_prints_what_the_page_shows(plugin):
    """``pip install -e .`` is the fixture's; the rest run from the folder, as the page says."""
    folder, env = plugin
    found = page_blocks()
    shells = [(i, body) for i, (_, _, lang, body) in enumerate(found) if lang == "sh" and i > after_module(found)]
    assert any("mypy --strict" in body for _, body in shells), "the type check is one of the commands"
    for i, body in shells:
        printed: list[str] = []
        for command in body.splitlines():
            if not command.strip() or command.startswith("pip install"):
                continue
            done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True,
                                  timeout=LIMIT)
            expected = 2 if "exit 2" in command else 0
            assert done.returncode == expected, f"{command}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
            if expected == 2:
                assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
            printed += done.stdout.splitlines()
        missing = [line for line in shown_after(found, i) if line not in printed]
        assert missing == [], f"not printed by the commands of the block at line {found[i][1]}"
    # What the redirected commands write holds what their comments say.
    for written in ("plugins.md", "scenario.schema.json"):
        text = (folder / written).read_text()
        assert "overwatch" in text and "sentry" in text and "hit_on" in text, written


def test_the_plugins_own_tests_pass(plugin):
    folder, env = plugin
    done = subprocess.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"^7 passed", done.stdout, re.MULTILINE), done.stdout[-500:]
