"""A real browser for the tests: headless Chromium driven over the DevTools protocol on a
pipe (``--remote-debugging-pipe``: no port is opened), with every wait bounded.

``Browser().open(path)`` loads a local file and records every request the page makes
(``Network.requestWillBeSent``); ``evaluate(js)`` reads the page's state; ``wait_for(js)``
waits, up to a deadline, until an expression is true. DNS is mapped to nothing and the
proxy is a closed local port, so even a request that slipped through could not leave the
machine; the recorded list is what the tests assert on (``loopback=True``: 127.0.0.1 is
reached too, for a server the test started). Chromium is killed with its parent
(``PR_SET_PDEATHSIG``) and at ``close``.

``Page(browser)`` is the page as a person's mouse and keyboard reach it: real input events
(``Input.dispatchMouseEvent``, ``Input.dispatchKeyEvent``, ``Input.insertText``), each click
at the middle of an element scrolled into view, after checking that nothing covers it.
"""
from __future__ import annotations

import base64
import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

TIMEOUT = 30.0  # seconds: any single wait on the browser
LOCAL = ("file:", "data:", "about:", "blob:")


def chromium() -> str | None:
    """The Chromium executable (Debian's ``chromium``), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _child_setup(read_end: int, write_end: int):
    def setup() -> None:
        os.dup2(read_end, 3)
        os.dup2(write_end, 4)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the test process
    return setup


class BrowserError(RuntimeError):
    """The browser did not answer in time, or answered with an error."""


class Browser:
    """One headless Chromium with one page."""

    def __init__(self, timeout: float = TIMEOUT, loopback: bool = False):
        """``loopback``: the page may reach a server on 127.0.0.1 (a JupyterLab the test
        started); any other host stays unresolved."""
        exe = chromium()
        if exe is None:
            raise BrowserError("chromium is not installed (apt-get install chromium)")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="sim-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        args = [exe, "--headless", "--remote-debugging-pipe", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--no-first-run",
                "--disable-sync", "--disable-extensions", "--mute-audio", "--no-default-browser-check",
                f"--user-data-dir={self.profile}", "--proxy-server=127.0.0.1:9",
                "--host-resolver-rules=MAP * ~NOTFOUND" + (", EXCLUDE 127.0.0.1" if loopback else ""),
                "--allow-file-access-from-files"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")
        self.proc = subprocess.Popen(
            [*args, "about:blank"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, pass_fds=(3, 4),
            preexec_fn=_child_setup(to_browser_r, from_browser_w))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict] = []
        self.requests: list[str] = []
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Network", "Page", "Runtime"):
            self.send(f"{domain}.enable", session=True)

    # -- the protocol ---------------------------------------------------------------------
    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise BrowserError("chromium did not answer in time")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise BrowserError("chromium closed the pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        data = json.loads(message)
        if data.get("method") == "Network.requestWillBeSent":
            self.requests.append(data["params"]["request"]["url"])
        if "method" in data:
            self.events.append(data)
        return data

    def send(self, method: str, params: dict | None = None, session: bool = False) -> dict:
        """Send one command and wait (bounded) for its answer."""
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            data = self._read(deadline)
            if data.get("id") == self._next:
                if "error" in data:
                    raise BrowserError(f"{method}: {data['error']}")
                return data.get("result", {})

    # -- what the tests use ---------------------------------------------------------------
    def open(self, path: str | Path) -> None:
        """Load a local file and wait for its load event."""
        self.events.clear()
        self.send("Page.navigate", {"url": Path(path).resolve().as_uri()}, session=True)
        deadline = time.monotonic() + self.timeout
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self._read(deadline)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, session=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float | None = None) -> None:
        """Wait until ``expression`` is true in the page (the page's own timers run)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise BrowserError(f"still false after {timeout or self.timeout} s: {expression}")
            self.evaluate("new Promise(r => setTimeout(r, 100))")

    def screen(self, width: int, height: int) -> None:
        """Show the page in a window of ``width`` × ``height`` CSS pixels (a laptop, a projector)."""
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                         "mobile": False}, session=True)

    def outside_requests(self) -> list[str]:
        """Every request the page made that was not for a local file or inline data."""
        return [u for u in self.requests if not u.startswith(LOCAL)]

    def close(self) -> None:
        """End the browser and remove its profile."""
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=self.timeout)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


