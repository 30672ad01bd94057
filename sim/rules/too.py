"""TOO — the Theatre of Operation sniper amendment (seed 002), figure by figure.

A player-turn has two phases: ``movement`` (the phasing side's figures move at once;
enemies on alert may fire at them at any point of their path) and ``action`` (each
figure takes its one action: fire, acquire, search or treat). The tables are in
``sim.rules.too_tables``; the figures' state in ``sim.agents.figure``.

This module holds the ruleset class ``TooGame``: setup, the sequence of play and each
figure's choice of action. The rules those choices apply live by concept in

* ``sim.rules.too_fire``: target choice, acquisition (TOO.ACQ, TOO.KEEP), the attack
  (BASE.T.RANGE, TOO.SCOPE), TOO.DAMAGE and TOO.SAVE, and the opportunity-fire watch
  (TOO.OPP, TOO.ALERT);
* ``sim.rules.too_spotting``: stealth (TOO.STEALTH) and the spotting checks
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
  ``sim.rules.too_spotting``). Enemies on alert watch the movers (TOO.OPP, TOO.ALERT,
  see ``sim.rules.too_fire``).
* Action: treatment first (knob ``treatment``), then each figure in file order:
  a sniper fires at a target acquired in an earlier turn whose LOS it kept (TOO.KEEP;
  lost LOS is logged and the re-acquisition gets −1), else acquires a visible enemy
  (TOO.ACQ; enemy snipers first, then the nearest), else searches; other figures that
  did not move fire at the nearest visible enemy (no acquisition: that is the sniper's
  burden), or search (see ``sim.rules.too_spotting``). Hidden non-snipers fire only on
  opportunity fire. Figures that moved do not search.

Every roll is ``battle.dice.roll(figure, rule, ...)`` and one record with ``dice``,
``mods``, ``need``, ``success``.
"""
from __future__ import annotations

import simpy
from shapely.geometry import Point

from sim.agents.figure import Alert, Figure
from sim.agents.movement import plan_move, walk
from sim.rules.registry import implements
from sim.rules.too_fire import OpportunityWatch, TooFire
from sim.rules.too_spotting import TooSpotting
from sim.rules.too_tables import COVER_CLASSES, alert_cap, bearing, cover_class, level_for_morale
from sim.space.geometry import dist


