"""Play against the planner: a board in a notebook on which a person gives one side's
orders, phase by phase, against a side that plans (``policies.<side>.decide``).

``play(scenario, side="blue", seed=1)`` is an anywidget (the ``notebooks`` and ``test``
extras install it) over a ``sim.play.Session``. At each of the side's movement phases the
front end (``sim/data/play.js``) offers every unit or group the menu (keep to the plan,
hold, fall back, seek cover, the plan's next step) or a destination: a node clicked on the
map. *End phase* sends the orders (the ``orders`` trait) and the count of phases ended
(``ended``: one more); Python plays the phase and the planner's answer, then sets what the
board shows: the phase's replay (``sim.viz.replay_fragment``: halts, shots and rolls, each
inspectable), what happened in words, the planner's choice and what it considered. At the
end: the debrief (``sim.play.debrief``) and the whole battle as a replay and a log
(``log_jsonl``, the ``sim run --log`` format; ``save_log(path)``). Nothing is computed in
the browser, and the same seed and clicks give the same log. A message of the front end
that Python refuses (an order the unit cannot carry out, a stale End phase) is told on the
board (``refused``: the ``InputError``'s one line) and the page is sent back what Python
holds; from Python, the same assignment raises the ``InputError``. In class mode
(``classroom``, ``sim.viz.classroom``; its button on the board) the text is larger, the
orders, what happened and the planner's answer sit beside the map when the width allows,
and the phase's replay is made in class mode too (its inspector beside its map).

>>> board = play("scenarios/kill_zone_play.yaml", side="blue", seed=1)
>>> board.orders = {"b1": "to SAFE"}
>>> board.ended = 1                       # what the End phase button sends
>>> board.state["turn"]
3
"""
from __future__ import annotations

from typing import Any

import anywidget
import traitlets
from matplotlib.colors import to_hex

from sim import arguments
from sim.decide.menu import MENU
from sim.errors import InputError
from sim.play.debrief import judge
from sim.play.session import Session, planners_of
from sim.viz.classroom import classroom as is_classroom
from sim.viz.common import side_colours
from sim.viz.front_end import widget_script
from sim.viz.play_words import MENU_WORDS, answer, debrief_lines, story
from sim.viz.replay import replay_fragment, terrain_picture

__all__ = ["PlayBoard", "play"]

WIDTH = 900          # the map's picture, in pixels
PHASE_FRAMES = 30    # a phase's replay: this many frames from its start to the next decision
#: What the front end may set: the orders, the count of phases ended and class mode.
INPUTS = frozenset({"orders", "ended", "classroom"})


