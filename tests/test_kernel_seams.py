"""What a base game declares through the door a plug-in uses, and the kernel only asks:
step types of its own (``BaseGame.step_moves``), unit kinds and flags of its own (its
unit keys), and a mover's process (the movement finds it; nothing is set by hand)."""
from __future__ import annotations

from typing import Literal

import pytest
from pydantic import Field

import sim
import sim.plugin as sp
from conftest import ROOT, register_game, scenario, table, unit
from movers import MoveEveryMover, run_under
from sim.experimental import unregister_behaviour, unregister_system

LANE = {"A": (0.0, 50.0), "B": (200.0, 50.0), "FAR": (190.0, 95.0)}
MOVING = (sp.PhaseSpec("go", moves=True), sp.PhaseSpec("rest"))


class DashOrders(sp.Knobs):
    """A test system's orders: the step type ``dash`` (two moves a phase)."""

    type: Literal["hold", "advance", "dash"] = Field("hold", description="hold, advance or dash")


def _lane(step: str, **kw):
    return scenario(table(LANE, [("A", "B")]), [unit("b", "A", move=30, orders={"type": step, "to": "B"}, **kw)],
                    [unit("far", "FAR")], turns=1, destroy=False)


def _moves(log):
    return [(r["move"], r["t"]) for r in log if r["event"] == "move"]


def test_a_step_type_of_a_systems_own_makes_the_moves_it_declares():
    """``step_moves={"dash": 2}``: a dash makes two moves in a moving phase, each in its half
    of it; an advance one. (Before, only the kernel's ``march`` could make more than one.)"""
    log = run_under("dash_test", MOVING, _lane("dash"), order_keys=DashOrders, step_moves={"dash": 2})
    assert _moves(log) == [(1, 0.0), (2, 0.5)]
    log = run_under("dash_test", MOVING, _lane("advance"), order_keys=DashOrders, step_moves={"dash": 2})
    assert _moves(log) == [(1, 0.0)]


@pytest.mark.parametrize("step_moves", [{"dash": 0}, {"dash": 13}, {"dash": 2.0}, {"fly": 2}, {"hold": 2},
                                        [("dash", 2)]])
def test_step_moves_that_cannot_be_read_are_refused_at_registration(step_moves):
    with pytest.raises(sim.PluginError, match="step_moves"):
        register_game(sp.BaseGame(name="dash_test", title="t", phases=MOVING, game=MoveEveryMover,
                                  order_keys=DashOrders, step_moves=step_moves))
    assert "dash_test" not in sim.system_names()


def test_march_is_snap_fires_own_step_type():
    """SF.MARCH is declared by snap fire; a system that does not declare it refuses it."""
    data = _lane("march")
    assert sim.scenario_from_dict(data).ruleset == "snapfire"
    with pytest.raises(sim.InputError, match=r"forces\.blue\.0\.orders\.type.*'hold' or 'advance'"):
        sim.scenario_from_dict({**data, "ruleset": "too"})


def test_no_snap_fire_is_snap_fires_flag_and_figure_is_toos_kind():
    data = _lane("advance", flags=["no_snap_fire"])
    assert sim.scenario_from_dict(data).forces["blue"][0].flags == ["no_snap_fire"]
    with pytest.raises(sim.InputError, match=r"forces\.blue\.0\.flags\.0.*'pinned' or 'hidden'"):
        sim.scenario_from_dict({**data, "ruleset": "too"})
    figure = _lane("advance", kind="figure")
    assert sim.scenario_from_dict({**figure, "ruleset": "too"}).forces["blue"][0].kind == "figure"
    with pytest.raises(sim.InputError, match=r"forces\.blue\.0\.kind"):
        sim.scenario_from_dict(figure)


class HaltAtTen(sp.Watch):
    """Every enemy halts a mover 10 cm out (the movement closes the move)."""

    rule = "SF.HALT"
    radius = 10.0

    def reactors(self, battle, side):
        return battle.enemies_of(side)

    def react(self, battle, mover, trigger):
        return sp.Outcome.HALT_MOVE


