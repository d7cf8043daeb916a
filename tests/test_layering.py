"""explorer.core is a library: it imports neither widgets nor plotting."""

from __future__ import annotations

import subprocess
import sys


def test_core_imports_no_widgets_and_no_matplotlib():
    code = (
        "import importlib, pkgutil, sys\n"
        "import explorer.core\n"
        "for m in pkgutil.iter_modules(explorer.core.__path__):\n"
        "    importlib.import_module(f'explorer.core.{m.name}')\n"
        "bad = [m for m in ('ipywidgets', 'matplotlib', 'IPython', 'ipympl') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"explorer.core pulled in: {result.stdout.strip()}"


def test_plotting_imports_no_widgets():
    code = (
        "import importlib, pkgutil, sys\n"
        "import explorer.plotting\n"
        "for m in pkgutil.iter_modules(explorer.plotting.__path__):\n"
        "    importlib.import_module(f'explorer.plotting.{m.name}')\n"
        "print(','.join(m for m in ('ipywidgets', 'matplotlib.pyplot') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"explorer.plotting pulled in: {result.stdout.strip()}"


def _imports(path):
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):                 # every import, also inside functions (lazy imports count)
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_no_import_runs_up_from_core_plotting_state_or_the_lessons_data():
    """core < plotting < panels < app; explorer.lessons (the lessons as data) imports no panel."""
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "explorer"
    lower = [*sorted((package / "core").rglob("*.py")), *sorted((package / "plotting").rglob("*.py")),
             package / "lessons.py", package / "state.py"]
    offenders = [f"{path.relative_to(package)}: {name}" for path in lower for name in _imports(path)
                 if name.startswith(("explorer.panels", "explorer.app"))]
    offenders += [f"{path.relative_to(package)}: {name}" for path in sorted((package / "core").rglob("*.py"))
                  for name in _imports(path) if name.startswith("explorer.plotting")]
    assert not offenders, offenders
