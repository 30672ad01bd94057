"""The timelines draw a sniper team's life as its log says: before its first transition it
stands where that transition's ``state_from`` says (off the board, in a reserve), never
hidden, and after each record with a ``state`` it is in that state (every shipped scenario
with sniper teams, at several seeds)."""
from __future__ import annotations

import pytest

import sim
from conftest import SCENARIOS
from sim import viz

WITH_TEAMS = ["village_sniper", "crossing_sniper"]


def _expected(records, unit, end, start):
    """(state, start, end) spans from the unit's own lifecycle records alone (``start``:
    its state when no record says one)."""
    states = [(r["t"], r["state"], r.get("state_from")) for r in records
              if r.get("unit") == unit and isinstance(r.get("state"), str)]
    spans, state, since = [], states[0][2] if states else start, 0.0
    for t, new, _ in states:
        if new != state:
            if t > since:
                spans.append((state, since, t))
            state, since = new, t
    if end > since or state in ("eliminated", "killed"):
        spans.append((state, since, end))
    return spans


@pytest.mark.parametrize("name", WITH_TEAMS)
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_teams_lifecycle_is_drawn_as_its_records_say(name, seed):
    scenario = sim.load_scenario(str(SCENARIOS / f"{name}.yaml"))
    log = sim.run(scenario, seed=seed).log
    records = log.records
    end = records[-1]["t"]
    checked = 0
    for with_scenario in (scenario, None):   # from the scenario's start states, and from the log alone
        drawn = {}
        for s in viz.unit_states(log, with_scenario):
            if s.lane == "lifecycle":
                drawn.setdefault(s.unit, []).append((s.state, s.start, s.end))
        for unit, spans in drawn.items():
            place = next(r for r in records if r["event"] == "place" and r["unit"] == unit)
            start = "hidden" if place["on_board"] else "off_board"
            spec = next(sp for _, sp in scenario.units() if sp.id == unit)
            if with_scenario is not None and getattr(spec, "sniper_team", None) and not place["on_board"]:
                start = spec.sniper_team.start   # off_board or reserve, as the scenario says
            assert spans == _expected(records, unit, end, start), (unit, with_scenario is not None)
            checked += 1
    assert checked >= 2   # every one of these scenarios has a sniper team, drawn both ways


def test_a_team_set_up_off_the_board_is_not_drawn_hidden():
    """The H17 sniper is off the board until its activation (lesson 02 showed it hidden
    from t = 0)."""
    log = sim.run(str(SCENARIOS / "village_sniper.yaml"), seed=1).log
    place = next(r for r in log.records if r["event"] == "place" and r["unit"] == "sniper")
    assert place["on_board"] is False
    first = next(s for s in viz.unit_states(log) if s.unit == "sniper" and s.lane == "lifecycle")
    assert first.state == "off_board" and first.start == 0.0


def test_the_replay_does_not_show_a_team_while_it_is_off_the_board():
    """In the replay the off-board H17 sniper stood on the table (drawn as a hidden ring)
    from t = 0; it is drawn only from its activation."""
    from sim.viz.replay import replay_data

    scenario = sim.load_scenario(str(SCENARIOS / "village_sniper.yaml"))
    log = sim.run(scenario, seed=2).log
    activated = [r["t"] for r in log.records if r["event"] == "activate"]
    data, _, _ = replay_data(scenario, log, frames=40)
    k = [u["id"] for u in data["units"]].index("sniper")
    shown = [t for t, row in zip(data["t"], data["pos"]) if row[k] is not None]
    assert activated and shown and min(shown) >= activated[0]
    assert any(t < activated[0] for t in data["t"])   # frames before it, where it is not drawn


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_going_to_ground_is_its_own_state_until_the_unit_moves_again(seed):
    """Going to ground was a blank gap on the timelines, the same as 'not this unit's phase'."""
    scenario = sim.apply_overrides(sim.load_scenario(str(SCENARIOS / "platoon_attack.yaml")),
                                   {"policies.blue.on_fired": {"policy": "go_to_ground", "turns": 2}})
    records = sim.run(scenario, seed=seed).log.records
    holds = [r for r in records if r["event"] == "decide" and r.get("trigger") == "fired_on"
             and r["choice"].startswith("hold")]
    assert holds
    spans = [s for s in viz.unit_states(records, scenario) if s.state == "gone_to_ground"]
    for d in holds:
        (span,) = [s for s in spans if s.unit == d["unit"] and s.start == d["t"]]
        ends = [r["t"] for r in records if r["t"] > d["t"] and r.get("unit") == d["unit"]
                and (r["event"] in ("move", "eliminate") or r["event"] == "decide"
                     and r["choice"].startswith("resume"))]
        assert span.end == (ends[0] if ends else records[-1]["t"])
