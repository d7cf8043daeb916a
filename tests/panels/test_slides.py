"""Figures for slides, from the Panel base class: every figure of every registered panel exports as PNG (200 dpi)
and SVG at a slide's size, and the first figure of each panel as PDF too, with text of at least 14 pt and a
caption naming its inputs and its paper; the download row under each figure; the Code button; the notebook of
the open tabs.

PDF is written for the first figure of each panel (and by export_figure in
test_the_export_keeps_the_notebook_signature_and_the_screen): it costs about a quarter of a CPU second a figure
and draws the same slide figure as SVG, the other vector format, which is written and read back for every
figure; PNG, the format slides use, is checked for every figure."""

from __future__ import annotations

import base64
import html
import io
import re

import ipywidgets as widgets
import pytest

from explorer.app import FIGURE_TEXT_POINTS
from explorer.panels import slides
from explorer.panels.base import Panel
from explorer.panels.registry import REGISTRY

pytestmark = pytest.mark.slow         # builds every panel and writes each figure at a slide's size

MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "pdf": b"%PDF", "svg": b"<?xml"}


@pytest.fixture(scope="module")
def panels():
    built = {}
    for item in REGISTRY:
        panel = item.build()
        if isinstance(panel, Panel) and panel.figures():
            built[item.key] = panel
    return built


def _svg_text(svg: bytes) -> str:
    """The text of an SVG written with its text as text (svg.fonttype none), unescaped, spaces joined."""
    texts = re.findall(r"<text[^>]*>(.*?)</text>", svg.decode("utf-8"), re.S)
    return html.unescape(" ".join(re.sub(r"<[^>]+>", "", t) for t in texts))


def test_every_figure_of_every_panel_exports_for_slides_in_three_formats(panels):
    from PIL import Image

    assert set(slides.MIME) == {"png", "svg", "pdf"}         # the formats a teacher can pick, each checked here
    assert set(panels) >= {"epsilon_meaning", "randomized_response", "t_closeness", "permutation", "dominance",
                           "multidim_rr", "lessons"}
    for key, panel in panels.items():
        for index, view in enumerate(panel.figures()):
            caption = panel.figure_caption(index)
            assert view.title in caption and "Made with the explorer" in caption
            if key != "lessons":
                assert f"Source: {panel.caption_source()}" in caption, key
            # the slide figure is drawn once and written in each format, as export_figure does for one format
            # (export_figure itself: test_the_export_keeps_the_notebook_signature_and_the_screen)
            figure = slides.slide_figure(view, caption)
            assert tuple(figure.get_size_inches()) == slides.SLIDE_INCHES
            for fmt in ("png", "svg", "pdf") if index == 0 else ("png", "svg"):     # PDF: the module's docstring
                data = slides.write_figure(figure, fmt, slides.SLIDE_DPI)
                assert data.startswith(MAGIC[fmt]), (key, view.key, fmt)
                if fmt == "png":
                    image = Image.open(io.BytesIO(data))
                    assert image.info["dpi"][0] >= 199.5 and image.size == (2000, 1125), (key, view.key, image.size)
                if fmt == "svg":
                    text = _svg_text(data)
                    for line in slides._wrap(caption, slides.CAPTION_POINTS, slides.SLIDE_INCHES[0] - 0.3).split("\n"):
                        assert line in text, (key, view.key, line)
            # the texts as the last write drew them (its ticks too): min_font_points without drawing it again
            smallest = min(text.get_fontsize() for text in slides._texts(figure))
            assert smallest >= slides.SLIDE_MIN_POINTS - 1e-9, (key, view.key)
            # the presenter view's scale is worked out from the smallest text of any figure on screen
            assert slides.min_font_points(view.figure) >= FIGURE_TEXT_POINTS, (key, view.key)


