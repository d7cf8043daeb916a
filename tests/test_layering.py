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
