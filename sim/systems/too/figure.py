"""A figure: one soldier of the TOO rule system, with its morale, level, facing and wounds.

The battle's ``Unit`` carries position and movement; a ``Figure`` wraps it with the TOO
state (``TooState.figs[unit.id]``):

* ``level`` and ``morale`` (BASE.T.RANGE maps one to the other, per scenario);
* ``facing`` in degrees (0 = +x, 90 = +y), for TOO.FACING's arcs; a figure that moves
  turns to face the way it went;
* ``hidden`` (concealed: enemies cannot target it until they spot it);
* ``wound``: the worst untreated-or-treated wound, with its bleed-out turn;
* the sniper's acquired target (TOO.ACQ/TOO.KEEP) and alert state (TOO.ALERT).

Bleed-out (TOO.DAMAGE, knob ``rules.too.bleed_clock``): a figure hit in turn T with
"dies in n turns" dies at the very start of turn T + n (``player_turns``, default:
every player-turn of either side counts, so "3 turns" after a hit in turn 4 is the
start of turn 7), or at the start of its own side's n-th turn after T (``own_turns``).
Treatment (a medic or buddy aid, knob ``rules.too.treatment``) stops the timer; the
figure stays wounded.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sim.agents.unit import OnUnit, Unit
from sim.systems.too.tables import IMMOBILE_EFFECTS, NO_ACTION_EFFECTS


@dataclass
class Wound:
    location: str
    body_side: str
    dies_in: int
    effect: str
    hit_turn: int
    dies_at_turn: int | None      # None: treated (or never fatal)
    treated: bool = False
    treated_by: str | None = None


@dataclass
class Alert:
    """TOO.ALERT: option 'A' (stay) or 'B' (reposition), declared in ``declared``;
    opportunity fire is allowed in enemy turn ``armed_turn`` (None: not yet)."""

    option: str
    declared: int
    armed_turn: int | None
    arc: float = 0.0            # the facing of its fire arc ("original fire arc")


@dataclass(eq=False)
class Figure(OnUnit):
    unit: Unit
    level: str
    morale: int
    facing: float
    sniper: bool = False
    medic: bool = False
    prone: bool = False
    hidden: bool = False
    stealthy: bool = False                  # started hidden: may go back to stealth
    alert_pref: str | None = None           # 'A' / 'B' / None, from the scenario
    wounds: list[Wound] = field(default_factory=list)
    acquired: str | None = None             # TOO.ACQ target id
    acquired_turn: int = 0
    lost_target: str | None = None          # TOO.KEEP: LOS lost, re-acquire at -1
    moved_turn: int = 0                     # last turn it moved
    moved_full: bool = False                # that move used its whole allowance
    move_fraction: float = 0.0              # share of its allowance it used then
    moving_full: bool = False               # the move under way will use it all
    acted_turn: int = 0                     # last turn it took its action
    skip_action: bool = False               # dropped its weapon (arm wound)
    alert: Alert | None = None
    opp_fired_turn: int = 0

    @property
    def alive(self) -> bool:
        return self.unit.on_board

    @property
    def wounded(self) -> bool:
        return bool(self.wounds)

    @property
    def can_move(self) -> bool:
        return self.alive and not any(w.effect in IMMOBILE_EFFECTS for w in self.wounds)

    @property
    def can_act(self) -> bool:
        return self.alive and not any(w.effect in NO_ACTION_EFFECTS for w in self.wounds)

    def bleeding(self) -> list[Wound]:
        return [w for w in self.wounds if w.dies_at_turn is not None and not w.treated]

    def dies_at(self) -> int | None:
        """The turn at whose start it dies if nobody treats it, or None."""
        due = [w.dies_at_turn for w in self.bleeding() if w.dies_at_turn is not None]
        return min(due) if due else None

    def treat(self, by: str) -> list[Wound]:
        """Stop every bleed-out timer; returns the wounds treated."""
        done = self.bleeding()
        for w in done:
            w.treated, w.treated_by = True, by
        return done


def death_turn(hit_turn: int, dies_in: int, clock=None, side: str | None = None,
               mode: str = "player_turns") -> int:
    """The turn at whose start an untreated figure hit in ``hit_turn`` dies.

    >>> death_turn(4, 3)
    7
    """
    if dies_in <= 0:
        return hit_turn
    if mode == "player_turns":
        return hit_turn + dies_in
    if mode != "own_turns":
        raise ValueError(f"unknown bleed clock {mode!r}")
    k, seen = hit_turn, 0
    while seen < dies_in:
        k += 1
        if clock.side_of_turn(k) == side:
            seen += 1
    return k
