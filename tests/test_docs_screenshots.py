"""The documentation's screenshots: every one the docs (or the README) show exists, every committed one is
shown somewhere, each tab has one, and each stays small.  They are made by the browser tests
(``EXPLORER_SCREENSHOTS=docs/_static/screenshots pytest tests/e2e/test_every_view_e2e.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.figures import MAX_SCREENSHOT_BYTES, SCREENSHOT_NAMES

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "_static" / "screenshots"
#: A Markdown image or an HTML/MyST image naming a file under _static/screenshots.
IMAGE = re.compile(r"""(?:!\[[^\]]*\]\(|src=["']|```\{image\}\s+|:::\{image\}\s+|```\{figure\}\s+)\s*([^)\s"'`]*_static/screenshots/[^)\s"'`]+)""")


def _pages() -> list[Path]:
    return [p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts] + [ROOT / "README.md"]


def _references() -> dict[Path, list[Path]]:
    """Each screenshot file referenced, with the pages that reference it (resolved from each page's folder)."""
    found: dict[Path, list[Path]] = {}
    for page in _pages():
        for target in IMAGE.findall(page.read_text(encoding="utf-8")):
            found.setdefault((page.parent / target).resolve(), []).append(page.relative_to(ROOT))
    return found


def test_every_screenshot_the_docs_show_exists():
    missing = {str(path.relative_to(ROOT)): pages for path, pages in _references().items() if not path.exists()}
    assert not missing, f"screenshots referenced but not committed: {missing}"


def test_every_committed_screenshot_is_shown_by_the_docs():
    referenced = set(_references())
    unused = [p.name for p in sorted(SHOTS.glob("*.png")) if p.resolve() not in referenced]
    assert not unused, f"screenshots no page shows (remove them or reference them): {unused}"


def test_each_tab_has_a_small_screenshot():
    for title, name in SCREENSHOT_NAMES.items():
        path = SHOTS / f"{name}.png"
        assert path.exists(), f"no screenshot of the tab {title!r}: {path.relative_to(ROOT)}"
        assert path.stat().st_size < MAX_SCREENSHOT_BYTES, f"{path.name}: {path.stat().st_size} bytes"
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
