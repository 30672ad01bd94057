"""TOO — the Theatre of Operation sniper amendment (seed 002), figure by figure.

A player-turn has two phases: ``movement`` (the phasing side's figures move at once;
enemies on alert may fire at them at any point of their path) and ``action`` (each
figure takes its one action: fire, acquire, search or treat). The tables are in
``sim.rules.too_tables``; the figures' state in ``sim.agents.figure``.

The sequence of play, and the readings we chose where the text is silent:

* Start of a turn: untreated wounds whose time is up kill (TOO.DAMAGE, bleed-out);
  the phasing side declares alerts (TOO.ALERT): figures whose scenario entry asks for
  ``alert: A`` or ``B``, in file order, at most ``floor(half)`` of its figures alive.
  Option A stays put (no move), makes no attack in its own turn, and may fire in the
  enemy's next turn at a mover in its fire arc (facing ± ``fire_arc_half``). Option B
  moves this turn, no attack this turn nor in the enemy's next; if it does not move in
  its next own turn it is armed for the enemy turn after that.
* Movement: figures with orders move (one move per turn); a medic first turns towards
  a bleeding friend. A hidden figure's move is checked for stealth (TOO.STEALTH, knob
  ``stealth_reading``); a revealed stealthy figure that ends its move out of every
  enemy's sight goes back to stealth.
* Opportunity fire (TOO.OPP, TOO.ALERT) is a referee watch of radius ``opp_range``: a
  mover is fired at the moment it first comes within range, in LOS and in the arc.
  Where that moment is not in LOS/arc, the watch looks again at each later waypoint
  of the path (a documented approximation: LOS is not solved continuously along a
  segment). A sniper fires only at the target it has acquired (TOO.OPP); another
  figure at any mover. Each alert figure fires at most once per enemy turn.
* Action: treatment first (knob ``treatment``), then each figure in file order:
  a sniper fires at a target acquired in an earlier turn whose LOS it kept (TOO.KEEP;
  lost LOS is logged and the re-acquisition gets −1), else acquires a visible enemy
  (TOO.ACQ; enemy snipers first, then the nearest), else searches; other figures that
  did not move fire at the nearest visible enemy (no acquisition: that is the sniper's
  burden), or search. A search is one spotting check at the nearest hidden enemy in
  sight: TOO.COUNTER when sniper seeks sniper, else TOO.CONCEAL. Hidden non-snipers
  fire only on opportunity fire. Figures that moved do not search.
* An attack (BASE.T.RANGE, our base game): d10 >= the band's base number; a sniper
  shoots one band closer (TOO.SCOPE). A hit rolls TOO.DAMAGE (d10 + d6), then TOO.SAVE;
  a saved hit has no effect. After an attack by a hidden sniper every enemy figure in
  sight facing it within 45° checks again (TOO.FACING; a sniper so checking gets −1);
  after opportunity fire by a hidden figure, the others in sight make the concealment
  check (TOO.REHIDE). A figure makes at most one of these per attack.

Every roll is ``battle.dice.roll(figure, rule, ...)`` and one record with ``dice``,
``mods``, ``need``, ``success``; TOO.DAMAGE records have ``need`` null and ``success`` =
killed outright (``dies_in`` 0).
"""
from __future__ import annotations

import simpy
from shapely.geometry import Point

from sim.agents.figure import Alert, Figure, Wound, death_turn
from sim.agents.movement import plan_move, walk
from sim.agents.referee import Trigger, Watch
from sim.rules.registry import implements
from sim.rules.too_tables import (
    COVER_CLASSES, acq_mods, alert_cap, bearing, conceal_mods, counter_mods, cover_class,
    damage, level_for_morale, range_band, scoped, stealth_rule, within_facing)
from sim.space.geometry import dist


