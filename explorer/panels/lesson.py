"""The lessons' widgets: a check question with feedback, one lesson with its live panel, and the list of lessons.

Wiring only: the lessons' text, numbers and answers are data in :mod:`explorer.lessons`; answers are
judged by :func:`explorer.lessons.check_answer`; the live panels are the tabs' own panel classes,
built from a lesson's :class:`~explorer.lessons.Preset` by :func:`build_preset_panel`.
"""

from __future__ import annotations

import html
import importlib
import logging
from typing import Any

import ipywidgets as widgets

from explorer.lessons import Check, Feedback, Lesson, Preset, check_answer, lesson, lessons
from explorer.panels.registry import lesson_panels
from explorer.panels.status import StatusLine
from explorer.state import AppState
from explorer.panels._resize import figure_sizer
from explorer.references import cite

__all__ = ["PANELS", "build_preset_panel", "CheckQuestion", "LessonPanel", "LessonsPage", "lesson_widget",
           "lessons_widget"]

log = logging.getLogger("explorer.panels")

#: a preset's ``panel`` -> (module, class) of the tab's panel, from the one registry of panels
PANELS: dict[str, tuple[str, str]] = lesson_panels()

CSS = """<style>
.explorer-lesson {max-width: 1100px}
.explorer-lesson .widget-html-content {line-height: 1.45}
.explorer-lesson-box {border-left: 4px solid #4a6fa5; background: #f4f7fb; padding: 4px 12px; margin: 4px 0}
.explorer-lesson-takeaway {border-left: 4px solid #2e7d32; background: #f1f8f1; padding: 4px 12px; margin: 4px 0}
.explorer-check {border: 1px solid #ccd; border-radius: 4px; padding: 6px 12px; margin: 6px 0}
.explorer-check .widget-radio-box label {white-space: normal; line-height: 1.3}
.explorer-check-right {color: #1b5e20} .explorer-check-wrong {color: #b00020}
</style>"""


def _wait(panel: Any) -> None:
    """Let a panel's background work (clustering, curves) finish, so the lesson opens on its picture."""
    for name in ("wait", "join"):
        method = getattr(panel, name, None)
        if callable(method):
            method(120)
            return


def build_preset_panel(preset: Preset) -> Any:
    """The tab's panel of ``preset``, built with its constructor arguments, then its controls set in order.

    The only place where lessons construct panels; ``preset.calls`` (for example the RR panel's
    ``apply_preset``) run last.  Returns the panel (its ``.widget`` is what to show).
    """
    module_name, class_name = PANELS[preset.panel]
    panel_class = getattr(importlib.import_module(module_name), class_name)
    state = AppState()
    if preset.dataset is not None:
        state.select_dataset(preset.dataset)
    panel = panel_class(state, **dict(preset.kwargs))
    for name, value in preset.controls:
        _wait(panel)
        getattr(panel, name).value = value
    _wait(panel)
    for name, args in preset.calls:
        getattr(panel, name)(*args)
    _wait(panel)
    return panel


