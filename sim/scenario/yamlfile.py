"""Safe YAML reading that remembers where every key came from.

``read_yaml(path)`` returns the data (plain dicts, lists and scalars: yaml.SafeLoader
never constructs objects) and a map from key paths to 1-based line numbers, so that a
schema error deep in a file can still say "line 17".

Guards (docs/reference/guarantees.md, "Bad input"): a regular file (``sim.files``: never a FIFO or a device,
which would hang or never end), at most ``MAX_BYTES`` bytes, ``MAX_NODES`` nodes counted
with aliases expanded (an alias bomb is refused without being built), ``MAX_DEPTH``
levels of nesting; no repeated keys; no tags that build sets, pairs, bytes or objects.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any, Literal, NoReturn, Protocol, cast

import yaml

from sim.errors import InputError
from sim.files import read_bytes

MAX_BYTES = 2_000_000  # a scenario is a page of YAML; refuse anything absurdly large
MAX_NODES = 200_000    # YAML nodes, counted with every alias expanded ("billion laughs")
MAX_DEPTH = 64         # nesting of mappings and lists


class _Mark(Protocol):
    """Where a PyYAML node starts (PyYAML ships no types: these are the fields read here)."""

    line: int  # 0-based


class _Node(Protocol):
    """A PyYAML node, as read here (PyYAML's loader methods are untyped: their nodes are cast to this)."""

    tag: str
    value: Any  # a scalar's text, a sequence's nodes, a mapping's (key, value) node pairs
    start_mark: _Mark


class _Refused(Exception):
    """A document refused by the guards below: (message, 0-based line or None)."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.line = line


def _no_tag(loader: _Loader, node: _Node) -> NoReturn:
    tag = str(node.tag)
    tag = "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag
    raise yaml.constructor.ConstructorError(
        None, None, f"the tag {tag} is not allowed (expected plain mappings, lists and scalars)",
        node.start_mark)


try:  # libyaml's parser, in C: about 20 times faster than PyYAML's on a large file
    from yaml.cyaml import CParser as _CParser
except ImportError:  # PyYAML built without libyaml
    _CParser = None

_Base: type
if _CParser is not None:
    # PyYAML ships no types: to mypy every base here is Any.
    class _CBase(yaml.composer.Composer, _CParser,  # type: ignore[misc, no-any-unimported]
                 yaml.constructor.SafeConstructor, yaml.resolver.Resolver):  # type: ignore[misc, no-any-unimported]
        """libyaml parses; PyYAML's Python composer builds the nodes (so the guards of
        ``_Loader`` see each one) and its safe constructor builds the values."""

        def __init__(self, text: str):
            _CParser.__init__(self, text)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
    _Base = _CBase
else:
    _Base = yaml.SafeLoader


class _Loader(_Base):  # type: ignore[misc]  # _Base is PyYAML's (untyped: Any to mypy)
    """A safe loader that also counts nodes while composing (so a huge document stops
    early), refuses duplicate keys and the tags that build non-plain values (sets, pairs,
    bytes); timestamps stay strings."""

    def compose_document(self) -> _Node | None:
        self._count = self._depth = 0
        return cast("_Node | None", super().compose_document())

    def compose_node(self, parent: _Node | None, index: object) -> _Node:
        self._count += 1
        if self._count > MAX_NODES:
            raise _Refused(f"more than {MAX_NODES} YAML nodes (expected a smaller document)",
                           self.peek_event().start_mark.line)
        if self._depth >= MAX_DEPTH:
            raise _Refused(f"nested more than {MAX_DEPTH} levels deep",
                           self.peek_event().start_mark.line)
        self._depth += 1
        try:
            return cast("_Node", super().compose_node(parent, index))
        finally:
            self._depth -= 1


for _tag in ("set", "omap", "pairs", "binary"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _no_tag)
_Loader.add_constructor(None, _no_tag)   # any unknown tag, e.g. !!python/object
_Loader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)

# Plain scalars are read by the YAML 1.2 core schema, not PyYAML's YAML 1.1 rules: `010`
# is ten (not octal 8), `1:30`, `1_000`, `0b11`, `yes` and `on` stay text; `0o17` and
# `0x1F` are octal and hexadecimal; `1e3` is a number.
_Loader.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in (
        ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
        ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
        ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
        ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                  r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", list("-+0123456789.")),
        ("merge", r"^(?:<<)$", ["<"])):
    _Loader.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_pattern), _first)

MAX_DIGITS = 4300  # Python's own limit on converting decimal text to int
_TOO_BIG = 10 ** MAX_DIGITS


def _core_int(loader: _Loader, node: _Node) -> int:
    text: str = loader.construct_scalar(node)
    sign, digits = (-1, text[1:]) if text[:1] == "-" else (1, text.lstrip("+"))
    base = {"0o": 8, "0x": 16}.get(digits[:2], 10)
    body = (digits if base == 10 else digits[2:]).lstrip("0") or "0"
    # Refused before int() would raise on it, and before str() of it would fail later.
    if len(body) > MAX_DIGITS or (base != 10 and int(body, base) >= _TOO_BIG):
        raise _Refused(f"a whole number of more than {MAX_DIGITS} digits (expected a "
                       "number within the limits of docs/reference/guarantees.md)", node.start_mark.line)
    return sign * int(body, base)


def _core_bool(loader: _Loader, node: _Node) -> bool:
    text: str = loader.construct_scalar(node)
    return text.lower() == "true"


_Loader.add_constructor("tag:yaml.org,2002:int", _core_int)
_Loader.add_constructor("tag:yaml.org,2002:bool", _core_bool)


#: A node's id -> its (nodes, height) once measured, None while it is being measured.
_Memo = dict[int, tuple[int, int] | None]


def _measure(node: _Node, depth: int, memo: _Memo) -> tuple[int, int]:
    """(nodes, height) of ``node`` with aliases expanded; memoised, so an alias bomb
    costs its size in the file, not its expanded size. Refuses what is too big, too
    deep, recursive or has a repeated key."""
    key = id(node)
    hit: tuple[int, int] | None | Literal[False] = memo.get(key, False)  # False: not yet seen
    if hit is None:
        raise _Refused("a recursive alias (expected a tree of mappings and lists)",
                       node.start_mark.line)
    if hit is False:
        if depth > MAX_DEPTH:
            raise _Refused(f"nested more than {MAX_DEPTH} levels deep", node.start_mark.line)
        memo[key] = None
        if isinstance(node, yaml.MappingNode):
            seen: set[tuple[str, Any]] = set()
            for k, _ in node.value:
                if isinstance(k, yaml.ScalarNode) and k.tag != "tag:yaml.org,2002:merge":
                    if (k.tag, k.value) in seen:
                        raise _Refused(f"key {k.value!r} appears twice in one mapping "
                                       "(expected each key once)", k.start_mark.line)
                    seen.add((k.tag, k.value))
            children = [c for pair in node.value for c in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        else:
            children = []
        count, height = 1, 0
        for child in children:
            n, h = _measure(child, depth + 1, memo)
            count += n
            height = max(height, h + 1)
        hit = memo[key] = (count, height)
    if depth + hit[1] > MAX_DEPTH:
        raise _Refused(f"nested more than {MAX_DEPTH} levels deep", node.start_mark.line)
    return hit


def _lines(node: _Node, path: tuple[Any, ...], out: dict[tuple[Any, ...], int]) -> None:
    out.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            k = key.value if isinstance(key, yaml.ScalarNode) else str(key.value)
            out[path + (k,)] = key.start_mark.line + 1
            _lines(value, path + (k,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _lines(item, path + (i,), out)


def _culprit(node: _Node, memo: Mapping[int, tuple[int, int]]) -> _Node:
    """The innermost node whose expansion alone is over the limit (where to point)."""
    while True:
        if isinstance(node, yaml.MappingNode):
            children = [v for _, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        else:
            return node
        big: list[_Node] = [c for c in children if memo[id(c)][0] > MAX_NODES]
        if not big:  # (isinstance with PyYAML's untyped classes made ``node`` Any to mypy)
            return cast("_Node", node)
        node = big[0]


def read_yaml(path: str | os.PathLike[str]) -> tuple[Any, dict[tuple[Any, ...], int]]:
    """Read a YAML file safely; any problem is an InputError naming the file and line."""
    name = str(path)
    if not name:
        raise InputError("empty path (expected a YAML file)", file="''")
    raw = read_bytes(name, MAX_BYTES, "a YAML file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (bad byte at offset {exc.start})", file=name) from None
    return parse_yaml(text, name)


def parse_yaml(text: str, name: str = "<string>") -> tuple[Any, dict[tuple[Any, ...], int]]:
    loader = None
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
        data = None
        if node is not None:
            memo: _Memo = {}
            total, _ = _measure(node, 0, memo)
            if total > MAX_NODES:
                measured = cast("dict[int, tuple[int, int]]", memo)  # done: no node is still None
                raise _Refused(f"{total} YAML nodes once aliases are expanded "
                               f"(expected at most {MAX_NODES})", _culprit(node, measured).start_mark.line)
            data = loader.construct_document(node)
    except _Refused as exc:
        place = f"line {exc.line + 1}" if exc.line is not None else None
        raise InputError(f"refused YAML: {exc}", file=name, place=place) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = f"line {mark.line + 1}" if mark else None
        problem = exc.problem or exc.context or "malformed YAML"
        if "maximum nesting depth" in problem:  # libyaml's own limit (1000) met first
            raise InputError(f"refused YAML: nested more than {MAX_DEPTH} levels deep",
                             file=name, place=place) from None
        raise InputError(f"malformed YAML: {problem}", file=name, place=place) from None
    except yaml.reader.ReaderError as exc:
        raise InputError(f"malformed YAML: character #x{exc.character:04x} at offset {exc.position} "
                         "is not allowed (expected printable text)", file=name) from None
    except yaml.YAMLError as exc:
        first = (str(exc).splitlines() or ["?"])[0]
        raise InputError(f"malformed YAML: {first}", file=name) from None
    except RecursionError:
        raise InputError(f"refused YAML: nested more than {MAX_DEPTH} levels deep", file=name) from None
    finally:
        if loader is not None:
            loader.dispose()
    lines: dict[tuple[Any, ...], int] = {}
    if node is not None:
        _lines(node, (), lines)
    return data, lines


def place_of(path: tuple[Any, ...], lines: Mapping[tuple[Any, ...], int]) -> str:
    """'line N, key a.b.c' for a key path, using the nearest known line."""
    dotted = ".".join(str(p) for p in path) or "(top level)"
    probe = tuple(path)
    while probe and probe not in lines:
        probe = probe[:-1]
    line = lines.get(probe)
    return f"line {line}, key {dotted}" if line else f"key {dotted}"
