"""Sphinx configuration of the explorer's documentation (MyST Markdown pages, numpydoc API reference).

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (CI does, warnings as errors).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS / "_ext"))

import explorer  # noqa: E402
from widget_snapshots import prepare_notebook  # noqa: E402

project = "Privacy explorer"
author = "The explorer developers"
copyright = "2026, the explorer developers (MIT)"
release = version = explorer.__version__

extensions = [
    "myst_nb",
    "widget_snapshots",
    "paper_map",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "_ext", "**.ipynb_checkpoints"]
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# The teaching notebooks live in notebooks/ (where Voila and JupyterLab open them); the site executes a copy of
# them, kept in step by _copy_notebooks below, in docs/notebooks/ (not committed).  Only notebooks execute: the
# Markdown pages have no code cells.  A notebook that raises fails the build.
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_timeout = 300
# One block per cell for what it printed (how the kernel chunked its output does not show, so pages are stable).
nb_merge_streams = True
# The widgets of an executed notebook are shown as a static snapshot drawn from their saved state
# (_ext/widget_snapshots.py): text, tables and figures, readable offline and with no widget JavaScript.
nb_ipywidgets_js: dict[str, dict[str, str]] = {}

autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "ignore-module-all": True, "show-inheritance": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()
# numpydoc References list the papers in full; a docstring need not also cite them inline as [1]_.
suppress_warnings = ["ref.citation"]

# MathJax from the docs extra (jupyter-server-mathjax ships MathJax 2.7 with its STIX web fonts), copied into the
# site by _copy_mathjax: formulas render offline, and the pages load nothing from another host.
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
mathjax2_config = {
    "tex2jax": {"ignoreClass": "document", "processClass": "math|output_area"},
    "HTML-CSS": {"availableFonts": [], "preferredFont": None, "webFont": "STIX-Web", "imageFont": None},
}
MATHJAX_COPY = DOCS / "_mathjax"

html_theme = "pydata_sphinx_theme"
html_title = "Privacy explorer"
html_static_path = ["_static", str(MATHJAX_COPY)]
html_theme_options = {
    "navigation_depth": 2,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}


#: The notebooks the site shows: the lessons and the tabs' notebooks (not app.ipynb, which is the app itself).
NOTEBOOKS = [*sorted((ROOT / "notebooks" / "lessons").glob("*.ipynb")), *sorted((ROOT / "notebooks").glob("0*.ipynb"))]


def _copy_notebooks(target: Path = DOCS / "notebooks") -> None:
    """Mirror the notebooks into ``docs/notebooks/``, each with the hidden cell that keeps its figures for the
    page's snapshot (:func:`widget_snapshots.prepare_notebook`); unchanged copies are left alone, so rebuilds
    stay incremental."""
    wanted = {target / path.relative_to(ROOT / "notebooks"): path for path in NOTEBOOKS}
    for stale in target.rglob("*.ipynb") if target.exists() else ():
        if stale not in wanted:
            stale.unlink()
    for copy, source in wanted.items():
        text = json.dumps(prepare_notebook(json.loads(source.read_text(encoding="utf-8"))), indent=1,
                          ensure_ascii=False) + "\n"
        if not copy.exists() or copy.read_text(encoding="utf-8") != text:
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(text, encoding="utf-8")


_copy_notebooks()


def _copy_mathjax(target: Path = MATHJAX_COPY / "mathjax") -> None:
    """Copy MathJax (the docs extra's ``jupyter_server_mathjax``) to ``docs/_mathjax/mathjax/`` (not committed),
    which the site serves as ``_static/mathjax/``."""
    import shutil

    import jupyter_server_mathjax

    source = Path(jupyter_server_mathjax.__file__).resolve().parent / "static"
    if not (target / "MathJax.js").is_file():
        shutil.copytree(source, target, dirs_exist_ok=True)


_copy_mathjax()


# The docstrings write formulas in plain text, where |x| means an absolute value or a cardinality; in
# reStructuredText |x| is a substitution.  Escape bars outside inline literals, doctests and literal blocks.
_LITERAL = re.compile(r"(``.*?``|`[^`]*`)")


def _escape_bars(line: str) -> str:
    parts = _LITERAL.split(line)
    return "".join(part if _LITERAL.fullmatch(part) else part.replace("|", r"\|") for part in parts)


def _escape_docstring_bars(app, what, name, obj, options, lines):
    in_literal_block, block_indent = False, 0
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if in_literal_block:
            if stripped and indent <= block_indent:
                in_literal_block = False
            else:
                continue
        if stripped.startswith((">>>", "...")) or "|" not in line:
            if line.rstrip().endswith("::"):
                in_literal_block, block_indent = True, indent
            continue
        lines[i] = _escape_bars(line)
        if line.rstrip().endswith("::"):
            in_literal_block, block_indent = True, indent


def _site_notebook_links(app, docname, source):
    """Links to a notebook are written to the repository's ``notebooks/`` folder (so they work where the
    Markdown is read as files: a code host, an editor); the site links to its executed copy in
    ``docs/notebooks/`` instead, one folder up less."""
    up = "../" * docname.count("/")
    source[0] = source[0].replace(f"](../{up}notebooks/", f"]({up}notebooks/")


def setup(app):
    app.connect("autodoc-process-docstring", _escape_docstring_bars, priority=400)
    app.connect("source-read", _site_notebook_links)
