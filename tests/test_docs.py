"""Numbers printed in the documentation equal what the code computes."""

import re
from pathlib import Path

import numpy as np
import pytest

from explorer.core import datasets
from explorer.core.epsilon_meaning import attribute_codes, read_epsilon
from tests.extras import needs_module

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _table_rows(page: str, header_start: str) -> list[list[str]]:
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_choosing_epsilon_table_equals_the_code():
    labels, codes = attribute_codes(datasets.adult(), "marital-status")
    counts = np.bincount(codes)
    rows = _table_rows("choosing-epsilon.md", "| ε | odds factor")
    assert len(rows) == 5
    for row in rows:
        r = read_epsilon(float(row[0]), counts, labels=labels, codes=codes)
        computed = [f"{r.odds_bound:.1f}", f"{r.conditional_entropy:.3f}", f"{r.best_guess:.3f}", f"{r.t:.3f}",
                    f"{r.cluster.guessing:.3f}", f"{r.estimate_error:.4f}", f"{r.simulated_error:.4f}"]
        assert row[1:] == computed, f"epsilon = {row[0]}"


@pytest.mark.parametrize("page", sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")))
def test_docs_cite_papers_by_authors_not_file_codes(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    for name in ("PAPER_NOTES", "ARCHITECTURE.md", "DELIVERY.md"):
        assert name not in text, f"{page} points at {name}, which users do not have"
    codes = PAPER_CODE.findall(text)
    assert not codes, f"{page} cites papers by file code ({codes[:3]}): cite authors and year"


#: The papers' file codes as a reader would see them ("paper 003", "003 Eq. 5"), not digits of numbers.
PAPER_CODE = re.compile(r"(?<![\d.,/_-])00[0-4](?![\d_])")


def test_the_package_never_points_users_at_files_they_do_not_have():
    package = Path(__file__).resolve().parents[1] / "explorer"
    offenders = [f"{path.relative_to(package)}: {name}" for path in sorted(package.rglob("*.py"))
                 for name in ("PAPER_NOTES", "ARCHITECTURE.md", "DELIVERY.md")
                 if name in path.read_text(encoding="utf-8")]
    assert not offenders, offenders


# ---------------------------------------------------------------------------------------------- executed notebooks
ROOT = DOCS.parent
LESSON_NOTEBOOKS = sorted((ROOT / "notebooks" / "lessons").glob("*.ipynb"))
TAB_NOTEBOOKS = sorted((ROOT / "notebooks").glob("0*.ipynb"))


def _widget_snapshots():
    """docs/_ext/widget_snapshots.py, the Sphinx extension: it needs Sphinx and docutils (the docs extra)."""
    import importlib.util
    for name in ("docutils", "sphinx"):
        needs_module(name, "docs")
    spec = importlib.util.spec_from_file_location("widget_snapshots", DOCS / "_ext" / "widget_snapshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _conf_functions(*names):
    """Functions of docs/conf.py, taken from its source without running the rest of it."""
    import ast
    import types
    tree = ast.parse((DOCS / "conf.py").read_text(encoding="utf-8"))
    body = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in names]
    namespace: dict = {}
    exec(compile(ast.Module(body=body, type_ignores=[]), str(DOCS / "conf.py"), "exec"), namespace)
    return types.SimpleNamespace(**{name: namespace[name] for name in names})


def test_every_teaching_notebook_has_an_executed_page_linked_from_the_docs():
    lessons = (DOCS / "lessons.md").read_text(encoding="utf-8")
    tabs = (DOCS / "tab-notebooks.md").read_text(encoding="utf-8")
    assert len(LESSON_NOTEBOOKS) == 9 and TAB_NOTEBOOKS
    for path in LESSON_NOTEBOOKS:
        # written to the repository's notebook (a code host shows it); the site links to its executed copy
        assert f"](../notebooks/lessons/{path.name})" in lessons, path.name
        assert (DOCS / ".." / "notebooks" / "lessons" / path.name).is_file()
    assert "notebooks/lessons/*" in lessons                          # the toctree of the executed lessons
    assert "](../notebooks/lessons/01_deniability.ipynb)" in (DOCS / "teachers-guide.md").read_text(encoding="utf-8")
    conf = _conf_functions("_site_notebook_links")
    source = ["[lesson 1](../notebooks/lessons/01_deniability.ipynb)"]
    conf._site_notebook_links(None, "teachers-guide", source)
    assert source == ["[lesson 1](notebooks/lessons/01_deniability.ipynb)"]     # the site's executed copy
    source = ["[nb](../../notebooks/00_data.ipynb)"]
    conf._site_notebook_links(None, "models/data", source)
    assert source == ["[nb](../notebooks/00_data.ipynb)"]
    for path in TAB_NOTEBOOKS:
        assert f"notebooks/{path.stem}\n" in tabs, path.name
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert re.search(r'^nb_execution_mode = "(force|cache|auto)"', conf, re.M)
    assert re.search(r"^nb_execution_raise_on_error = True", conf, re.M)


def test_the_executed_copy_gets_one_hidden_cell_and_keeps_the_notebook():
    import json
    snapshots = _widget_snapshots()
    notebook = json.loads(LESSON_NOTEBOOKS[0].read_text(encoding="utf-8"))
    prepared = snapshots.prepare_notebook(notebook)
    assert prepared["cells"][:-1] == notebook["cells"]
    added = prepared["cells"][-1]
    assert added["metadata"]["tags"] == ["remove-cell"] and added["source"] == snapshots.SNAPSHOT_CELL
    assert ("id" in added) == ((notebook["nbformat"], notebook["nbformat_minor"]) >= (4, 5))


def test_a_lesson_snapshot_shows_its_text_controls_figures_and_check_question(monkeypatch):
    import ipywidgets as widgets
    from ipywidgets.embed import dependency_state, embed_data
    from ipywidgets.widgets import widget as widget_module
    from ipympl.backend_nbagg import Canvas

    from explorer.panels.lesson import lesson_widget
    snapshots = _widget_snapshots()
    lesson = lesson_widget("deniability", heading=False)
    hidden = widgets.HTML("not shown", layout=widgets.Layout(display="none"))
    page = widgets.VBox([lesson, hidden])
    # Only the page's widgets, as in the notebook's kernel: earlier tests leave hundreds of figures alive in
    # this process, and the hidden cell draws every live canvas (two minutes' work here, not the page's).
    on_page = set(dependency_state([page]))
    monkeypatch.setattr(widget_module, "_instances",
                        {key: w for key, w in widget_module._instances.items() if key in on_page})
    exec(snapshots.SNAPSHOT_CELL, {})                                 # what the hidden cell does in the kernel
    monkeypatch.undo()
    state = embed_data(views=[page], state=dependency_state([page]))["manager_state"]["state"]
    html = snapshots.Snapshot(state).render(page.model_id)
    text = re.sub(r"<[^>]+>", " ", html)
    canvases = [m for m in state.values() if m["model_name"] == "MPLCanvasModel"]
    assert canvases and all(m["state"]["_data_url"].startswith("data:image/png;base64,") for m in canvases)
    assert html.count('class="wsnap-figure"') == len(canvases)
    assert "Learning goal" in text and "Takeaway" in text and "0.429" in text   # the check question's options
    assert 'ε</span> <span class="wsnap-value">2.00' in html                    # a slider as label and value
    assert "not shown" not in text
    for raw in ("IPY_MODEL_", "VBox(", "HTML(value", "array("):
        assert raw not in text
    assert all(isinstance(w, widgets.Widget) for w in (lesson, hidden)) and Canvas
