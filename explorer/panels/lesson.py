"""The lessons' widgets: a check question with feedback, one lesson with its live panel, and the list of lessons.

Wiring only: the lessons' text, numbers and answers are data in :mod:`explorer.lessons`; answers are
judged by :func:`explorer.lessons.check_answer`; the live panels are the tabs' own panel classes (from the
one registry, :mod:`explorer.panels.registry`), built from a lesson's :class:`~explorer.lessons.Preset` by
:func:`build_preset_panel`, the one place lessons construct panels.

:class:`LessonPanel` and :class:`LessonsPage` are panels (:class:`~explorer.panels.base.Panel`): the page's
one declared control is the lesson shown (configuration key ``"lesson"``), and a lesson's figures, their
descriptions, data tables and exports, and its :meth:`~LessonPanel.code` are those of its live panel.
"""

from __future__ import annotations

import html
import importlib
import logging
from typing import Any

import ipywidgets as widgets
import pandas as pd

from explorer.lessons import Check, Feedback, Lesson, Preset, check_answer, lesson, lessons
from explorer.panels._resize import figure_sizer
from explorer.panels.a11y import A11Y_CLASS, a11y_style, section_heading
from explorer.panels.base import FigureView, Panel, on_change
from explorer.panels.figures import close_tree
from explorer.panels.registry import lesson_panels
from explorer.references import cite
from explorer.state import AppState

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
.explorer-lesson-title {font-size: 1.17em; margin: 4px 0}
</style>"""


def _wait(panel: Any, timeout: float | None = 120) -> None:
    """Let a panel's background work (clustering, curves) finish, so the lesson opens on its picture."""
    for name in ("wait", "join"):
        method = getattr(panel, name, None)
        if callable(method):
            method(timeout)
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
        self.answer._explorer_name = "Your answer"       # the accessible name of the choices (or the box)
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


class _Delegating(Panel):
    """A panel whose figures and code are those of the live panel it shows (:attr:`live`)."""

    #: The live panel shows its own "Code" button (and its figures their download rows).
    code_button = False

    @property
    def live(self) -> Any:
        """The live panel shown now (None when there is none)."""
        return None

    def _live_panel(self) -> Panel | None:
        live = self.live
        return live if isinstance(live, Panel) else None

    def figures(self) -> list[FigureView]:
        """The live panel's figures (none while the live panel is not on the Panel contract)."""
        live = self._live_panel()
        return live.figures() if live is not None else []

    def _require_live(self, hook: str) -> Panel:
        """The live panel on the Panel contract, or NotImplementedError saying which panel lacks ``hook``."""
        live = self._live_panel()
        if live is None:
            shown = self.live
            raise NotImplementedError("no lesson panel is shown" if shown is None else
                                      f"{type(shown).__name__} is not on the Panel contract yet: it has no {hook}")
        return live

    def figure_view(self, index: int | str = 0) -> FigureView:
        """The live panel's figure ``index`` (a position, or a figure's key)."""
        return self._require_live("figures").figure_view(index)

    def describe(self, index: int | str = 0) -> str:
        """What the live panel's figure ``index`` shows now, in words."""
        return self._require_live("text description of its figures").describe(index)

    def table(self, index: int | str = 0) -> pd.DataFrame:
        """The numbers the live panel's figure ``index`` draws, as a table."""
        return self._require_live("data table of its figures").table(index)

    def export_figure(self, index: int | str = 0, fmt: str = "png", **options: Any) -> bytes:
        """The live panel's figure ``index`` as a ``fmt`` file (``"png"``, ``"pdf"`` or ``"svg"``; ``format=``,
        ``dpi=``, ``slide=`` as :meth:`Panel.export_figure <explorer.panels.base.Panel.export_figure>`)."""
        return self._require_live("figure export").export_figure(index, fmt, **options)

    def figure_caption(self, index: int | str = 0) -> str:
        """The caption of the live panel's figure ``index`` in an export."""
        return self._require_live("caption").figure_caption(index)

    def code(self) -> str:
        """The live panel's code: the public-API snippet that reproduces what the lesson shows."""
        return self._require_live("code()").code()

    def missing_hooks(self) -> list[str]:
        """The live panel's missing hooks (``["code"]`` while it is not on the Panel contract)."""
        live = self._live_panel()
        return live.missing_hooks() if live is not None else ["code"]

    def wait(self, timeout: float | None = None) -> None:
        """Block until the live panel's background work (if any) has ended."""
        _wait(self.live, timeout)


