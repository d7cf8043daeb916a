"""Tables exported as CSV: safe to open in a spreadsheet."""

from __future__ import annotations

from typing import Any

import pandas as pd

from explorer.errors import ExplorerTypeError

__all__ = ["csv_safe"]


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
