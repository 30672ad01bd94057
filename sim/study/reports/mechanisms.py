"""The rule counts of a study, and whether a comparison measures how often two mechanisms
act rather than how well.

``rule_counts`` re-runs each cell's first replications with their stored seeds (the very
battles the study ran) and counts, per battle, the log records that name each rule ID.

A comparison is *variant − baseline* at one factor point (``comparisons``). A cell's
**deciding rule** in it is the rule that acts most often in that cell's battles among the
rules that never act in its rival's variant (in none of its counted cells): the mechanism
the variant swapped in (under ``zoc``: ``SF.ZOC``; under ``snap_fire``: ``SF.HALT``, whose
every halt has its ``SF.ROLL``). When
both cells have one and one acts less than ``MECHANISM_RATIO`` times as often as the other,
the comparison is flagged (``mechanism_warning``) with the two rates and the rarer one's
interval: its difference compares a rule that barely acts with one that acts often, and
cannot say how the two would compare acting equally often. A cell whose rules all act in
its rival too (a knob that changes how often a rule acts, a plan) has no deciding rule and
is not flagged.
"""
from __future__ import annotations

import math
from collections import Counter

from sim.study.analysis.stats import t_interval
from sim.study.run.runner import StudyRun

RULE_COUNT_REPS = 100  # replications per cell re-run for the rule counts
RULE_COUNT_CELLS = 24  # at most this many cells get rule counts (the first ones)
#: A deciding rule acting less than this share as often as its rival's is flagged: under a
#: quarter, even a mechanism four times as effective per act would not make up for it, so
#: the difference cannot be read as a comparison of the mechanisms' effect per act.
MECHANISM_RATIO = 0.25


class RuleCounts(Counter):
    """Records per battle by rule ID in one cell (a Counter of means), with each battle's
    own counts (``per_battle``: one Counter a battle re-run) for the rates' intervals."""

    def __init__(self, per_battle: list[Counter]) -> None:
        total: Counter = Counter()
        for battle in per_battle:
            total.update(battle)
        super().__init__({k: v / max(1, len(per_battle)) for k, v in total.items()})
        self.per_battle = per_battle

    def interval(self, rule: str) -> tuple[float, float] | None:
        """The 95 % t interval of ``rule``'s records per battle; None under two battles."""
        e = t_interval([b.get(rule, 0) for b in self.per_battle])
        return (max(0.0, e.ci_low), e.ci_high) if math.isfinite(e.ci_low) else None


def rule_counts(run: StudyRun, reps: int = RULE_COUNT_REPS) -> tuple[list[str], dict[str, Counter]]:
    """Records per battle by rule ID in each cell (the first ``RULE_COUNT_CELLS``), from
    re-running its first ``reps`` replications with their stored seeds (``RuleCounts``)."""
    from sim.replication import run_battle

    counts: dict[str, Counter] = {}
    for ci, cell in enumerate(run.study.cells[:RULE_COUNT_CELLS]):
        with run.reader() as rows:
            seeds = [s.seed for s in rows.records(ci, 0, min(reps, run.replications))]
        counts[cell.label] = RuleCounts([
            Counter(r["rule"] for r in run_battle(cell.scenario, seed).log.records if r.get("rule"))
            for seed in seeds])
    rules = sorted({rid for c in counts.values() for rid in c})
    return rules, counts


def comparisons(run: StudyRun) -> list[tuple[str, str, str]]:
    """Each paired difference as (its name in the summary, the variant's cell label, the
    baseline's cell label at the same factor point), in the summary's order."""
    cells = run.study.cells
    base_at = {c.point: c for c in cells if c.variant == run.study.baseline}
    return [(f"{c.label} - {base_at[c.point].label}", c.label, base_at[c.point].label)
            for c in cells if c.variant != run.study.baseline and c.point in base_at]


def deciding_rule(mine: Counter, rival: set[str]) -> tuple[str, float] | None:
    """The rule acting most often in ``mine`` of those not in ``rival`` (the rules that act
    anywhere in the rival's variant; ties: the first ID in sorted order), with its records
    per battle; None if there is none."""
    own = sorted((-rate, rid) for rid, rate in mine.items() if rate > 0 and rid not in rival)
    return (own[0][1], -own[0][0]) if own else None


def _acting(label: str, counts: dict[str, Counter], variant_of: dict[str, str]) -> set[str]:
    """The rules acting in any counted cell of ``label``'s variant (its own cell alone
    when ``variant_of`` does not name it)."""
    group = variant_of.get(label, label)
    return {rid for c, per in counts.items() if variant_of.get(c, c) == group
            for rid, rate in per.items() if rate > 0}


def rate_text(x: float) -> str:
    """Records per battle as a count is read: 11.4, 1.65, 0.05."""
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def mechanism_warning(variant: str, baseline: str, counts: dict[str, Counter],
                      variant_of: dict[str, str] | None = None, battles: int | None = None) -> str | None:
    """The words flagging a comparison of two cells whose deciding rules act at very
    different rates (one less than ``MECHANISM_RATIO`` times the other's); None when it is
    not flagged or a cell has no rule counts. ``variant_of`` (cell label -> variant) makes
    a rule the rival's when it acts in any cell of the rival's variant, so a rare rule
    missing from one cell by chance is not taken for a mechanism. ``battles``: how many
    battles a cell's counts are the mean of, said in the words (they are a sample)."""
    if variant not in counts or baseline not in counts:
        return None
    of = variant_of or {}
    ours = deciding_rule(counts[variant], _acting(baseline, counts, of))
    theirs = deciding_rule(counts[baseline], _acting(variant, counts, of))
    if ours is None or theirs is None:
        return None
    (low, (lrule, lrate)), (high, (hrule, hrate)) = sorted(
        [(variant, ours), (baseline, theirs)], key=lambda t: t[1][1])
    if lrate >= MECHANISM_RATIO * hrate:
        return None
    rare = counts[low]
    spread = rare.interval(lrule) if isinstance(rare, RuleCounts) else None
    n = len(rare.per_battle) if isinstance(rare, RuleCounts) else battles
    within = f"; 95% interval {rate_text(spread[0])} to {rate_text(spread[1])}" if spread else ""
    sample = f" ({n} battles re-run{within})" if n else ""
    return (f"Under {low} its deciding rule {lrule} acts {rate_text(lrate)} times a battle{sample} "
            f"against {rate_text(hrate)} for {high}'s {hrule}, less than {MECHANISM_RATIO:.0%} as often: "
            f"the difference compares a rule that barely acts with one that acts often, and cannot "
            f"say how the two would compare acting equally often.")