class PlayBoard(anywidget.AnyWidget):
    """The play board (module doc): ``orders``, ``ended`` and ``classroom`` in; the battle's
    state, the phase's replay and story, the planner's answer, the debrief and the log out."""

    _esm = widget_script("play.js")
    #: the orders for the phase: control (a unit or group) -> a menu choice or "to NODE"
    orders: traitlets.Dict[str, str] = traitlets.Dict().tag(sync=True)
    #: how many phases the person has ended; one more plays the next
    ended = traitlets.Int(0).tag(sync=True)
    #: class mode (sim.viz.classroom): larger text, the orders, story and answer beside the map
    classroom = traitlets.Any(False).tag(sync=True)
    #: the terrain picture (a PNG data: URI), its size in pixels, the nodes [name, x, y]
    picture = traitlets.Unicode(read_only=True).tag(sync=True)
    size: traitlets.List[int] = traitlets.List(read_only=True).tag(sync=True)
    nodes: traitlets.List[list[Any]] = traitlets.List(read_only=True).tag(sync=True)
    #: the battle now: turn, phase, t, over, the units (pixel places) and the controls
    state: traitlets.Dict[str, Any] = traitlets.Dict(read_only=True).tag(sync=True)
    #: the menu: [choice, words]
    menu: traitlets.List[list[str]] = traitlets.List(read_only=True).tag(sync=True)
    #: the last phase's replay (an HTML fragment), or the whole battle's at the end
    replay = traitlets.Unicode(read_only=True).tag(sync=True)
    #: what the last phase brought, in sentences; the planner's answers in it
    story: traitlets.List[str] = traitlets.List(read_only=True).tag(sync=True)
    answers: traitlets.List[str] = traitlets.List(read_only=True).tag(sync=True)
    #: at the end: the debrief, in sentences
    debrief: traitlets.List[str] = traitlets.List(read_only=True).tag(sync=True)
    #: the whole log so far as JSON Lines (the sim run --log format)
    log_jsonl = traitlets.Unicode(read_only=True).tag(sync=True)
    #: why the front end's last message was refused (one line naming the place); "" once one is taken
    refused = traitlets.Unicode(read_only=True).tag(sync=True)

    def __init__(self, session: Session, debrief_rollouts: int | None = None, classroom: bool = False) -> None:
        super().__init__(classroom=classroom)
        self.session = session
        self._phase: tuple[float, float] | None = None   # the last phase played: its replay's span
        planner = next(iter(planners_of(session.scenario, session.side).values()))
        self.rollouts = planner.rollouts if debrief_rollouts is None else debrief_rollouts
        self.material = float(planner.material)
        self._px, height, picture = terrain_picture(session.scenario, WIDTH, self.classroom)
        terrain = session.scenario.map
        self.colours = {s: to_hex(c) for s, c in side_colours(session.scenario).items()}
        nodes: dict[tuple[float, ...], str] = {}
        for n in terrain.nodes:   # of nodes in one place (a waypoint on the grid) the first, the named one
            nodes.setdefault(tuple(self._px(*terrain.pos(n))), str(n))
        with self.hold_sync():
            self.set_trait("picture", picture)
            self.set_trait("size", [WIDTH, height])
            self.set_trait("nodes", [[name, *at] for at, name in nodes.items()])
            self.set_trait("menu", [[c, MENU_WORDS[c]] for c in MENU])
            self._show()

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """What the front end sends (the inputs only), all of it taken or none: else why (``refused``)."""
        self.set_trait("refused", "")
        try:
            self._check(sync_data)
        except InputError as err:
            # told on the board (the kernel's log is out of a student's sight), and the page
            # set back to what Python holds: its model keeps the refused values otherwise
            self.send_state(sorted(INPUTS))   # first: the page reads them when told
            self.set_trait("refused", " ".join(str(err).splitlines()))
            return
        super().set_state(sync_data)

    def _check(self, sync_data: dict[str, Any]) -> None:
        # every value before any is set (traitlets undoes a message's values on a TraitError
        # alone): a refused order must not leave its End phase counted
        derived = sorted(set(sync_data) - INPUTS)
        if derived:
            raise InputError("is the engine's to set, not the front end's", place=derived[0])
        if "orders" in sync_data:
            self.session.check(sync_data["orders"])
        if "ended" in sync_data:
            self._next(sync_data["ended"])
        if "classroom" in sync_data:
            arguments.flag(sync_data["classroom"], "classroom")

    def __repr__(self) -> str:
        s = self.state
        where = "over" if s["over"] else f"turn {s['turn']}, {self.session.side} to give orders"
        return f"PlayBoard({self.session.scenario.name}, {self.session.side}, seed={self.session.seed}): {where}"

    @traitlets.validate("orders")
    def _orders(self, proposal: dict[str, Any]) -> dict[str, str]:
        return self.session.check(proposal["value"])

    @traitlets.validate("ended")
    def _ended(self, proposal: dict[str, Any]) -> int:
        return self._next(proposal["value"])

    @traitlets.validate("classroom")
    def _classroom(self, proposal: dict[str, Any]) -> bool:
        return arguments.flag(proposal["value"], "classroom")

    @traitlets.observe("classroom")
    def _class_mode(self, change: dict[str, Any]) -> None:
        if not hasattr(self, "session"):   # set by the constructor, before the board is built
            return
        with self.hold_sync():   # the picture's names and the replay, drawn for the mode
            self.set_trait("picture", terrain_picture(self.session.scenario, WIDTH, self.classroom)[2])
            self._replay()

    def _next(self, value: Any) -> int:
        # (checked against the phases played, not the trait: the front end's message sets the
        # trait before the check, inside ipywidgets' hold of notifications)
        played = len(self.session.played)
        if isinstance(value, bool) or value != played + 1:
            raise InputError(f"expected {played + 1} (one more phase ended), got {value!r}", place="ended")
        if self.session.over:
            raise InputError("the battle is over", place="ended")
        return int(value)

    @traitlets.observe("ended")
    def _end_phase(self, change: dict[str, Any]) -> None:
        played = self.session.end_phase(self.orders)
        records = self.session.battle.log.records[played.start:played.stop]
        with self.hold_sync():
            self.set_trait("story", story(records, self.session.side))
            self.set_trait("answers", [line for r in records if r["event"] == "decide"
                                       and r.get("policy") == "mcts" and "values" in r for line in answer(r)])
            self.orders = {}
            self._show(played.t0, played.t1)

    def end_phase(self, orders: dict[str, str] | None = None) -> None:
        """Give ``orders`` and end the phase, as the End phase button does."""
        self.orders = orders or {}
        self.ended = self.ended + 1

    def save_log(self, path: Any) -> None:
        """Write the battle's log so far as JSON Lines (the ``sim run --log`` format)."""
        self.session.battle.log.to_jsonl(arguments.path(path))

    def _show(self, t0: float | None = None, t1: float | None = None) -> None:
        s, battle = self.session, self.session.battle
        units = [{"id": u.id, "side": u.side, "colour": self.colours[u.side], "on_board": u.on_board,
                  "steps": u.steps if u.alive else 0, "at": self._px(*u.pos), "node": str(u.node)}
                 for u in battle.units.values()]
        phase = s.phase
        state = {"side": s.side, "over": s.over, "turn": phase.turn if phase else battle.clock.turn,
                 "phase": phase.phase if phase else None, "t": float(battle.env.now), "units": units,
                 "controls": [{"name": c.name, "units": list(c.units)} for c in s.controls()] if phase else [],
                 "winner": battle.winner, "reason": battle.reason}
        self.set_trait("state", state)
        self.set_trait("log_jsonl", battle.log.text().decode("utf-8"))
        if t0 is not None and t1 is not None:
            self._phase = (t0, t1)
        self._replay()
        if s.over:
            self.set_trait("debrief", self._debrief())

    def _replay(self) -> None:
        # the last phase's replay, or the whole battle's at the end; none before a phase is played
        s = self.session
        if s.over:
            log = s.result().log
            self.set_trait("replay", replay_fragment(s.scenario, log, width=WIDTH, classroom=self.classroom))
        elif self._phase is not None:
            t0, t1 = self._phase
            frames = [t0 + (t1 - t0) * k / (PHASE_FRAMES - 1) for k in range(PHASE_FRAMES)]
            self.set_trait("replay", replay_fragment(s.scenario, s.battle.log, frames=frames, width=WIDTH,
                                                     classroom=self.classroom))

    def _debrief(self) -> list[str]:
        s = self.session
        records = s.battle.log.records
        lines = [f"{s.side.capitalize()} {'won' if s.battle.winner == s.side else 'did not win'} "
                 f"({s.battle.reason}). Each of your decisions against the planner's evaluation of the same "
                 f"position: every option played on {self.rollouts} times from there on the same dice, "
                 f"mean score for {s.side} (+1: a win every time, -1: a loss every time)."]
        agreed = 0
        for d in s.decisions:
            j = judge(s.scenario, s.seed, records, s.side, d, self.rollouts, self.material)
            agreed += j.yours.mean >= max(o.mean for o in j.options)
            lines += debrief_lines(j, s.side)
        lines.append(f"Your orders scored as well as the best option in {agreed} of your {len(s.decisions)} "
                     "decisions.")
        return lines


def play(scenario: Any, side: str = "blue", seed: int = 1, debrief_rollouts: int | None = None,
         classroom: bool | None = None) -> PlayBoard:
    """A board on which a person plays ``side`` of ``scenario`` against its planning side;
    ``classroom``: open it in class mode (None: as ``sim.viz.class_mode`` set it)."""
    if debrief_rollouts is not None:
        arguments.count(debrief_rollouts, "debrief_rollouts")
    mode = is_classroom(classroom)
    return PlayBoard(Session(scenario, side, seed), debrief_rollouts, mode)
