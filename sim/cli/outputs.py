"""Output paths, checked before anything runs: an output never replaces an input.

``--log``, ``--csv`` and the files written into ``--plot DIR`` (or ``sim demo --out``)
replace a file already there; so each is compared with every input of the command (the
scenario, the study, the study's scenario, the results database) by identity, not by
spelling: a symbolic link, a hard link or ``./`` in front names the same file. A path
whose directory is missing, that names a directory, a FIFO or a device where a file is
written, or where no file can be written (a read-only file or folder), is refused now
too, not after the battles have run.
"""
from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping

from sim.errors import InputError
from sim.files import folder_problem, write_problem

# The names `sim.viz.study_plots.plot_study` writes into its directory.
PLOT_NAMES = ("means.png", "differences.png", "response_*.png")


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): not the same file
        return False


def _clash(path: str, inputs: Mapping[str, str | None]) -> str | None:
    for what, source in inputs.items():
        if source and _same(path, source):
            return f"is {what} ({source}); an output never replaces an input"
    return None


def check_file(option: str, path: str | None, inputs: Mapping[str, str | None], *,
               tried: bool = True) -> None:
    """Refuse ``path`` for an output file given with ``option`` if it is one of the
    ``inputs`` (a description -> path), a directory, in a missing directory, or (when
    ``tried``; the results store checks its own file) not a regular file or not writable."""
    if path is None:
        return
    if not path:
        raise InputError("empty path (expected a file to write)", place=option)
    problem = _clash(path, inputs)
    if problem is None and tried:
        problem = write_problem(path)
    elif problem is None and os.path.isdir(path):
        problem = "is a directory"
    elif problem is None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        problem = "its directory does not exist"
    if problem:
        raise InputError(f"{problem} (expected a file to write)", file=path, place=option)


def check_plot_dir(option: str, path: str | None, inputs: Mapping[str, str | None],
                   names: tuple[str, ...] = PLOT_NAMES, what: str = "plots",
                   one: str = "a plot") -> None:
    """Refuse a directory for the ``what`` (files named by the patterns ``names``; ``one``
    of them) that is a file, cannot be written, or in which one of them would replace an
    input or a file that cannot be replaced (a FIFO, a device, a read-only file)."""
    expected = f"expected a directory for the {what}"
    if path is None:
        return
    if not path:
        raise InputError(f"empty path ({expected})", place=option)
    if os.path.exists(path) and not os.path.isdir(path):
        raise InputError(f"{_clash(path, inputs) or 'is not a directory'} ({expected})",
                         file=path, place=option)
    problem = folder_problem(path)
    if problem is None and os.path.isdir(path):
        problem = _replaced_problem(path, inputs, names, one)
    if problem:
        raise InputError(f"{problem} ({expected})", file=path, place=option)


def _replaced_problem(folder: str, inputs: Mapping[str, str | None], names: tuple[str, ...],
                      one: str) -> str | None:
    """Why a file in ``folder`` under one of the ``names`` cannot be replaced by an output."""
    try:
        found = sorted(os.listdir(folder))
    except OSError as exc:  # writable but not readable: what is there cannot be seen
        return f"cannot be read: {exc.strerror or exc}"
    for name in found:
        if any(fnmatch.fnmatchcase(name, p) for p in names):
            full = os.path.join(folder, name)
            clash = _clash(full, inputs)
            if clash:
                return f"{one} would be written over {name}, which {clash}"
            problem = write_problem(full)
            if problem:
                return f"{name} {problem}"
    return None
