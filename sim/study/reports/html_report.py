"""The study report (``sim study ... --report FILE.html``): one self-contained HTML page
to share or archive.

It holds the study's question (its description, then what the comment lines that open its
file add), its design (scenario, variants, factors, cells, replications, seeds), the rule
counts (how often each rule acted per battle in each cell), the headline
(``sim.study.reports.headline``: a flag when a comparison sets a rule that barely acts
against one that acts often, then the measured difference of the primary metric), the per-cell results and the
paired differences with their intervals, the plots inline, the analysis of a designed
study when the ``analysis`` extra is installed, and the provenance: study hash, sim
version, the code of the run (``sim`` and its plug-ins, by version and fingerprint; and
the other code that made resumed rows, when allowed), seeds and the command line.
Everything is inline and the page fetches nothing.
"""
from __future__ import annotations

import datetime
import math
import os
import re
import shlex
import sys
import tempfile
from collections import Counter
from typing import cast

from sim.errors import InputError
from sim.files import read_bytes, write_text
from sim.scenario.yamlfile import MAX_BYTES
from sim.study.analysis.stats import Estimate, Summary
from sim.study.plan.study_file import package_version
from sim.study.reports.headline import headline
from sim.study.reports.mechanisms import MECHANISM_RATIO, RULE_COUNT_CELLS, RULE_COUNT_REPS, rule_counts
from sim.study.reports.summary import FULL_TABLE_CELLS, excludes_zero, full_table_hint, number_text, summary_table
from sim.study.run.provenance import describe
from sim.study.run.runner import StudyRun
from sim.systems.registry import REGISTRY
from sim.viz.html import escape, file_uri, page

CSS = """
table.results td:nth-child(n+3), table.counts td:nth-child(n+2) {
  text-align: right; font-variant-numeric: tabular-nums; }
.yes { color: #0a5; font-weight: bold; } .no { color: #888; }
.flag { border-left: 4px solid #c60; padding-left: 0.6em; font-weight: bold; }
.measured { font-size: 1.1em; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: 0.9em; }
"""


def question(path: str) -> list[str]:
    """The comment lines that open a study file (its question), without editor settings."""
    out: list[str] = []
    try:  # read as the study was: a regular file of bounded size (it may have changed since)
        lines = read_bytes(path, MAX_BYTES, "a study file").decode("utf-8-sig", "replace")
    except InputError:
        return out
    for line in lines.splitlines():
        if not line.startswith("#"):
            break
        text = line[1:].strip()
        if not text.startswith("yaml-language-server:"):
            out.append(text)
    return out


def asked(description: str, comments: list[str]) -> list[str]:
    """The study's question once, then what its file's opening comment adds: the
    description (or, without one, the comment), and the comment's other sentences; a
    sentence that only repeats the description (its words, less a leading "Question:",
    all in it) is left out."""
    said = " ".join(comments)
    if not description.strip():
        return [said] if said else []
    words = set(re.findall(r"\w+", description.lower()))
    rest = [s for s in re.split(r"(?<=[.?!])\s+", said)
            if s and not set(re.findall(r"\w+", re.sub(r"(?i)^question:", "", s).lower())) <= words]
    return [description.strip()] + ([" ".join(rest)] if rest else [])


def _fmt(x: float, signed: bool = False) -> str:
    return number_text(x, signed, missing="–")


def _interval(e: Estimate, signed: bool = False) -> str:
    if e.constant:
        return f"constant ({_fmt(e.mean, signed)} in every replication)"
    if not math.isfinite(e.ci_low):
        return "–"
    return f"[{_fmt(e.ci_low, signed)}, {_fmt(e.ci_high, signed)}]"