class TooGame:
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

    # -- TOO.STEALTH -----------------------------------------------------------------
    @implements("TOO.STEALTH")
    def _stealth(self, battle, f: Figure, start_cover: bool, end_cover: bool, full: bool) -> None:
        unit = f.unit
        if f.hidden:
            rule = stealth_rule(self.k.stealth_reading, start_cover, end_cover, full)
            common = dict(unit=f.id, pos=unit.pos, node=unit.node, start_cover=start_cover,
                          end_cover=end_cover, full_move=full, reading=self.k.stealth_reading)
            if rule is None:
                battle.record("stealth", rule="TOO.STEALTH", checked=False, **common)
                return
            if rule == "reveal":
                f.hidden = False
                battle.record("reveal", rule="TOO.STEALTH", reason="no_cover", **common)
                return
            (face,) = battle.dice.roll(f.id, "TOO.STEALTH")
            ok = face + rule <= f.morale
            battle.record("stealth", rule="TOO.STEALTH", checked=True, dice=[face], mods=rule,
                          need=f.morale, success=ok, **common)
            if not ok:
                f.hidden = False
                battle.record("reveal", rule="TOO.STEALTH", reason="failed_check", **common)
        elif f.stealthy and not any(e.alive and e.can_act and self.sees(battle, e, f)
                                    for e in self.enemy_figs(f.side)):
            f.hidden = True
            battle.record("rehide", rule="TOO.STEALTH", unit=f.id, pos=unit.pos, node=unit.node)

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

    def moved_lately(self, t: Figure, turn: int) -> bool:
        return t.moved_turn >= turn - 1 and t.moved_turn > 0

    def _choose_target(self, battle, f: Figure):
        """Enemy snipers first, then the target whose LOS was lost, then (for a figure on
        alert) enemies that moved in their last turn, then the nearest; file order."""
        turn = battle.clock.turn
        seen = [(not e.sniper, e.id != f.lost_target,
                 f.alert is not None and not self.moved_lately(e, turn),
                 dist(f.unit.pos, e.unit.pos), self.order.index(e.id), e)
                for e in self.enemy_figs(f.side) if self.visible(battle, f, e)]
        return min(seen, key=lambda x: x[:5])[5] if seen else None

    # -- TOO.ACQ / TOO.KEEP ----------------------------------------------------------
    @implements("TOO.KEEP")
    def _kept_target(self, battle, f: Figure):
        if f.acquired is None:
            return None
        t = self.figs[f.acquired]
        if not t.alive:
            f.acquired = None
            return None
        if self.visible(battle, f, t):
            return t
        battle.record("lose_target", rule="TOO.KEEP", unit=f.id, target=t.id, pos=f.unit.pos,
                      target_pos=t.unit.pos, hidden=t.hidden)
        f.acquired, f.lost_target = None, t.id
        return None

    def ran(self, t: Figure, turn: int) -> bool:
        return t.moving_full or (t.moved_full and t.moved_turn >= turn - 1)

    @implements("TOO.ACQ", "TOO.KEEP")
    def _acquire(self, battle, f: Figure, t: Figure, turn: int) -> bool:
        vehicle = (t.move_fraction if t.unit.kind == "vehicle" and t.moved_turn >= turn - 1 else None)
        reacquire = f.lost_target == t.id
        mods, terms = acq_mods(target_ran=self.ran(t, turn), attacker_moved=f.moved_turn == turn,
                               vehicle_fraction=vehicle, target_cover=self.cover_of(battle, t),
                               attacker_wounded=f.wounded, reacquire=reacquire,
                               cover_mods=self.k.acq_cover_mods)
        (face,) = battle.dice.roll(f.id, "TOO.ACQ")
        ok = face + mods <= f.morale
        battle.record("acquire", rule="TOO.ACQ", unit=f.id, target=t.id, pos=f.unit.pos,
                      dice=[face], mods=mods, need=f.morale, success=ok, terms=terms,
                      reacquire=reacquire)
        if ok:
            f.acquired, f.acquired_turn, f.lost_target = t.id, turn, None
        return ok

    # -- spotting --------------------------------------------------------------------
    def _search(self, battle, f: Figure) -> bool:
        hidden = [(dist(f.unit.pos, e.unit.pos), self.order.index(e.id), e)
                  for e in self.enemy_figs(f.side) if e.alive and e.hidden and self.sees(battle, f, e)]
        if not hidden:
            return False
        self.spot_check(battle, f, min(hidden, key=lambda x: x[:2])[2], "search")
        return True

    @implements("TOO.CONCEAL", "TOO.COUNTER", "TOO.FACING", "TOO.REHIDE")
    def spot_check(self, battle, spotter: Figure, hider: Figure, context: str) -> bool:
        """One spotting roll: d6 + mods <= the spotter's morale reveals the hider.

        ``context``: ``search`` (logged as TOO.COUNTER or TOO.CONCEAL), ``facing``
        (TOO.FACING, after a sniper's attack) or ``rehide`` (TOO.REHIDE, after
        opportunity fire). ``check`` in the record names the procedure used.
        """
        counter = spotter.sniper and hider.sniper
        if counter:
            terms = {"morale_difference": counter_mods(hider.morale, spotter.morale)}
        else:
            terms = {"level": conceal_mods(hider.level)}
        facing_in = within_facing(spotter.facing, spotter.unit.pos, hider.unit.pos, self.k.facing_half_angle)
        if spotter.sniper and facing_in and (context == "facing" or self.k.facing_bonus_scope == "all_searches"):
            terms["sniper_facing"] = -1
        mods = sum(terms.values())
        rule = {"search": "TOO.COUNTER" if counter else "TOO.CONCEAL",
                "facing": "TOO.FACING", "rehide": "TOO.REHIDE"}[context]
        (face,) = battle.dice.roll(spotter.id, rule)
        ok = face + mods <= spotter.morale
        battle.record("spot_check", rule=rule, unit=spotter.id, target=hider.id, pos=spotter.unit.pos,
                      dice=[face], mods=mods, need=spotter.morale, success=ok,
                      check="counter" if counter else "conceal", terms=terms,
                      hider_level=hider.level, hider_morale=hider.morale)
        if ok:
            hider.hidden = False
            battle.record("spot", rule=rule, unit=spotter.id, target=hider.id, pos=hider.unit.pos,
                          node=hider.unit.node)
        return ok

    # -- attacks ---------------------------------------------------------------------
    @implements("BASE.T.RANGE", "TOO.SCOPE")
    def _attack(self, battle, f: Figure, t: Figure, opp: bool) -> bool:
        bands = self.k.range_bands
        d = dist(f.unit.pos, t.unit.pos)
        i = range_band(d, bands)
        j = scoped(i) if f.sniper else i
        if f.sniper:
            battle.record("scope", rule="TOO.SCOPE", unit=f.id, target=t.id, dist=d,
                          band=bands[i][0], shot_band=bands[j][0])
        need = int(bands[j][2])
        (face,) = battle.dice.roll(f.id, "BASE.T.RANGE", 1, 10)
        ok = face >= need
        battle.record("attack", rule="BASE.T.RANGE", unit=f.id, target=t.id, pos=f.unit.pos,
                      target_pos=t.unit.pos, dice=[face], mods=0, need=need, success=ok,
                      band=bands[j][0], dist=d, opp=opp, weapon="sniper_rifle" if f.sniper else "rifle")
        if ok:
            self.hit(battle, t, f)
        if f.hidden:
            self._after_attack(battle, f, opp)
        return ok

    @implements("TOO.DAMAGE", "TOO.SAVE")
    def hit(self, battle, t: Figure, by: Figure) -> dict:
        """TOO.DAMAGE then TOO.SAVE: a saved hit does nothing; else kill or wound."""
        d10 = battle.dice.roll(by.id, "TOO.DAMAGE", 1, 10)[0]
        d6 = battle.dice.roll(by.id, "TOO.DAMAGE", 1, 6)[0]
        res = damage(d10, d6)
        unit = t.unit
        battle.record("hit", rule="TOO.DAMAGE", unit=t.id, target=t.id, by=by.id, pos=unit.pos,
                      node=unit.node, dice=[d10, d6], mods=0, need=None,
                      success=res["dies_in"] == 0, **res)
        cls = self.cover_of(battle, t)
        need = int(self.k.save_need[cls])
        (face,) = battle.dice.roll(t.id, "TOO.SAVE")
        saved = face >= need
        battle.record("save", rule="TOO.SAVE", unit=t.id, pos=unit.pos, dice=[face], mods=0,
                      need=need, success=saved, cover=cls)
        res["saved"] = saved
        if saved:
            return res
        turn = battle.clock.turn
        if res["dies_in"] == 0:
            battle.eliminate(unit, rule="TOO.DAMAGE", reason="killed", location=res["location"])
            return res
        at = death_turn(turn, res["dies_in"], battle.clock, t.side, self.k.bleed_clock)
        t.wounds.append(Wound(res["location"], res["body_side"], res["dies_in"], res["effect"],
                              hit_turn=turn, dies_at_turn=at))
        if res["effect"] == "drops_item":
            t.skip_action = True
        battle.record("wound", rule="TOO.DAMAGE", unit=t.id, pos=unit.pos, location=res["location"],
                      body_side=res["body_side"], dies_in=res["dies_in"], dies_at_turn=at,
                      effect=res["effect"])
        return res

    @implements("TOO.FACING", "TOO.REHIDE")
    def _after_attack(self, battle, f: Figure, opp: bool) -> None:
        for e in self.enemy_figs(f.side):
            if not f.hidden:
                return
            if not (e.alive and e.can_act and self.sees(battle, e, f)):
                continue
            if f.sniper and within_facing(e.facing, e.unit.pos, f.unit.pos, self.k.facing_half_angle):
                self.spot_check(battle, e, f, "facing")
            elif opp:
                self.spot_check(battle, e, f, "rehide")


