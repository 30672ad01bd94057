"""The documentation site, checked as a reader would: three pages (the index, a lesson, the
API page of ``sim``, the kernel's) opened from the file system in headless Chromium with the
network off render, their internal links lead to a page and an anchor of the build, and
no request leaves the page.

The site is the one ``make docs`` built (``docs/_build/html``) when it is newer than every
page, lesson, module and the configuration; otherwise it is built once for this module
into a temporary folder (the same command, warnings as errors; about 70 s, most of it the
lessons running).
"""
from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import sim
import sim.experimental
import sim.plugin
import sim.toolkit
import sim.viz
from browser import Browser, chromium
from conftest import ROOT

DOCS = ROOT / "docs"
BUILT = DOCS / "_build" / "html"
LIMIT = 1200  # seconds: a build that takes this long has hung
# The pages a reader opens first, and a heading each must show.
PAGES = {"index.html": "sim", "tutorials/01_snap_fire.html": "1 · Snap fire: the exact halt",
         "reference/api/sim.html": "sim: the kernel"}
TOOLKIT = [f"sim.toolkit.{m.name}" for m in pkgutil.iter_modules(sim.toolkit.__path__)]
# A resource the page itself loads (not a link a reader may follow).
RESOURCE = re.compile(r"<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*?"
                      r"\b(?:src|href|data)=\"(?P<url>[^\"]+)\"", re.I)

def _sources() -> list[Path]:
    found = [DOCS / "conf.py", *DOCS.glob("**/*.md"), *(ROOT / "notebooks").glob("*.ipynb"),
             *(ROOT / "sim").glob("**/*.py")]
    return [p for p in found if "_build" not in p.parts]


def _fresh(html: Path) -> bool:
    # the environment is saved by every build that read a page (an incremental build
    # rewrites only the pages that changed)
    saved = html / ".doctrees" / "environment.pickle"
    return (html / "index.html").is_file() and saved.is_file() and \
        saved.stat().st_mtime > max(p.stat().st_mtime for p in _sources())


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The built site: make docs's when it is up to date, else one built now."""
    if _fresh(BUILT):
        return BUILT
    out = tmp_path_factory.mktemp("site") / "html"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
                           str(DOCS), str(out)], cwd=ROOT, capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 0, f"the site did not build:\n{done.stderr[-4000:]}"
    return out


@pytest.fixture(scope="module")
def browser():
    if chromium() is None:
        pytest.skip("chromium is not installed (make chromium)")
    with Browser() as b:
        yield b


