"""explorer.core is a library: it imports neither widgets nor plotting."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_core_imports_no_widgets_and_no_matplotlib():
    code = (
        "import importlib, pkgutil, sys\n"
        "import explorer.core\n"
        "for m in pkgutil.walk_packages(explorer.core.__path__, 'explorer.core.'):\n"
        "    importlib.import_module(m.name)\n"
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


def test_import_linter_contracts_are_kept():
    """The layer contracts of ``pyproject.toml`` ([tool.importlinter]): imports only point down."""
    pytest.importorskip("importlinter", reason="import-linter comes with the test extra: pip install '.[test]'")
    script = Path(sys.executable).with_name("lint-imports")
    command = [str(script)] if script.exists() else [shutil.which("lint-imports") or "lint-imports"]
    result = subprocess.run([*command, "--no-cache"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
