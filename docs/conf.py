"""The Sphinx configuration of sim's documentation site (``make docs``).

Markdown pages are read by myst-parser; the lessons (``tutorials/*.ipynb``, links to
``notebooks/``) are executed by myst-nb during the build, from their own folder, so a
lesson that breaks breaks the build. The API pages are autodoc's. Nothing is fetched from
the network: intersphinx is off and the notebook widgets' JavaScript (a CDN) is not loaded.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the checkout's sim, also when it is not installed

from sim import __version__  # noqa: E402

project = "sim"
author = "sim contributors"
copyright = "sim contributors"   # noqa: A001 - Sphinx's name
release = version = __version__

extensions = ["myst_nb", "sphinx.ext.autodoc"]
exclude_patterns = ["_build", "jupyter_execute", "**/.ipynb_checkpoints"]
root_doc = "index"
nitpicky = True

smartquotes_action = "qe"   # quotes and ellipses, not dashes: --plugin stays --plugin
html_theme = "furo"
html_title = f"sim {__version__}"
html_static_path: list[str] = []
html_show_sourcelink = False

# -- Markdown ------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 4          # `page.md#a-heading` links resolve (and `page.md#A-heading`,
                                  # JupyterLab's form: _jupyterlab_anchors below)

# -- The lessons, executed in the build ------------------------------------------------
nb_execution_mode = "force"       # committed without outputs: always run them
nb_execution_in_temp = False      # from docs/tutorials/, so a lesson finds ../scenarios
nb_execution_timeout = 120        # seconds a cell (a hang, not a speed target)
nb_execution_raise_on_error = True
nb_ipywidgets_js: dict[str, dict[str, str]] = {}   # no CDN script: a widget shows its text form
# ... and so the page takes that text form (text/html, else text/plain) instead of the widget's
# view, which without the script is an empty <script> tag
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_merge_streams = True

# -- The API ---------------------------------------------------------------------------
# No napoleon: the docstrings are prose (no Google sections), and napoleon would read a
# property's "The referee: ..." as a type named "The referee".
autodoc_member_order = "bysource"
# Names a signature gives as text only (imported for type checking, or a module's alias that
# ``from __future__ import annotations`` leaves unevaluated), and where each is documented
# ("Types the signatures name" in reference/api.md): resolved by ``_ours`` below.
OURS = {
    "Study": "sim.study.plan.study_file.Study", "StudyRun": "sim.study.run.study_run.StudyRun",
    "StudyAnalysis": "sim.study.analysis.study_analysis.StudyAnalysis",
    "UnitSpec": "sim.scenario.schema.UnitSpec", "Point": "sim.space.geometry.Point",
    "Course": "sim.agents.unit.Course", "MoveEnd": "sim.agents.movement.MoveEnd",
    "Edges": "sim.space.path_trees.Edges", "Area": "sim.space.features.Area",
    "GameStateT": "sim.engine.context.GameStateT",
}
# Third-party and standard-library types: intersphinx is off (the build fetches nothing),
# so their names cannot link anywhere. Everything of sim's own resolves.
nitpick_ignore_regex = [
    ("py:.*", r"(collections\.abc|fractions|os|enum|typing|types)\..*"),   # the standard library
    ("py:.*", r"(simpy|pydantic|annotated_types|numpy|networkx|nx|matplotlib|shapely|pandas)(\..*)?"),
    ("py:.*", r"(gymnasium|spaces|pettingzoo)(\..*)?"),   # sim.gym's libraries (``spaces``: gymnasium's)
    ("py:.*", r"(traitlets|anywidget|t)\..*"),   # the widgets' traits (``t``: traitlets' typing)
    ("py:class", r"BaseModel"),          # pydantic's, as a signature spells it
    # the orders' models are documented as scenario keys (scenario.md), not as classes
    ("py:class", r"sim\.scenario\.orders\.\w+"),
    # the arguments of a constrained type (pydantic's Field(ge=0), AfterValidator(func=...))
    # as Annotated[...] shows them: a value, not a type
    ("py:class", r"\w+=.*"),
    # pydantic's metadata of a nested constrained type (a feature's points), shown the same way
    ("py:class", r"FieldInfo|NoneType|AllowInfNan|_PydanticGeneralMetadata"),
]
autodoc_typehints = "signature"
autodoc_default_options = {"members": True}


def _ours(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """A reference to one of ``OURS`` by its short name, resolved to where it is documented."""
    target = OURS.get(node.get("reftarget", ""))
    if node.get("refdomain") != "py" or target is None:
        return None
    return env.domains["py"].resolve_xref(env, node["refdoc"], app.builder, node["reftype"], target, node, contnode)


def _parts_with_pages(app: Any, docname: str, source: list[str]) -> None:
    """Drop a toctree's glob line (``*``, ``FOLDER/*``) while it matches no page that the
    toctree does not list already: a part of the site whose pages are not written yet is
    left out (Sphinx would warn of an empty glob)."""
    here = Path(app.srcdir) / Path(docname).parent

    def toctree(block: re.Match[str]) -> str:
        listed = set(re.findall(r"^([\w/-]+)$", block.group(0), flags=re.M)) | {Path(docname).name}

        def kept(glob: re.Match[str]) -> str:
            folder = glob.group(1) or ""
            pages = {str(Path(folder) / p.stem) for p in (here / folder).glob("*") if p.suffix in (".md", ".ipynb")}
            return glob.group(0) if pages - listed else ""

        return re.sub(r"^(?:([\w-]+)/)?\*\n", kept, block.group(0), flags=re.M)

    source[0] = re.sub(r"^```\{toctree\}\n.*?^```", toctree, source[0], flags=re.M | re.S)


def _factory_defaults(app: Any, what: str, name: str, obj: Any, options: Any, signature: str | None,
                      annotation: str | None) -> tuple[str | None, str | None]:
    """A dataclass field's default made by a factory, shown as ``...``: Python writes it
    ``<factory>``, which Sphinx cannot parse (it would then split the signature at every comma)."""
    return (re.sub(r"\s*=\s*<factory>", " = ...", signature) if signature else signature), annotation


def _jupyterlab_anchors(app: Any, doctree: Any) -> None:
    """Let a link name a heading as JupyterLab does, too. JupyterLab gives a heading of a
    Markdown file its text with each space a hyphen for id (``Common-random-numbers``),
    where myst-parser's slug is lower case without punctuation (``common-random-numbers``);
    the lessons link the glossary's entries JupyterLab's way, so that a link opened in
    JupyterLab lands on its entry, and here each heading answers to that name as well (it
    resolves to the heading's own anchor on the page)."""
    slugs = app.env.metadata[app.env.docname].get("myst_slugs")
    for line, section, text in list((slugs or {}).values()):
        slugs.setdefault(text.replace(" ", "-"), (line, section, text))


def setup(app: Any) -> None:
    """Sphinx's hooks: resolve our short names, leave out parts with no page yet, name
    headings JupyterLab's way too."""
    app.connect("missing-reference", _ours)
    app.connect("doctree-read", _jupyterlab_anchors)
    app.connect("autodoc-process-signature", _factory_defaults)
    app.connect("source-read", _parts_with_pages)
