"""TOO — the Theatre of Operation sniper amendment (seed 002), figure by figure.

A player-turn has two phases: ``movement`` (the phasing side's figures move at once;
enemies on alert may fire at them at any point of their path) and ``action`` (each
figure takes its one action: fire, acquire, search or treat). ``game`` gives the
sequence of play and every reading; ``tables`` the tables as pure functions; ``fire``,
``spotting`` and ``watch`` the rules by concept; ``state`` the system's typed state.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from sim.engine.clock import PhaseSpec
from sim.systems.games import BaseGame, Checks, Ruleset, UnitKind
from sim.systems.kinds import VEHICLE
from sim.systems.knobs import BaseKnobs, Knobs
from sim.systems.too import events as ev
from sim.systems.too import titles  # noqa: F401 - its rule IDs and titles
from sim.systems.too.game import TooGame
from sim.systems.too.knobs import TooKnobs
from sim.systems.too.metrics import TOO_METRICS
from sim.toolkit.reactions import ReactionPolicies, check_sides
from sim.toolkit.snipers import SNIPER

#: TOO's word for a soldier: every unit is a figure (read as ``infantry`` is).
FIGURE = UnitKind("figure", "TOO's word for a soldier (read as infantry)")


class TooUnitKeys(Knobs):
    """A TOO figure's keys: ``level`` (or a morale score), ``facing`` in degrees (0 = +x,
    90 = +y; default: towards the enemy's centre), ``sniper``, ``medic``, ``prone`` and the
    ``alert`` option (TOO.ALERT) it asks for."""

    level: Literal["green", "recruit", "seasoned", "veteran", "elite"] | None = Field(None, description=(
        "the figure's experience: it sets the morale score (`rules.too.morale_by_level`) "
        "unless `morale` is given, and the spotting and counter-sniper modifiers"))
    facing: float | None = Field(None, ge=-360, le=360, allow_inf_nan=False, description=(
        "the direction it faces in degrees (0 = +x, 90 = +y; not set: towards the enemy's "
        "centre): TOO.FACING and the fire arc"))
    sniper: bool = Field(False, description=(
        "a sniper: it hides, acquires and keeps targets, and fires with the scope (TOO.*)"))
    medic: bool = Field(False, description=(
        "a medic: with `rules.too.treatment: medic` it stops bleed-out timers within "
        "`treat_range`"))
    prone: bool = Field(False, description="it starts prone (harder to see and to hit)")
    alert: Literal["A", "B"] | None = Field(None, description=(
        "the alert option it asks for (TOO.ALERT): `A` or `B`, granted by a morale check; "
        "an alert figure may opportunity-fire at movers (TOO.OPP)"))


#: Figures in a TOO battle at most. Opportunity fire looks, along every moving figure's
#: path, at every enemy on alert within range, and each at its sight line: with every
#: range at its limit, 1,000 figures fight 200 turns in minutes, 2,000 do not in 20
#: (``benchmarks/limits.py`` X5), so the limit is the measured one.
MAX_FIGURES = 1000


def check(c: Checks) -> None:
    """Load-time checks: at most 1,000 figures (`MAX_FIGURES`); reaction policies name sides of the scenario."""
    n = sum(len(force) for force in c.scenario.forces.values())
    if n > MAX_FIGURES:
        c.fail(f"{n} figures (expected at most {MAX_FIGURES} in a TOO battle)", "forces")
    check_sides(c, "too")
    _no_in_phase(c)


def _no_in_phase(c: Checks) -> None:
    """No step waits for ``when.in_phase``: a figure's move takes its whole phase."""
    sc = c.scenario
    plans: list[tuple[tuple[str | int, ...], Any]] = [(("groups", g), grp.plan) for g, grp in sc.groups.items()]
    for side, force in sc.forces.items():
        for i, spec in enumerate(force):
            if spec.plan is not None:
                plans.append((("forces", side, i), spec.plan))
            elif spec.orders.when is not None and spec.orders.when.in_phase is not None:
                c.fail(_IN_PHASE, "forces", side, i, "orders", "when", "in_phase")
    for path, plan in plans:
        raw: Any = sc.raw   # the plan as written: a list of steps, or a mapping with ``steps``
        for key in (*path, "plan"):
            try:
                raw = raw[key]
            except (KeyError, IndexError, TypeError):
                raw = None
        steps = (*path, "plan") if isinstance(raw, list) else (*path, "plan", "steps")
        for k, step in enumerate(plan.steps):
            if step.when is not None and step.when.in_phase is not None:
                c.fail(_IN_PHASE, *steps, k, "when", "in_phase")


_IN_PHASE = "is not read by ruleset 'too' (a figure's move takes its whole phase)"


BASE = BaseGame(
    name="too",
    title="Theatre of Operation snipers (TOO), figure by figure",
    unit_kinds=(FIGURE, VEHICLE, SNIPER),
    phases=(PhaseSpec("movement", moves=True), PhaseSpec("action")),
    game=TooGame,
    knobs=TooKnobs,
    policy_keys=ReactionPolicies,
    base_knobs=BaseKnobs,
    unit_keys=TooUnitKeys,
    check=check,
    metrics=(TOO_METRICS,),
    records=ev.RECORDS,
    rules=("TOO.ACQ", "TOO.KEEP", "TOO.OPP", "TOO.SCOPE", "TOO.STEALTH", "TOO.CONCEAL",
           "TOO.COUNTER", "TOO.FACING", "TOO.DAMAGE", "TOO.SAVE", "TOO.ALERT", "TOO.REHIDE",
           "BASE.T.RANGE"),
    source="seed 002",
)

RULESET = Ruleset("too", "Theatre of Operation snipers (TOO), figure by figure", base="too")
