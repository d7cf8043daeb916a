"""The suite's tiers and how it runs (docs/developing.md, "Running the tests").

- **Tiers.**  ``e2e``: everything under ``tests/e2e/`` (headless Chromium against a served app);
  ``slow``: a test or its module's fixtures take more than a few seconds, and every notebook that
  nbmake executes (``--nbmake`` in ``addopts``; a tab notebook is left to ``tests/test_notebooks.py``
  when that test, which executes it too, is selected).  ``pytest -m "not slow and not e2e"`` is the fast tier.
- **Parallel by default.**  ``pytest`` run on the whole suite (no path given, so on ``testpaths``)
  uses pytest-xdist with up to four workers, ``--dist loadgroup``: each browser test module runs whole on one
  worker, the modules spread over the workers, and each worker starts the session's server and browser once.  A path given on
  the command line runs in this process; ``-n 0`` or ``-p no:xdist`` run anything in this process
  (``--pdb`` too); ``-n N`` chooses the number of workers.
- **Optional parts.**  A test that needs something outside the test extra (the docs extra, nginx,
  the built documentation site) skips with a reason that says how to get it; under CI
  (``EXPLORER_REQUIRE_BROWSER=1`` as ``.ci/run`` sets, or ``CI=true``), where everything is installed,
  every skip is a failure instead.
"""

from __future__ import annotations

import gc
import os
import sys
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


#: Test modules, besides every browser test module, whose tests run whole on one worker: their module fixture
#: is the costly part (test_registry's cases run their snippets in one fresh interpreter).
WHOLE_MODULES = ("tests/panels/test_registry.py",)


def work_unit(nodeid: str) -> str:
    """The unit of work a test is handed out in: its module for a browser test module (``tests/e2e/``) and for
    :data:`WHOLE_MODULES`, the test alone otherwise.

    >>> work_unit("tests/e2e/test_app_e2e.py::test_picking_the_004_example_shows_its_20_rows")
    'tests/e2e/test_app_e2e.py'
    >>> work_unit("tests/core/test_releases.py::test_rappor[2]")
    'tests/core/test_releases.py::test_rappor[2]'
    """
    module = nodeid.split("::", 1)[0]
    return module if module.startswith("tests/e2e/") or module in WHOLE_MODULES else nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """(xdist, ``--dist loadgroup``) Hand out the tests in units (:func:`work_unit`): a browser test module runs whole
    on one worker, so its module fixtures (a shared page of the app, a JupyterLab server) start once.

    The units are read from the node ids on the controller.  xdist's own ``xdist_group`` marks travel from the
    workers as a suffix written into each node id, which pytest 9.2 no longer lets a plugin change
    (pytest-dev/pytest-xdist#1386): the marks were silently dropped and the tests of a module handed out one by one.
    Units with more tests go first (xdist's ``--loadscope-reorder``), so the browser modules start early."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModuleUnits(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return ModuleUnits(config, log)


def _is_e2e(item: pytest.Item) -> bool:
    return E2E_DIR in item.path.resolve().parents


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tiers before ``-m`` selects (tryfirst)."""
    for item in items:
        if item.path.suffix == ".ipynb":                 # nbmake executes the whole notebook in a kernel
            item.add_marker(pytest.mark.slow)
        if _is_e2e(item):
            item.add_marker(pytest.mark.e2e)
            # a browser test module runs whole on one worker (work_unit); each worker starts the session's
            # explorer_server and browser once.  Tests wait for figures by what the kernel says it fitted
            # (tests/e2e/figures.py, settle), not for a quiet time, so a busy machine slows them down without
            # catching a figure mid-redraw.


#: The test that executes each tab notebook (00-05) in a kernel and fails on a cell's error as nbmake does.
_NOTEBOOK_TEST = "test_every_output_of_a_tab_notebook_is_labelled"


@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")
def pytest_execute_each_tab_notebook_once(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A tab notebook is executed once: nbmake's run of it is left out when tests/test_notebooks.py runs it.

    That test executes the notebook top to bottom with nbclient (a cell that raises fails it, as under nbmake)
    and checks its outputs too.  After ``-k``/``-m`` have selected (trylast): nbmake's item is dropped only
    when the test of the same notebook is still selected; ``pytest notebooks/`` alone runs every notebook.
    """
    executed = {Path(item.callspec.params["path"]).resolve() for item in items
                if getattr(item, "originalname", None) == _NOTEBOOK_TEST and hasattr(item, "callspec")}
    dropped = [item for item in items if item.path.suffix == ".ipynb" and item.path.resolve() in executed]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


def _open_widgets() -> set:
    """The keys of ipywidgets' registry of open widgets (empty when no test has loaded ipywidgets)."""
    module = sys.modules.get("ipywidgets.widgets.widget")
    return set(module._instances) if module is not None else set()


def _close_widgets_since(before: set) -> None:
    module = sys.modules.get("ipywidgets.widgets.widget")
    if module is None:
        return
    for key in [key for key in module._instances if key not in before]:
        widget = module._instances.get(key)
        if widget is not None:
            widget.close()


@pytest.fixture
def debounce_at_once(monkeypatch):
    """Debounced calls (:class:`explorer.panels.tasks.Debounced`: a figure's words, a figure's size) run at once, as
    in a script.  A browser test run earlier on this worker (Playwright's sync API) leaves its event loop set as
    running in this thread, and that loop never runs the debounce timer between a test's statements."""
    from explorer.panels import tasks

    def no_loop():
        raise RuntimeError("no running event loop")

    monkeypatch.setattr(tasks.asyncio, "get_running_loop", no_loop)


@pytest.fixture(autouse=True)
def close_the_widgets_a_test_made():
    """Close every widget a test (and its function-scoped fixtures) made, when it ends.

    ipywidgets keeps each open widget in a registry until it is closed, so a test's panels, their figures and
    every object they hold would stay alive for the rest of the worker's run: by the end of six modules of
    panel tests, 88,692 widgets and 4.4 million objects, which every full garbage collection walks (the
    collector took 29 s of those modules' 218 s, and pytest's five collections at the end of a session 4 s
    each).  Widgets that existed before the test (made by a module or session fixture, which pytest sets up
    first) are left open; :func:`close_the_widgets_a_module_made` closes those at the end of their module."""
    before = _open_widgets()
    yield
    _close_widgets_since(before)


@pytest.fixture(autouse=True, scope="module")
def close_the_widgets_a_module_made():
    """Close every widget still open that a module's tests or fixtures made, when the module ends."""
    before = _open_widgets()
    yield
    _close_widgets_since(before)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move everything alive after collection (imported modules, matplotlib's and pandas' tables) out of the
    garbage collector's sight (:func:`gc.freeze`): a full collection then walks only what the tests made since.
    Those objects live until the process ends anyway.  Six modules of panel tests took 166 s without, 154 s
    with it."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Under CI a skipped test fails: CI installs Chromium, nginx and every extra, and builds the docs."""
    outcome = yield
    report = outcome.get_result()
    if UNDER_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under CI, where nothing may be skipped: {reason}"
