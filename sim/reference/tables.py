"""A pydantic model as a reference table: every key with its type, default, limits and
meaning. The meaning is the field's ``description``; where a model has none, the
sentence of its class or package docstring that names the key in a bullet
(``* ``key``: ...``) stands in, and a key with neither is listed by ``undocumented``."""
from __future__ import annotations

import importlib
import json
import re
import sys
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from sim.systems.knobs import BehaviourOf
from sim.systems.sections import OneOf

NO_MEANING = "— (not described in the code; see how the system plays, above)"


def _code(value: Any) -> str:
    return f"`{value}`"


def type_text(annotation: Any) -> str:
    """A type as a reader says it: ``whole number``, ``a`` \\| ``b``, ``list of ...``."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        meta = [m for m in args[1:] if isinstance(m, OneOf)]
        if meta:
            names = " \\| ".join(_code(n) for n in meta[0].names())
            if isinstance(meta[0], BehaviourOf):
                return names + f" (behaviours of kind `{meta[0].kind}`)"
            return names + f" ({meta[0].what}s)"
        return type_text(args[0])
    if origin is Literal:
        return " \\| ".join(_code(a) for a in args)
    if origin in (Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        text = " or ".join(type_text(a) for a in real)
        return text + (" or `null`" if len(real) < len(args) else "")
    if origin is list:
        return f"list of {type_text(args[0])}"
    if origin is dict:
        return f"mapping {type_text(args[0])} → {type_text(args[1])}"
    if origin is tuple:
        return "[" + ", ".join(type_text(a) for a in args) + "]"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"mapping ({annotation.__name__}, below)"
    words: dict[Any, str] = {int: "whole number", float: "number", bool: "`true` \\| `false`",
                             str: "text", type(None): "`null`"}
    return words.get(annotation, getattr(annotation, "__name__", str(annotation)))


def limits_text(field: FieldInfo) -> str:
    """The field's bounds and patterns in words (finite numbers say so)."""
    out = []
    for m in field.metadata:
        for attr, word in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
            if getattr(m, attr, None) is not None:
                out.append(f"{word} {getattr(m, attr):,}")
        low, high = getattr(m, "min_length", None), getattr(m, "max_length", None)
        if low is not None:
            out.append(f"at least {low:,} long")
        if high is not None:
            out.append(f"at most {high:,} long")
        if getattr(m, "pattern", None):
            out.append(f"matches `{m.pattern}`")
        if getattr(m, "allow_inf_nan", None) is False:
            out.append("finite")
    return ", ".join(out)


def default_text(field: FieldInfo) -> str:
    """The default as it would be written in YAML, or ``required``."""
    if field.default_factory is not None:
        value = field.default_factory()  # type: ignore[call-arg]
    elif field.default is PydanticUndefined:
        return "required"
    else:
        value = field.default
    if isinstance(value, BaseModel):
        return "all defaults"
    if value is None:
        return "not set"
    if isinstance(value, tuple):
        value = list(value)
    if value == "":
        return '`""`'
    text = json.dumps(value, default=str, ensure_ascii=False)
    text = text.replace('"', "")
    return _code(text)


def _docstring_meaning(model: type[BaseModel], key: str) -> str | None:
    """A bullet ``* ``key``: text`` in the model's, its module's or its package's docstring."""
    module = sys.modules.get(model.__module__)
    package = importlib.import_module(model.__module__.rpartition(".")[0]) if "." in model.__module__ else None
    for doc in (model.__doc__, getattr(module, "__doc__", None), getattr(package, "__doc__", None)):
        if not doc:
            continue
        found = re.search(rf"^\s*\* ``{re.escape(key)}``:?\s*(.+?)(?=^\s*\*|\n\s*\n|\Z)", doc, re.M | re.S)
        if found:
            return " ".join(found.group(1).split()).replace("``", "`")
    return None


def meaning(model: type[BaseModel], key: str, field: FieldInfo) -> str | None:
    """The key's meaning: its description, else its docstring bullet, else None."""
    if field.description:
        return " ".join(field.description.split())
    return _docstring_meaning(model, key)


def undocumented(model: type[BaseModel]) -> list[str]:
    """The keys of ``model`` (and of the models inside it) with no meaning to show."""
    out = []
    for key, field in model.model_fields.items():
        if meaning(model, key, field) is None:
            out.append(f"{model.__module__}.{model.__name__}.{key}")
        for sub in nested(field.annotation):
            out += undocumented(sub)
    return out


def nested(annotation: Any) -> list[type[BaseModel]]:
    """The models inside a type (a key whose value is a mapping of its own)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for a in get_args(annotation) for m in nested(a)]


def table(model: type[BaseModel], keys: list[str] | None = None, prefix: str = "") -> str:
    """The model's keys as a markdown table: key, type, default, limits, meaning."""
    rows = ["| key | type | default | limits | meaning |", "|---|---|---|---|---|"]
    for key, field in model.model_fields.items():
        if keys is not None and key not in keys:
            continue
        text = (meaning(model, key, field) or NO_MEANING).replace("|", "\\|")
        annotation = Annotated[field.annotation, *field.metadata] if field.metadata else field.annotation
        kind = type_text(annotation)
        rows.append(f"| `{prefix}{key}` | {kind} | {default_text(field)} | "
                    f"{limits_text(field) or '—'} | {text} |")
    return "\n".join(rows)


def _paragraph(block: str) -> str:
    """One docstring block as markdown: its bullets (``* ...``) one per line."""
    items = re.split(r"\n\s*(?=\* )", block.strip())
    return "\n".join(" ".join(item.split()) for item in items)


def doc_of(obj: Any) -> str:
    """An object's docstring as markdown paragraphs (bullets kept, ``code`` as `code`)."""
    doc = (obj.__doc__ or "").strip()
    paras = [_paragraph(p) for p in re.split(r"\n\s*\n", doc) if p.strip()]
    return "\n\n".join(paras).replace("``", "`")
