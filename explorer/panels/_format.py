"""Display formatting of the tabs' HTML tables: values and headers in users' words.

Pure helpers, no widgets: yes/no for booleans, one number format (thousands
separators, a fixed number of significant digits, no scientific notation for
ordinary magnitudes), column types in words, and subscripts shown with HTML
``<sub>`` instead of underscores (``d_i`` -> d<sub>i</sub>).  They are for
display only: CSV exports keep the raw values (see :func:`explorer.core.export.csv_safe`).
"""

from __future__ import annotations

import math
import re
from html import escape
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["format_value", "format_compared", "decisive_decimals", "html_table", "subscripts_html",
           "subscripts_in_html", "type_name"]

#: plain notation from this magnitude up to (not including) _LARGEST_PLAIN; scientific outside
_SMALLEST_PLAIN = 1e-4
_LARGEST_PLAIN = 1e15
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
#: a one-letter symbol (Latin or Greek) followed by _ and a short index: d_i, D_j, T_v, x_1, q_{ij}
_SUBSCRIPT = re.compile(r"(?<![\w])([A-Za-zΑ-Ωα-ω])_(\{[^}]{1,12}\}|[A-Za-z0-9]{1,3})(?![\w])")


def format_value(value: Any, *, digits: int = 4) -> str:
    """A cell as text: booleans as yes/no, numbers in one format, anything else as ``str``.

    Whole numbers get thousands separators; other numbers get ``digits``
    significant digits (trailing zeros dropped), shown as a whole number with
    separators once they have that many digits before the point, and in
    scientific notation (``1.2×10⁻⁵``) only below 10⁻⁴ or from 10¹⁵.

    Examples
    --------
    >>> [format_value(v) for v in (True, False, 20170, 20170.4, 0.123456, 2.5, 3e-6, float("nan"))]
    ['yes', 'no', '20,170', '20,170', '0.1235', '2.5', '3×10⁻⁶', '–']
    """
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, Integral):
        return f"{int(value):,}"
    if isinstance(value, Real):
        x = float(value)
        if math.isnan(x):
            return "–"
        if math.isinf(x):
            return "∞" if x > 0 else "−∞"
        if x == 0:
            return "0"
        size = abs(x)
        if size < _SMALLEST_PLAIN or size >= _LARGEST_PLAIN:
            mantissa, exponent = f"{x:.{max(digits - 1, 0)}e}".split("e")
            mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
            return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"
        magnitude = math.floor(math.log10(size))
        if magnitude + 1 >= digits:
            return f"{round(x):,}"
        text = f"{x:,.{digits - 1 - magnitude}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    if value is None or value is pd.NA or value is pd.NaT:
        return "–"
    return str(value)


def decisive_decimals(value: float, target: float, *, decimals: int = 3, max_decimals: int = 12) -> int:
    """The fewest decimals (at least ``decimals``) at which ``value`` and ``target``, both rounded, compare as they do.

    A reader who compares two numbers on screen (an error bound against a target, a share against a
    threshold) must not see them equal, or in the wrong order, because of rounding: 0.0103 against 0.01
    needs 4 decimals ("0.010" would hide that the bound misses the target).  Equal numbers need no more
    than ``decimals``; numbers that differ beyond ``max_decimals`` get ``max_decimals``.

    Examples
    --------
    >>> decisive_decimals(0.0103, 0.01), decisive_decimals(0.25, 0.01), decisive_decimals(0.0100004, 0.01)
    (4, 3, 7)
    """
    value, target = float(value), float(target)
    truth = (value > target) - (value < target)
    for k in range(decimals, max_decimals + 1):
        a, b = round(value, k), round(target, k)
        if (a > b) - (a < b) == truth:
            return k
    return max_decimals


def format_compared(value: float, target: float, *, decimals: int = 3) -> tuple[str, str]:
    """``value`` and ``target`` as text, with the decimals that decide their comparison (trailing zeros dropped).

    The one helper for readouts that put a number beside the one it is compared with
    (:func:`decisive_decimals`): both are shown rounded to the same number of decimals, at least
    ``decimals``, more when fewer would show them equal or in the wrong order.

    Examples
    --------
    >>> format_compared(0.0103, 0.01)
    ('0.0103', '0.01')
    >>> format_compared(0.0097, 0.01)
    ('0.0097', '0.01')
    >>> format_compared(0.2, 0.01)
    ('0.2', '0.01')
    >>> format_compared(1234.5678, 1234.5)
    ('1,234.568', '1,234.5')
    """
    k = decisive_decimals(value, target, decimals=decimals)

    def text(x: float) -> str:
        if not math.isfinite(float(x)):
            return format_value(float(x))
        out = f"{float(x):,.{k}f}"
        return out.rstrip("0").rstrip(".") if "." in out else out

    return text(value), text(target)