class StartsMovesBare(MoveEveryMover):
    """Starts each move as ``env.process(sp.movement_process(...))``, setting nothing on the unit."""

    def on_phase(self, battle, phase):
        battle.referee.begin_phase()
        if phase.moves:
            for u in battle.movers_of(phase.side):
                battle.env.process(sp.movement_process(battle, u, phase))


def _halting_game() -> StartsMovesBare:
    return StartsMovesBare(lambda: [HaltAtTen()])


def test_a_move_started_without_setting_the_units_process_is_halted_exactly():
    """A plug-in author's first battle crashed with ``'NoneType' object has no attribute
    'is_alive'``: the referee interrupted ``unit.process``, which only the built-in games
    set by hand. The movement now finds the process it runs in."""
    data = scenario(table({"A": (0.0, 50.0), "B": (100.0, 50.0)}, [("A", "B")]),
                    [unit("b", "A", move=100, orders={"type": "advance", "to": "B"})], [unit("r", "B")],
                    turns=1, destroy=False)
    register_game(sp.BaseGame(name="bare_test", title="t", phases=MOVING,
                              game=_halting_game))
    try:
        log = sim.run(sim.scenario_from_dict({**data, "ruleset": "bare_test"}), seed=1).log
    finally:
        unregister_system("bare_test")
    (stop,) = [r for r in log if r["event"] == "stop"]
    assert stop["reason"] == "halted" and tuple(stop["pos"]) == (90.0, 50.0) and stop["t"] == pytest.approx(0.9)


def _lane_with_a_sentry(policy: str) -> dict:
    """b advances A→B (turn 1) past a red sentry's snap-fire radius; fired on, it reacts by ``policy``."""
    wp = {"A": (0.0, 50.0), "M": (30.0, 50.0), "B": (100.0, 50.0), "S": (50.0, 55.0)}
    return scenario(table(wp, [("A", "M"), ("M", "B")]),
                    [unit("b", "A", move=200, armour=7, orders={"type": "advance", "to": "B"})],
                    [unit("s", "S", armour=7)], turns=3, destroy=False,
                    rules={"snapfire": {"radius": 10}}) | {"policies": {"b": {"on_fired": {"policy": policy}}}}


def test_a_reaction_policy_sees_only_public_objects_and_answers_a_response():
    """``reaction_move`` behaviours were called ``choose(plans, runner, policy)`` and acted
    by calling the plans' internals; now ``(battle, unit, policy) -> sim.plugin.Response``."""
    seen = []

    def back_to_m(battle, unit, policy):
        seen.append((type(battle).__name__, isinstance(unit, sp.Unit), type(policy).__name__))
        return sp.Response.move_to("M", "back to M")

    sp.register(sp.Behaviour(sp.REACTION_MOVE, "back_to_m", back_to_m, "to M"))
    try:
        log = sim.run(sim.scenario_from_dict(_lane_with_a_sentry("back_to_m")), seed=1).log
    finally:
        unregister_behaviour(sp.REACTION_MOVE, "back_to_m")
    assert seen and seen[0] == ("Battle", True, "MovePolicy")
    (d,) = [r for r in log if r["event"] == "decide" and r["trigger"] == "fired_on"]
    assert d["choice"] == "back to M" and d["policy"] == "back_to_m"
    assert [r["node"] for r in log if r["event"] == "arrive" and r["unit"] == "b"][0] == "M"


def test_a_reaction_policy_that_answers_anything_else_is_one_plugin_error():
    def says(battle, unit, policy):
        return "carry on"   # the old seam: a bare string

    sp.register(sp.Behaviour(sp.REACTION_MOVE, "says", says))
    try:
        expected = r"reaction policy 'says' gave b 'carry on' \(expected a sim\.plugin\.Response"
        with pytest.raises(sim.PluginError, match=expected):
            sim.run(sim.scenario_from_dict(_lane_with_a_sentry("says")), seed=1)
    finally:
        unregister_behaviour(sp.REACTION_MOVE, "says")


