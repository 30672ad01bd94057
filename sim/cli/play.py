"""``sim play``: the play board (``sim.viz.play``) as a plain web page with a live kernel,
served on 127.0.0.1 until Ctrl-C (``sim.play.page``: Voilà, the ``notebooks`` extra).

Everything is checked before the server starts: the extra, ``--port`` (a number, and free),
the scenario, and ``--side`` (one of its sides, playable against a planner of another)."""
from __future__ import annotations

import argparse
import errno
import socket
import sys
import threading
from pathlib import Path

from sim.cli.shared import seed
from sim.errors import InputError

DESCRIPTION = """\
sim play SCENARIO [--side blue] [--seed N] [--port P] [--no-browser] serves the play board
(sim.viz.play) as a web page of its own, with a live kernel: you give one side's orders by
clicks, End phase plays the phase and the planning side's answer, and at the end the
debrief. It prints the page's address (127.0.0.1, with a token) and opens it in the
browser, and serves it until Ctrl-C (exit 130), SIGTERM (143) or SIGHUP (129); its server
and kernels end with it. Needs the notebooks extra (pip install 'sim[notebooks]'). The page
is served to this computer alone: for a student, start it on the student's own computer
(sim play scenarios/kill_zone_play.yaml --side blue --seed 4); each visit of the page is a
new battle. Bad input (the scenario, --side, --seed, --port not a number, out of range or
in use, the extra missing) exits 2 with one line before any server starts."""


def port(text: str) -> int:
    """``--port``: 1 .. 65535."""
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"--port '{text}' is not an integer (expected 1 .. 65535)", file="command line") from None
    if not 1 <= value <= 65535:
        raise InputError(f"--port {value} is out of range (expected 1 .. 65535)", file="command line")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``sim play``."""
    p.add_argument("scenario", help="scenario file (YAML) with a planner on another side (policies.SIDE.decide)")
    p.add_argument("--side", default="blue", metavar="SIDE", help="the side you play (default blue)")
    p.add_argument("--seed", type=seed, default=1, metavar="N", help="the battle's seed (default 1)")
    p.add_argument("--port", type=port, default=None, metavar="P",
                   help="the page's port on 127.0.0.1 (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="print the page's address only; open no browser")


def _free(number: int | None) -> int:
    # bound and let go: the port is free now (the server takes it a moment later)
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", number or 0))
        except OSError as err:
            why = "in use" if err.errno == errno.EADDRINUSE else err.strerror or "refused"
            raise InputError(f"--port {number} cannot be used on 127.0.0.1 ({why}; expected a free port, "
                             "or no --port for any free one)", file="command line") from None
        return int(s.getsockname()[1])


def command(args: argparse.Namespace) -> int:
    """``sim play``: serves the page until a signal stops it; 1 if its server ends by itself."""
    from sim.extras import require
    from sim.play.page import Page
    from sim.play.session import Session, planners_of
    from sim.scenario.load import load_scenario
    from sim.systems.plugins import from_environment

    require("notebooks", "sim play")
    number = _free(args.port)
    scenario = load_scenario(args.scenario)
    if args.side not in scenario.sides:
        raise InputError(f"--side {args.side!r}: {args.scenario} has no such side "
                         f"(expected one of {', '.join(scenario.sides)})", file="command line")
    Session(scenario, args.side, args.seed)   # a side it can play: a planner on another, none on it
    others = " and ".join(planners_of(scenario, args.side))
    title = f"# {scenario.name}: you play {args.side}, {others} plans (seed {args.seed})"
    plugins = [*from_environment(), *args.plugins_before, *args.plugins]
    page = Page(Path(args.scenario).resolve(), args.side, args.seed, plugins, number, title)
    try:
        try:
            page.wait()
        except RuntimeError as err:
            print(f"sim: error: {err}", file=sys.stderr)
            return 1
        print(f"sim play: {scenario.name} at {page.url} (Ctrl-C stops it)", flush=True)
        if not args.no_browser:
            import webbrowser

            # in a thread: a text browser where there is no display would hold this one up
            threading.Thread(target=webbrowser.open, args=(page.url,), daemon=True).start()
        code = page.proc.wait()
        print(f"sim: error: the page's server (voila) ended (exit {code}): {page.last_line()}", file=sys.stderr)
        return 1
    finally:
        page.close()