def _table(head: list[str], rows: list[list[str]], cls: str = "results") -> str:
    th = "".join(f"<th>{escape(h).replace('@', '<br>@')}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return (f'<div style="overflow-x:auto"><table class="{cls}"><thead><tr>{th}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def _design(run: StudyRun) -> str:
    study, spec = run.study, run.study.spec
    items = [f"<li>Scenario: <code>{escape(study.scenario_path)}</code> "
             f"(rule system <code>{escape(study.scenario.ruleset)}</code>)</li>",
             f"<li>Variants ({len(spec.variants)}; baseline <code>{escape(study.baseline)}</code>): "
             + "; ".join(f"<code>{escape(v)}</code>: " + (", ".join(f"<code>{escape(k)}={escape(x)}</code>"
                                                                   for k, x in o.items()) or "the scenario as it is")
                         for v, o in spec.variants.items()) + "</li>"]
    if spec.factors is not None:
        vary = "; ".join(f"<code>{escape(k)}</code>: {escape(v)}" for k, v in spec.factors.vary.items())
        items.append(f"<li>Factors, design <code>{escape(spec.factors.design)}</code>: {vary}</li>")
    items += [f"<li>{len(study.cells)} cells × {run.replications} replications "
              f"({'common random numbers' if run.crn else 'independent seeds (--no-crn)'})</li>",
              "<li>Metrics: " + ", ".join(f"<code>{escape(m)}</code> ({run.kinds.get(m, 'real')})"
                                          for m in run.metrics) + "</li>"]
    return "<ul>" + "".join(items) + "</ul>"


def _rule_counts(rules: list[str], counts: dict[str, Counter], run: StudyRun) -> str:
    if not rules:
        return "<p>No rule acted.</p>"
    head = ["rule", *counts]
    rows = [[f"<code>{escape(rid)}</code>", *(_fmt(counts[c].get(rid, 0.0)) for c in counts)] for rid in rules]
    shown = min(RULE_COUNT_REPS, run.replications)
    more = (f" (the first {RULE_COUNT_CELLS} of {len(run.study.cells)} cells)"
            if len(run.study.cells) > RULE_COUNT_CELLS else "")
    return (f"<p>How many log records a battle name each rule: the mean over the first {shown} "
            f"replications of each cell{more}, re-run with their stored seeds. Read these first. A "
            f"variant whose rule never acts cannot differ from the baseline. A variant's "
            f"<em>deciding rule</em> is the rule it uses most that its rival never uses; when one "
            f"side's deciding rule acts less than {MECHANISM_RATIO:.0%} as often as the other's, "
            f"the comparison below is flagged.</p>" + _table(head, rows, "counts"))


def _summary(run: StudyRun) -> str:
    """A study of too many cells for a table: the summary ``sim study`` prints."""
    return (f'<p class="note">{len(run.study.cells)} cells: too many for a table here. The '
            "summary below is what <code>sim study</code> prints; every cell is in "
            "<code>--json</code> and every replication in <code>--csv</code>.</p>"
            f"<pre>{escape(summary_table(run, full_table_hint()))}</pre>")


def _results(run: StudyRun) -> str:
    if len(run.study.cells) > FULL_TABLE_CELLS:
        return _summary(run)
    s = cast(Summary, run.summary)
    rows = []
    for cell, per in s.cells.items():
        for i, (m, e) in enumerate(per.items()):
            rows.append([escape(cell) if i == 0 else "", f"<code>{escape(m)}</code>", _fmt(e.mean),
                         escape(_interval(e)), str(e.n), escape(e.method)])
    return _table(["cell", "metric", "mean", "95% interval", "n", "method"], rows)


def _differences(run: StudyRun) -> str:
    s = cast(Summary, run.summary)
    if not s.differences:
        return "<p>Only one variant: nothing to compare.</p>"
    if len(run.study.cells) > FULL_TABLE_CELLS:
        return "<p>The summary above counts every cell's difference.</p>"
    rows = []
    for d, per in s.differences.items():
        for i, (m, e) in enumerate(per.items()):
            yes = excludes_zero(e)
            rows.append([escape(d) if i == 0 else "", f"<code>{escape(m)}</code>", _fmt(e.mean, True),
                         escape(_interval(e, True)), str(e.n), escape(e.method),
                         f'<span class="{"yes" if yes else "no"}">{"yes" if yes else "no"}</span>'])
    return (_table(["difference", "metric", "mean", "95% interval", "n", "method", "excludes 0"], rows))


def _figures(paths: list[str], caption: str) -> str:
    return "".join(f'<figure><img alt="{escape(os.path.basename(p))}" src="{file_uri(p)}">'
                   f"<figcaption>{escape(caption)}: {escape(os.path.basename(p))}</figcaption></figure>"
                   for p in paths)


def _analysis(run: StudyRun, folder: str) -> str:
    factors = run.study.spec.factors
    if factors is None or not REGISTRY.designs.get(factors.design).in_report:
        return ""   # not a designed study (a grid): the variants' comparison is the whole report
    from sim.study.analysis.responses import missing_extra

    missing = missing_extra()
    if missing:
        return ("<h2>Analysis of the design</h2><p class=\"note\">Not included: it needs "
                f"{escape(', '.join(missing))} (<code>pip install 'sim[analysis]'</code>).</p>")
    from sim.study.analysis.responses import analyse
    from sim.study.reports.farming import text, write_files

    with run.reader() as rows:
        result = analyse(run.study, rows, dict(run.kinds), run.metrics, study_hash=run.study_hash)
    pictures = [p for p in write_files(result, os.path.join(folder, "analysis")) if p.endswith(".png")]
    return ("<h2>Analysis of the design (as <code>sim analyse</code>)</h2>"
            f"<pre>{escape(text(result, 'this run'))}</pre>" + _figures(pictures, "analysis"))


def _provenance(run: StudyRun, argv: list[str] | None) -> str:
    from sim.study.plan.seeds import replication_seed

    seeds = [replication_seed(run.study.spec.seed, r, crn=run.crn) for r in range(min(3, run.replications))]
    seed_text = (f"replication i of every cell has root seed <code>replication_seed({run.study.spec.seed}, i)</code>"
                 f" (first: {', '.join(map(str, seeds))}); <code>sim run SCENARIO --seed S</code> replays one"
                 if run.crn else "each cell's replications have their own seeds (stored with each row)")
    if run.study.spec.branch is not None:
        seed_text += (" (the trunk of every branch); <code>sim.branch(SCENARIO, S, at=..., "
                      "branches={VARIANT: ...})</code> replays one branch")
    command = shlex.join(argv if argv is not None else ["sim", *sys.argv[1:]])
    items = [f"Study hash: <code>{escape(run.study_hash)}</code>",
             f"sim version: <code>{escape(package_version())}</code>",
             f"Code of this run: {escape(describe(run.made_by))}",
             f"Study seed: <code>{run.study.spec.seed}</code>; {seed_text}",
             f"Study file: <code>{escape(run.study.path)}</code>",
             f"Command line: <code>{escape(command)}</code>",
             f"Made: {datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M UTC')}"]
    if run.failures:
        items.append(f"{len(run.failures)} replications raised and are left out (the failures table)")
    if run.mixed_code is not None:
        items.append(f'<span class="flag">The results mix code (resumed with --allow-changed-code): '
                     f"{escape(run.mixed_code.changes)}</span>")
    return "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def report_html(run: StudyRun, argv: list[str] | None = None) -> str:
    """The whole report of a finished study, as one self-contained HTML page."""
    from sim.viz.study_plots import plot_study

    study = run.study
    rules, counts = rule_counts(run)
    with tempfile.TemporaryDirectory(prefix="sim-report-") as folder:
        plots = _figures(plot_study(run, folder), "plot")
        analysis = _analysis(run, folder)
    body = [f"<h1>Study <code>{escape(study.name)}</code></h1>",
            "<h2>The question</h2>" + "".join(f"<p>{escape(q)}</p>"
                                              for q in asked(study.spec.description, question(study.path))),
            "<h2>Design</h2>" + _design(run),
            "<h2>Rule counts</h2>" + _rule_counts(rules, counts, run),
            "<h2>What it measured</h2>" + "".join(f'<p class="{kind}">{escape(line)}</p>'
                                                  for kind, line in headline(run, counts)),
            "<h2>Results per cell</h2>" + _results(run),
            "<h2>Paired differences (variant − baseline, same replication)</h2>" + _differences(run),
            "<h2>Plots</h2>" + plots, analysis,
            "<h2>Provenance</h2>" + _provenance(run, argv)]
    return page(f"Study {study.name}", "\n".join(b for b in body if b), CSS)


def write_report(run: StudyRun, path: str, argv: list[str] | None = None) -> str:
    """Write the report to ``path`` (an InputError naming it if that fails); returns the path."""
    write_text(path, report_html(run, argv))
    return path
