"""The rule catalogue: every rule ID, its title, and the code that applies it.

The bottom layer of ``sim``: it imports nothing of ``sim`` but the argument checks. It
names no rule: every base game, rule module and toolkit part with rules of its own adds its
IDs with ``define_rules``. Code that applies a rule is marked with ``@implements("X.HALT",
...)``, in any order with the IDs' definition (nothing depends on which module is imported
first): a part's declared ``rules`` must be defined when it is registered, and a mark
whose ID never is shows up in ``undefined_marks``. ``sim rules`` lists each ID with the
functions so marked (module and name), so the list can never drift from the code.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from sim import arguments

T = TypeVar("T")

#: Every defined rule ID and its title, in the order defined.
TITLES: dict[str, str] = {}

_IMPLEMENTED: dict[str, list[str]] = {}


def define_rules(titles: dict[str, str]) -> dict[str, str]:
    """Add rule IDs and their titles (a plug-in's own rules); returns ``titles``."""
    if not isinstance(titles, dict):
        raise arguments.fail("titles", "a dict of rule IDs to their titles", titles)
    for rule_id, title in titles.items():
        if not isinstance(rule_id, str) or not rule_id or not isinstance(title, str):
            raise arguments.fail("titles", "a non-empty rule ID and its title (strings)",
                                 f"{rule_id!r}: {title!r}")
        known = TITLES.get(rule_id)
        if known is not None and known != title:
            raise arguments.fail("titles", f"rule ID {rule_id} with its title {known!r} "
                                 "(it is defined already)", title)
        TITLES[rule_id] = title
    return titles


def implements(*ids: str) -> Callable[[T], T]:
    """Mark a function or class as the code that applies the given rule IDs (defined before or after)."""
    for rule_id in ids:
        if not isinstance(rule_id, str) or not rule_id:
            raise arguments.fail("ids", "rule IDs (non-empty strings)", rule_id)

    def mark(obj: T) -> T:
        where = f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"
        for rule_id in ids:
            places = _IMPLEMENTED.setdefault(rule_id, [])
            if where not in places:
                places.append(where)
        return obj

    return mark


def undefined_marks() -> dict[str, list[str]]:
    """Rule IDs code is marked with (``@implements``) that no ``define_rules`` has defined, with where."""
    return {rid: list(places) for rid, places in _IMPLEMENTED.items() if rid not in TITLES}


def title(rule_id: str) -> str:
    """The title of a rule ID (KeyError if it is not defined)."""
    return TITLES[rule_id]


def entries(first: Sequence[str] = ()) -> list[tuple[str, str, list[str]]]:
    """(ID, title, [where]) for every defined ID: those of ``first`` in order, then the rest.

    The rest come in definition order, which follows imports: pass the systems' declared
    IDs for an order that does not.
    """
    order = [*dict.fromkeys(rid for rid in first if rid in TITLES), *(rid for rid in TITLES if rid not in first)]
    return [(rid, TITLES[rid], list(_IMPLEMENTED.get(rid, []))) for rid in order]
