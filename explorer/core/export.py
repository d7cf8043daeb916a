"""Exports: tables as CSV (safe to open in a spreadsheet), and the text of the one-page epsilon summary."""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from explorer.errors import ExplorerTypeError

__all__ = ["csv_safe", "summary_sections", "SUMMARY_HEADINGS"]


def csv_safe(table: pd.DataFrame) -> str:
    """CSV text of a table, with spreadsheet-formula cells escaped.

    Text cells (and column names) beginning with ``=``, ``+``, ``-`` or ``@`` get a
    leading apostrophe, so a spreadsheet shows them instead of evaluating them.

    Examples
    --------
    >>> import pandas as pd
    >>> csv_safe(pd.DataFrame({"v": ["=1+1", "ok"]})).splitlines()
    ['v', "'=1+1", 'ok']
    """
    if not isinstance(table, pd.DataFrame):
        raise ExplorerTypeError(f"table must be a pandas DataFrame, got {type(table).__name__}")

    def fix(cell: Any) -> Any:
        if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@"):
            return "'" + cell
        return cell

    safe = table.copy()
    safe.columns = [fix(str(c)) for c in safe.columns]
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column].dtype) or pd.api.types.is_bool_dtype(safe[column].dtype):
            safe[column] = safe[column].astype(object).map(fix)
    return safe.to_csv(index=False)


#: The headings of the one-page summary of the "What does ε mean?" view, in order.
SUMMARY_HEADINGS = {"odds": "Odds", "deniability": "Deniability", "t-closeness": "t-closeness",
                    "accuracy": "Accuracy", "choice": "From what I need", "release": "A published release"}


def summary_sections(reading_lines: dict[str, str], choice_lines: Sequence[str] | None = None,
                     release_lines: Sequence[str] | None = None) -> dict[str, str]:
    """The text of the one-page summary, heading by heading: the reading, the requirements and band, a release.

    Parameters
    ----------
    reading_lines : dict
        :func:`~explorer.core.epsilon_meaning.epsilon_summary_lines` of the epsilon read.
    choice_lines : sequence of str, optional
        :func:`~explorer.core.epsilon_choice.choice_summary_lines`: the requirements asked and the band (left out
        when nothing was asked).
    release_lines : sequence of str, optional
        A published release read through the models (the releases reader's sentences; left out when empty).

    Returns
    -------
    dict
        ``{heading: text}`` in :data:`SUMMARY_HEADINGS` order.

    Examples
    --------
    >>> list(summary_sections({"odds": "x"}, ["Asked: odds <= 3.", "Band: 0 <= epsilon <= 1.099 per report."]))
    ['Odds', 'From what I need']
    """
    if not isinstance(reading_lines, dict):
        raise ExplorerTypeError(f"reading_lines must be a dict, got {type(reading_lines).__name__}")
    out = {SUMMARY_HEADINGS.get(key, key): str(text) for key, text in reading_lines.items()}
    asked = [str(line) for line in (choice_lines or ()) if line]
    if asked and not asked[0].startswith("No requirement asked"):
        out[SUMMARY_HEADINGS["choice"]] = " ".join(asked)
    release = [str(line) for line in (release_lines or ()) if line]
    if release:
        out[SUMMARY_HEADINGS["release"]] = " ".join(release)
    return out
