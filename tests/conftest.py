"""The suite's tiers and how it runs (docs/developing.md, "Running the tests").

- **Tiers.**  ``e2e``: everything under ``tests/e2e/`` (headless Chromium against a served app);
  ``slow``: a test or its module's fixtures take more than a few seconds, and every notebook that
  nbmake executes (``--nbmake`` in ``addopts``).  ``pytest -m "not slow and not e2e"`` is the fast tier.
- **Parallel by default.**  ``pytest`` run on the whole suite (no path given, so on ``testpaths``)
  uses pytest-xdist with up to four workers, ``--dist loadgroup``: the browser tests run on one worker,
  one at a time, so the session's server and browser start once.  A path given on
  the command line runs in this process; ``-n 0`` or ``-p no:xdist`` run anything in this process
  (``--pdb`` too); ``-n N`` chooses the number of workers.
- **Optional parts.**  A test that needs something outside the test extra (the docs extra, nginx,
  the built documentation site) skips with a reason that says how to get it; under CI
  (``EXPLORER_REQUIRE_BROWSER=1`` as ``.ci/run`` sets, or ``CI=true``), where everything is installed,
  every skip is a failure instead.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.extras import UNDER_CI

MAX_WORKERS = 4
E2E_DIR = Path(__file__).resolve().parent / "e2e"


def _default_workers() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:           # not on Linux
        cpus = os.cpu_count() or 1
    return min(cpus, MAX_WORKERS)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Distribute ``pytest`` (the README's command, and ``pytest -m ...``) over the cores with xdist.

    Only when xdist is loaded, the user chose no ``-n``/``--dist``, and no path was given; never with
    ``--pdb`` or ``--collect-only``, nor inside a worker.  Runs before xdist's own hook (both are
    ``tryfirst``; a conftest registers after installed plugins, so its hook is called first).
    """
    if not config.pluginmanager.has_plugin("xdist") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    option = config.option
    if option.numprocesses is not None or option.dist != "no" or getattr(option, "tx", None):
        return
    if option.usepdb or option.collectonly or config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    workers = _default_workers()
    if workers > 1:
        option.numprocesses = workers
        option.dist = "loadgroup"


def _is_e2e(item: pytest.Item) -> bool:
    return E2E_DIR in item.path.resolve().parents


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tiers before ``-m`` selects (tryfirst) and before xdist reads the groups."""
    grouped = config.pluginmanager.has_plugin("xdist")     # xdist_group is xdist's marker
    for item in items:
        if item.path.suffix == ".ipynb":                 # nbmake executes the whole notebook in a kernel
            item.add_marker(pytest.mark.slow)
        if _is_e2e(item):
            item.add_marker(pytest.mark.e2e)
            # every browser test on one worker, one at a time beside the unit tests: two browsers and their
            # servers at once on two cores let figures be caught mid-redraw (seen at load 8-12); the
            # session's explorer_server and browser start once
            if grouped and item.get_closest_marker("xdist_group") is None:
                item.add_marker(pytest.mark.xdist_group("e2e"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Under CI a skipped test fails: CI installs Chromium, nginx and every extra, and builds the docs."""
    outcome = yield
    report = outcome.get_result()
    if UNDER_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under CI, where nothing may be skipped: {reason}"
