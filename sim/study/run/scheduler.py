"""Joining a Dask scheduler: the ``--address`` is checked, then the server is asked for
its handshake, each wait with a timeout, before Dask's own client connects.

Dask's client waits for the scheduler's handshake without a timeout, and reads whatever
length a server's first bytes announce: a server that accepts and never speaks would
hang a study forever, and one that speaks another protocol would raise from deep inside
Dask. Both are refused here in one line, within ``TIMEOUT`` seconds.
"""
from __future__ import annotations

import ipaddress
import pickle
import re
import socket
import struct
import sys
import time

from sim.errors import InputError

TIMEOUT = 10.0          # seconds for the connection, and again for the handshake
MAX_HANDSHAKE = 1 << 20  # bytes; a scheduler's handshake is well under 100
PLACE = "--address"

_ADDRESS = re.compile(r"(?:tcp://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]+):(?P<port>[0-9]{1,5})")
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?")


def _show(address: str) -> str:
    return repr(address if len(address) <= 60 else address[:57] + "...")


def parse_address(address: str) -> tuple[str, int]:
    """(host, port) of ``tcp://HOST:PORT`` (or ``HOST:PORT``); InputError otherwise."""
    found = _ADDRESS.fullmatch(address) if len(address) <= 300 else None
    host, port = (found["host"], int(found["port"])) if found else ("", 0)
    if host.startswith("["):
        try:
            host = str(ipaddress.IPv6Address(host[1:-1]))
        except ValueError:
            host = ""
    elif host and not all(_LABEL.fullmatch(label) for label in host.split(".")):
        host = ""
    if not host or not 1 <= port <= 65535:
        raise InputError(f"expected a Dask scheduler address tcp://HOST:PORT (PORT 1-65535), "
                         f"got {_show(address)}", place=PLACE)
    return host, port


def _receive(sock: socket.socket, n: int, deadline: float) -> bytes:
    data = b""
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock.settimeout(left)
        chunk = sock.recv(min(n - len(data), 65536))
        if not chunk:
            raise ConnectionResetError
        data += chunk
    return data


def _is_handshake(body: bytes) -> bool:
    """Whether ``body`` is a Dask message (frame count, frame lengths, frames) holding
    the handshake mapping every Dask server sends first."""
    if len(body) < 8:
        return False
    (count,) = struct.unpack_from("Q", body)
    if not 1 <= count <= 16 or len(body) < 8 * (1 + count):
        return False
    lengths = struct.unpack_from(f"{count}Q", body, 8)
    start = 8 * (1 + count)
    if start + sum(lengths) != len(body):
        return False
    frames = []
    for n in lengths:
        frames.append(body[start:start + n])
        start += n
    try:
        from distributed.protocol.core import loads

        message = loads(frames, deserialize=False)
    except Exception:  # noqa: BLE001 - any failure to decode means "not Dask"
        return False
    return isinstance(message, dict) and "compression" in message


def _hello() -> bytes:
    """The handshake a Dask client sends first (a server that waits for a request, as an
    HTTP server does, then answers in its own protocol, which is recognised as not Dask)."""
    from distributed.protocol.core import dumps
    from distributed.protocol.utils import pack_frames

    body = pack_frames(dumps({"compression": None, "python": tuple(sys.version_info[:3]),
                              "pickle-protocol": pickle.HIGHEST_PROTOCOL}))
    return struct.pack("Q", len(body)) + body


def check_scheduler(address: str) -> None:
    """Refuse, in one line and within 2 × ``TIMEOUT`` s, an address where no Dask
    scheduler answers: nothing listening, a silent server, another protocol."""
    host, port = parse_address(address)
    where = f"{PLACE} {_show(address)}"
    try:
        sock = socket.create_connection((host, port), timeout=TIMEOUT)
    except socket.gaierror as exc:
        raise InputError(f"unknown host ({exc.strerror})", place=where) from None
    except TimeoutError:
        raise InputError(f"no connection within {TIMEOUT:g} s (expected a Dask scheduler)",
                         place=where) from None
    except OSError as exc:
        raise InputError(f"cannot connect ({exc.strerror or exc}; expected a Dask scheduler)",
                         place=where) from None
    deadline = time.monotonic() + TIMEOUT
    with sock:
        try:
            sock.sendall(_hello())
            (size,) = struct.unpack("Q", _receive(sock, 8, deadline))
            body = _receive(sock, size, deadline) if 8 <= size <= MAX_HANDSHAKE else b""
        except TimeoutError:
            raise InputError(f"the server accepted the connection but sent no Dask handshake "
                             f"within {TIMEOUT:g} s (expected a Dask scheduler)",
                             place=where) from None
        except OSError:
            raise InputError("the server closed the connection without a Dask handshake "
                             "(expected a Dask scheduler)", place=where) from None
    if not _is_handshake(body):
        raise InputError("the server answers, but not with the Dask protocol (expected a "
                         "Dask scheduler)", place=where)