class TooGame(TooFire, TooSpotting):
    """TOO: movement (with opportunity fire) and action, figure by figure."""

    phases = ("movement", "action")

    # -- setup -----------------------------------------------------------------------
    @implements("BASE.T.RANGE")
    def setup(self, battle) -> None:
        self.k = k = battle.knobs.too
        self.figs: dict[str, Figure] = {}
        self.order: list[str] = []
        self.declined: set[tuple[str, str, float]] = set()
        battle.figures = self.figs
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
            sniper = bool(spec.sniper or spec.kind == "sniper")
            hidden = "hidden" in spec.flags or (sniper and k.snipers_start_hidden)
            fig = Figure(unit=unit, level=level, morale=morale, facing=facing, sniper=sniper,
                         medic=spec.medic, prone=spec.prone, hidden=hidden, stealthy=hidden,
                         alert_pref=spec.alert)
            self.figs[unit.id] = fig
            self.order.append(unit.id)
            battle.record("deploy", rule="BASE.T.RANGE", unit=unit.id, pos=unit.pos, node=unit.node,
                          level=level, morale=morale, facing=facing, sniper=sniper,
                          hidden=hidden, medic=spec.medic)
        self.watch = OpportunityWatch(self)
        battle.referee.add(self.watch)

    # -- queries ---------------------------------------------------------------------
    def side_figs(self, side: str) -> list[Figure]:
        return [self.figs[i] for i in self.order if self.figs[i].side == side]

    def enemy_figs(self, side: str) -> list[Figure]:
        return [self.figs[i] for i in self.order if self.figs[i].side != side]

    def cover_of(self, battle, fig: Figure) -> str:
        """The TOO cover class where the figure stands: on a table, the highest cover of
        the areas containing its exact position (boundary included); on a hex map, its
        hex's cover."""
        terrain = battle.terrain
        if terrain.kind == "table":
            p = Point(fig.unit.pos)
            cover = max((a.type.cover for a in terrain.areas if a.polygon.covers(p)), default=0)
        else:
            cover = battle.cover_at(fig.unit)
        return cover_class(cover, fig.prone, COVER_CLASSES)

    def sees(self, battle, viewer: Figure, target: Figure, at=None) -> bool:
        """Viewer has LOS to the target (at ``at``, default its position) within range."""
        p = target.unit.pos if at is None else at
        return (dist(viewer.unit.pos, p) <= self.k.search_range
                and battle.terrain.los_xy(viewer.unit.pos, p))

    def visible(self, battle, viewer: Figure, target: Figure) -> bool:
        return target.alive and not target.hidden and self.sees(battle, viewer, target)

    # -- phases ----------------------------------------------------------------------
    def on_phase(self, battle, phase) -> None:
        if phase.phase == "movement":
            self._bleed_out(battle, phase)
            if battle.done.triggered:
                return
            battle.referee.begin_phase()
            self.declined.clear()
            self._declare_alerts(battle, phase)
            self._start_moves(battle, phase)
        elif phase.phase == "action":
            self._action_phase(battle, phase)

    @implements("TOO.DAMAGE")
    def _bleed_out(self, battle, phase) -> None:
        for fig in [self.figs[i] for i in self.order]:
            due = fig.dies_at()
            if fig.alive and due is not None and due <= phase.turn:
                w = min(fig.bleeding(), key=lambda w: w.dies_at_turn)
                battle.eliminate(fig.unit, rule="TOO.DAMAGE", reason="bleed_out",
                                 hit_turn=w.hit_turn, dies_in=w.dies_in, location=w.location)
                if battle.done.triggered:
                    return

    @implements("TOO.ALERT")
    def _declare_alerts(self, battle, phase) -> None:
        turn = phase.turn
        figs = [f for f in self.side_figs(phase.side) if f.alive]
        cap = alert_cap(len(figs), self.k.alert_fraction, self.k.alert_rounding)
        on = []
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
                battle.record("alert_denied", rule="TOO.ALERT", unit=f.id, option=f.alert_pref,
                              cap=cap, on_alert=len(on), force=len(figs))
                continue
            armed = turn + 1 if f.alert_pref == "A" else None
            f.alert = Alert(option=f.alert_pref, declared=turn, armed_turn=armed, arc=f.facing)
            on.append(f)
            battle.record("alert", rule="TOO.ALERT", unit=f.id, pos=f.unit.pos, option=f.alert_pref,
                          armed_turn=armed, arc=f.facing, cap=cap, on_alert=len(on), force=len(figs))

    def _stays(self, f: Figure, turn: int) -> bool:
        a = f.alert
        if a is None:
            return False
        return a.option == "A" or (a.option == "B" and a.declared == turn - 2)

    def _start_moves(self, battle, phase) -> None:
        for f in self.side_figs(phase.side):
            if not f.alive:
                continue
            f.moving_full = False
            self._medic_route(battle, f)
            if not f.can_move or not f.unit.route or self._stays(f, phase.turn):
                continue
            f.unit.process = battle.env.process(self._move(battle, f, phase))

    def _medic_route(self, battle, f: Figure) -> None:
        """A medic heads for the nearest bleeding friend; otherwise keeps its orders."""
        if self.k.treatment != "medic" or not f.medic or not f.can_move:
            return
        unit, terrain = f.unit, battle.terrain
        hurt = [(dist(unit.pos, g.unit.pos), self.order.index(g.id), g) for g in self.side_figs(f.side)
                if g is not f and g.alive and g.bleeding()
                and terrain.reachable(unit.node, terrain.nearest_node(*g.unit.pos))]  # map in pieces
        if hurt:
            goal = terrain.nearest_node(*min(hurt, key=lambda x: x[:2])[2].unit.pos)
        elif unit.orders.type != "hold":
            goal = unit.orders.to
        else:
            unit.route = []
            return
        unit.route = [] if goal == unit.node else list(terrain.path(unit.node, goal)[1:])

    def _move(self, battle, f: Figure, phase):
        unit = f.unit
        start_pos, start_cover = unit.pos, self.cover_of(battle, f) != "open"
        legs = plan_move(battle, unit, unit.move)
        if not legs:
            unit.process = None
            return
        planned = sum(c for _, _, c in legs)
        f.moving_full = planned >= unit.move - 1e-9
        try:
            outcome = yield from walk(battle, unit, 1, phase.end - phase.start, phase.end)
        except simpy.Interrupt:
            outcome = "dead"
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
        end_cover = self.cover_of(battle, f) != "open"
        self._stealth(battle, f, start_cover, end_cover, full)

    # -- the action phase ------------------------------------------------------------
    def _action_phase(self, battle, phase) -> None:
        turn = phase.turn
        for f in self.side_figs(phase.side):
            a = f.alert
            if not f.alive:
                continue   # a dead figure arms nothing
            if a is not None and a.option == "B" and a.armed_turn is None and a.declared == turn - 2:
                if f.moved_turn == turn:
                    f.alert = None
                else:
                    a.armed_turn, a.arc = turn + 1, f.facing
                    battle.record("alert_armed", rule="TOO.ALERT", unit=f.id, option="B",
                                  armed_turn=turn + 1, arc=f.facing)
        self._treat(battle, phase.side, turn)
        for f in self.side_figs(phase.side):
            if battle.done.triggered:
                return
            if not f.alive or not f.can_act or f.acted_turn == turn:
                continue
            f.acted_turn = turn
            if f.skip_action:
                f.skip_action = False
                battle.record("pick_up", rule="TOO.DAMAGE", unit=f.id, pos=f.unit.pos)
                continue
            if f.sniper:
                self._sniper_action(battle, f, turn)
            else:
                self._trooper_action(battle, f, turn)

    @implements("TOO.DAMAGE")
    def _treat(self, battle, side: str, turn: int) -> None:
        mode = self.k.treatment
        if mode == "none":
            return
        for hurt in self.side_figs(side):
            if not hurt.alive or not hurt.bleeding():
                continue
            helpers = [(dist(h.unit.pos, hurt.unit.pos), self.order.index(h.id), h)
                       for h in self.side_figs(side)
                       if h is not hurt and h.alive and h.can_act and h.acted_turn != turn
                       and not h.bleeding() and (mode == "buddy" or h.medic)
                       and dist(h.unit.pos, hurt.unit.pos) <= self.k.treat_range + 1e-9]
            if not helpers:
                continue
            h = min(helpers, key=lambda x: x[:2])[2]
            h.acted_turn = turn
            wounds = hurt.treat(h.id)
            battle.record("treat", rule="TOO.DAMAGE", unit=h.id, target=hurt.id, pos=h.unit.pos,
                          mode=mode, stopped=[w.dies_at_turn for w in wounds])

    def _sniper_action(self, battle, f: Figure, turn: int) -> None:
        target = self._kept_target(battle, f)
        if target is not None and f.alert is not None and not self.moved_lately(target, turn):
            # On alert, a sniper waits for movers: it trades a still target for a mover.
            other = self._choose_target(battle, f)
            if other is not None and other is not target and self.moved_lately(other, turn):
                self._acquire(battle, f, other, turn)
                return
        if target is not None and f.acquired_turn < turn and f.alert is None:
            battle.record("keep", rule="TOO.KEEP", unit=f.id, target=target.id,
                          acquired_turn=f.acquired_turn)
            self._attack(battle, f, target, opp=False)
            return
        if target is None:
            choice = self._choose_target(battle, f)
            if choice is not None:
                self._acquire(battle, f, choice, turn)
                return
        self._search(battle, f)

    def _trooper_action(self, battle, f: Figure, turn: int) -> None:
        if f.moved_turn == turn:
            return
        if f.alert is None and not f.hidden:
            choice = self._choose_target(battle, f)
            if choice is not None:
                self._attack(battle, f, choice, opp=False)
                return
        self._search(battle, f)
