"""Figures for slides and the code behind a view: what every panel offers a teacher, from the base class.

* :func:`slide_figure` draws one registered figure of a panel again, on a copy, at a slide's size
  (:data:`SLIDE_INCHES`, 16:9) with every text at least :data:`SLIDE_MIN_POINTS` points (legible on a
  projector) and a caption line under it naming the figure's inputs and the paper it follows;
  :meth:`explorer.panels.base.Panel.export_figure` writes it as PNG (:data:`SLIDE_DPI` dots per inch),
  SVG or PDF.  The canvas on screen is never touched.
* :func:`figure_download_row` is the small row under each figure of a panel: a format (PNG, SVG, PDF) and a
  Download button that hands the file to the browser (:func:`~explorer.panels.downloads.download_link`).
* :func:`code_box` is the "Code" button of a panel: it shows :meth:`~explorer.panels.base.Panel.code` (the
  public-API snippet that reproduces the view) in a block to read and copy, and as a ``.py`` file.
* :func:`notebook_of` writes snippets as one Jupyter notebook (nbformat 4), for "Download as notebook".
"""

from __future__ import annotations

import html
import io
import json
import math
import pickle
import re
import textwrap
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
from matplotlib.figure import Figure
from matplotlib.text import Text

from explorer.panels.downloads import download_link
from explorer.panels.status import escape

if TYPE_CHECKING:  # pragma: no cover
    from explorer.panels.base import FigureView, Panel

__all__ = ["SLIDE_INCHES", "SLIDE_DPI", "SLIDE_MIN_POINTS", "MIME", "slide_figure", "min_font_points",
           "figure_download_row", "code_box", "notebook_of", "file_stem"]

#: A slide's size in inches (16:9, PowerPoint's and Beamer's widescreen 10 x 5.625 in).
SLIDE_INCHES = (10.0, 5.625)
#: PNG resolution of a slide figure (dots per inch): 2000 x 1125 pixels.
SLIDE_DPI = 200
#: The smallest text of a slide figure, in points (legible from the back of a lecture hall).
SLIDE_MIN_POINTS = 14.0
#: The caption's size in points.
CAPTION_POINTS = 14.0
#: The media type of each export format.
MIME = {"png": "image/png", "svg": "image/svg+xml", "pdf": "application/pdf"}


def file_stem(text: str) -> str:
    """A file name part from a title: lower case, words joined by ``-`` (``"explorer-figure"`` if empty)."""
    stem = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")
    return stem or "explorer-figure"


def _texts(figure: Figure) -> list[Text]:
    """The visible, non-empty texts of ``figure`` (titles, labels, tick labels, legends, annotations)."""
    return [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()]


def min_font_points(figure: Figure) -> float:
    """The size of the smallest visible text of ``figure``, in points (after a layout, so ticks exist)."""
    figure.draw_without_rendering()
    sizes = [t.get_fontsize() for t in _texts(figure)]
    return min(sizes) if sizes else math.inf


def _keep_only(figure: Figure, position: int) -> None:
    """Leave only the Axes at ``position`` (with its twins and colorbars) in ``figure``, filling it."""
    target = figure.axes[position]
    twins = set(target._twinned_axes.get_siblings(target)) if hasattr(target, "_twinned_axes") else {target}

    def belongs(ax: Any) -> bool:
        parents = (getattr(ax, "_colorbar_info", None) or {}).get("parents", ())
        return ax in twins or any(parent in twins for parent in parents)

    for ax in list(figure.axes):
        if not belongs(ax):
            figure.delaxes(ax)
    spec = figure.add_gridspec(1, 1)[0]
    for ax in twins:
        if ax.get_subplotspec() is not None:
            ax.set_subplotspec(spec)


def _scale_fonts(figure: Figure, minimum: float) -> float:
    """Scale every text of ``figure`` by one factor so the smallest is at least ``minimum`` points."""
    smallest = min_font_points(figure)
    if not math.isfinite(smallest) or smallest >= minimum:
        return 1.0
    factor = minimum / smallest
    ticks_done: set[int] = set()
    for ax in figure.axes:                        # ticks made at draw time follow tick_params
        for axis_name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            for which, ticks in (("major", axis.get_major_ticks()), ("minor", axis.get_minor_ticks())):
                if ticks:
                    ax.tick_params(axis=axis_name, which=which, labelsize=ticks[0].label1.get_fontsize() * factor)
                ticks_done.update(id(label) for tick in ticks for label in (tick.label1, tick.label2))
    for text in _texts(figure):
        if id(text) not in ticks_done:
            text.set_fontsize(text.get_fontsize() * factor)
    for ax in figure.axes:                        # a title wider than its Axes wraps inside the slide
        for title in (ax.title, ax._left_title, ax._right_title):
            title.set_wrap(True)
    for ax in figure.axes:                        # a legend's own size (new entries follow it)
        legend = ax.get_legend()
        if legend is not None:
            legend.prop.set_size(legend.prop.get_size_in_points() * factor)
    return factor


