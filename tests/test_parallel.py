"""The suite's own distribution over xdist workers (``tests/conftest.py``): a browser test module is one unit of
work, read from the node ids on the controller (xdist's ``xdist_group`` suffix is lost under pytest 9.2)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests import conftest


def test_a_browser_module_and_a_whole_module_are_one_unit_and_other_tests_are_their_own():
    assert conftest.work_unit("tests/e2e/test_reflow_e2e.py::test_at_200pc_zoom[x]") == "tests/e2e/test_reflow_e2e.py"
    module = conftest.WHOLE_MODULES[0]
    assert conftest.work_unit(f"{module}::test_each[a-b]") == module
    assert conftest.work_unit("tests/core/test_rr.py::test_epsilon[3]") == "tests/core/test_rr.py::test_epsilon[3]"
    doctest = "explorer/core/releases.py::explorer.core.releases.rappor_epsilon"
    assert conftest.work_unit(doctest) == doctest


def _config(dist: str):
    values = {"dist": dist, "tx": ["popen", "popen"], "numprocesses": 2}
    return SimpleNamespace(getvalue=values.get, option=SimpleNamespace(**values, loadscopereorder=True))


def test_under_loadgroup_the_scheduler_hands_out_work_units_and_otherwise_xdist_chooses():
    pytest.importorskip("xdist")                 # in the test extra
    assert conftest.pytest_xdist_make_scheduler(_config("load"), None) is None
    scheduler = conftest.pytest_xdist_make_scheduler(_config("loadgroup"), None)
    nodeids = ["tests/e2e/test_app_e2e.py::test_a", "tests/core/test_x.py::test_b", "tests/e2e/test_app_e2e.py::test_c"]
    assert [scheduler._split_scope(n) for n in nodeids] == [
        "tests/e2e/test_app_e2e.py", "tests/core/test_x.py::test_b", "tests/e2e/test_app_e2e.py"]
