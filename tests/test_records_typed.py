"""Every record is of its declared type: the event log's records, audited against the TypedDicts
the kernel, the base games and the rule modules declare (``sim.records``, each part's
``records``, read through ``REGISTRY.records``).

The audit plays every shipped scenario (and the rule variants ``benchmarks/shipped_logs.py``
writes logs of) and the benchmarks' fight cases under each ruleset at a few seeds, and
checks every record: its event is declared, its required keys are there, it has no key its
type does not declare, and each value is of its key's type (``sim.record_check``).
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any, NotRequired

import pytest

import sim
from conftest import SCENARIOS, benchmark
from sim.engine.battle import Battle
from sim.errors import InputError
from sim.events import CONTRACT_KEYS, CORE_EVENTS, HALT
from sim.record_check import mismatch, problem, shape
from sim.records import KERNEL_RECORDS, Record, Roll, UnitRecord
from sim.replication import run_battle
from sim.scenario.load import apply_overrides, load_scenario, scenario_from_dict
from sim.systems.games import ModulePlay, RuleModule
from sim.systems.registry import REGISTRY, builtin_rulesets, events_of, get_system, register, unregister

SEEDS = range(1, 4)


CASES = benchmark("cases")
VARIANTS = benchmark("shipped_logs").VARIANTS


def _shipped() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        if re.search(r"^study:", path.read_text(encoding="utf-8"), re.M):
            continue
        out += [(f"{path.stem}.v{i}", overrides) for i, overrides in enumerate([{}, *VARIANTS.get(path.stem, [])])]
    return out


def _fights() -> dict[str, Callable[[], dict[str, Any]]]:
    table = {f"fight-{r}": (lambda r=r: CASES.fight(8, r, turns=8)) for r in ("snapfire", "fow", "too")}
    hexes = {f"hex_fight-{r}": (lambda r=r: CASES.hex_fight(8, r)) for r in ("snapfire", "h17")}
    return {**table, **hexes}


def audit(scenario: Any, seeds: range = SEEDS) -> list[str]:
    """Every record of ``scenario``'s battles at ``seeds`` that is not of its declared type."""
    check = REGISTRY.records.checker(scenario.composition)
    found = []
    for seed in seeds:
        for i, record in enumerate(run_battle(scenario, seed).log.records):
            said = check(record)
            if said is None and tuple(record)[:len(CONTRACT_KEYS)] != CONTRACT_KEYS:
                said = f"keys {list(record)[:6]}: expected the contract keys {list(CONTRACT_KEYS)} first"
            if said is not None:
                found.append(f"seed {seed} record {i} ({record['event']}): {said}")
    return found


# -- the audit ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("label", "overrides"), _shipped(), ids=[label for label, _ in _shipped()])
def test_every_record_of_a_shipped_scenario_is_of_its_declared_type(label, overrides):
    scenario = apply_overrides(load_scenario(SCENARIOS / f"{label.split('.')[0]}.yaml"), overrides)
    assert audit(scenario) == []


@pytest.mark.parametrize("case", _fights())
def test_every_record_of_a_benchmark_fight_is_of_its_declared_type(case):
    assert audit(scenario_from_dict(_fights()[case]())) == []


def test_the_fow_base_with_the_snap_fire_module_writes_only_declared_records():
    scenario = load_scenario(SCENARIOS / "sniper_screen.yaml")
    assert [p.name for p in scenario.composition.parts] == ["fow", "snapfire"]
    assert audit(scenario, range(1, 9)) == []


