"""The one registry of panels (explorer/panels/registry.py): the app and the lessons derive from it, and the
panels not yet on the Panel contract, or lacking a figure's text, table or code, are listed here."""

from __future__ import annotations

import pytest

from explorer.errors import InvalidParameterError
from explorer.panels import registry
from explorer.panels.base import Panel
from explorer.panels.registry import REGISTRY

#: Panels that do not derive from Panel yet (migrated by issue 22): this set only shrinks.
NOT_YET_ON_PANEL: set[str] = set()
#: Panels on the contract whose hooks are not all written (key -> Panel.missing_hooks()): only shrinks.
#: The Lessons tab's hooks are those of the live panel of the lesson it shows (the first lesson's: Randomized
#: response, on the contract with all its hooks).
MISSING_HOOKS: dict[str, list[str]] = {}


def test_app_tabs_and_lesson_panels_come_from_the_registry():
    from explorer.app import LANDING, PANEL_TABS
    from explorer.panels.lesson import PANELS

    assert LANDING == registry.entry("landing").title
    assert PANEL_TABS == [(e.title, e.module, e.class_name) for e in REGISTRY if e.placement in ("tab", "lessons")]
    assert PANELS == {e.key: (e.module, e.class_name) for e in REGISTRY if e.in_lessons}
    assert len({e.key for e in REGISTRY}) == len({e.title for e in REGISTRY}) == len(REGISTRY)


def test_entries_are_found_by_key_or_title_and_others_refused_in_words():
    assert registry.entry("t_closeness") is registry.entry("t-closeness")
    with pytest.raises(InvalidParameterError, match="panel must be one of .* got 'nope'"):
        registry.entry("nope")


def test_every_entry_loads_its_class():
    for item in REGISTRY:
        assert item.load().__name__ == item.class_name


def test_panels_not_yet_on_the_contract_are_listed():
    """A new panel derives from Panel; a migrated one leaves NOT_YET_ON_PANEL (so the list shrinks)."""
    assert {item.key for item in REGISTRY if not issubclass(item.load(), Panel)} == NOT_YET_ON_PANEL


def test_panels_on_the_contract_have_every_figure_s_text_table_and_code():
    """Each figure of a panel on the contract has a description and a data table, and the panel its code():
    what is missing is listed here (MISSING_HOOKS), never silently an empty text."""
    found = {}
    for item in REGISTRY:
        if item.key in NOT_YET_ON_PANEL:
            continue
        panel = item.build()
        missing = panel.missing_hooks()
        if missing:
            found[item.key] = missing
        for index, _ in enumerate(panel.figures()):
            if f"describe: {panel.figures()[index].key}" not in missing:
                assert panel.describe(index).strip()
            if f"table: {panel.figures()[index].key}" not in missing:
                assert len(panel.table(index)) > 0
        if "code" not in missing:
            assert panel.code().strip()
    assert found == MISSING_HOOKS
