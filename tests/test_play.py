"""Playing a side against a planner (``sim.play``, ``sim.decide.orders``, ``sim.viz.play``),
without a browser: the person's orders become records, the planner's rollouts and the
debrief's give them again (each rollout is the real battle up to its decision, record for
record), the same clicks give the same log, and bad input is one ``InputError``."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import sim
from conftest import ROOT, SCENARIOS
from sim.decide import replay as replay_module
from sim.decide.orders import PLAYER
from sim.engine.log import EventLog
from sim.play.debrief import CHOICES, judge
from sim.play.session import Session

pytest.importorskip("anywidget")

PLAY = SCENARIOS / "kill_zone_play.yaml"
ORDERS = [{"b1": "to SAFE"}, {"b1": "hold"}, {"b1": "hold", "s1": "seek_cover"}, {"b1": "to OBJ"}]


def _played(orders=ORDERS, seed=4) -> Session:
    session = Session(str(PLAY), "blue", seed)
    k = 0
    while not session.over:
        session.end_phase(orders[k] if k < len(orders) else {})
        k += 1
    return session


@pytest.fixture
def prefixes(monkeypatch):
    """Every rollout's log as it stands when its dice are drawn afresh (at its decision)."""
    seen: list[tuple[int, list[str]]] = []
    reseed = replay_module.Replay.reseed

    def spy(self, seed):
        seen.append((self.battle.clock.current.turn, list(self.battle.log.lines())))
        reseed(self, seed)

    monkeypatch.setattr(replay_module.Replay, "reseed", spy)
    return seen


def test_the_planners_rollouts_are_the_played_battle_up_to_its_decision(prefixes):
    session = _played()
    lines = list(session.battle.log.lines())
    records = session.battle.log.records
    planned = {r["turn"]: i for i, r in enumerate(records) if r.get("policy") == "mcts" and "rollouts" in r}
    assert len(planned) >= 5 and prefixes
    for turn, prefix in prefixes:
        assert prefix == lines[:planned[turn]], turn
    # the person's orders are in those prefixes: a rollout without them would differ
    assert {turn for turn, _ in prefixes} == set(planned)
    assert sum(r.get("policy") == PLAYER for r in records[:planned[4]]) == 4   # two summaries, two units' records


def test_the_debrief_judges_each_decision_on_the_real_battle_up_to_it(prefixes):
    session = _played()
    prefixes.clear()
    lines = list(session.battle.log.lines())
    d = session.decisions[2]   # turn 5: b1 holds, s1 seeks cover
    judged = judge(session.scenario, session.seed, session.battle.log.records, "blue", d, 4)
    assert len(prefixes) == 4 * 5   # four rollouts of the person's orders and of each of the menu's four
    assert all(turn == 5 and prefix == lines[:d.index] for turn, prefix in prefixes)
    assert [o.name for o in judged.options] == ["yours", *CHOICES]
    assert judged.yours.orders == {"b1": "hold", "s1": "seek_cover"}
    menu = [o for o in judged.options if not o.yours]
    assert judged.best == max(menu, key=lambda o: o.mean).name
    assert all(o.rollouts == 4 and -1 <= o.mean <= 1 for o in judged.options)


def test_orders_that_are_a_menu_choice_are_that_option():
    session = _played()
    judged = judge(session.scenario, session.seed, session.battle.log.records, "blue", session.decisions[-1], 2)
    assert [(o.name, o.yours) for o in judged.options] == [("plan", True), ("hold", False), ("fall_back", False),
                                                          ("seek_cover", False)]