def test_a_record_with_an_undeclared_key_a_missing_key_or_a_value_of_another_type_is_refused():
    scenario = load_scenario(SCENARIOS / "sniper_screen.yaml")
    check = REGISTRY.records.checker(scenario.composition)
    records = run_battle(scenario, 3).log.records
    halt = next(r for r in records if r["event"] == HALT)
    hit = next(r for r in records if r["event"] == "hit" and "cause" in r)
    assert check(halt) is None and check(hit) is None
    assert check({**halt, "bogus": 1}) == "key 'bogus', which SnapHaltRecord does not declare"
    assert check({k: v for k, v in halt.items() if k != "firer"}) == "no key 'firer', which SnapHaltRecord requires"
    assert check({**halt, "dist": 3}) == "key 'dist' is 3 (int), where SnapHaltRecord declares float"
    assert "declares tuple[float, float]" in check({**halt, "pos": list(halt["pos"])})
    assert "declares str | None" in check({**hit, "by": 7})
    assert check({**hit, "cause": "SF.ROLL"}) is None                       # an optional key, given
    assert check({k: v for k, v in hit.items() if k != "cause"}) is None    # and left out
    assert check({**halt, "event": "teleport"}) == \
        "event 'teleport' is declared by none of fow+snapfire's parts nor the kernel"
    # an event several parts write is checked against each of its types
    move = next(r for r in records if r["event"] == "move")
    said = check({**move, "extra": True})
    assert "key 'extra', which MoveRecord does not declare" in said
    assert "ChargeMoveRecord requires" in said and "LeaveZoneRecord requires" in said   # no 'reason


def test_the_audit_fails_when_a_rule_writes_a_key_its_record_type_does_not_declare(monkeypatch):
    scenario = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    assert audit(scenario, range(1, 2)) == []
    plain = Battle.record

    def with_a_key_more(self, event, rule=None, **fields):
        return plain(self, event, rule, **fields, **({"colour": "red"} if event == HALT else {}))

    monkeypatch.setattr(Battle, "record", with_a_key_more)
    found = audit(scenario, range(1, 2))
    assert found and all("(halt): key 'colour', which SnapHaltRecord does not declare" in f for f in found)


def test_a_bool_is_no_int_and_an_int_no_float():
    record = {"t": 0.0, "turn": 1, "side": "blue", "phase": "setup", "event": "end", "rule": None,
              "winner": None, "reason": "turns"}
    assert problem(record, KERNEL_RECORDS["end"]) is None
    assert problem({**record, "turn": True}, KERNEL_RECORDS["end"]) == \
        "key 'turn' is True (bool), where EndRecord declares int"
    assert problem({**record, "t": 0}, KERNEL_RECORDS["end"]) == "key 't' is 0 (int), where EndRecord declares float"
    assert mismatch(record, []) == "no declared type"


# -- the declarations -----------------------------------------------------------------------------
def test_every_event_a_built_in_ruleset_may_write_has_a_declared_type():
    assert set(KERNEL_RECORDS) == CORE_EVENTS
    declared = list(REGISTRY.records)   # the kernel's, then every registered part's
    assert {(t.event, t.kind) for t in declared} >= {(e, k) for e, k in KERNEL_RECORDS.items()}
    assert all(tuple(f.name for f in shape(t.kind).fields[:6]) == CONTRACT_KEYS for t in declared)
    for name in builtin_rulesets():
        composition = get_system(name)
        typed = REGISTRY.records.of(composition)
        assert events_of(composition) == set(typed), name
        assert {t.kind for types in typed.values() for t in types} <= {t.kind for t in declared}, name
        for part in composition.parts:
            assert part.events == frozenset(), part.name   # every built-in event is typed


# -- a plug-in's records ------------------------------------------------------------------------
class BeamRecord(UnitRecord, Roll):
    """``beam``: a test module's roll at a mover."""

    bearing: float
    note: NotRequired[str]


class BeamHalt(UnitRecord):
    """``halt``: the test module's halt."""

    beam: str


class BeamPlay(ModulePlay):
    """Writes one ``beam`` record at the first phase."""

    def phase_starts(self, battle, phase):
        if phase.turn == 1 and phase.phase == "movement":
            unit = battle.units_of("blue")[0]
            battle.record("beam", rule=None, unit=unit.id, pos=unit.pos, node=unit.node, dice=[4], mods=0,
                          need=3, success=True, bearing=90.0)


def _module(**kw: Any) -> RuleModule:
    return RuleModule(**{"name": "beam_test", "title": "A test module", "play": BeamPlay, **kw})


@pytest.fixture
def beam_module():
    module = register(_module(records={"beam": BeamRecord, HALT: BeamHalt}))
    yield module
    unregister(RuleModule, module.name)


