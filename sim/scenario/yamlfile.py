"""Safe YAML reading that remembers where every key came from.

``read_yaml(path)`` returns the data (plain dicts, lists and scalars: yaml.SafeLoader
never constructs objects) and a map from key paths to 1-based line numbers, so that a
schema error deep in a file can still say "line 17".
"""
from __future__ import annotations

import os
from typing import Any

import yaml

from sim.errors import InputError

MAX_BYTES = 2_000_000  # a scenario is a page of YAML; refuse anything absurdly large


def _lines(node: yaml.Node, path: tuple, out: dict[tuple, int]) -> None:
    out.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            k = key.value if isinstance(key, yaml.ScalarNode) else str(key.value)
            out[path + (k,)] = key.start_mark.line + 1
            _lines(value, path + (k,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _lines(item, path + (i,), out)


def read_yaml(path: str | os.PathLike) -> tuple[Any, dict[tuple, int]]:
    """Read a YAML file safely; any problem is an InputError naming the file and line."""
    name = str(path)
    if not os.path.exists(name):
        raise InputError("no such file (expected a YAML file)", file=name)
    if os.path.isdir(name):
        raise InputError("is a directory (expected a YAML file)", file=name)
    try:
        size = os.path.getsize(name)
        if size > MAX_BYTES:
            raise InputError(f"file is {size} bytes (expected at most {MAX_BYTES})", file=name)
        with open(name, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", file=name) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (bad byte at offset {exc.start})", file=name) from None
    return parse_yaml(text, name)


def parse_yaml(text: str, name: str = "<string>") -> tuple[Any, dict[tuple, int]]:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.load(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = f"line {mark.line + 1}" if mark else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise InputError(f"malformed YAML: {problem}", file=name, place=place) from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {exc}", file=name) from None
    except RecursionError:
        raise InputError("malformed YAML: nested too deeply", file=name) from None
    lines: dict[tuple, int] = {}
    if node is not None:
        _lines(node, (), lines)
    return data, lines


def place_of(path: tuple, lines: dict[tuple, int]) -> str:
    """'line N, key a.b.c' for a key path, using the nearest known line."""
    dotted = ".".join(str(p) for p in path) or "(top level)"
    probe = tuple(path)
    while probe and probe not in lines:
        probe = probe[:-1]
    line = lines.get(probe)
    return f"line {line}, key {dotted}" if line else f"key {dotted}"
