"""A person at a page of the play board, for the browser tests: a headless Chromium at
1280 × 720 that reaches 127.0.0.1 only (``tests/browser.py``), real clicks on what nothing
covers, an order given as a student gives it, screenshots on request
(``SIM_PLAY_SHOTS=DIR`` keeps one of each step there)."""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from browser import Page
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


def mouse_page(browser) -> Page:
    """The page of ``browser`` as the mouse reaches it; ``SIM_PLAY_SHOTS=DIR`` keeps a screenshot of each step."""
    return Page(browser, os.environ.get("SIM_PLAY_SHOTS"))


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