def test_the_export_keeps_the_notebook_signature_and_the_screen(panels):
    panel = panels["t_closeness"]
    size = panel.figures()[0].figure.get_size_inches().tolist()
    assert panel.export_figure(index=0, format="svg").startswith(b"<?xml")
    assert panel.export_figure(0, "pdf").startswith(b"%PDF")
    from PIL import Image
    slide = Image.open(io.BytesIO(panel.export_figure(0)))                 # PNG for a slide by default, 200 dpi
    assert slide.info["dpi"][0] >= 199.5 and slide.size == (2000, 1125)
    screen = panel.export_figure(0, "png", slide=False)             # the figure as it is on screen, 150 dpi
    assert Image.open(io.BytesIO(screen)).size[0] == round(size[0] * 150)
    assert panel.figures()[0].figure.get_size_inches().tolist() == size


def test_a_caption_names_the_inputs_in_words(panels):
    panel = panels["randomized_response"]
    caption = panel.figure_caption("matrix")
    assert "Design: optimal for ε" in caption and "ε = " in caption and "categories r: 3" in caption
    assert "matrix" not in caption.split("framed.")[1]              # the typed matrix only for a custom design
    panel.design.value = "keep_or_uniform"
    assert "p = 0.5" in panel.figure_caption("matrix")
    panel.design.value = "optimal"
    assert "Data set: " in panels["dominance"].figure_caption(0)


def _rows(widget):
    stack, rows = [widget], []
    while stack:
        item = stack.pop()
        if "explorer-slide-row" in getattr(item, "_dom_classes", ()):
            rows.append(item)
        stack.extend(getattr(item, "children", ()) or ())
    return rows


def test_a_download_row_sits_under_each_canvas_and_gives_the_file(panels):
    for key, panel in panels.items():
        if key == "lessons":
            continue
        # a panel's own canvases, and those of panels it embeds (the ε view embeds the releases reader)
        embedded = [value for value in vars(panel).values() if isinstance(value, Panel)]
        canvases = {id(view.canvas) for part in (panel, *embedded) for view in part.figures()}
        assert len(_rows(panel.widget)) == len(canvases), key
    panel = panels["randomized_response"]
    [row, estimates_row] = sorted(_rows(panel.widget), key=lambda r: -len(r.children))
    which, fmt = row.children[1], row.children[2]
    assert isinstance(which, widgets.Dropdown) and len(which.options) == 4        # one canvas, four figures
    which.value, fmt.value = "posterior", "svg"
    row._explorer_make()
    link = row.children[-1].value
    assert "download='the-posterior-pr-x-u-y-v-of-each-report.svg'" in link
    payload = re.search(r"base64,([^']+)'", link).group(1)
    assert base64.b64decode(payload).startswith(b"<?xml")
    # the figure's canvas is in the row's box, with the row just under it
    box = next(b for b in _boxes(panel.widget) if panel.canvas in b.children)
    # (between them the figure's words and its data-table toggle: explorer.panels.access)
    assert box.children[0] is panel.canvas and box.children[-1] is row


def _boxes(widget):
    stack, found = [widget], []
    while stack:
        item = stack.pop()
        if "explorer-figure-box" in getattr(item, "_dom_classes", ()):
            found.append(item)
        stack.extend(getattr(item, "children", ()) or ())
    return found


def test_the_code_button_shows_the_snippet_to_copy(panels):
    panel = panels["t_closeness"]
    box = panel.code_view
    assert box in panel.widget.children
    toggle, text = box.children[0].children[0], box.children[1]
    assert toggle.description == "Code" and text.value == ""
    toggle.value = True
    assert html.escape(panel.code()) in text.value and "<pre" in text.value
    assert "download='tcloseness.py'" in box.children[0].children[2].value
    toggle.value = False
    assert text.value == "" and text.layout.display == "none"
    # the lessons' page shows its live panel's button, not a second one
    assert not hasattr(panels["lessons"], "code_view")


def test_notebook_of_snippets_is_a_valid_notebook():
    import nbformat

    notebook = slides.notebook_of([("Data", "x = 1\n"), ("t-closeness", "y = 2\n")])
    nbformat.validate(nbformat.from_dict(notebook))
    assert ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"] == ["x = 1", "y = 2"]
