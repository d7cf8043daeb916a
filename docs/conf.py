"""Sphinx configuration of the explorer's documentation (MyST Markdown pages, numpydoc API reference).

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (CI does, warnings as errors).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import explorer  # noqa: E402

project = "Privacy explorer"
author = "The explorer developers"
copyright = "2026, the explorer developers (MIT)"
release = version = explorer.__version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"

autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "ignore-module-all": True, "show-inheritance": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()
# numpydoc References list the papers in full; a docstring need not also cite them inline as [1]_.
suppress_warnings = ["ref.citation"]

html_theme = "pydata_sphinx_theme"
html_title = "Privacy explorer"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_depth": 2,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}


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


def setup(app):
    app.connect("autodoc-process-docstring", _escape_docstring_bars, priority=400)