class CheckQuestion:
    """A check-your-understanding question: choices (or a number box), a Check button, feedback in words.

    Whatever the widgets hold (including forged values), :meth:`submit` re-validates it with
    :func:`~explorer.lessons.check_answer` and never raises.
    """

    def __init__(self, check: Check):
        self.check = check
        self.feedback: Feedback | None = None
        prompt = widgets.HTML(f"<b>Check your understanding.</b> {html.escape(check.prompt)}")
        if check.kind == "choice":
            self.answer = widgets.RadioButtons(options=[(text, i) for i, text in enumerate(check.choices)],
                                               value=None, layout=widgets.Layout(width="auto"))
        else:
            self.answer = widgets.Text(value="", placeholder="a number, e.g. 0.25", description="Answer",
                                       continuous_update=False, layout=widgets.Layout(width="260px"))
            self.answer.observe(lambda _: self.submit(), names="value")     # Enter checks too
        self.button = widgets.Button(description="Check", button_style="primary", icon="check",
                                     layout=widgets.Layout(width="110px"))
        self.button.on_click(lambda _: self.submit())
        self.output = widgets.HTML(value="", layout=widgets.Layout(min_height="1.6em"))
        self.answer.add_class("explorer-check-answer")
        self.button.add_class("explorer-check-button")
        self.output.add_class("explorer-check-feedback")
        self.widget = widgets.VBox([prompt, self.answer, self.button, self.output])
        self.widget.add_class("explorer-check")

    def submit(self, value: Any = None) -> Feedback:
        """Judge ``value`` (by default what the widget holds) and show the feedback; never raises."""
        try:
            if value is None:
                value = self.answer.value
            feedback = check_answer(self.check, value)
        except Exception:  # a bug must not break the lesson: say so in words
            log.exception("check question failed")
            feedback = Feedback(False, "That answer could not be read; choose or type it again.", valid=False)
        self.feedback = feedback
        css = "explorer-check-right" if feedback.correct else "explorer-check-wrong"
        mark = "✔" if feedback.correct else ("✘" if feedback.valid else "?")
        self.output.value = f"<span class='{css}'><b>{mark}</b> {html.escape(feedback.message)}</span>"
        return feedback


class LessonPanel:
    """One lesson: goal, question, the live panel from its preset, takeaway and check question.

    ``heading=False`` leaves out the "Lesson n of N: title" heading (a notebook has its own).
    """

    def __init__(self, key_or_lesson: str | Lesson, *, heading: bool = True):
        self.lesson = key_or_lesson if isinstance(key_or_lesson, Lesson) else lesson(key_or_lesson)
        item = self.lesson
        number = [x.key for x in lessons()].index(item.key) + 1
        self.panel = build_preset_panel(item.preset)
        self.check = CheckQuestion(item.check)
        e = html.escape
        title = f"<h3 style='margin:4px 0'>Lesson {number} of {len(lessons())}: {e(item.title)}</h3>"
        header = widgets.HTML(
            (title if heading else "") +
            f"<div class='explorer-lesson-box'><b>Learning goal.</b> {e(item.goal)}<br>"
            f"<b>Think first.</b> {e(item.question)}</div>"
            f"<p style='margin:4px 0'><b>In the panel below</b> (in the app and in JupyterLab every control works). {e(item.preset.shows)}</p>")
        self.reset_button = widgets.Button(description="Back to the lesson's setting", icon="undo",
                                           layout=widgets.Layout(width="250px"))
        self.reset_button.add_class("explorer-lesson-reset")
        self.reset_button.on_click(lambda _: self.reset())
        self.panel_box = widgets.VBox([self.panel.widget])
        takeaway = widgets.HTML(f"<div class='explorer-lesson-takeaway'><b>Takeaway.</b> {e(item.takeaway)}<br>"
                                f"<small>Source: {e(item.citation)}.</small></div>")
        self.widget = widgets.VBox([widgets.HTML(CSS), header, widgets.HBox([self.reset_button]), self.panel_box, takeaway,
                                    self.check.widget])
        self.widget.add_class("explorer-lesson")
        self.widget.add_class(f"explorer-lesson-{item.key}")

    def reset(self) -> None:
        """Rebuild the live panel from the lesson's preset (after students changed its controls)."""
        try:
            panel = build_preset_panel(self.lesson.preset)
        except Exception:  # keep the current panel rather than break the lesson
            log.exception("lesson %s: resetting the panel failed", self.lesson.key)
            return
        old, self.panel = self.panel, panel
        self.panel_box.children = [panel.widget]
        _close_tree(old.widget)


