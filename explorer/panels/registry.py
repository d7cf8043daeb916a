"""The one registry of panels: every tab of the app and every panel a lesson can show comes from here.

Each :class:`PanelEntry` names a panel once: its key (what a lesson's preset names), its tab title, and
where its class lives (imported only when first built, so a tab nobody opens costs nothing).
:data:`explorer.app.PANEL_TABS` and :data:`explorer.panels.lesson.PANELS` are derived from :data:`REGISTRY`.
A new panel is added here, in the order of the app's tabs.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from explorer.errors import InvalidParameterError
from explorer.state import shorten

__all__ = ["PanelEntry", "REGISTRY", "entry", "app_tabs", "lesson_panels"]


@dataclass(frozen=True)
class PanelEntry:
    """One panel of the explorer.

    Attributes
    ----------
    key : str
        Its name in code and in lessons' presets (``"randomized_response"``).
    title : str
        Its tab title (``"Randomized response"``).
    module : str
        The module of its class.
    class_name : str
        Its class; built as ``cls(state=...)`` by the app (``cls(state, **kwargs)`` by lessons).
    placement : str
        ``"start"`` (built with the app: the landing view and the Data tab), ``"tab"`` (a tab built when first
        opened), ``"lessons"`` (the Lessons tab, also built when first opened) or ``"embedded"`` (a section
        another tab shows inside itself, not a tab of its own: the published releases in "What does ε mean?").
    in_lessons : bool
        Whether a lesson's preset may show it.
    """

    key: str
    title: str
    module: str
    class_name: str
    placement: str = "tab"
    in_lessons: bool = True

    def load(self) -> type:
        """The panel's class (its module imported now)."""
        return getattr(importlib.import_module(self.module), self.class_name)

    def build(self, *args: Any, **kwargs: Any) -> Any:
        """A new panel: the class called with ``args`` and ``kwargs``."""
        return self.load()(*args, **kwargs)


#: Every panel, in the order of the app's tabs.
REGISTRY: tuple[PanelEntry, ...] = (
    PanelEntry("landing", "Start here", "explorer.panels.landing", "LandingPanel", "start", False),
    PanelEntry("data", "Data", "explorer.panels.data", "DataPanel", "start", False),
    PanelEntry("epsilon_meaning", "What does ε mean?", "explorer.panels.epsilon_meaning", "EpsilonMeaningPanel",
               in_lessons=False),
    PanelEntry("releases", "Published releases", "explorer.panels.releases", "ReleasesPanel", "embedded"),
    PanelEntry("randomized_response", "Randomized response", "explorer.panels.randomized_response",
               "RandomizedResponsePanel"),
    PanelEntry("t_closeness", "t-closeness", "explorer.panels.t_closeness", "TClosenessPanel"),
    PanelEntry("permutation", "Permutation", "explorer.panels.permutation", "PermutationPanel"),
    PanelEntry("dominance", "Dominance", "explorer.panels.dominance", "DominancePanel"),
    PanelEntry("multidim_rr", "Multi-attribute RR", "explorer.panels.multidim_rr", "MultiDimRRPanel"),
    PanelEntry("lessons", "Lessons", "explorer.panels.lesson", "LessonsPage", "lessons", False),
)


def entry(key: str) -> PanelEntry:
    """The registry's entry of ``key`` (a key such as ``"t_closeness"``, or a tab title)."""
    for item in REGISTRY:
        if key in (item.key, item.title):
            return item
    raise InvalidParameterError(f"panel must be one of {[item.key for item in REGISTRY]}, got {shorten(key)}")


def app_tabs() -> list[tuple[str, str, str]]:
    """The tabs the app builds when first opened: ``(title, module, class)``, in order."""
    return [(item.title, item.module, item.class_name) for item in REGISTRY if item.placement in ("tab", "lessons")]


def lesson_panels() -> dict[str, tuple[str, str]]:
    """The panels a lesson's preset may name: ``{key: (module, class)}``."""
    return {item.key: (item.module, item.class_name) for item in REGISTRY if item.in_lessons}
