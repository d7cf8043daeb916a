"""What a displayed table must not show (issue 13, item 5): raw reprs, e-notation, dtype names, _ subscripts."""

from __future__ import annotations

import re
from html.parser import HTMLParser

RAW_WORDS = re.compile(r"\b(True|False|None|nan|NaN|int64|int32|float64|float32|object|bool)\b")
E_NOTATION = re.compile(r"\d[eE][+-]?\d")
UNDERSCORE_SUBSCRIPT = re.compile(r"(?<![\w])[A-Za-zΑ-Ωα-ω]_[A-Za-z0-9{]")


class _Cells(HTMLParser):
    """Text of every <td> and <th>, headers apart."""

    def __init__(self) -> None:
        super().__init__()
        self.headers: list[str] = []
        self.cells: list[str] = []
        self._in: str | None = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        if tag in ("td", "th"):
            self._in, self._text = tag, ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._in == tag:
            (self.headers if tag == "th" else self.cells).append(self._text.strip())
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._text += data


def table_texts(html: str) -> tuple[list[str], list[str]]:
    """(header texts, cell texts) of the tables in ``html``."""
    parser = _Cells()
    parser.feed(html)
    return parser.headers, parser.cells


def problems(html: str, *, raw_words: re.Pattern = RAW_WORDS) -> list[str]:
    """What is not in users' words in the tables of ``html`` (empty when all is well)."""
    headers, cells = table_texts(html)
    assert headers or cells, "no table in the HTML"
    found = []
    for text in headers + cells:
        if raw_words.search(text):
            found.append(f"raw word in {text!r}")
        if E_NOTATION.search(text):
            found.append(f"e-notation in {text!r}")
    for text in headers:
        if UNDERSCORE_SUBSCRIPT.search(text):
            found.append(f"underscore subscript in header {text!r}")
    # the <sub> markup itself must not have been escaped into visible text
    if "&lt;sub&gt;" in html:
        found.append("escaped <sub> shown as text")
    return found
