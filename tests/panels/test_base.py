"""Shared panel helpers: the status line, guarded callbacks, background tasks, CSV links."""

from __future__ import annotations

import base64
import threading
import time

from explorer.errors import CancelledError, InvalidParameterError
from explorer.panels.downloads import csv_download_link
from explorer.panels.status import StatusLine, guarded
from explorer.panels.tasks import BackgroundTask


class Owner:
    def __init__(self):
        self.status = StatusLine()

    @guarded
    def bad(self):
        raise InvalidParameterError("k must be >= 1, got 0")

    @guarded
    def bug(self):
        raise ZeroDivisionError("boom")


def test_guarded_shows_core_errors_in_words_and_hides_bugs_tracebacks():
    owner = Owner()
    owner.bad()
    assert owner.status.is_error and owner.status.message == "k must be >= 1, got 0"
    owner.bug()
    assert "Something went wrong (ZeroDivisionError)" in owner.status.message
    assert "Traceback" not in owner.status.widget.value


def test_background_task_runs_reports_and_finishes():
    status = StatusLine()
    task = BackgroundTask(status)
    seen = []

    def compute(progress):
        for i in range(5):
            assert progress((i + 1) / 5)
        return 42

    task.start(compute, seen.append)
    task.wait(10)
    assert seen == [42] and task.progress.value == 1.0 and task.widget.layout.display == "none"


def test_background_task_cancel_keeps_the_previous_view():
    status = StatusLine()
    task = BackgroundTask(status)
    started, seen = threading.Event(), []

    def compute(progress):
        started.set()
        while progress(0.5):
            pass
        raise CancelledError("stopped")

    task.start(compute, seen.append)
    started.wait(5)
    task.cancel_button.click()
    task.wait(10)
    assert seen == [] and status.message == "Stopped; the previous view is kept." and not status.is_error


def test_background_task_errors_go_to_the_status_line():
    status = StatusLine()
    task = BackgroundTask(status)

    def compute(progress):
        raise InvalidParameterError("window must be <= 1, got 2")

    task.start(compute, lambda result: None)
    task.wait(10)
    assert status.is_error and status.message == "window must be <= 1, got 2"


def test_a_superseded_result_is_dropped_by_the_task():
    status = StatusLine()
    task = BackgroundTask(status)
    started, release, seen, dropped = threading.Event(), threading.Event(), [], []

    def compute(progress):
        started.set()
        assert release.wait(10)
        progress(1.0)                            # not stopped early: it returns its (superseded) result
        return "old inputs"

    task.start(compute, seen.append, on_superseded=lambda: dropped.append(True))
    assert started.wait(10)
    generation = task.generation
    assert task.supersede() == generation + 1 and not task.is_current(generation)
    release.set()
    task.wait(10)
    assert seen == [] and dropped == [True]
    # without on_superseded, the drop is said in words; a task started after the change is shown
    task.start(lambda progress: "current", seen.append)
    task.wait(10)
    assert seen == ["current"]
    release.clear()
    started.clear()
    task.start(compute, seen.append)
    assert started.wait(10)
    task.supersede()
    release.set()
    task.wait(10)
    assert seen == ["current"] and "its result was discarded" in status.message and not status.is_error


def test_a_superseded_task_can_stop_early_without_saying_cancelled():
    status = StatusLine()
    task = BackgroundTask(status)
    started, steps, seen = threading.Event(), [], []

    def compute(progress):
        started.set()
        for _ in range(1000):
            steps.append(1)
            if not progress(0.5):
                raise CancelledError("cancelled")
            time.sleep(0.01)
        return "finished"

    task.start(compute, seen.append, stop_when_superseded=True, on_superseded=lambda: None)
    assert started.wait(10)
    status.info("the new inputs' words")
    task.supersede()
    task.wait(30)
    assert seen == [] and len(steps) < 1000 and status.message == "the new inputs' words"


def test_csv_download_link_carries_the_text():
    link = csv_download_link("a,b\n1,2\n", "t.csv", "get it")
    payload = link.split("base64,")[1].split("'")[0]
    assert base64.b64decode(payload).decode() == "a,b\n1,2\n" and ">get it</a>" in link


def test_cancel_all_cancels_every_running_task():
    import threading

    from explorer.panels.status import StatusLine
    from explorer.panels.tasks import BackgroundTask

    started = [threading.Event(), threading.Event()]
    tasks = [BackgroundTask(StatusLine()) for _ in started]

    def compute_for(event):
        def compute(progress):
            event.set()
            while progress(0.5):
                threading.Event().wait(0.005)
            return "partial"
        return compute

    for task, event in zip(tasks, started):
        task.start(compute_for(event), lambda result: None)
        assert event.wait(5)
    assert all(task.running for task in tasks)
    assert BackgroundTask.cancel_all() >= 2
    assert not any(task.running for task in tasks)
    assert BackgroundTask.cancel_all() == 0


def test_widgets_added_later_to_a_guarded_container_are_guarded():
    import ipywidgets as widgets

    from explorer.panels.browser import guard_widgets

    status = StatusLine()
    box = widgets.VBox([widgets.IntSlider(value=1, min=0, max=5)])
    assert guard_widgets(box, status) == 2
    late = widgets.Dropdown(options=["a", "b"], value="a")
    box.children = [widgets.HBox([late])]
    late.set_state({"index": 7})                          # out of range: words, not a TraitError
    assert status.is_error and "refused" in status.message and late.value == "a"
    late.set_state({"disabled": True})
    assert "may not set disabled" in status.message and not late.disabled


def _comm_message(content):
    """What ``Widget._handle_msg`` receives from the comm for a custom message (a Button's click)."""
    return {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}


def test_a_forged_click_on_a_disabled_button_is_refused_in_words():
    import ipywidgets as widgets

    from explorer.panels.browser import guard_widgets

    status = StatusLine()
    clicks = []
    button = widgets.Button(description="Compute")
    button.on_click(clicks.append)
    guard_widgets(widgets.VBox([button]), status)
    button._handle_msg(_comm_message({"event": "click"}))       # enabled: the click runs
    assert clicks == [button] and not status.is_error
    button.disabled = True
    button._handle_msg(_comm_message({"event": "click"}))       # the path a websocket message takes
    assert clicks == [button]                                    # the handler did not run
    assert status.is_error and status.message.endswith("is disabled; the click was refused")
    assert "Compute" in status.message
    button._handle_msg(_comm_message(["not", "an", "object"]))
    assert clicks == [button] and "must be an object" in status.message


def test_errors_of_message_and_click_handlers_become_words(caplog):
    import ipywidgets as widgets

    from explorer.panels.browser import guard_widgets

    status = StatusLine()
    button = widgets.Button(description="Go")

    def refuse(_):
        raise InvalidParameterError("k must be >= 1, got 0")

    button.on_click(refuse)
    guard_widgets(button, status)
    button._handle_msg(_comm_message({"event": "click"}))
    assert status.is_error and status.message == "k must be >= 1, got 0"

    def bug(widget, content, buffers):
        raise ZeroDivisionError("boom")

    button.on_msg(bug)
    button._handle_msg(_comm_message({"event": "other"}))
    assert "Something went wrong (ZeroDivisionError)" in status.message and "boom" not in status.widget.value
