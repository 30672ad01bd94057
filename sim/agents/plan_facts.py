"""What the log says happened to each unit of a plan: the facts conditions and reactions
read (fired on, halted, pinned, lost a step, stood at a node), each with its event number."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sim.events import ARRIVE, HALT, HIT, MOVE, PIN, PLACE, STOP

#: The conditions' keys that count events of the log.
EVENT_FACTS = ("fired_on", "halted", "pinned", "lost_steps")


@dataclass
class Facts:
    """What the log says happened to one unit, each with the event number it came at."""

    fired_on: list[int] = field(default_factory=list)
    halted: list[int] = field(default_factory=list)
    pinned: list[int] = field(default_factory=list)
    lost_steps: list[int] = field(default_factory=list)
    stood_at: dict[str, int] = field(default_factory=dict)   # node -> first event there


def read_facts(records: Sequence[Mapping[str, Any]], start: int, facts: dict[str, Facts]) -> int:
    """Add what ``records[start:]`` say happened to the units of ``facts``; returns where it stopped."""
    for i in range(start, len(records)):
        r = records[i]
        ev, uid = r["event"], r.get("unit")
        if "dice" in r:
            for target in r.get("targets") or ([r["target"]] if r.get("target") else []):
                if target in facts:
                    facts[target].fired_on.append(i)
        if uid not in facts:
            continue
        f = facts[uid]
        if ev == HALT or (ev == STOP and r.get("reason") == "halted"):
            f.halted.append(i)
        elif ev == PIN:
            f.pinned.append(i)
        elif ev == HIT and r.get("steps_lost"):
            f.lost_steps.append(i)
        if ev in (ARRIVE, STOP, HALT, MOVE, PLACE) and r.get("node") is not None:
            f.stood_at.setdefault(r["node"], i)
    return len(records)


def reads_log(when: Any) -> bool:
    """Whether a condition waits on what the log says (events, arrivals)."""
    return when is not None and (when.arrived is not None or any(getattr(when, f) for f in EVENT_FACTS))