def _close_tree(widget: widgets.Widget) -> None:
    """Close a widget and everything inside it (a replaced panel's controls and canvases)."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()


def lesson_widget(key: str, *, heading: bool = True) -> widgets.Widget:
    """The widget of lesson ``key`` (a notebook's one call; ``heading=False`` when the notebook has the title)."""
    widget = LessonPanel(key, heading=heading).widget
    widget.children = (*widget.children, figure_sizer())   # its figures follow the width of their container
    return widget


def _answers_html(items) -> str:
    """The lesson plan for a teacher: each lesson's paper, check question and answer with its explanation."""
    rows = []
    for i, item in enumerate(items, 1):
        check = item.check
        answer = check.choices[int(check.answer)] if check.kind == "choice" else f"{check.answer:.4g} {check.unit}"
        rows.append(f"<li><b>{html.escape(item.title)}</b> ({html.escape(cite(item.paper, item.section))}).<br>"
                    f"<i>{html.escape(check.prompt)}</i><br>Answer: <b>{html.escape(answer.strip())}</b>. "
                    f"{html.escape(check.explanation)}</li>")
    return ("<p style='margin:4px 0'>Order: as listed, 10 to 15 minutes each (the documentation's teacher's guide "
            "has the timing). Prepare any tab, then share it with <b>Configuration</b> (under the tabs): "
            "<i>Export configuration</i> gives the JSON and a link that opens the app as you left it.</p>"
            f"<ol style='line-height:1.45'>{''.join(rows)}</ol>")


class LessonsPage:
    """All lessons in order: a list to pick from, Previous / Next, one lesson shown (each built when first opened)."""

    def __init__(self, state: Any = None) -> None:
        # ``state`` is accepted so the app can build this tab like the others; each lesson has a state of its
        # own, so a lesson never changes the app's shared epsilon or data set.
        self.state = state
        self.lessons = lessons()
        self.panels: dict[str, LessonPanel] = {}
        options = [(f"{i}. {item.title}", item.key) for i, item in enumerate(self.lessons, 1)]
        self.selector = widgets.Dropdown(options=options, value=self.lessons[0].key, description="Lesson",
                                         layout=widgets.Layout(width="520px"))
        self.previous = widgets.Button(description="Previous", icon="arrow-left", layout=widgets.Layout(width="110px"))
        self.next = widgets.Button(description="Next", icon="arrow-right", layout=widgets.Layout(width="110px"))
        self.previous.on_click(lambda _: self._step(-1))
        self.next.on_click(lambda _: self._step(+1))
        self.body = widgets.VBox()
        self.status = StatusLine()
        items = "".join(f"<li><b>{html.escape(item.title)}</b>: {html.escape(item.goal)}</li>" for item in self.lessons)
        intro = widgets.HTML(
            "<p style='margin:4px 0'>Eight short lessons, one idea of the papers each, in teaching order. Each has a "
            "goal, a question to think about, a live panel set up to show the point, a takeaway and a question "
            "to check your understanding.</p>"
            f"<details><summary>All lessons</summary><ol>{items}</ol></details>"
            f"<details><summary>For teachers: the check questions and their answers</summary>"
            f"{_answers_html(self.lessons)}</details>")
        self.selector.observe(lambda change: self.show(change["new"]), names="value")
        self.widget = widgets.VBox([intro, widgets.HBox([self.selector, self.previous, self.next],
                                                        layout=widgets.Layout(flex_flow="row wrap")),
                                    self.status.widget, self.body])
        self.widget.add_class("explorer-lessons")
        self.show(self.selector.value)

    def _step(self, step: int) -> None:
        keys = [item.key for item in self.lessons]
        index = keys.index(self.selector.value) + step
        if 0 <= index < len(keys):
            self.selector.value = keys[index]

    def show(self, key: str) -> None:
        """Show lesson ``key``, building its panel the first time."""
        keys = [item.key for item in self.lessons]
        if key not in keys:
            self.status.error(f"No lesson {str(key)[:60]}.")
            return
        try:
            if key not in self.panels:
                self.panels[key] = LessonPanel(key)
        except Exception as error:  # a panel that fails to build must not take the page down
            log.exception("lesson %s failed to build", key)
            self.status.error(f"This lesson could not be built ({type(error).__name__}).")
            return
        self.status.clear()
        self.body.children = [self.panels[key].widget]
        index = keys.index(key)
        self.previous.disabled = index == 0
        self.next.disabled = index == len(keys) - 1


def lessons_widget() -> widgets.Widget:
    """The lessons page (for the app's Lessons tab)."""
    widget = LessonsPage().widget
    widget.children = (*widget.children, figure_sizer())   # its figures follow the width of their container
    return widget
