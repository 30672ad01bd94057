"""Worker processes and the script that runs a study.

'spawn' starts each worker by importing the main script again (so that what it defines
can be unpickled there). A script that runs a study at its top level, outside
``if __name__ == "__main__":``, would run the study again in every worker, which
``multiprocessing`` refuses ("bootstrapping phase"). The workers of such a script are
started without importing it: a task needs nothing from it, unless the script defines a
rule system (metric reporter, behaviour) registered from Python, which only an import of
the script would give the workers; that is an ``InputError`` that says what to do.
"""
from __future__ import annotations

import ast
import contextlib
import pickle
import sys
import types
from collections.abc import Iterator
from pathlib import Path

from sim.errors import InputError

GUARD = 'if __name__ == "__main__":'


def _guarded(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and any(
        isinstance(n, ast.Name) and n.id == "__name__" for n in ast.walk(node.test))


def runs_again_in_workers() -> bool:
    """True when this code runs from the main script's top level, outside a ``__name__``
    test: a worker that imports the script would run it again."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    name = getattr(getattr(main, "__spec__", None), "name", None) or ""
    if name.rpartition(".")[2] == "__main__":
        return False  # a package's __main__ (python -m sim): spawn does not import it again
    frame = sys._getframe()
    while frame is not None and not (frame.f_code.co_name == "<module>"
                                     and frame.f_globals is vars(main)):
        frame = frame.f_back  # type: ignore[assignment]
    if path is None or frame is None:
        return False  # a notebook, an interpreter, a study not run from the script's import
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return False
    line = frame.f_lineno
    return any(node.lineno <= line <= (node.end_lineno or node.lineno) and not _guarded(node)
               for node in tree.body)


@contextlib.contextmanager
def workers_without_script() -> Iterator[None]:
    """Within the block, processes started by 'spawn' do not import the main script if
    it would run the study again (``runs_again_in_workers``)."""
    if not runs_again_in_workers():
        yield
        return
    from sim.systems.registry import registered_from_python

    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")  # no file: nothing to import
    try:
        for value in registered_from_python():
            try:
                pickle.dumps(value)  # as a worker gets it: what the script defines fails
            except (pickle.PicklingError, AttributeError, TypeError):
                raise InputError(
                    f"the workers cannot have {type(value).__name__} '{value.name}', which "
                    f"this script defines, as it runs the study outside `{GUARD}` (they "
                    f"would run it again): put the code that runs the study under "
                    f"`{GUARD}`", file=getattr(main, "__file__", None),
                    place="workers") from None
        yield
    finally:
        sys.modules["__main__"] = main
