"""TOO — the Theatre of Operation sniper amendment (seed 002), figure by figure.

A player-turn has two phases: ``movement`` (the phasing side's figures move at once;
enemies on alert may fire at them at any point of their path) and ``action`` (each
figure takes its one action: fire, acquire, search or treat). The tables are in
``sim.systems.too.tables``; the figures' state in ``sim.systems.too.figure``.

This module holds the game ``TooGame``: setup, the sequence of play and each figure's
choice of action. The system's state is one typed object, ``TooState``
(``sim.systems.too.state``); the rules the choices apply live by concept in

* ``sim.systems.too.fire``: target choice, acquisition (TOO.ACQ, TOO.KEEP), the attack
  (BASE.T.RANGE, TOO.SCOPE), TOO.DAMAGE and TOO.SAVE;
* ``sim.systems.too.watch``: the opportunity-fire watch (TOO.OPP, TOO.ALERT);
* ``sim.systems.too.spotting``: stealth (TOO.STEALTH) and the spotting checks
  (TOO.CONCEAL, TOO.COUNTER, TOO.FACING, TOO.REHIDE).

The sequence of play, and the readings we chose where the text is silent:

* Start of a turn: untreated wounds whose time is up kill (TOO.DAMAGE, bleed-out);
  the phasing side declares alerts (TOO.ALERT): figures whose scenario entry asks for
  ``alert: A`` or ``B``, in file order, at most ``floor(half)`` of its figures alive.
  Option A stays put (no move), makes no attack in its own turn, and may fire in the
  enemy's next turn at a mover in its fire arc (facing ± ``fire_arc_half``). Option B
  moves this turn, no attack this turn nor in the enemy's next; if it does not move in
  its next own turn it is armed for the enemy turn after that.
* Movement: figures with orders move (one move per turn); a medic first turns towards
  a bleeding friend. A hidden figure's move is checked for stealth (TOO.STEALTH, see
  ``sim.systems.too.spotting``). Enemies on alert watch the movers (TOO.OPP, TOO.ALERT,
  see ``sim.systems.too.fire``).
* Action: treatment first (knob ``treatment``), then each figure in file order:
  a sniper fires at a target acquired in an earlier turn whose LOS it kept (TOO.KEEP;
  lost LOS is logged and the re-acquisition gets −1), else acquires a visible enemy
  (TOO.ACQ; enemy snipers first, then the nearest), else searches; other figures that
  did not move fire at the nearest visible enemy (no acquisition: that is the sniper's
  burden), or search (see ``sim.systems.too.spotting``). Hidden non-snipers fire only on
  opportunity fire. Figures that moved do not search.

Every roll is ``battle.dice.roll(figure, rule, ...)`` and one record with ``dice``,
``mods``, ``need``, ``success``.
"""
from __future__ import annotations

from collections.abc import Generator
from typing import Any, cast

import simpy

from sim.agents.movement import plan_move, walk
from sim.agents.outcome import Outcome
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.clock import Phase
from sim.events import DEPLOY
from sim.space.geometry import dist
from sim.systems.too import fire, spotting
from sim.systems.too.events import ALERT, ALERT_ARMED, ALERT_DENIED, KEEP, PICK_UP, TREAT
from sim.systems.too.figure import Alert, Figure
from sim.systems.too.state import TooBattle, TooState
from sim.systems.too.tables import alert_cap, bearing, level_for_morale
from sim.systems.too.watch import OpportunityWatch
from sim.toolkit.snipers import SNIPER


