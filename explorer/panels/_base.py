"""The shared panel helpers under their former import path (kept so that no panel's imports break).

New code imports from the module of each concern:

* :mod:`explorer.panels.base`: the :class:`~explorer.panels.base.Panel` base class every panel derives from;
* :mod:`explorer.panels.status`: :class:`StatusLine`, :class:`StaleMark`, :func:`guarded`, :func:`escape`;
* :mod:`explorer.panels.tasks`: :class:`BackgroundTask`, :class:`Throughput`;
* :mod:`explorer.panels.browser`: :data:`CLIENT_KEYS`, :func:`guard_widgets` (the browser boundary);
* :mod:`explorer.panels.figures`: :func:`make_figure`, :func:`close_tree`;
* :mod:`explorer.panels.downloads`: :func:`download_link`, :func:`csv_download_link`;
* :mod:`explorer.panels.controls`: :func:`epsilon_slider`, :func:`state_view`.
"""

from __future__ import annotations

from explorer.panels.browser import CLIENT_KEYS, guard_widgets
from explorer.panels.controls import epsilon_slider, state_view
from explorer.panels.downloads import csv_download_link, download_link
from explorer.panels.figures import close_tree, make_figure
from explorer.panels.status import StaleMark, StatusLine, escape, guarded
from explorer.panels.tasks import BackgroundTask, Throughput
from explorer.state import AppState

__all__ = ["AppState", "StatusLine", "BackgroundTask", "make_figure", "guarded", "escape", "csv_download_link",
           "download_link", "guard_widgets", "epsilon_slider", "state_view", "StaleMark", "CLIENT_KEYS",
           "close_tree", "Throughput"]