@functools.cache
def _ids(page: Path) -> frozenset[str]:
    return frozenset(re.findall(r"\bid=\"([^\"]+)\"", page.read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", PAGES)
def test_page_renders_offline_and_asks_for_nothing_outside(site, browser, name):
    page = site / name
    browser.open(page)
    assert browser.evaluate("document.querySelector('article h1').textContent.replace('¶', '').trim()") \
        == PAGES[name]
    # every stylesheet applied and every picture decoded, from the build's own files
    assert browser.evaluate("[...document.styleSheets].length") >= 2
    assert browser.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    assert browser.outside_requests() == []
    assert [u for u in browser.requests if u.startswith("file:")] != []
    html = page.read_text(encoding="utf-8")
    outside = [m["url"] for m in RESOURCE.finditer(html) if re.match(r"(?i)(https?:)?//", m["url"])]
    assert outside == [], f"{name} loads {outside}"


@pytest.mark.parametrize("name", PAGES)
def test_every_internal_link_leads_to_a_page_and_its_anchor(site, browser, name):
    browser.open(site / name)
    links = browser.evaluate("[...document.querySelectorAll('a[href]')].map(a => a.href)")
    local = [u for u in links if u.startswith("file:")]
    assert len(local) > 5
    broken = []
    for url in local:
        parts = urlsplit(url)
        target = Path(unquote(parts.path))
        if not target.is_file():
            broken.append(url)
        elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _ids(target):
            broken.append(url)
    assert broken == []
    assert all(Path(unquote(urlsplit(u).path)).resolve().is_relative_to(site.resolve()) for u in local)


def test_the_lesson_shows_its_pictures_and_its_outputs(site, browser):
    browser.open(site / "tutorials" / "01_snap_fire.html")
    pictures = browser.evaluate("[...document.images].filter(i => i.naturalWidth > 100).length")
    assert pictures >= 2
    # an executed cell's printed output (the lesson's own check of the exact halt)
    assert "halt at (44.0, 50.0) at t = 0.44" in browser.evaluate("document.body.innerText")


def test_a_live_widget_shows_its_text_form_on_the_site(site, browser):
    """Without the widgets' script a widget's view is an empty tag: the site shows the text
    form (what the widget holds) instead, and never the empty view."""
    for page in sorted((site / "tutorials").glob("*.html")):
        assert "application/vnd.jupyter.widget-view+json" not in page.read_text(encoding="utf-8"), page.name
    browser.open(site / "tutorials" / "01_snap_fire.html")
    board = "Board(firers=[[50.0, 58.0]], radius=10): halt at (44.00, 50.00)"
    assert board in browser.evaluate("document.body.innerText")
    browser.open(site / "tutorials" / "09_play_and_draw.html")
    text = browser.evaluate("document.body.innerText")
    assert "PlayBoard(kill_zone_play, blue, seed=4): turn 1, blue to give orders" in text
    assert "Editor('kill_zone_play' on table ground): valid scenario" in text


def test_the_api_pages_document_base_game_and_every_public_name(site, browser):
    plugin = site / "reference" / "api" / "plugin.html"
    browser.open(plugin)
    signature = browser.evaluate("document.getElementById('sim.plugin.BaseGame').textContent")
    assert signature.split("(")[0].split() == ["class", "sim.plugin.BaseGame"]
    page = site / "reference" / "api" / "sim.html"
    # every class and function of the plug-in namespace, there or (the same object) on sim's page
    declared = [n for n in sim.plugin.__all__
                if inspect.isclass(getattr(sim.plugin, n)) or inspect.isfunction(getattr(sim.plugin, n))]
    assert [n for n in declared if f"sim.plugin.{n}" not in _ids(plugin) and f"sim.{n}" not in _ids(page)] == []
    ids = _ids(page)
    modules = {n for n in sim.__all__ if f"sim.{n}" not in ids}
    assert modules == {n for n in sim.__all__ if type(getattr(sim, n)).__name__ == "module"}
    every = frozenset().union(*(_ids(p) for p in (site / "reference" / "api").glob("*.html")))
    assert [n for n in modules if f"module-{getattr(sim, n).__name__}" not in every] == []
    assert [n for n in sim.viz.__all__ if f"sim.viz.{n}" not in every] == []
    assert [n for n in sim.experimental.__all__ if f"sim.experimental.{n}" not in every
            and n not in sim.plugin.__all__] == []
    toolkit = [f"{m}.{n}" for m in TOOLKIT for n in importlib.import_module(m).__all__]
    assert [name for name in toolkit if name not in every] == []


def test_no_page_of_the_site_loads_anything_from_outside(site):
    # every page, not only the three opened: a script, style, font or picture from a CDN
    # (MathJax for a formula, a widget manager, a web font) would not load offline
    outside = {f"{page.relative_to(site)}: {m['url']}" for page in site.rglob("*.html")
               for m in RESOURCE.finditer(page.read_text(encoding="utf-8"))
               if re.match(r"(?i)(https?:)?//", m["url"])}
    styles = {f"{css.relative_to(site)}" for css in site.rglob("*.css")
              if re.search(r"url\(\s*['\"]?(https?:)?//", css.read_text(encoding="utf-8"))}
    assert (sorted(outside), sorted(styles)) == ([], [])


def test_make_test_builds_the_site_with_warnings_as_errors():
    rules = {line.split(":", 1)[0]: line.split(":", 1)[1].split() for line in
             (ROOT / "Makefile").read_text().splitlines() if re.match(r"^[a-z]+:", line)}
    assert "docs" in rules["test"]
    recipe = (ROOT / "Makefile").read_text().split("\ndocs:", 1)[1].split("\n\n", 1)[0]
    assert "sphinx-build -W --keep-going -n -b html docs docs/_build/html" in recipe


def test_every_lessons_glossary_links_land_on_an_entry(site):
    # the lessons name an entry as JupyterLab does (Common-random-numbers); the site's
    # link goes to the heading's own anchor (docs/conf.py: _jupyterlab_anchors)
    ids = _ids(site / "tutorials" / "glossary.html")
    lessons = sorted((site / "tutorials").glob("0*.html"))
    link = re.compile(r'href="glossary\.html#([^"]+)"')
    links = {page.name: [unquote(a) for a in link.findall(page.read_text(encoding="utf-8"))] for page in lessons}
    assert len(lessons) == 9 and all(links.values()), links
    assert [(page, a) for page, anchors in links.items() for a in anchors if a not in ids] == []
    glossary = (site / "tutorials" / "glossary.html").read_text(encoding="utf-8")
    kn = re.search(r'<section id="kn">.*?</section>', glossary, re.S)
    assert kn and "Kim and Nelson" in kn.group(0)