def test_the_same_clicks_give_the_same_log_and_other_clicks_another(tmp_path):
    from sim.viz import play

    def clicks(orders):
        board = play(str(PLAY), side="blue", seed=4, debrief_rollouts=2)
        k = 0
        while not board.state["over"]:
            board.orders = orders[k] if k < len(orders) else {}   # what the End phase button sends
            board.ended = board.ended + 1
            k += 1
        return board

    one, two = clicks(ORDERS), clicks(ORDERS)
    assert one.log_jsonl == two.log_jsonl == _played().battle.log.text().decode()
    assert one.debrief == two.debrief and one.debrief[-1].startswith("Your orders scored as well as")
    assert sum(line.startswith("Turn ") for line in one.debrief) == len(one.session.decisions) == 7
    other = clicks([{"b1": "fall_back"}, *ORDERS])
    assert other.log_jsonl != one.log_jsonl
    one.save_log(tmp_path / "battle.jsonl")
    assert (tmp_path / "battle.jsonl").read_text(encoding="utf-8") == one.log_jsonl
    back = EventLog.read_jsonl(tmp_path / "battle.jsonl")
    assert back.text() == one.session.battle.log.text()
    assert json.loads(one.log_jsonl.splitlines()[-1])["event"] == "end"


def test_the_board_shows_each_phase_and_the_planners_answer():
    from sim.viz import play

    board = play(str(PLAY), side="blue", seed=4, debrief_rollouts=2)
    assert board.state["turn"] == 1 and [c["name"] for c in board.state["controls"]] == ["b1", "s1"]
    assert board.replay == "" and board.story == []
    names = [n[0] for n in board.nodes]
    assert {"START", "SAFE", "OBJ"} <= set(names) and "4,4" not in names   # SAFE stands where the grid's 4,4 does
    board.end_phase({"b1": "to SAFE"})
    assert board.state["turn"] == 3 and board.orders == {}
    assert board.story[0] == "Your orders: b1 go to SAFE."
    assert "b1 reached SAFE." in " ".join(board.story)
    assert board.answers[0].startswith("Red's planner, turn 2: it chose all its units: ")
    assert "in 8 rollouts" in board.answers[1]
    assert len(board.answers) == 2 + 4 and all(" over 2 rollouts" in a for a in board.answers[2:])
    assert 'class="sim-replay"' in board.replay
    b1 = next(u for u in board.state["units"] if u["id"] == "b1")
    assert b1["node"] == "SAFE"


def test_bad_input_is_one_input_error():
    from sim.viz import play

    with pytest.raises(sim.InputError, match="side: expected one of blue, red"):
        play(str(PLAY), side="green")
    with pytest.raises(sim.InputError, match="red has a planner"):
        play(str(PLAY), side="red")
    with pytest.raises(sim.InputError, match=r"policies\.red\.decide: no other side has a planner"):
        play(str(SCENARIOS / "kill_zone_run.yaml"), side="blue")
    with pytest.raises(sim.InputError, match="seed"):
        play(str(PLAY), seed=-1)
    with pytest.raises(sim.InputError, match="debrief_rollouts"):
        play(str(PLAY), debrief_rollouts=0)
    board = play(str(PLAY), side="blue", seed=1)
    with pytest.raises(sim.InputError, match="orders: no unit or group 'r1' of blue"):
        board.orders = {"r1": "hold"}
    with pytest.raises(sim.InputError, match=r"orders\.b1: expected one of plan, hold"):
        board.orders = {"b1": "run"}
    with pytest.raises(sim.InputError, match=r"orders\.b1: expected"):
        board.orders = {"b1": "to NOWHERE"}
    with pytest.raises(sim.InputError, match="ended: expected 1"):
        board.ended = 2
    assert board.ended == 0 and board.state["turn"] == 1 and board.refused == ""
    session = _played()
    with pytest.raises(sim.InputError, match="the battle is over"):
        session.end_phase({})


def test_a_replayed_battle_with_a_planner_is_still_refused_unless_a_person_plays_it():
    scenario = sim.load_scenario(str(PLAY))
    replay = replay_module.Replay(scenario, 1)
    with pytest.raises(sim.InputError, match=r"policies\.red\.decide: a side that plans cannot also be branched"):
        replay.run()


