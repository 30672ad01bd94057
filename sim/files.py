"""Reading and writing the files a command names: regular files only, reads bounded.

A FIFO, a device (``/dev/zero``, ``/dev/full``, a terminal), a socket, or ``/dev/stdin``
from a pipe is refused by its kind before anything could wait on it or read it without
end: the path is looked at first (``os.stat``), then opened without blocking and the file
actually opened is looked at again (``os.fstat``), so a file swapped in between is
caught too. A read stops one byte past its limit, whatever the file's size says. A write
encodes the whole text before the file is opened, and every error names the file.
"""
from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
from collections.abc import Iterable
from typing import Any, cast

from sim.errors import InputError

# Opening a FIFO without O_NONBLOCK waits for its other end; O_BINARY exists on Windows only.
_NONBLOCK = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)

_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def kind_problem(mode: int) -> str | None:
    """Why a file of this ``st_mode`` is not one to read or write as a file (None: it is
    a regular file), e.g. 'is not a regular file but a FIFO'."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory"
    name = next((name for test, name in _KINDS if test(mode)), "a special file")
    return f"is not a regular file but {name}"


def path_problem(path: str) -> str | None:
    """``kind_problem`` of what ``path`` names now (None also when nothing is there)."""
    try:
        return kind_problem(os.stat(path).st_mode)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a file where a folder should be, a loop of links, ...
        return f"cannot be reached: {exc.strerror or exc}"


def read_only(path: str) -> str | None:
    """'is read-only (mode 0444)' when the permission bits of ``path`` (a file or a folder)
    let no one write it, else None. Root may write it all the same: this is how a
    read-only file or folder is refused for root too."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:  # not there (yet), or not reachable: for the caller's other checks
        return None
    return f"is read-only (mode {mode:04o})" if mode & 0o222 == 0 else None


def write_problem(path: str) -> str | None:
    """Why no file could be written at ``path`` (None: one can), found by trying, with
    nothing left behind: an existing file is opened for writing but not emptied, and a
    file is made beside it and removed at once (the write itself goes through such a file).
    (Permission bits do not stop root, so asking is not enough: a read-only mount, /proc,
    /sys or an immutable file refuse only a try; a file or folder whose bits let no one
    write it is refused by them, ``read_only``.)"""
    why = path_problem(path)
    if why is not None:
        return why
    target = os.path.realpath(path)  # a dangling symbolic link: where the file would go
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        return "its directory does not exist"
    exists = os.path.exists(target)
    try:
        if exists:
            os.close(os.open(target, os.O_WRONLY | _NONBLOCK))
        _make_and_remove_a_file(folder)
    except OSError as exc:
        return f"{'cannot be written' if exists else 'cannot be made there'}: {exc.strerror or exc}"
    if exists and (why := read_only(target)):
        return why
    if why := read_only(folder):   # the file is written through a new one beside it
        return f"its folder {folder} {why}"
    return None


def _make_and_remove_a_file(folder: str) -> None:
    """Try writing in ``folder``: make a file there and remove it (OSError if it cannot)."""
    fd, probe = tempfile.mkstemp(prefix=".sim-probe-", dir=folder)
    os.close(fd)
    os.remove(probe)


def folder_problem(folder: str) -> str | None:
    """Why files could not be written into ``folder`` (made, with its parents, if missing),
    found by making a file there and removing it."""
    base = os.path.abspath(folder)
    while not os.path.exists(base):
        base = os.path.dirname(base)
    if not os.path.isdir(base):
        return f"is inside {base}, which is not a directory"
    try:
        _make_and_remove_a_file(base)
    except OSError as exc:
        where = "there" if base == os.path.abspath(folder) else f"in {base}"
        return f"cannot be written {where}: {exc.strerror or exc}"
    why = read_only(base)
    if why is not None:
        return why if base == os.path.abspath(folder) else f"is inside {base}, which {why}"
    return None


def read_bytes(path: str, limit: int, expected: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them. Anything else (no
    such file, another kind, too big, unreadable) is an InputError naming the file and
    saying what was ``expected``."""
    try:
        why = kind_problem(os.stat(path).st_mode)
        if why is None:
            with open(os.open(path, os.O_RDONLY | _NONBLOCK), "rb") as fh:
                st = os.fstat(fh.fileno())
                why = kind_problem(st.st_mode)
                if why is None and st.st_size > limit:
                    raise InputError(f"file is {st.st_size} bytes (expected at most {limit})",
                                     file=path)
                # typeshed says bytes, but a read that would block returns None (O_NONBLOCK)
                got = b"" if why else cast("bytes | None", fh.read(limit + 1))
                if got is None:  # it would have to wait for its bytes (/proc/kmsg)
                    why, got = "cannot be read without waiting for it", b""
                data = got
    except FileNotFoundError:
        why = "no such file"
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", file=path) from None
    if why:
        raise InputError(f"{why} (expected {expected})", file=path)
    if len(data) > limit:  # it grew since, or its size said less than it holds (/proc)
        raise InputError(f"file is more than {limit} bytes (expected at most {limit})", file=path)
    return data


def write_bytes(path: str, data: bytes, place: str | None = None) -> None:
    """Make the regular file ``path`` (new or replaced) hold ``data``; another kind of file,
    or a failed write (a full disk), is an InputError naming the file (and ``place``).

    The bytes go into a new file beside it, which then takes its place: a failed write
    leaves no truncated file, and the file that was there stays as it was.
    """
    write_parts(path, [data], place)


def write_parts(path: str, parts: Iterable[bytes], place: str | None = None) -> None:
    """``write_bytes`` of the bytes ``parts`` yields, one part after another (so a large
    file is never held whole)."""
    why = path_problem(path)
    if why:
        raise InputError(f"{why} (expected a file to write)", file=path, place=place)
    target = os.path.realpath(path)  # through a symbolic link, as opening it would
    temp = None
    try:
        fd, temp = tempfile.mkstemp(prefix=".sim-", suffix=".part", dir=os.path.dirname(target))
        with open(fd, "wb") as fh:
            for part in parts:
                fh.write(part)
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        os.chmod(temp, mode)
        os.replace(temp, target)
        temp = None
    except OSError as exc:
        raise InputError(f"cannot write the file ({exc.strerror or exc})", file=path,
                         place=place) from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.remove(temp)


def write_figure(fig: Any, path: str, **options: Any) -> None:
    """``write_bytes`` of a matplotlib figure drawn as a PNG (``options`` go to
    ``savefig``, e.g. ``dpi``): the file is replaced only once the whole picture is drawn."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", **options)
    write_bytes(os.fspath(path), buf.getvalue())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(path: str, text: str, place: str | None = None) -> None:
    """``write_bytes`` of ``text`` in UTF-8 (a character UTF-8 cannot hold, such as the
    stand-in for a non-UTF-8 byte of a file name, is written as a backslash escape)."""
    write_bytes(path, text.encode("utf-8", "backslashreplace"), place)
