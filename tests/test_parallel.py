"""The suite's own distribution over xdist workers (``tests/conftest.py``): the controller tells each worker the
mode it chose, so that a worker groups its items (``@e2e-<module>``) as the controller hands them out."""

from __future__ import annotations

from types import SimpleNamespace

from tests import conftest


def _config(**option):
    return SimpleNamespace(option=SimpleNamespace(**option))


def test_a_worker_groups_its_items_when_the_controller_chose_loadgroup():
    node = SimpleNamespace(workerinput={}, config=_config(dist="loadgroup"))
    conftest.pytest_configure_node(node)
    worker = _config(dist="no", loadgroup=False)          # a worker's own command line names no --dist
    worker.workerinput = node.workerinput
    conftest.pytest_configure(worker)
    assert worker.option.loadgroup is True


def test_a_worker_is_left_alone_under_another_mode_and_the_controller_is_untouched():
    node = SimpleNamespace(workerinput={}, config=_config(dist="load"))
    conftest.pytest_configure_node(node)
    worker = _config(dist="no", loadgroup=False)
    worker.workerinput = node.workerinput
    conftest.pytest_configure(worker)
    assert worker.option.loadgroup is False
    controller = _config(dist="loadgroup")                  # no workerinput: not a worker
    conftest.pytest_configure(controller)
    assert not hasattr(controller.option, "loadgroup")