def test_sim_viz_loads_no_widget_until_play_is_used():
    code = ("import sys, sim.viz\nassert 'anywidget' not in sys.modules and 'sim.viz.play_board' not in sys.modules\n"
            "assert 'play' in sim.viz.__all__\nf = sim.viz.play\nassert 'anywidget' in sys.modules\n"
            "assert f.__module__ == 'sim.viz.play_board'\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr


def test_every_record_of_a_played_battle_is_of_its_declared_type():
    from sim.systems.registry import REGISTRY

    session = _played()
    check = REGISTRY.records.checker(session.scenario.composition)
    records = session.battle.log.records
    assert [check(r) for r in records] == [None] * len(records)
    assert any("orders" in r for r in records)


def test_a_group_sent_to_a_node_goes_in_its_formation_and_the_rollouts_give_it_again(prefixes):
    from sim.space.route_planners import offset_node

    scenario = sim.apply_overrides(sim.load_scenario(str(SCENARIOS / "platoon_attack.yaml")), {
        "policies": {"red": {"decide": {"policy": "mcts", "rollouts": 2, "depth": 1, "by": "side"}}},
        "groups.support.formation": {"s2": [0, 10], "s3": [0, -10]}})
    session = Session(scenario, "blue", 2)
    assert [(c.name, c.units) for c in session.controls()] == [("assault", ("a1", "a2", "a3")),
                                                               ("support", ("s1", "s2", "s3"))]
    session.end_phase({"support": "to FIRE"})
    told = {r["unit"]: r["choice"] for r in session.battle.log.records if r.get("policy") == PLAYER and "unit" in r}
    places = {"s1": "FIRE", "s2": offset_node(scenario.map, "FIRE", [0, 10]),
              "s3": offset_node(scenario.map, "FIRE", [0, -10])}
    assert told == {u: f"to {p}" for u, p in places.items()} and len(set(places.values())) == 3
    session.end_phase({"assault": "hold"})
    lines = list(session.battle.log.lines())
    decided = next(i for i, r in enumerate(session.battle.log.records) if r.get("rollouts") and r["turn"] == 4)
    assert [p for turn, p in prefixes if turn == 4] == [lines[:decided]] * 2


def _from_the_page(board, state: dict) -> list[dict]:
    """``state`` as the front end sends it (a comm message to the widget); what the widget sent back."""
    sent: list[dict] = []
    board._send = lambda msg, buffers=None: sent.append(msg)
    board._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
                       "buffers": []})
    return [m for m in sent if m["method"] == "update"]


def test_a_refused_message_from_the_page_is_told_on_the_board_and_the_page_set_back():
    from sim.viz import play

    board = play(str(PLAY), side="blue", seed=4, debrief_rollouts=2)
    log = board.log_jsonl
    # an order the unit cannot carry out, with its End phase: neither is taken
    back = _from_the_page(board, {"orders": {"b1": "run"}, "ended": 1})
    assert board.refused.startswith("orders.b1: expected one of plan, hold") and "'run'" in board.refused
    assert board.ended == 0 and board.orders == {} and board.state["turn"] == 1 and board.log_jsonl == log
    # the page is sent what Python holds, then why (the page reads the orders when it is told)
    assert [m["state"] for m in back] == [{"classroom": False, "ended": 0, "orders": {}}, {"refused": board.refused}]
    # the same refusal again is told again: cleared, then set (the page sees both changes)
    again = _from_the_page(board, {"orders": {"b1": "run"}, "ended": 1})
    assert [m["state"]["refused"] for m in again if "refused" in m["state"]] == ["", board.refused]
    for bad, told in (({"ended": 2}, "ended: expected 1 (one more phase ended), got 2"),
                      ({"state": {}}, "state: is the engine's to set, not the front end's"),
                      ({"orders": {"r1": "hold"}, "ended": 1}, "orders: no unit or group 'r1' of blue")):
        _from_the_page(board, bad)
        assert board.refused.startswith(told) and board.ended == 0 and board.state["turn"] == 1
    # the next message taken clears it
    _from_the_page(board, {"orders": {"b1": "to SAFE"}, "ended": 1})
    assert board.refused == "" and board.state["turn"] == 3 and board.story[0] == "Your orders: b1 go to SAFE."
    # from Python the same values still raise
    with pytest.raises(sim.InputError, match=r"orders\.b1: expected one of plan"):
        board.orders = {"b1": "run"}
    assert board.refused == ""
