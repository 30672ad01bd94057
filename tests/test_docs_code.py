"""Every code block of the documentation runs: no example on the site has rotted.

The rule for whoever writes a page under docs/ (Markdown): every fenced block names its
language, and the language says what happens to it.

- ``python``: run. A page's python blocks run in order, in one namespace (a later block
  may use what an earlier one defined), in a fresh interpreter, from a temporary copy of
  the checkout's scenarios and docs (so ``scenarios/...`` paths work, and nothing is
  written into the checkout), with TMPDIR in a temporary folder. A block that raises
  fails the test, naming the page and the line.
- ``sh``, ``bash``, ``console``, ``shell``: every ``sim ...`` command in it (also
  ``.venv/bin/sim``, after a ``$`` prompt, in a ``&&`` or ``|`` chain) is parsed by sim's
  own parser, so an option renamed or dropped fails here; the cheap ones (``run``,
  ``validate``, ``rules``, ``schema``, ``--version``, ``--help``, naming only files that
  exist) also run, from a temporary copy of the scenarios and docs, and must exit 0.
- anything else (``text``, ``yaml``, ``toml``, ``json``, a MyST directive ``{...}``) is
  shown, not run: an illustration, an output or a sketch is marked ``text``.

A fence without a language is refused (``test_every_block_names_its_language``), so no
block escapes the rule. The lessons (notebooks) are not here: the site's build executes
them (docs/conf.py), and tests/test_notebooks.py runs them too.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from sim.cli.parser import build_parser
from sim.errors import InputError

DOCS = ROOT / "docs"
BUILT = ("_build", "jupyter_execute")  # the build's own output, not pages
PAGES = sorted(p for p in DOCS.rglob("*.md") if not set(p.relative_to(DOCS).parts) & set(BUILT))
SHELL = {"sh", "bash", "console", "shell"}
CHEAP = {"run", "validate", "rules", "schema"}
LIMIT = 600  # seconds a page's python blocks may take: a hang, not a speed target
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")


def blocks(text: str) -> list[tuple[int, str, str]]:
    """The fenced blocks of a Markdown text: (line of the opening fence, language, body)."""
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        fence, start = opened["fence"], i
        language = opened["info"].strip().split(" ")[0] if opened["info"].strip() else ""
        body = []
        i += 1
        while i < len(lines) and not re.match(rf"^ {{0,3}}{fence[0]}{{{len(fence)},}}\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        out.append((start + 1, language, "\n".join(body)))
        i += 1
    return out


def _of(language: str) -> list[tuple[Path, int, str]]:
    return [(page, line, body) for page in PAGES
            for line, lang, body in blocks(page.read_text(encoding="utf-8")) if lang == language]


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def commands(script: str) -> list[tuple[list[str], list[str]]]:
    """The ``sim`` commands of a shell block: the variables set before each (``VAR=value``)
    and its arguments after ``sim``."""
    found = []
    for line in script.replace("\\\n", " ").splitlines():
        line = re.sub(r"^\s*\$\s+", "", line)
        if line.lstrip().startswith("#"):
            continue
        for segment in re.split(r"&&|\|\||[;|]", line):
            try:
                words = shlex.split(segment, comments=True)
            except ValueError:
                continue
            env = []
            while words and re.match(r"^[A-Za-z_]\w*=", words[0]):
                env.append(words.pop(0))
            if words and (words[0] == "sim" or words[0].endswith("/bin/sim")):
                found.append((env, _without_redirections(words[1:])))
    return found


def _without_redirections(args: list[str]) -> list[str]:
    """The words of a command less its redirections (``> out.txt``, ``2>&1``)."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif re.fullmatch(r"\d?>>?|\d?<|&>", a):
            skip = True
        elif not re.fullmatch(r"\d?>>?\S+|\d>&\d|&>\S+", a):
            out.append(a)
    return out


SHELL_COMMANDS = [(page, line, env, args) for language in sorted(SHELL) for page, line, body in _of(language)
                  for env, args in commands(body)]
PYTHON_PAGES = sorted({page for page, _, _ in _of("python")})


def test_every_block_names_its_language():
    bare = [f"{_name(p)}:{line}" for p in PAGES for line, lang, _ in blocks(p.read_text(encoding="utf-8"))
            if not lang]
    assert bare == [], "a fence with no language (python runs; mark an illustration ```text)"


def test_the_blocks_are_found_as_a_reader_sees_them():
    # the extractor itself, on a page of every kind of block (so the rule cannot pass vacuously)
    text = ("intro\n\n```python\nx = 1\n```\n\n````text\n```python\nnot run\n```\n````\n\n"
            "```sh\n$ sim run scenarios/a.yaml --seed 2 > out.txt && sim rules | head\n"
            "SIM_PLUGINS=m .venv/bin/sim validate \\\n  a.yaml\n```\n")
    found = blocks(text)
    assert [(line, lang) for line, lang, _ in found] == [(3, "python"), (7, "text"), (13, "sh")]
    assert found[1][2] == "```python\nnot run\n```"
    assert commands(found[2][2]) == [([], ["run", "scenarios/a.yaml", "--seed", "2"]), ([], ["rules"]),
                                     (["SIM_PLUGINS=m"], ["validate", "a.yaml"])]


_RUN = """
import json, sys
for name, line, body in json.load(sys.stdin):
    exec(compile("\\n" * (line) + body, name, "exec"), globals())
"""


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=[_name(p) for p in PYTHON_PAGES])
def test_python_blocks_run(page, tmp_path, copy):
    code = [(_name(p), line, body) for p, line, body in _of("python") if p == page]
    env = {**os.environ, "TMPDIR": str(tmp_path), "MPLBACKEND": "Agg",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", _RUN], input=json.dumps(code), cwd=copy, env=env,
                          capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 0, f"{_name(page)}: a python block failed\n{done.stderr[-3000:]}"


def _parse(args: list[str]) -> None:
    try:
        build_parser().parse_args(args)
    except SystemExit as stop:  # --help, --version
        assert stop.code == 0


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """A folder as a checkout's root: the scenarios and the docs' pages (not the build)."""
    here = tmp_path_factory.mktemp("docs-commands")
    shutil.copytree(ROOT / "scenarios", here / "scenarios")
    shutil.copytree(DOCS, here / "docs", ignore=shutil.ignore_patterns(*BUILT))
    return here


def _cheap(env: list[str], args: list[str], here: Path) -> bool:
    words = [a for a in args if not a.startswith("-")]
    files = [a for a in words if a.endswith((".yaml", ".yml"))]
    return ((bool(words) and words[0] in CHEAP or args in (["--version"], ["--help"]))
            and not env and not {"--plugin", "--plugins"} & set(args)
            and all((here / f).is_file() for f in files))


@pytest.mark.parametrize("page,line,env,args", SHELL_COMMANDS,
                         ids=[f"{_name(p)}:{n}:sim {' '.join(a)}" for p, n, _, a in SHELL_COMMANDS])
def test_sim_commands_parse_and_the_cheap_ones_run(page, line, env, args, copy):
    try:
        _parse(args)
    except InputError as exc:
        pytest.fail(f"{_name(page)}:{line}: sim {' '.join(args)}: {exc}")
    if _cheap(env, args, copy):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        done = subprocess.run([sys.executable, "-m", "sim", *args], cwd=copy, env=env, capture_output=True,
                              text=True, timeout=LIMIT)
        assert done.returncode == 0, f"{_name(page)}:{line}: sim {' '.join(args)}\n{done.stderr[-2000:]}"
