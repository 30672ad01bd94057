"""A plan's steps as the plans change and describe them: a step held in place, and the
words a ``decide`` record gives a step and its condition."""
from __future__ import annotations

from typing import Any


def hold_like(step: Any) -> Any:
    """The step as a ``hold`` (the same model, so every key the rule systems read is
    there), not charging: a unit that waits or goes to ground stands still."""
    if step.type == "hold":
        return step
    update: dict[str, Any] = {"type": "hold", "to": None, "via": []}
    if "charge" in type(step).model_fields:
        update["charge"] = False
    return step.model_copy(update=update)


def describe(step: Any) -> str:
    """A step in the words of a ``decide`` record (``advance to B via W (shortest route)``)."""
    if step.type == "hold":
        return "hold"
    via = f" via {', '.join(step.via)}" if step.via else ""
    kind = "charge" if getattr(step, "charge", False) and step.type == "advance" else step.type
    return f"{kind} to {step.to}{via} ({step.route} route)"


def describe_when(when: Any) -> str:
    """A step's condition in the words of a ``decide`` record's ``trigger``."""
    if when is None:
        return "the step before is done"
    parts = [f"{k} {v}" for k, v in when.model_dump(exclude_none=True).items() if k != "arrived"]
    if when.arrived is not None:
        a = when.arrived
        parts.insert(0, f"{a.unit or a.group} arrived at {a.at}")
    return ", ".join(parts) or "always"