def _with_module(doc: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    base = doc.pop("ruleset", "snapfire")
    doc["base"], doc["modules"] = ("skirmish", ["snapfire"]) if base == "snapfire" else (base, [])
    doc["modules"].append("beam_test")
    return doc


def test_a_module_declares_its_records_and_they_are_checked(beam_module):
    scenario = scenario_from_dict(_with_module(CASES.fight(8, "fow", turns=2)))
    types = REGISTRY.records.of(scenario.composition)
    assert [t.kind for t in types["beam"]] == [BeamRecord]
    assert [t.declared_by for t in types[HALT]] == ["rule module 'beam_test'"]
    assert audit(scenario, range(1, 2)) == []
    check = REGISTRY.records.checker(scenario.composition)
    (beam,) = [r for r in Battle(scenario, 1).run().log.records if r["event"] == "beam"]
    assert check({**beam, "note": "a note"}) is None
    assert check({**beam, "radius": 1.0}) == "key 'radius', which BeamRecord does not declare"


def test_a_halt_a_module_declares_lets_a_plan_wait_for_a_halt(beam_module):
    doc = CASES.fight(8, "fow", turns=2)
    doc["policies"] = {"blue": {"on_halted": {"policy": "go_to_ground", "turns": 2}}}
    with pytest.raises(InputError, match="never halts a unit"):
        scenario_from_dict(copy.deepcopy(doc))
    assert HALT in events_of(scenario_from_dict(_with_module(doc)).composition)


def test_a_plugin_that_names_its_events_alone_still_loads_and_its_records_need_the_contract_keys():
    module = register(_module(events=frozenset({"beam", HALT})))
    try:
        scenario = scenario_from_dict(_with_module(CASES.fight(8, "fow", turns=2)))
        assert "beam" in events_of(scenario.composition) and "beam" not in REGISTRY.records.of(scenario.composition)
        assert audit(scenario, range(1, 2)) == []
        check = REGISTRY.records.checker(scenario.composition)
        assert check({"event": "beam", "anything": 1}) == "no contract keys ['t', 'turn', 'side', 'phase', 'rule']"
        # a halt of its own, beside snap fire's typed one: the contract keys are enough
        with_snap_fire = scenario_from_dict(_with_module(CASES.fight(8, "snapfire", turns=2)))
        halt = {"t": 1.0, "turn": 1, "side": "blue", "phase": "movement", "event": HALT, "rule": None, "beam": "b"}
        assert REGISTRY.records.checker(with_snap_fire.composition)(halt) is None
    finally:
        unregister(RuleModule, module.name)


class NoContract(Roll):
    """Not a record: no contract keys."""


class Uncheckable(Record):
    """A key of a type no record can be checked against."""

    hook: Callable[[int], int]


@pytest.mark.parametrize(("records", "said"), [
    ({"beam": dict}, "records['beam']: 'dict' is not a TypedDict"),
    ({"beam": BeamRecord()}, "records['beam']: {} is not a TypedDict"),
    ({"beam": NoContract}, "records['beam']: NoContract does not begin with the contract keys"),
    ({"beam": Uncheckable}, "records['beam']: key 'hook' has the type"),
    ({"": BeamRecord}, "'records' key '': expected an event name"),
    ([("beam", BeamRecord)], "'records' is a list; expected a dict of event names"),
])
def test_a_malformed_records_declaration_is_refused_in_one_line(records, said):
    with pytest.raises(sim.PluginError) as err:
        register(_module(records=records))
    line = str(err.value)
    assert "rule module 'beam_test'" in line and said in line and "\n" not in line, line
    assert "beam_test" not in REGISTRY.modules


class MisdeclaredBeam(UnitRecord, Roll):
    """``beam``, declared with an integer bearing, where the play writes a float."""

    bearing: int


def test_the_plugin_self_check_reports_a_record_not_of_its_declared_type():
    from sim.systems.selfcheck import self_check

    module = register(_module(records={"beam": MisdeclaredBeam}))
    try:
        assert self_check(module, range(1, 3)) == [
            "a 'beam' record of the self-check battle 'advance' at seed 1 is not of a type declared for it: "
            "key 'bearing' is 90.0 (float), where MisdeclaredBeam declares int"]
        assert self_check(register(_module(records={"beam": BeamRecord}), replace=True), range(1, 3)) == []
    finally:
        unregister(RuleModule, module.name)
