"""Download links: a file handed to the browser as a data: URI (no server round trip)."""

from __future__ import annotations

import base64

from explorer.panels.status import escape

__all__ = ["download_link", "csv_download_link"]


def download_link(data: bytes, filename: str, mime: str, label: str | None = None, *, css_class: str = "") -> str:
    """An HTML link that downloads ``data`` as the file ``filename`` (a data: URI, no server round trip)."""
    payload = base64.b64encode(data).decode("ascii")
    extra = f" class='{escape(css_class)}'" if css_class else ""
    return (f"<a download='{escape(filename)}' href='data:{escape(mime)};base64,{payload}'{extra}>"
            f"{escape(label or filename)}</a>")


def csv_download_link(text: str, filename: str, label: str | None = None, *, css_class: str = "") -> str:
    """An HTML link that downloads ``text`` as the CSV file ``filename``.

    Build ``text`` with :func:`explorer.core.export.csv_safe` so that spreadsheet formulas are escaped.
    """
    return download_link(text.encode("utf-8"), filename, "text/csv;charset=utf-8", label, css_class=css_class)