def _wrap(caption: str, points: float, width_inches: float) -> str:
    """``caption`` wrapped to the slide's width (a character is about half its size in points wide)."""
    columns = max(30, int(width_inches * 72 / (0.52 * points)))
    return "\n".join(textwrap.wrap(caption, columns)) if caption else ""


def slide_figure(view: "FigureView", caption: str) -> Figure:
    """A copy of the figure of ``view`` drawn at a slide's size, fonts scaled for a projector, ``caption`` under it.

    The copy is made by pickling (the canvas on screen keeps its size, its artists and its frame); a view that
    is one Axes of a shared Figure keeps only that Axes (with its twin axes and colorbar), which then fills the
    slide.
    """
    figure = pickle.loads(pickle.dumps(view.figure))
    if view.axes is not None:
        _keep_only(figure, view.figure.axes.index(view.axes))
    figure.set_dpi(100)
    figure.set_size_inches(*SLIDE_INCHES)
    if not figure.get_layout_engine() or not hasattr(figure.get_layout_engine(), "set"):
        figure.set_layout_engine("constrained")
    _scale_fonts(figure, SLIDE_MIN_POINTS)
    text = _wrap(caption, CAPTION_POINTS, SLIDE_INCHES[0] - 0.3)
    lines = text.count("\n") + 1 if text else 0
    share = min(0.45, (lines * CAPTION_POINTS * 1.3 / 72 + 0.15) / SLIDE_INCHES[1]) if lines else 0.0
    _fit_inside(figure, (0.0, share, 1.0, 1.0 - share))
    if text:
        figure.text(0.012, 0.02, text, fontsize=CAPTION_POINTS, ha="left", va="bottom", color="#222222",
                    gid="explorer-caption")
    return figure


