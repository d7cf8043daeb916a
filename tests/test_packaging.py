"""A regular (non-editable) install carries the notebooks, the Adult extract and the Voilà template."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_ships_notebooks_and_data_and_finds_them(tmp_path):
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-2000:]
    wheel = next(tmp_path.glob("privacy_explorer-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "explorer/_notebooks/app.ipynb" in names
    assert "explorer/_notebooks/00_data.ipynb" in names
    assert "explorer/core/data/adult.npz" in names
    assert "explorer/core/data/releases.csv" in names                 # the published releases' table
    assert "explorer/_jupyter/voila/templates/explorer/index.html.j2" in names   # the page Voilà serves
    assert "explorer/_jupyter/voila/templates/explorer/conf.json" in names
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True)
    code = ("import explorer.cli as c, explorer.core.datasets as d, explorer.core.releases as r; "
            "print(c.notebooks_dir()); print(d.adult().shape); print(len(r.releases()) >= 12)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(target)})
    assert result.returncode == 0, result.stderr[-2000:]
    folder, shape, table = result.stdout.strip().splitlines()
    assert folder.startswith(str(target)) and folder.endswith("_notebooks")
    assert shape == "(32561, 15)" and table == "True"
