"""A person at a page of the play board, for the browser tests: a headless Chromium at
1280 × 720 that reaches 127.0.0.1 only (``tests/browser.py``), real clicks on what nothing
covers, an order given as a student gives it, screenshots on request
(``SIM_PLAY_SHOTS=DIR`` keeps one of each step there)."""
from __future__ import annotations

import base64
import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

from conftest import need_chromium


@contextlib.contextmanager
def chromium(width: int = 1280, height: int = 720) -> Iterator:
    """A headless Chromium showing ``width`` × ``height`` CSS px; ended after the block."""
    from browser import Browser

    need_chromium()
    b = Browser(timeout=60, loopback=True)
    try:
        b.screen(width, height)
        yield b
    finally:
        b.close()
    assert b.proc.poll() is not None


class Page:
    """A page as the test's mouse sees it."""

    def __init__(self, browser) -> None:
        self.b = browser
        self.shots = os.environ.get("SIM_PLAY_SHOTS")
        self.n = 0

    def js(self, expression: str):
        return self.b.evaluate(expression)

    def wait(self, expression: str, timeout: float = 60) -> None:
        self.b.wait_for(expression, timeout=timeout)

    def click(self, selector: str) -> None:
        """A real click (pressed and released) at the middle of the element, scrolled into view."""
        box = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                      " if (!e) return null; e.scrollIntoView({block: 'center'});"
                      " const b = e.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })()")
        assert box is not None, f"nothing to click: {selector}"
        x, y = box
        # what is under the pointer must be the element itself (or inside it): nothing covers it
        assert self.js(f"document.querySelector({json.dumps(selector)})"
                       f".contains(document.elementFromPoint({x}, {y}))"), \
            (f"covered: {selector}", self.js(f"document.elementFromPoint({x}, {y}).outerHTML.slice(0, 200)"))
        for kind, buttons in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)):
            self.b.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                     "buttons": buttons, "clickCount": 1}, session=True)

    def rect(self, selector: str) -> list[float]:
        """The element's box in the window: left, top, right, bottom."""
        return self.js(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                       " return [r.left, r.top, r.right, r.bottom]; })()")

    def text(self, selector: str) -> str:
        return self.js(f"document.querySelector({json.dumps(selector)})?.textContent ?? ''")

    def shot(self, name: str) -> None:
        if self.shots:
            self.n += 1
            data = self.b.send("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
            Path(self.shots, f"{self.n:02d}-{name}.png").write_bytes(base64.b64decode(data))


def give(page: Page, board: str, control: str, order: str) -> None:
    """Give ``control`` ``order`` on the play board ``board`` (a selector) by clicks: a menu
    choice, or *go to…* then the node on the map; the row then shows it."""
    row = f"{board} .sp-control[data-control='{control}']"
    if order.startswith("to "):
        page.click(f"{row} button[data-choice='to']")
        page.click(f"{board} .node[data-node='{order[3:]}'] .hit")
    else:
        page.click(f"{row} button[data-choice='{order}']")
    shown = "go to " + order[3:] if order.startswith("to ") else order
    assert page.text(f"{row} .sp-order") == shown
