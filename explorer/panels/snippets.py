"""Pieces of the Python snippets that panels' ``code()`` returns (the public API that reproduces a view)."""

from __future__ import annotations

from explorer.core.datasets import BUILTIN_DATASETS, LEGACY_NAMES
from explorer.state import UPLOAD_PREFIX, AppState

__all__ = ["dataset_load_code"]


def dataset_load_code(dataset: AppState | str) -> tuple[str, str]:
    """The line that loads a data set as ``frame``, and the loader of :mod:`explorer.core.datasets` it calls.

    ``dataset`` is the state (its data set) or a data set's name.  A built-in data set is loaded by its name,
    an uploaded one from its file name, any other from ``data.csv`` (said in a comment: the app was given a
    frame without a name to load it by).  Every panel's ``code()`` starts from this line.

    Examples
    --------
    >>> state = AppState()
    >>> state.select_dataset("UCI Adult")
    >>> dataset_load_code(state)
    ("frame = load_builtin('UCI Adult')", 'load_builtin')
    >>> dataset_load_code("Uploaded: survey.csv")
    ("frame = load_csv('survey.csv')   # the file uploaded in the Data tab", 'load_csv')
    """
    name = dataset.dataset_name if isinstance(dataset, AppState) else str(dataset)
    if name in BUILTIN_DATASETS or name in LEGACY_NAMES:
        return f"frame = load_builtin({name!r})", "load_builtin"
    if name.startswith(UPLOAD_PREFIX):
        return f"frame = load_csv({name[len(UPLOAD_PREFIX):]!r})   # the file uploaded in the Data tab", "load_csv"
    return 'frame = load_csv("data.csv")   # the data set given to the app (it has no name to load it by)', "load_csv"