#: Keys a test presses: key -> (code, Windows virtual key code).
KEYS = {"Enter": ("Enter", 13), "Escape": ("Escape", 27), "b": ("KeyB", 66), "a": ("KeyA", 65),
        "ArrowRight": ("ArrowRight", 39), "ArrowDown": ("ArrowDown", 40)}
SHIFT, CONTROL = 8, 2   # Input.dispatchKeyEvent's modifier bits


class Page:
    """A browser's page as the test's mouse and keyboard see it; ``shots``: a folder that keeps
    a screenshot of each step (``shot``), or None."""

    def __init__(self, browser: Browser, shots: str | Path | None = None) -> None:
        self.b = browser
        self.shots = shots
        self.n = 0

    def js(self, expression: str):
        return self.b.evaluate(expression)

    def wait(self, expression: str, timeout: float = 60) -> None:
        self.b.wait_for(expression, timeout=timeout)

    def click(self, selector: str) -> None:
        """A real click (pressed and released) at the middle of the element, scrolled into view."""
        self.click_on(f"document.querySelector({json.dumps(selector)})", selector)

    def click_on(self, element: str, name: str = "") -> None:
        """A real click at the middle of ``element`` (a JavaScript expression), scrolled into view."""
        # scrolled until it stays put: what comes into view may be laid out only then, and move it
        box = self.js(f"(async () => {{ const e = {element}; if (!e) return null; let last = null;"
                      " for (let k = 0; k < 20; k++) { e.scrollIntoView({block: 'center'});"
                      "  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));"
                      "  const b = e.getBoundingClientRect(), now = [b.x + b.width / 2, b.y + b.height / 2];"
                      "  if (last && now[0] === last[0] && now[1] === last[1]) return now; last = now; }"
                      " return last; })()")
        assert box is not None, f"nothing to click: {name or element}"
        x, y = box
        # what is under the pointer must be the element itself (or inside it): nothing covers it
        assert self.js(f"({element}).contains(document.elementFromPoint({x}, {y}))"), \
            (f"covered: {name or element}", self.js(f"document.elementFromPoint({x}, {y})?.outerHTML.slice(0, 200)"))
        self.click_at(x, y)

    def click_at(self, x: float, y: float) -> None:
        """A real click (moved, pressed, released) at the window's point (x, y)."""
        for kind, buttons in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)):
            self.b.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                     "buttons": buttons, "clickCount": 1}, session=True)

    def rect(self, selector: str) -> list[float]:
        """The element's box in the window: left, top, right, bottom."""
        return self.js(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                       " return [r.left, r.top, r.right, r.bottom]; })()")

    def text(self, selector: str) -> str:
        return self.js(f"document.querySelector({json.dumps(selector)})?.textContent ?? ''")

    def press(self, key: str, modifiers: int = 0) -> None:
        """A key pressed and released (one of ``KEYS``), with ``SHIFT`` or ``CONTROL`` held."""
        code, number = KEYS[key]
        for kind in ("rawKeyDown", "keyUp"):
            self.b.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code, "modifiers": modifiers,
                                                   "windowsVirtualKeyCode": number, "nativeVirtualKeyCode": number},
                        session=True)

    def type(self, text: str) -> None:
        """Text typed where the focus is (as the keyboard's input method enters it)."""
        self.b.send("Input.insertText", {"text": text}, session=True)

    def shot(self, name: str) -> None:
        if self.shots:
            self.n += 1
            data = self.b.send("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
            Path(self.shots, f"{self.n:02d}-{name}.png").write_bytes(base64.b64decode(data))
