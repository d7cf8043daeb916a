"""What a test needs beyond the test extra: skip with a reason on a newcomer's machine, fail under CI.

``pip install ".[test]" && pytest`` passes on a fresh machine: a test that needs the docs extra
(Sphinx, docutils, MyST-NB), Debian's Chromium or nginx, or the built documentation site skips and says
how to get it.  CI (``.ci/run``) installs all of them, so there the same test must run: under CI a
missing part is a failure, never a skip.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

#: ``.ci/run`` sets EXPLORER_REQUIRE_BROWSER=1; hosted CI services set CI=true.
UNDER_CI = (os.environ.get("EXPLORER_REQUIRE_BROWSER") == "1"
            or os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"))


def missing(reason: str) -> NoReturn:
    """Skip with ``reason``, or fail with it under CI."""
    if UNDER_CI:
        pytest.fail(f"under CI every part of the suite must run: {reason}", pytrace=False)
    pytest.skip(reason)


def needs_module(name: str, extra: str) -> ModuleType:
    """Import ``name``, which the optional dependency group ``extra`` installs; skip (fail under CI) without it."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        missing(f"needs {name} from the {extra} extra ({error}): pip install '.[test,{extra}]'")
