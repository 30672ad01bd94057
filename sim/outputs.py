"""Output paths, checked before anything runs: an output never replaces an input.

``--log``, ``--csv`` and the files written into ``--plot DIR`` (or ``sim demo --out``)
replace a file already there; so each is compared with every input of the command (the
scenario, the study, the study's scenario, the results database) by identity, not by
spelling: a symbolic link, a hard link or ``./`` in front names the same file. A path
whose directory is missing, or that names a directory where a file is written, is
refused now too, not after the battles have run.
"""
from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping

from sim.errors import InputError

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


def check_file(option: str, path: str | None, inputs: Mapping[str, str | None]) -> None:
    """Refuse ``path`` for an output file given with ``option`` if it is one of the
    ``inputs`` (a description -> path), a directory, or in a missing directory."""
    if path is None:
        return
    if not path:
        raise InputError("empty path (expected a file to write)", place=option)
    problem = _clash(path, inputs)
    if problem is None and os.path.isdir(path):
        problem = "is a directory (expected a file to write)"
    if problem is None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        problem = "its directory does not exist (expected a file to write)"
    if problem:
        raise InputError(problem, file=path, place=option)


def check_plot_dir(option: str, path: str | None, inputs: Mapping[str, str | None]) -> None:
    """Refuse a plot directory that is a file, or in which a plot would replace an input."""
    if path is None:
        return
    if not path:
        raise InputError("empty path (expected a directory for the plots)", place=option)
    if os.path.exists(path) and not os.path.isdir(path):
        raise InputError(f"{_clash(path, inputs) or 'is not a directory'} (expected a "
                         "directory for the plots)", file=path, place=option)
    if os.path.isdir(path):
        for name in os.listdir(path):
            if any(fnmatch.fnmatchcase(name, p) for p in PLOT_NAMES):
                problem = _clash(os.path.join(path, name), inputs)
                if problem:
                    raise InputError(f"a plot would be written over {name}, which {problem}",
                                     file=path, place=option)
