"""The repository's address is written once (pyproject.toml); the README's Binder badge agrees with it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.cli import binder_link, main, repository_url

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_badge_opens_the_app_of_the_repository_named_in_pyproject():
    pyproject = re.search(r'^Repository\s*=\s*"([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    badge = re.search(r"\]\((https://mybinder\.org/v2/gh/[^)]+)\)", (ROOT / "README.md").read_text()).group(1)
    assert badge == binder_link(pyproject)
    assert repository_url() == pyproject


def test_binder_link_is_printed_and_a_non_github_address_is_refused(capsys):
    assert main(["--binder-link"]) == 0
    assert capsys.readouterr().out.strip() == binder_link()
    with pytest.raises(ValueError, match="repository must be a GitHub address"):
        binder_link("https://example.org/x")