def _fit_inside(figure: Figure, rect: tuple[float, float, float, float], tries: int = 4) -> None:
    """Lay ``figure`` out in ``rect`` (figure fractions), shrunk until no text sticks out of the figure.

    Constrained layout keeps an Axes with a fixed aspect (a heatmap) and its colorbar where they were designed;
    with a slide's larger text their labels can reach past the edge: the rectangle is narrowed by what sticks out.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    engine = figure.get_layout_engine()
    if not hasattr(engine, "set") or type(engine).__name__ != "ConstrainedLayoutEngine":
        figure.set_layout_engine("constrained")
        engine = figure.get_layout_engine()
    left, bottom, width, height = rect
    canvas = figure.canvas if isinstance(figure.canvas, FigureCanvasAgg) else FigureCanvasAgg(figure)
    for _ in range(tries):
        engine.set(rect=(left, bottom, width, height))
        figure.draw_without_rendering()
        box = figure.get_tightbbox(canvas.get_renderer())
        w, h = figure.get_size_inches()
        over_left, over_right = max(0.0, -box.x0) / w, max(0.0, box.x1 - w) / w
        over_top = max(0.0, box.y1 - h) / h
        if max(over_left, over_right, over_top) < 0.002:
            return
        left += over_left + 0.005 if over_left else 0.0
        width -= over_left + over_right + 0.01
        height -= over_top + 0.005 if over_top else 0.0


def write_figure(figure: Figure, fmt: str, dpi: float) -> bytes:
    """``figure`` as the bytes of a ``fmt`` file (``png``, ``svg``, ``pdf``); SVG keeps its text as text."""
    import matplotlib

    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):      # text stays text: searchable, editable on a slide
        figure.savefig(buffer, format=fmt, dpi=dpi, metadata=_metadata(fmt))
    return buffer.getvalue()


def _metadata(fmt: str) -> dict[str, Any]:
    from explorer import __version__

    creator = f"the explorer {__version__} (matplotlib)"
    return {"Software": creator} if fmt == "png" else {"Creator": creator}


# ---------------------------------------------------------------------- the row under each figure
def figure_download_row(panel: "Panel", views: list["FigureView"]) -> widgets.Widget:
    """The row under one canvas: which figure (when one canvas shows several), the format, Download.

    Download draws the slide (:meth:`~explorer.panels.base.Panel.export_figure`) and puts a link to the file in
    the row (a ``data:`` URI: no server round trip); a failure is said on the panel's status line.
    """
    label = widgets.HTML("<span style='color:#555'>For slides:</span>", layout=widgets.Layout(width="auto"))
    style = {"description_width": "initial"}
    which = widgets.Dropdown(options=[(view.title, view.key) for view in views], value=views[0].key,
                             description="Figure", style=style,
                             layout=widgets.Layout(width="auto", max_width="min(100%, 460px)"))
    fmt = widgets.Dropdown(options=[("PNG (200 dpi)", "png"), ("SVG", "svg"), ("PDF", "pdf")], value="png",
                           description="Format", style=style, layout=widgets.Layout(width="auto"))
    button = widgets.Button(description="Download", icon="download", tooltip="This figure at a slide's size",
                            layout=widgets.Layout(width="auto"))
    link = widgets.HTML(layout=widgets.Layout(width="auto"))
    for part, name in ((which, "figure"), (fmt, "format"), (button, "button"), (link, "link")):
        part.add_class(f"explorer-slide-{name}")

    def clear(_change: Any = None) -> None:
        link.value = ""

    def make(_button: Any = None) -> None:
        try:
            view = panel.figure_view(which.value)
            data = panel.export_figure(view.key, fmt.value)
        except Exception as error:  # said in words on the panel's status line; the row stays usable
            panel.status.error(f"The figure could not be exported ({type(error).__name__}: {str(error)[:120]}).")
            return
        name = f"{file_stem(view.title)}.{fmt.value}"
        link.value = download_link(data, name, MIME[fmt.value], f"save {name}", css_class="explorer-slide-file")

    which.observe(clear, names="value")
    fmt.observe(clear, names="value")
    button.on_click(make)
    parts = [label, *([which] if len(views) > 1 else []), fmt, button, link]
    row = widgets.HBox(parts, layout=widgets.Layout(flex_flow="row wrap", align_items="center", width="100%"))
    row.add_class("explorer-slide-row")
    row._explorer_make = make            # tests and notebooks: click without a browser
    return row


# ---------------------------------------------------------------------- the code of a view
def _pre(code: str) -> str:
    return (f"<pre class='explorer-code-text' style='white-space:pre;overflow-x:auto;max-width:100%;"
            f"background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:8px;margin:4px 0;"
            f"font-size:0.95em;line-height:1.35;user-select:text'>{html.escape(code)}</pre>")


def code_box(panel: "Panel", title: str) -> widgets.Widget:
    """The "Code" toggle of a panel: its :meth:`~explorer.panels.base.Panel.code` in a block, and as a .py file.

    The snippet is made when the block is opened (and again on "Code" after a change), so it is the current
    view's.  A panel whose code cannot be made says why in the block.
    """
    toggle = widgets.ToggleButton(value=False, description="Code", icon="code",
                                  tooltip="The Python (public API) that reproduces this view",
                                  layout=widgets.Layout(width="auto"))
    note = widgets.HTML("<span style='color:#555'>the Python behind this view (the explorer's public API, numpy, "
                        "pandas, matplotlib): select and copy it, or save it as a file</span>",
                        layout=widgets.Layout(width="auto"))
    text = widgets.HTML(layout=widgets.Layout(width="100%"))
    link = widgets.HTML(layout=widgets.Layout(width="auto"))
    toggle.add_class("explorer-code-button")
    toggle._explorer_disclosure = True          # it shows the code block under it: aria-expanded (explorer.panels.access)
    text.add_class("explorer-code")
    link.add_class("explorer-code-file")

    def show(_change: Any = None) -> None:
        if not toggle.value:
            text.value, link.value = "", ""
            text.layout.display = "none"
            return
        try:
            code = panel.code()
        except Exception as error:  # said in the block
            text.value = f"<i>No code for this view: {escape(str(error)[:200])}</i>"
            link.value = ""
        else:
            text.value = _pre(code)
            link.value = download_link(code.encode("utf-8"), f"{file_stem(title)}.py", "text/x-python",
                                       "save as .py")
        text.layout.display = None

    toggle.observe(show, names="value")
    text.layout.display = "none"
    box = widgets.VBox([widgets.HBox([toggle, note, link], layout=widgets.Layout(flex_flow="row wrap",
                                                                                 align_items="center")), text],
                       layout=widgets.Layout(width="100%"))
    box.add_class("explorer-code-box")
    box._explorer_show = show
    return box


def notebook_of(sections: list[tuple[str, str]], *, title: str = "The explorer's views as code") -> dict[str, Any]:
    """A Jupyter notebook (nbformat 4, as a dict): a markdown cell and a code cell per ``(heading, code)``.

    >>> nb = notebook_of([("Data", "x = 1\\n")])
    >>> [cell["cell_type"] for cell in nb["cells"]], nb["nbformat"]
    (['markdown', 'markdown', 'code'], 4)
    """
    import nbformat

    from explorer import __version__

    cells = [nbformat.v4.new_markdown_cell(
        f"# {title}\n\nWritten by the explorer {__version__}: each tab's view as Python, with the explorer's "
        "public API (`explorer.core`, `explorer.plotting`), numpy, pandas and matplotlib only. Run the cells "
        "top to bottom: each one stands alone.")]
    for heading, code in sections:
        cells.append(nbformat.v4.new_markdown_cell(f"## {heading}"))
        cells.append(nbformat.v4.new_code_cell(code.rstrip("\n")))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.validate(notebook)
    return json.loads(nbformat.writes(notebook))