def type_name(dtype: Any) -> str:
    """A column type in words: "yes/no", "whole number", "decimal", "date/time" or "category".

    Examples
    --------
    >>> import pandas as pd
    >>> [type_name(pd.Series(v).dtype) for v in ([True], [1], [1.5], ["a"])]
    ['yes/no', 'whole number', 'decimal', 'category']
    """
    if pd.api.types.is_bool_dtype(dtype):
        return "yes/no"
    if pd.api.types.is_integer_dtype(dtype):
        return "whole number"
    if pd.api.types.is_float_dtype(dtype):
        return "decimal"
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "date/time"
    if pd.api.types.is_complex_dtype(dtype):
        return "complex number"
    return "category"


def subscripts_html(text: Any) -> str:
    """Escaped HTML of ``text`` with one-letter symbols' ``_`` indices as ``<sub>``.

    Only a single letter followed by ``_`` and a short index is a subscript, so
    column names such as ``hours_per_week`` stay as they are.

    Examples
    --------
    >>> subscripts_html("records at d_i")
    'records at d<sub>i</sub>'
    >>> subscripts_html("D_j(α) & hours_per_week")
    'D<sub>j</sub>(α) &amp; hours_per_week'
    """
    return _SUBSCRIPT.sub(_sub, escape(str(text)))


_TAG = re.compile(r"(<[^>]*>)")


def subscripts_in_html(markup: str) -> str:
    """``markup`` (HTML) with the one-letter symbols' ``_`` indices of its text as ``<sub>``.

    The same rule as :func:`subscripts_html`, applied to the text between tags only (tags and
    their attributes are left alone; the text is not escaped again).

    Examples
    --------
    >>> subscripts_in_html("<b class='a_b'>T_v</b> = 50 &amp; hours_per_week")
    "<b class='a_b'>T<sub>v</sub></b> = 50 &amp; hours_per_week"
    """
    parts = _TAG.split(str(markup))
    return "".join(part if _TAG.fullmatch(part) else _SUBSCRIPT.sub(_sub, part) for part in parts)


def _sub(match: re.Match) -> str:
    return f"{match.group(1)}<sub>{match.group(2).strip('{}')}</sub>"


def html_table(frame: pd.DataFrame, *, css_class: str, digits: int = 4, index: bool = False,
               max_height: str | None = None, label: str = "table") -> str:
    """A table as HTML for display: cells by :func:`format_value`, headers by :func:`subscripts_html`.

    Numbers are right-aligned, text left-aligned; every cell is escaped.  The table sits in a box that
    scrolls when the table is wider (or taller, with ``max_height``) than the column; the box takes the
    keyboard focus (``tabindex=0``, so arrow keys scroll it) and is named by ``label`` for screen readers.

    Examples
    --------
    >>> import pandas as pd
    >>> html = html_table(pd.DataFrame({"d_i": [2.0e4], "ok": [True]}), css_class="t")
    >>> "d<sub>i</sub>" in html and "20,000" in html and ">yes<" in html
    True
    """
    region_name = escape(label)
    columns = list(frame.columns)
    numeric = [pd.api.types.is_numeric_dtype(frame[c].dtype) and not pd.api.types.is_bool_dtype(frame[c].dtype)
               for c in columns]

    def cell(value: Any, is_number: bool, tag: str = "td") -> str:
        align = "right" if is_number else "left"
        return f"<{tag} style='text-align:{align}'>{escape(format_value(value, digits=digits))}</{tag}>"

    head = "".join(f"<th style='text-align:{'right' if n else 'left'}'>{subscripts_html(c)}</th>"
                   for c, n in zip(columns, numeric))
    if index:       # an unnamed index leaves the corner empty: a data cell, not a header that names nothing
        head = (f"<th>{subscripts_html(frame.index.name)}</th>" if frame.index.name else "<td></td>") + head
    rows = []
    for label, values in zip(frame.index, frame.itertuples(index=False, name=None)):
        first = cell(label, isinstance(label, Real) and not isinstance(label, bool), "th") if index else ""
        rows.append("<tr>" + first + "".join(cell(v, n) for v, n in zip(values, numeric)) + "</tr>")
    style = (f"<style>.{css_class}{{border-collapse:collapse;font-size:12px}}"
             f".{css_class} td,.{css_class} th{{padding:2px 8px;border-bottom:1px solid #ddd;line-height:1.3}}"
             f".{css_class} td{{white-space:nowrap}} .{css_class} th{{vertical-align:bottom}}"
             f".{css_class} sub{{line-height:0}}</style>")
    table = f"<table class='{css_class}'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    height = f"max-height:{max_height};" if max_height else ""
    return (style + f"<div class='explorer-table-scroll' tabindex='0' role='region' aria-label='{region_name}' "
            f"style='{height}overflow:auto;max-width:100%'>{table}</div>")
