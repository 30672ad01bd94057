"""``sim validate --plugins``: a few short battles of each plug-in base game and rule
module, to catch what registers cleanly and still does nothing.

Each fights its ``example`` scenario (if it declares one) or small generated ones (two
units a side on a table: one where the attacker advances, one where both hold and the
battle is to the destruction; a module joins the skirmish base game), at a few seeds. Reported, one line
each: a referee watch whose radius is not positive (no mover ever comes within it), a
watch class of the plug-in's that no battle arms, a declared rule ID that no record names
and no die is rolled for, a record that is not of its event's declared type (the first of
each event: ``sim.record_check``), a battle that raises, and a system none of whose
scenarios loads.
Whatever the plug-in's code raises (``SystemExit`` included) is such a line, never a
traceback; only Ctrl-C (a ``KeyboardInterrupt``) stops the check, as it stops any command.
"""
from __future__ import annotations

import copy
import math
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from sim.agents.referee import Watch
from sim.engine.battle import Battle
from sim.errors import InputError
from sim.scenario.load import load_scenario, scenario_from_dict
from sim.scenario.schema import Scenario
from sim.systems.declarations import described
from sim.systems.games import BaseGame, RuleModule
from sim.systems.registry import REGISTRY

Part = BaseGame | RuleModule

SEEDS = range(1, 6)
_TABLE = {"kind": "table", "width": 100, "height": 50,
          "waypoints": {"W": [10, 25], "M": [50, 25], "E": [90, 25]}, "edges": [["W", "M"], ["M", "E"]]}


def _generated(part: Part) -> dict[str, dict[str, Any]]:
    """The generated self-check scenarios of a base game (alone) or a module (on the skirmish game)."""
    rules = {"base": part.name} if isinstance(part, BaseGame) else {"base": "skirmish", "modules": [part.name]}

    def doc(label: str, orders: dict[str, Any], victory: dict[str, Any]) -> dict[str, Any]:
        blue = [{"id": f"b{i}", "at": "W", "orders": orders} for i in (1, 2)]
        red = [{"id": f"r{i}", "at": "E"} for i in (1, 2)]
        return {"name": f"self_check_{label}", **rules, "turns": 6, "sides": ["blue", "red"],
                "terrain": copy.deepcopy(_TABLE), "forces": {"blue": blue, "red": red},
                "victory": {"attacker": "blue", **victory}}

    return {"advance": doc("advance", {"type": "advance", "to": "E"}, {"objective": "E", "destroy": True}),
            "hold": doc("hold", {"type": "hold"}, {"destroy": True})}


def _code(part: Part) -> Any:
    """What the part's own package makes: a base game's game, a module's play."""
    return part.game if isinstance(part, BaseGame) else part.play


def _example(system: Part) -> Scenario:
    """The part's declared example scenario (a path is relative to its game's or play's module)."""
    example = system.example
    if isinstance(example, Mapping):
        return scenario_from_dict(copy.deepcopy(dict(example)), f"rule system '{system.name}' example")
    path = Path(str(example))
    home = getattr(sys.modules.get(getattr(_code(system), "__module__", "")), "__file__", None)
    if not path.is_absolute() and home:
        path = Path(home).parent / path
    return load_scenario(path)


def _scenarios(system: Part) -> tuple[list[tuple[str, Scenario]], list[str]]:
    """(label, scenario) of each self-check scenario that loads, and why the others did not."""
    if system.example is not None:
        try:
            return [("example", _example(system))], []
        except InputError as err:
            return [], [f"its example scenario does not load ({err})"]
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - a plug-in's knob model may raise anything
            return [], [f"its example scenario does not load (loading it raised {described(exc)})"]
    loaded, refused = [], []
    for label, doc in _generated(system).items():
        try:
            loaded.append((label, scenario_from_dict(doc, f"self-check scenario '{label}'")))
        except InputError as err:
            refused.append(str(err))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - as above
            refused.append(f"self-check scenario '{label}': loading it raised {described(exc)}")
    return loaded, refused


def _plugin_watches(system: Part) -> list[type[Watch]]:
    """The watch classes defined in the package of the part's game or play."""
    top = str(getattr(_code(system), "__module__", "")).partition(".")[0]

    def walk(cls: type[Watch]) -> Iterator[type[Watch]]:
        for sub in cls.__subclasses__():
            yield sub
            yield from walk(sub)

    return sorted({c for c in walk(Watch) if c.__module__.partition(".")[0] == top},
                  key=lambda c: c.__qualname__)


def self_check(system: Part, seeds: range = SEEDS) -> list[str]:
    """The problems a few short battles of ``system`` show (one line each; none: it passed)."""
    try:
        return _battled(system, seeds)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a plug-in's code (a watch's radius, ...) raised
        return [f"the self-check raised {described(exc)}"]


def _battled(system: Part, seeds: range) -> list[str]:
    """``self_check``'s problems, where what the plug-in raises outside a battle propagates."""
    loaded, refused = _scenarios(system)
    if not loaded:
        reasons = "; ".join(refused)
        return [f"no self-check scenario loads ({reasons}): declare one as its example"]
    problems: list[str] = []
    applied: set[str] = set()
    armed: list[Watch] = []
    misfits: dict[str, str] = {}   # event -> the first of its records not of its declared type
    for label, scenario in loaded:
        check = REGISTRY.records.checker(scenario.composition)
        for seed in seeds:
            try:
                battle = Battle(scenario, seed).run()
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # noqa: BLE001 - a plug-in's failure is what is reported
                problems.append(f"the self-check battle '{label}' at seed {seed} raised {described(exc)}")
                continue
            for record in battle.log.records:
                event = str(record.get("event"))
                said = check(record) if event not in misfits else None
                if said is not None:
                    misfits[event] = (f"a '{event}' record of the self-check battle '{label}' at seed {seed} is "
                                      f"not of a type declared for it: {said}")
            applied.update(r["rule"] for r in battle.log.records if isinstance(r.get("rule"), str))
            # A rule whose dice were rolled was applied, even if no record names it.
            applied.update(rule for _, rule in battle.dice.keys())
            armed.extend(battle.referee.watches)
    seen: set[int] = set()
    for watch in armed:
        radius = watch.radius
        if id(type(watch)) not in seen and not (isinstance(radius, (int, float)) and math.isfinite(radius)
                                                and radius > 0):
            seen.add(id(type(watch)))
            problems.append(f"watch {type(watch).__qualname__} ({watch.rule or 'no rule'}) has radius "
                            f"{radius!r}: expected a positive number (no mover ever comes within it)")
    for cls in _plugin_watches(system):
        if not any(isinstance(w, cls) for w in armed):
            problems.append(f"watch {cls.__qualname__} is never armed in the self-check battles "
                            "(expected battle.referee.add(watch) in the game's setup or a phase)")
    problems.extend(misfits.values())
    never = [rid for rid in system.rules if rid not in applied]
    if never:
        problems.append(f"declared rules {never} appear in no record and roll no die in the "
                        f"self-check battles ({', '.join(label for label, _ in loaded)}, seeds "
                        f"{seeds.start}-{seeds.stop - 1})")
    return problems