class LessonPanel(_Delegating):
    """One lesson: goal, question, the live panel from its preset, takeaway and check question.

    ``heading=False`` leaves out the "Lesson n of N: title" heading (a notebook has its own).  The live panel
    (:attr:`panel`) has a state of its own (:attr:`state` is that state), so a lesson never changes the app's
    shared epsilon or data set.  Its figures and code are the live panel's (:meth:`figures`,
    :meth:`describe`, :meth:`table`, :meth:`export_figure`, :meth:`code`).
    """

    def __init__(self, key_or_lesson: str | Lesson, *, heading: bool = True):
        self.lesson = key_or_lesson if isinstance(key_or_lesson, Lesson) else lesson(key_or_lesson)
        item = self.lesson
        number = [x.key for x in lessons()].index(item.key) + 1
        self.panel = build_preset_panel(item.preset)
        super().__init__(getattr(self.panel, "state", None))
        self.check = CheckQuestion(item.check)
        e = html.escape
        # a level-2 heading: under the page's title, above the live panel's sections (level 3)
        title = (f"<h2 class='explorer-lesson-title'>Lesson {number} of {len(lessons())}: "
                 f"{e(item.title)}</h2>")
        header = widgets.HTML(
            (title if heading else "") +
            f"<div class='explorer-lesson-box'><b>Learning goal.</b> {e(item.goal)}<br>"
            f"<b>Think first.</b> {e(item.question)}</div>"
            # the part that holds the live panel (its sections are <h3>): under the lesson's <h2> title in the
            # app, under the notebook's own <h1> title with heading=False
            f"<div style='margin:4px 0'>{section_heading('In the panel below', inline=True, level=3 if heading else 2)}"
            f" (in the app and in JupyterLab every control works). {e(item.preset.shows)}</div>")
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

    @property
    def live(self) -> Any:
        """The lesson's live panel (:attr:`panel`)."""
        return self.panel

    def reset(self) -> None:
        """Rebuild the live panel from the lesson's preset (after students changed its controls)."""
        try:
            panel = build_preset_panel(self.lesson.preset)
        except Exception:  # keep the current panel rather than break the lesson
            log.exception("lesson %s: resetting the panel failed", self.lesson.key)
            return
        old, self.panel = self.panel, panel
        self.state = getattr(panel, "state", self.state)
        self.panel_box.children = [panel.widget]
        _close_panel(old)

    def close(self) -> None:
        """Close the live panel (it stops following its state) and every widget of the lesson."""
        _close_panel(self.panel)
        super().close()


def _close_panel(panel: Any) -> None:
    """Close a panel that is replaced: it stops following its state, and its widgets are closed."""
    close = getattr(panel, "close", None)
    if callable(close):
        close()
    else:
        close_tree(panel.widget)


def lesson_widget(key: str, *, heading: bool = True) -> widgets.Widget:
    """The widget of lesson ``key`` (a notebook's one call; ``heading=False`` when the notebook has the title)."""
    widget = LessonPanel(key, heading=heading).widget
    widget.children = (*widget.children, figure_sizer(), a11y_style())   # figures follow their container's width
    widget.add_class(A11Y_CLASS)                                          # contrast, focus and reflow rules
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