class RadiusKnobs(sp.Knobs):
    """A test system's knobs: the radius its pictures draw."""

    reach: float = 7.5


def _radius_of(knobs):
    return (knobs.reach, f"{type(knobs).__name__} reach") if isinstance(knobs, RadiusKnobs) else None


def test_reaction_radius_is_given_the_systems_own_knobs():
    """It was handed the whole ``rules`` (``.base``, ``.<name>``), against its documentation."""
    from sim.viz.common import reaction_radius

    register_game(sp.BaseGame(name="radius_test", title="t", phases=MOVING, game=MoveEveryMover,
                              knobs=RadiusKnobs, reaction_radius=_radius_of))
    try:
        s = sim.scenario_from_dict({**_lane("advance"), "ruleset": "radius_test",
                                    "rules": {"radius_test": {"reach": 3.0}}})
        assert reaction_radius(s) == (3.0, "RadiusKnobs reach")
    finally:
        unregister_system("radius_test")


def test_every_type_a_rule_meets_is_a_documented_name_of_sim_plugin():
    """A plug-in author found the referee, the dice and the clock only through
    ``help(type(...))``: every type ``BattleContext`` hands out is a name of ``sim.plugin``
    (the scenario, of ``sim``), each public member documented, and ``docs/extending.md``
    lists them (generated)."""
    import typing

    from sim.reference.extension import SURFACE, surface

    names = {name: getattr(sim, name) for name in sim.__all__} | vars(sp)   # (sim's load at first use)
    hints = typing.get_type_hints(sp.BattleContext, names | {"simpy": __import__("simpy")})
    handed_out = {getattr(t, "__name__", None) for t in hints.values()} - {"str", "Environment", "Event", None}
    space = names | {"Any": typing.Any}
    for name in ("referee", "plans", "scenario", "game"):
        returned = typing.get_type_hints(getattr(sp.BattleContext, name).fget, space)["return"]
        handed_out.add((typing.get_origin(returned) or returned).__name__)
    assert {"Dice", "TurnClock", "Terrain", "EventLog", "RefereeView", "PlansView", "Scenario"} <= handed_out
    assert handed_out - {"Scenario"} <= set(sp.__all__), handed_out - set(sp.__all__)
    assert "Scenario" in sim.__all__ and set(SURFACE) <= set(sp.__all__), set(SURFACE) - set(sp.__all__)
    text = surface()
    undocumented = [line for line in text.splitlines() if line.startswith("- `") and line.endswith("`: ")]
    assert not undocumented, undocumented
    assert all(f"### `{name}`" in text for name in SURFACE)
    assert (ROOT / "docs" / "extending.md").read_text().count("### `") >= len(SURFACE)


def test_a_misspelt_key_of_a_plugin_points_to_its_schema_not_the_packages_docs():
    """docs/scenario.md lists the built-in systems' keys only; a plug-in's are in ``sim schema``."""
    register_game(sp.BaseGame(name="radius_test", title="t", phases=MOVING, game=MoveEveryMover,
                              knobs=RadiusKnobs))
    try:
        expected = r"allowed keys are listed in 'sim schema' \(rule system 'radius_test'\)"
        with pytest.raises(sim.InputError, match=expected):
            sim.scenario_from_dict({**_lane("advance"), "ruleset": "radius_test",
                                    "rules": {"radius_test": {"reeach": 3}}})
    finally:
        unregister_system("radius_test")
    with pytest.raises(sim.InputError, match=r"allowed keys are listed in docs/scenario\.md"):
        sim.scenario_from_dict({**_lane("advance"), "rules": {"snapfire": {"radiuss": 3}}})
