"""Pieces of the Python snippets that panels' ``code()`` returns (the public API that reproduces a view)."""

from __future__ import annotations

from explorer.core.datasets import BUILTIN_DATASETS, LEGACY_NAMES
from explorer.state import UPLOAD_PREFIX, AppState

__all__ = ["dataset_load_code"]


def dataset_load_code(state: AppState) -> tuple[str, str]:
    """The line that loads the state's data set as ``frame``, and the import it needs.

    A built-in data set is loaded by its name, an uploaded one from its file name, any other from
    ``data.csv`` (said in a comment: the app was given a frame without a name to load it by).

    Examples
    --------
    >>> state = AppState()
    >>> state.select_dataset("UCI Adult")
    >>> dataset_load_code(state)
    ("frame = load_builtin('UCI Adult')", 'from explorer.core.datasets import load_builtin')
    """
    name = state.dataset_name
    if name in BUILTIN_DATASETS or name in LEGACY_NAMES:
        return f"frame = load_builtin({name!r})", "from explorer.core.datasets import load_builtin"
    if name.startswith(UPLOAD_PREFIX):
        return (f"frame = load_csv({name[len(UPLOAD_PREFIX):]!r})   # the file uploaded in the Data tab",
                "from explorer.core.datasets import load_csv")
    return ('frame = load_csv("data.csv")   # the data set given to the app',
            "from explorer.core.datasets import load_csv")