class LessonsPage(_Delegating):
    """All lessons in order: a list to pick from, Previous / Next, one lesson shown (each built when first opened).

    The lesson shown is the page's one declared control (:attr:`selector`, configuration key ``"lesson"``, a
    lesson's key such as ``"deniability"``).  Its figures and code are the shown lesson's live panel's.

    Previous / Next are at the top of the page and again at the end of the lesson (buttons, so reachable
    with the keyboard, labelled with the lesson they open).  The check questions' answers are for teachers:
    they are on the page only in the teacher mode (:attr:`teacher_mode`, a toggle at the end of the page,
    or ``?teacher=1`` in the app's address, :meth:`set_teacher_mode`); off by default, so a student's page
    does not carry them.

    Parameters
    ----------
    state : AppState, optional
        Accepted so the app builds this tab like the others; each lesson has a state of its own, so a lesson
        never changes the app's shared epsilon or data set.
    teacher : bool
        Open in the teacher mode.
    """

    #: The lesson's title, "Lesson n of N: ...", is the tab's heading of level 2.
    names_its_tab = True

    def __init__(self, state: AppState | None = None, *, teacher: bool = False) -> None:
        super().__init__(state)
        self.lessons = lessons()
        self.panels: dict[str, LessonPanel] = {}
        options = [(f"{i}. {item.title}", item.key) for i, item in enumerate(self.lessons, 1)]
        self.selector = self.control("lesson", widgets.Dropdown(
            options=options, value=self.lessons[0].key, description="Lesson", layout=widgets.Layout(width="520px")))
        self.previous = widgets.Button(description="Previous", icon="arrow-left", layout=widgets.Layout(width="110px"))
        self.next = widgets.Button(description="Next", icon="arrow-right", layout=widgets.Layout(width="110px"))
        self.previous.on_click(lambda _: self._step(-1))
        self.next.on_click(lambda _: self._step(+1))
        # the same pair at the end of the lesson, so a student who read to the end need not scroll back up
        self.previous_end = widgets.Button(description="Previous lesson", icon="arrow-left",
                                           layout=widgets.Layout(width="auto"))
        self.next_end = widgets.Button(description="Next lesson", icon="arrow-right", button_style="primary",
                                       layout=widgets.Layout(width="auto"))
        self.previous_end.on_click(lambda _: self._step(-1, to_top=True))
        self.next_end.on_click(lambda _: self._step(+1, to_top=True))
        self.previous_end.add_class("explorer-lessons-previous-end")
        self.next_end.add_class("explorer-lessons-next-end")
        self.end_nav = widgets.HBox([self.previous_end, self.next_end],
                                    layout=widgets.Layout(flex_flow="row wrap", margin="8px 0"))
        self.end_nav.add_class("explorer-lessons-end-nav")
        self.body = widgets.VBox()
        items = "".join(f"<li><b>{html.escape(item.title)}</b>: {html.escape(item.goal)}</li>" for item in self.lessons)
        intro = widgets.HTML(
            "<p style='margin:4px 0'>Nine short lessons, one idea of the papers (or of a published release) each, in teaching order. Each has a "
            "goal, a question to think about, a live panel set up to show the point, a takeaway and a question "
            "to check your understanding.</p>"
            f"<details><summary>All lessons</summary><ol>{items}</ol></details>")
        # the teacher's answers: on the page only in the teacher mode (not merely hidden: not sent at all)
        self.answers = widgets.HTML("")
        self.answers.add_class("explorer-lessons-answers")
        self.answers.add_class("explorer-teacher-only")   # the presenter view hides it even in the teacher mode
        self.teacher_mode = widgets.ToggleButton(
            value=False, description="Teacher mode", icon="graduation-cap",
            tooltip="Show the check questions' answers (for teachers; or open the app with ?teacher=1)",
            layout=widgets.Layout(width="auto"))
        self.teacher_mode.add_class("explorer-lessons-teacher-mode")
        self.teacher_mode.observe(self._on_teacher_mode, names="value")
        self.selector.observe(self._on_lesson, names="value")
        self.widget = widgets.VBox([intro, self.answers,
                                    widgets.HBox([self.selector, self.previous, self.next],
                                                 layout=widgets.Layout(flex_flow="row wrap")),
                                    self.status.widget, self.body, self.end_nav,
                                    widgets.HBox([self.teacher_mode], layout=widgets.Layout(margin="16px 0 0 0"))])
        self.widget.add_class("explorer-lessons")
        self.set_teacher_mode(teacher)
        self.refresh()

    @property
    def live(self) -> Any:
        """The live panel of the lesson shown (None if it could not be built)."""
        shown = self.panels.get(self.selector.value)
        return shown.panel if shown is not None else None

    def _live_panel(self) -> Panel | None:
        shown = self.panels.get(self.selector.value)
        return shown if shown is not None and isinstance(shown.panel, Panel) else None

    def set_teacher_mode(self, on: bool) -> None:
        """Turn the teacher mode on (the check questions' answers shown on the page) or off (not on the page)."""
        self.teacher_mode.value = bool(on)
        self._on_teacher_mode()

    def _on_teacher_mode(self, change: Any = None) -> None:
        self.answers.value = (
            "<details open class='explorer-lessons-teacher'><summary><b>Teacher mode</b>: the check questions and "
            f"their answers</summary>{_answers_html(self.lessons)}</details>" if self.teacher_mode.value else "")

    def _step(self, step: int, to_top: bool = False) -> None:
        keys = [item.key for item in self.lessons]
        index = keys.index(self.selector.value) + step
        if 0 <= index < len(keys):
            self.selector.value = keys[index]
            if to_top:           # from the end of a lesson: the keyboard focus (and the view) go to the top
                self.selector.focus()

    @on_change
    def _on_lesson(self, change: Any) -> None:
        self.show(change["new"])

    def refresh(self) -> None:
        """Show the lesson the selector names (after :meth:`apply_config`)."""
        self.show(self.selector.value)

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
        self.previous.disabled = self.previous_end.disabled = index == 0
        self.next.disabled = self.next_end.disabled = index == len(keys) - 1
        titles = [item.title for item in self.lessons]
        self.previous_end.tooltip = f"Lesson {index}: {titles[index - 1]}" if index > 0 else "This is the first lesson"
        self.next_end.tooltip = (f"Lesson {index + 2}: {titles[index + 1]}" if index < len(keys) - 1
                                 else "This is the last lesson")
        self.previous_end.description = (f"Previous: {index}. {titles[index - 1]}" if index > 0
                                         else "Previous lesson")
        self.next_end.description = (f"Next: {index + 2}. {titles[index + 1]}" if index < len(keys) - 1
                                     else "Next lesson")

    def close(self) -> None:
        """Close every lesson built (their live panels stop following their states) and the page."""
        for lesson_panel in self.panels.values():
            lesson_panel.close()
        super().close()


def lessons_widget() -> widgets.Widget:
    """The lessons page (for the app's Lessons tab)."""
    widget = LessonsPage().widget
    widget.children = (*widget.children, figure_sizer(), a11y_style())   # figures follow their container's width
    widget.add_class(A11Y_CLASS)                                          # contrast, focus and reflow rules
    return widget