@implements("TOO.OPP", "TOO.ALERT")
class OpportunityWatch(Watch):
    """Opportunity fire by figures on alert, at any point of an enemy's path."""

    rule = "TOO.OPP"

    def __init__(self, game: TooGame):
        self.game = game
        self.radius = game.k.opp_range

    def active(self, battle, mover) -> bool:
        return battle.clock.phase == "movement" and mover.id in self.game.figs

    def reactors(self, battle, side: str):
        return [f.unit for f in self.game.enemy_figs(side) if f.alive and f.alert is not None]

    def eligible(self, battle, reactor, mover) -> bool:
        f, m = self.game.figs[reactor.id], self.game.figs[mover.id]
        a, turn = f.alert, battle.clock.turn
        if a is None or a.armed_turn != turn or f.opp_fired_turn == turn or not f.can_act:
            return False
        if f.sniper and f.acquired != m.id:
            return False
        return (f.id, m.id, battle.env.now) not in self.game.declined

    def _ok(self, battle, f: Figure, m: Figure, point) -> bool:
        return (not m.hidden and self.game.sees(battle, f, m, at=point)
                and within_facing(f.alert.arc, f.unit.pos, point, self.game.k.fire_arc_half))

    def inside_triggers(self, battle, reactor, mover, p0, p1) -> bool:
        return self._ok(battle, self.game.figs[reactor.id], self.game.figs[mover.id], p0)

    def react(self, battle, mover, trigger: Trigger) -> str:
        game = self.game
        f, m = game.figs[trigger.reactor.id], game.figs[mover.id]
        if not self._ok(battle, f, m, mover.pos):
            game.declined.add((f.id, m.id, battle.env.now))
            return "continue"
        f.opp_fired_turn = battle.clock.turn
        battle.record("opp_fire", rule="TOO.OPP" if f.sniper else "TOO.ALERT", unit=f.id,
                      target=m.id, pos=f.unit.pos, target_pos=mover.pos, option=f.alert.option,
                      dist=dist(f.unit.pos, mover.pos), acquired_turn=f.acquired_turn if f.sniper else None)
        game._attack(battle, f, m, opp=True)
        if not mover.on_board:
            return "dead"
        if not m.can_move:
            return "halt_phase"
        return "continue"
