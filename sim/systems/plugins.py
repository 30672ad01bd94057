"""Plug-in modules named by the user: ``--plugin MODULE`` and the ``SIM_PLUGINS`` variable.

Such a module registers what it defines when imported (``sim.plugin.register``), as a
script or a notebook would. Every command imports them, then the installed
distributions' metric reporters and behaviours, before it reads any file, so every
command (``sim validate`` as ``sim run``) knows and refuses the same plug-ins. The names
travel with a study's scenarios, and its workers import them too (``sim.study.plan.cells``).
"""
from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping

from sim.errors import InputError
from sim.systems import PLUGINS_ENV
from sim.systems.declarations import PluginError, load_target
from sim.systems.registry import load_installed, registered_from_python

ENV = PLUGINS_ENV
MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_IMPORTED: list[str] = []   # in the order imported: what a study's workers import too


def from_environment(environ: Mapping[str, str] = os.environ) -> list[str]:
    """The module names in ``SIM_PLUGINS`` (separated by commas or ``os.pathsep``)."""
    text = environ.get(ENV, "")
    return [n.strip() for n in re.split(f"[,{re.escape(os.pathsep)}]", text) if n.strip()]


def load_modules(names: Iterable[str], origin: str, *, checked: bool = False) -> None:
    """Import each plug-in module (once), then the installed plug-ins' reporters and behaviours.

    A name that is not a module name, a module that cannot be imported (or raises, or
    exits), one already imported (``os``, ``sim.cli``: importing it again runs nothing) and
    one that registers nothing are each one ``PluginError`` naming it and ``origin``.
    ``checked``: the names were checked so by the command that named them (a study's
    worker, which may have imported one already in unpickling a system it defines).
    """
    for name in names:
        if not isinstance(name, str) or not MODULE.match(name):
            raise InputError(f"{name!r} is not a module name (expected a dotted Python name, "
                             "such as my_rules or my_package.rules)", file=origin)
        if name in _IMPORTED:
            continue
        if not checked:
            _check_new(name, origin)
        load_target(name, origin, "plug-in module (on the Python path: PYTHONPATH)")
        _IMPORTED.append(name)
    load_installed()


def _check_new(name: str, origin: str) -> None:
    """Import the module ``name``, which must not be imported yet and must register something."""
    expected = "(expected a module that calls sim.plugin.register when imported)"
    if name in sys.modules:
        raise PluginError(f"the plug-in module '{name}' was already imported (by Python, sim or "
                          f"another plug-in module), so it registers nothing {expected}", file=origin)
    before = len(registered_from_python())
    load_target(name, origin, "plug-in module (on the Python path: PYTHONPATH)")
    if len(registered_from_python()) == before:
        raise PluginError(f"the plug-in module '{name}' registers nothing {expected}", file=origin)


def imported() -> tuple[str, ...]:
    """The plug-in modules imported so far, in order."""
    return tuple(_IMPORTED)
