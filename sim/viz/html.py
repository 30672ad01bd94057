"""Self-contained HTML pages: everything inline (styles, scripts, pictures as data: URIs)
and a Content-Security-Policy that lets the page fetch nothing, so it works from a file
with the network off (a classroom, a firewalled office) and never calls out."""
from __future__ import annotations

import base64
import html
import io
from typing import Any

# Nothing may be fetched: no URL scheme but data: for pictures, inline styles and scripts.
CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")

BASE_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.2em auto;
       max-width: 1100px; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.9em; margin: 0.5em 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
img { max-width: 100%; }
.note { color: #555; font-size: 0.9em; }
"""


def escape(text: Any) -> str:
    """Text made safe to put in HTML; a character UTF-8 cannot hold (the stand-in for a
    byte of a file name that is not UTF-8) is shown as a backslash escape, ``\\xff``."""
    text = str(text)
    try:  # a name's undecodable byte b'\xff' arrives as '\udcff': show it as \xff
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # another lone surrogate: \ud800
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return html.escape(text, quote=True)


def png_uri(fig: Any, dpi: int = 100, colours: int | None = None) -> str:
    """A matplotlib Figure as a ``data:image/png;base64,...`` URI; given ``colours``, in
    a palette of at most that many (a flat map's picture is then about half the size)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    if colours is not None:
        from PIL import Image

        buf.seek(0)
        flat = Image.open(buf).convert("RGB").quantize(colors=colours, method=Image.Quantize.MEDIANCUT,
                                                       dither=Image.Dither.NONE)
        buf = io.BytesIO()
        flat.save(buf, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def file_uri(path: str, mime: str = "image/png") -> str:
    """A file's bytes as a data: URI."""
    with open(path, "rb") as f:
        return f"data:{mime};base64," + base64.b64encode(f.read()).decode("ascii")


def page(title: str, body: str, css: str = "") -> str:
    """A whole HTML document: ``body`` with the base styles (and ``css``), fetching nothing."""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{BASE_CSS}{css}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")
