"""Dotted key paths into a scenario document: what ``--set``, a study's variants and
``sim.apply_overrides`` set, and the checks that no key is given twice or inside another.
"""
from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from sim.errors import InputError
from sim.scenario.yamlfile import parse_yaml

__all__ = ["check_keys", "overlap", "parse_assignment", "parse_assignments", "set_path"]


def _index(part: str) -> int | None:
    """A list index in a key path: ASCII digits only (`int` would also take '²' or '٣')."""
    return int(part) if part.isascii() and part.isdigit() and len(part) <= 18 else None


def set_path(doc: dict[str, Any], dotted: str, value: Any, source: str) -> None:
    """Set ``value`` at the dotted key path in a document (``--set``'s meaning of a key)."""
    parts = dotted.split(".")
    if not dotted or any(p == "" for p in parts):
        raise InputError(f"'{dotted}' is not a key path (expected e.g. rules.base.phase_length)", file=source)
    parts = _plan_parts(doc, parts)
    node: object = doc   # a section (dict) or a list on the way down; the path may also end at a value
    for i, part in enumerate(parts[:-1]):
        key: Any = _index(part) if isinstance(node, list) else part
        if isinstance(node, list):
            if key is None or key >= len(node):
                raise InputError(f"no list item '{part}' (the list has {len(node)} items)",
                                 file=source, place=dotted)
            node = node[key]
        elif isinstance(node, dict):
            node = node.setdefault(key, {})
        else:
            raise InputError(f"'{'.'.join(parts[:i + 1])}' is a value, not a section", file=source, place=dotted)
    last = parts[-1]
    value = copy.deepcopy(value)   # the document's own: a later key never writes into the caller's
    if isinstance(node, list):
        index = _index(last)
        if index is None or index >= len(node):
            raise InputError(f"no list item '{last}' (the list has {len(node)} items)",
                             file=source, place=dotted)
        node[index] = value
    elif isinstance(node, dict):
        node[last] = value
    else:
        raise InputError("cannot set a key inside a value", file=source, place=dotted)


def _plan_parts(doc: dict[str, Any], parts: list[str]) -> list[str]:
    """The path with a plan's steps addressed as the document writes them.

    A plan is a mapping with ``steps`` or (the shorthand) the bare list of them: a path may
    address it either way (``plan.1.when`` or ``plan.steps.1.when``). A path to the
    mapping's other keys (``plan.loop``) turns a bare list into its mapping first.
    """
    out: list[str] = []
    node: Any = doc
    for part in parts:
        if out and out[-1] == "plan" and isinstance(node, list):
            if part == "steps":
                continue
            if _index(part) is None:   # plan.loop, plan.until: the long form
                holder = _walk(doc, out[:-1])
                if isinstance(holder, dict):
                    holder["plan"] = node = {"steps": node}
        elif out and out[-1] == "plan" and isinstance(node, dict) and _index(part) is not None:
            out.append("steps")
            node = node.get("steps")
        out.append(part)
        node = _child(node, part)
    return out


def _walk(doc: Any, parts: list[str]) -> Any:
    for part in parts:
        doc = _child(doc, part)
    return doc


def _child(node: Any, part: str) -> Any:
    if isinstance(node, list):
        k = _index(part)
        return node[k] if k is not None and k < len(node) else None
    return node.get(part) if isinstance(node, dict) else None


def parse_assignment(text: str, source: str = "--set") -> tuple[str, Any]:
    """'turns=12' → ('turns', 12). Values are YAML scalars."""
    try:  # a byte of the command line that is not UTF-8 arrives as a lone surrogate
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(f"'{text}' is not UTF-8 text (character {exc.start + 1} stands for a "
                         "byte that is not UTF-8; expected KEY=VALUE in UTF-8)", file=source) from None
    if "=" not in text:
        raise InputError(f"'{text}' is not KEY=VALUE (expected e.g. turns=12 or rules.base.phase_length=2)",
                         file=source)
    key, raw = text.split("=", 1)
    value, _ = parse_yaml(raw, source) if raw.strip() else ("", {})
    return key.strip(), value


def parse_assignments(texts: Iterable[str] | None, source: str = "--set") -> dict[str, Any]:
    """Every ``KEY=VALUE`` of a command line, in order, as a dict.

    A key given twice, or a key inside another one given too (``rules.base`` and
    ``rules.base.phase_length``), is an error: one of the two would be silently lost.
    """
    out: dict[str, Any] = {}
    for text in texts or []:
        key, value = parse_assignment(text, source)
        check_keys([*out, key], source)
        out[key] = value
    return out


def overlap(keys: Iterable[str]) -> tuple[str, str] | None:
    """The first key (in order) that is, or is inside or around, an earlier one, with that one.

    ``rules.base`` with ``rules.base.phase_length``: the length would be set or lost by
    which comes first, so a set of overrides has each key once and none inside another.
    """
    seen: list[str] = []
    for key in keys:
        for other in seen:
            if key == other or key.startswith(other + ".") or other.startswith(key + "."):
                return key, other
        seen.append(key)
    return None


def check_keys(keys: Iterable[str], source: str) -> None:
    """``InputError`` if one key of ``keys`` is another or inside another (``overlap``)."""
    pair = overlap(keys)
    if pair is not None:
        key, other = pair
        what = "twice" if key == other else f"and also {other}"
        raise InputError(f"sets {key} {what} (expected each key once)", file=source, place=key)