class TooGame:
    """TOO: movement (with opportunity fire) and action, figure by figure."""

    def __init__(self) -> None:
        self.state = TooState()
        self._bled: tuple[Phase, str, list[Figure]] | None = None

    def sees(self, battle: TooBattle, viewer: Unit, target: Unit) -> bool:
        """A figure sees an enemy that is not hidden, in sight and within search range."""
        figs = self.state.figs
        return viewer.id in figs and target.id in figs and self.state.visible(battle, figs[viewer.id],
                                                                              figs[target.id])

    # -- setup -----------------------------------------------------------------------
    @implements("BASE.T.RANGE")
    def setup(self, battle: TooBattle) -> None:
        st = self.state
        st.k = k = battle.knobs.too
        starts: dict[str, list] = {s: [] for s in battle.scenario.sides}
        for side, spec in battle.scenario.units():
            starts[side].append(battle.units[spec.id].pos)
        for side, spec in battle.scenario.units():
            unit = battle.units[spec.id]
            if spec.level is not None:
                level, morale = spec.level, int(k.morale_by_level[spec.level])
            else:
                level, morale = level_for_morale(spec.morale, k.morale_by_level), spec.morale
            unit.morale = morale
            if spec.facing is not None:
                facing = float(spec.facing) % 360.0
            else:
                others = [p for s, ps in starts.items() if s != side for p in ps]
                cx = sum(p[0] for p in others) / len(others)
                cy = sum(p[1] for p in others) / len(others)
                facing = bearing(unit.pos, (cx, cy))
            sniper = bool(spec.sniper or spec.kind == SNIPER.name)
            hidden = "hidden" in spec.flags or (sniper and k.snipers_start_hidden)
            fig = Figure(unit=unit, level=level, morale=morale, facing=facing, sniper=sniper,
                         medic=spec.medic, prone=spec.prone, hidden=hidden, stealthy=hidden,
                         alert_pref=spec.alert)
            st.figs[unit.id] = fig
            st.order.append(unit.id)
            battle.record(DEPLOY, rule="BASE.T.RANGE", unit=unit.id, pos=unit.pos, node=unit.node,
                          level=level, morale=morale, facing=facing, sniper=sniper,
                          hidden=hidden, medic=spec.medic)
        battle.referee.add(OpportunityWatch(st))

    # -- phases ----------------------------------------------------------------------
    def on_phase(self, battle: TooBattle, phase: Phase) -> None:
        if phase.phase == "movement":
            self._bleed_out(battle, phase)
            if battle.done.triggered:
                return
            battle.referee.begin_phase()
            self.state.declined.clear()
            self.state.refused.clear()
            self._declare_alerts(battle, phase)
            self._start_moves(battle, phase)
        elif phase.phase == "action":
            self._action_phase(battle, phase)

    @implements("TOO.DAMAGE")
    def _bleed_out(self, battle: TooBattle, phase: Phase) -> None:
        st = self.state
        for fig in [st.figs[i] for i in st.order]:
            due = fig.dies_at()
            if fig.alive and due is not None and due <= phase.turn:
                w = min(fig.bleeding(), key=lambda w: cast(int, w.dies_at_turn))   # bleeding: set
                battle.eliminate(fig.unit, rule="TOO.DAMAGE", reason="bleed_out",
                                 hit_turn=w.hit_turn, dies_in=w.dies_in, location=w.location)
                if battle.done.triggered:
                    return

    @implements("TOO.ALERT")
    def _declare_alerts(self, battle: TooBattle, phase: Phase) -> None:
        turn, k = phase.turn, self.state.k
        figs = [f for f in self.state.side_figs(phase.side) if f.alive]
        cap = alert_cap(len(figs), k.alert_fraction, k.alert_rounding)
        on: list[Figure] = []
        for f in figs:
            a = f.alert
            if a is not None and a.option == "B" and a.armed_turn is None and a.declared == turn - 2:
                on.append(f)            # second own turn of option B: it stays to arm
            else:
                f.alert = None
        for f in figs:
            if f.alert is not None or f.alert_pref is None or not f.can_act:
                continue
            if len(on) >= cap:
                battle.record(ALERT_DENIED, rule="TOO.ALERT", unit=f.id, option=f.alert_pref,
                              cap=cap, on_alert=len(on), force=len(figs))
                continue
            armed = turn + 1 if f.alert_pref == "A" else None
            f.alert = Alert(option=f.alert_pref, declared=turn, armed_turn=armed, arc=f.facing)
            on.append(f)
            battle.record(ALERT, rule="TOO.ALERT", unit=f.id, pos=f.unit.pos, option=f.alert_pref,
                          armed_turn=armed, arc=f.facing, cap=cap, on_alert=len(on), force=len(figs))

    def _stays(self, f: Figure, turn: int) -> bool:
        a = f.alert
        if a is None:
            return False
        return a.option == "A" or (a.option == "B" and a.declared == turn - 2)

    def _start_moves(self, battle: TooBattle, phase: Phase) -> None:
        for f in self.state.side_figs(phase.side):
            if not f.alive:
                continue
            f.moving_full = False
            self._medic_route(battle, f)
            if not f.can_move or not f.unit.route or self._stays(f, phase.turn):
                continue
            f.unit.process = battle.env.process(self._move(battle, f, phase))

    def _medic_route(self, battle: TooBattle, f: Figure) -> None:
        """A medic heads for the nearest bleeding friend; otherwise keeps its orders."""
        st = self.state
        if st.k.treatment != "medic" or not f.medic or not f.can_move:
            return
        unit, terrain = f.unit, battle.terrain
        hurt = [(dist(unit.pos, g.unit.pos), st.rank(g), g) for g in self._bleeding(battle, f.side)
                if g is not f and terrain.reachable(unit.node, terrain.nearest_node(*g.unit.pos))]  # map in pieces
        if hurt:
            goal = terrain.nearest_node(*min(hurt, key=lambda x: x[:2])[2].unit.pos)
        elif unit.orders.type != "hold":
            goal = unit.orders.to
        else:
            unit.route = []
            return
        unit.route = [] if goal == unit.node else list(terrain.path(unit.node, goal)[1:])

    def _bleeding(self, battle: TooBattle, side: str) -> list[Figure]:
        """The side's living figures that bleed, found once a phase (as its moves start)."""
        phase = battle.clock.current
        if self._bled is None or self._bled[0] is not phase or self._bled[1] != side:
            self._bled = (phase, side, [g for g in self.state.side_figs(side) if g.alive and g.bleeding()])
        return self._bled[2]

    def _move(self, battle: TooBattle, f: Figure, phase: Phase) -> Generator[Any, Any, None]:
        unit = f.unit
        st = self.state
        start_pos, start_cover = unit.pos, st.cover_of(battle, f) != "open"
        legs = plan_move(battle, unit, unit.move)
        if not legs:
            unit.process = None
            return
        planned = sum(c for _, _, c in legs)
        f.moving_full = planned >= unit.move - 1e-9
        try:
            outcome = yield from walk(battle, unit, 1, phase.end - phase.start, phase.end)
        except simpy.Interrupt:
            outcome = Outcome.DEAD
        finally:
            battle.referee.disarm(unit)
            unit.process = None
        if not unit.on_board:
            return
        full = outcome == "done" and bool(unit.route)
        f.moved_turn, f.moved_full, f.moving_full = phase.turn, full, False
        f.move_fraction = 1.0 if full else min(1.0, planned / unit.move)
        if dist(start_pos, unit.pos) > 1e-9:
            f.facing = bearing(start_pos, unit.pos)
        end_cover = st.cover_of(battle, f) != "open"
        spotting.stealth(battle, st, f, start_cover, end_cover, full)

    # -- the action phase ------------------------------------------------------------
    def _action_phase(self, battle: TooBattle, phase: Phase) -> None:
        turn = phase.turn
        for f in self.state.side_figs(phase.side):
            a = f.alert
            if not f.alive:
                continue   # a dead figure arms nothing
            if a is not None and a.option == "B" and a.armed_turn is None and a.declared == turn - 2:
                if f.moved_turn == turn:
                    f.alert = None
                else:
                    a.armed_turn, a.arc = turn + 1, f.facing
                    battle.record(ALERT_ARMED, rule="TOO.ALERT", unit=f.id, option="B",
                                  armed_turn=turn + 1, arc=f.facing)
        self._treat(battle, phase.side, turn)
        for f in self.state.side_figs(phase.side):
            if battle.done.triggered:
                return
            if not f.alive or not f.can_act or f.acted_turn == turn:
                continue
            f.acted_turn = turn
            if f.skip_action:
                f.skip_action = False
                battle.record(PICK_UP, rule="TOO.DAMAGE", unit=f.id, pos=f.unit.pos)
                continue
            if f.sniper:
                self._sniper_action(battle, f, turn)
            else:
                self._trooper_action(battle, f, turn)

    @implements("TOO.DAMAGE")
    def _treat(self, battle: TooBattle, side: str, turn: int) -> None:
        st = self.state
        mode = st.k.treatment
        if mode == "none":
            return
        for hurt in st.side_figs(side):
            if not hurt.alive or not hurt.bleeding():
                continue
            helpers = [(dist(h.unit.pos, hurt.unit.pos), st.rank(h), h)
                       for h in st.near(battle, side, hurt.unit.pos, st.k.treat_range + 1e-9)
                       if h is not hurt and h.alive and h.can_act and h.acted_turn != turn
                       and not h.bleeding() and (mode == "buddy" or h.medic)
                       and dist(h.unit.pos, hurt.unit.pos) <= st.k.treat_range + 1e-9]
            if not helpers:
                continue
            h = min(helpers, key=lambda x: x[:2])[2]
            h.acted_turn = turn
            wounds = hurt.treat(h.id)
            battle.record(TREAT, rule="TOO.DAMAGE", unit=h.id, target=hurt.id, pos=h.unit.pos,
                          mode=mode, stopped=[w.dies_at_turn for w in wounds])

    def _sniper_action(self, battle: TooBattle, f: Figure, turn: int) -> None:
        st = self.state
        target = fire.kept_target(battle, st, f)
        if target is not None and f.alert is not None and not fire.moved_lately(target, turn):
            # On alert, a sniper waits for movers: it trades a still target for a mover.
            other = fire.choose_target(battle, st, f)
            if other is not None and other is not target and fire.moved_lately(other, turn):
                fire.acquire(battle, st, f, other, turn)
                return
        if target is not None and f.acquired_turn < turn and f.alert is None:
            battle.record(KEEP, rule="TOO.KEEP", unit=f.id, target=target.id,
                          acquired_turn=f.acquired_turn)
            fire.attack(battle, st, f, target, opp=False)
            return
        if target is None:
            choice = fire.choose_target(battle, st, f)
            if choice is not None:
                fire.acquire(battle, st, f, choice, turn)
                return
        spotting.search(battle, st, f)

    def _trooper_action(self, battle: TooBattle, f: Figure, turn: int) -> None:
        st = self.state
        if f.moved_turn == turn:
            return
        if f.alert is None and not f.hidden:
            choice = fire.choose_target(battle, st, f)
            if choice is not None:
                fire.attack(battle, st, f, choice, opp=False)
                return
        spotting.search(battle, st, f)
