"""The lessons' widgets: every lesson builds its live panel preset to show its point; check questions give feedback."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from explorer import lessons as L  # noqa: E402
from explorer.core import deniability as den  # noqa: E402
from explorer.core import closeness as tc  # noqa: E402
from explorer.panels.lesson import (  # noqa: E402
    CheckQuestion,
    LessonPanel,
    LessonsPage,
    build_preset_panel,
    lesson_widget,
    lessons_widget,
)

KEYS = L.LESSON_KEYS


@pytest.fixture(scope="module")
def built():
    """Every lesson built once (each builds a tab's panel)."""
    return {key: LessonPanel(key) for key in KEYS}


def _own_html(panel: LessonPanel) -> str:
    """The text the lesson itself adds around the live panel."""
    parts = [child for child in panel.widget.children if child is not panel.panel.widget]
    texts = []
    for child in parts + list(panel.check.widget.children):
        if isinstance(child, widgets.HTML):
            texts.append(child.value)
    texts += [label for label, _ in getattr(panel.check.answer, "options", ())]
    return " ".join(texts)


@pytest.mark.parametrize("key", KEYS)
def test_every_lesson_builds_with_its_parts(built, key):
    panel = built[key]
    lesson = L.lesson(key)
    assert panel.panel_box.children == (panel.panel.widget,)
    assert not panel.panel.status.is_error, panel.panel.status.message
    text = _own_html(panel)
    for part in (lesson.title, "Learning goal", "Think first", "Takeaway", "Check your understanding"):
        assert part in text
    assert lesson.citation in text
    assert not re.search(r"(?<![\d.,])00[0-4](?![\d.,])", re.sub(r"<[^>]+>", " ", text))


def _levels(markup: str) -> list[int]:
    return [int(level) for level in re.findall(r"<h([1-6])\b", markup)]


def test_a_lesson_s_headings_skip_no_level_in_the_app_or_in_its_notebook():
    """In the app the lesson's title is the tab's <h2> and "In the panel below" an <h3>, beside the live panel's
    sections (<h3>); in a notebook, whose markdown title is its <h1> (``heading=False``), "In the panel below" is
    the <h2> above those sections."""
    in_app, in_notebook = LessonPanel("intruder"), LessonPanel("intruder", heading=False)
    sections = _levels(" ".join(w.value for w in in_app.panel.widget.children if isinstance(w, widgets.HTML)))
    assert sections and set(sections) == {3}                          # the Permutation panel's own sections
    assert _levels(in_app.widget.children[1].value) == [2, 3]
    assert _levels(in_notebook.widget.children[1].value) == [2]
    assert re.search(r"<h2 [^>]*>In the panel below</h2>", in_notebook.widget.children[1].value)


def test_lesson_widget_is_a_widget():
    assert isinstance(lesson_widget("epsilon"), widgets.VBox)
    with pytest.raises(AttributeError, match="moved to explorer.panels.lesson"):     # the data module imports no panel
        L.lesson_widget("epsilon")


def test_presets_show_their_point(built):
    # Lesson 1: Example 1's matrix at epsilon = 2
    rr_panel = built["deniability"].panel
    np.testing.assert_allclose(rr_panel.matrix, den.example1_matrix())
    assert rr_panel.results["epsilon"] == pytest.approx(2.0)
    # Lesson 2: perfect secrecy, epsilon 0, three answers
    secrecy = built["epsilon"].panel
    assert secrecy.matrix.shape == (3, 3) and secrecy.results["epsilon"] == 0
    assert den.is_perfect_secrecy(secrecy.matrix)
    # Lesson 3: the simulated survey's inversion goes negative, the proper estimators do not
    values = built["estimation"].panel.simulation["values"]
    assert values["inversion"].min() < 0
    for method in ("clip", "simplex", "ibu"):
        assert values[method].min() >= 0 and values[method].sum() == pytest.approx(1)
    # Lesson 4: income at epsilon = 2: some clusters within t = e, some not; ">50K" raised
    tcp = built["t-closeness"].panel
    assert tcp.sensitive.value == "income" and tcp.epsilon.value == 2.0 and tcp.worst_value.value == 1
    distances = np.asarray(tcp.profile.distances)
    t = tc.closeness_for_epsilon(2.0)
    assert 0 < np.sum(distances > t) < distances.size
    # Lesson 6: too little permutation, the intruder can trust his links
    assert "not deniable" in built["intruder"].panel.verdict.value
    # Lesson 5: strong noise moves Y far from X, yet Z holds X's own values in Y's rank order
    analysis = built["reverse-mapping"].panel.analysis
    for j in range(analysis.X.shape[1]):
        np.testing.assert_array_equal(np.sort(analysis.Z[:, j]), np.sort(analysis.X[:, j]))
        assert np.abs(analysis.E[:, j]).mean() < np.abs(analysis.Y[:, j] - analysis.X[:, j]).mean()
    # Lesson 7: fnlwgt, the curves cross
    dominance = built["dominance"].panel
    assert dominance.risk_view.value == "1" and dominance.risk_verdicts[0].startswith("Neither dominates")
    # Lesson 8: p = 0.7, the paper's Table 1 row
    assert built["rr-clusters"].panel.p.value == 0.7
    # Lesson 9: Google's symptoms release read over 7 days: the answer of its check question is on screen
    release = built["reading-a-release"].panel
    assert release.release.value == "google-symptoms" and release.periods.value == 7
    assert release.reading.composed_epsilon == pytest.approx(L.lesson("reading-a-release").check.answer)
    assert "7 × 1.68 = 11.76" in release.lines.value and "128,027" in release.lines.value


def test_reset_rebuilds_the_panel_from_the_preset():
    lesson_panel = LessonPanel("estimation")
    lesson_panel.panel.epsilon.value = 5.0
    old = lesson_panel.panel
    lesson_panel.reset_button.click()
    assert lesson_panel.panel is not old and lesson_panel.panel.epsilon.value == 1.0
    assert lesson_panel.panel_box.children == (lesson_panel.panel.widget,)
    assert lesson_panel.panel.simulation["values"]["inversion"].min() < 0


def test_build_preset_panel_sets_controls_in_order():
    preset = L.Preset(panel="randomized_response", shows="", kwargs=(("n_categories", 5),),
                      controls=(("epsilon", 3.0),))
    panel = build_preset_panel(preset)
    assert panel.n_categories.value == 5 and panel.results["epsilon"] == pytest.approx(3.0)


# ---------------------------------------------------------------------------------- check questions
def _choice_check():
    return next(lesson.check for lesson in L.lessons() if lesson.check.kind == "choice")


def _number_check():
    return next(lesson.check for lesson in L.lessons() if lesson.check.kind == "number")


def test_choice_question_feedback_in_the_widget():
    check = _choice_check()
    question = CheckQuestion(check)
    question.button.click()
    assert "Choose one of the answers" in question.output.value
    wrong = (int(check.answer) + 1) % len(check.choices)
    question.answer.value = wrong
    question.button.click()
    assert "Not quite" in question.output.value and "explorer-check-wrong" in question.output.value
    question.answer.value = int(check.answer)
    question.button.click()
    assert question.feedback.correct and "Right." in question.output.value


def test_number_question_feedback_in_the_widget():
    check = _number_check()
    question = CheckQuestion(check)
    question.answer.value = f"{check.answer:.2f}"          # typing and Enter checks at once
    assert question.feedback.correct and "Right." in question.output.value
    question.answer.value = "12"
    assert "Not quite" in question.output.value


@pytest.mark.parametrize("value", [None, 99, -3, "abc", "nan", "1e999", float("nan"), [1], {"x": 1}, True])
def test_check_question_widget_survives_forged_values(value):
    for check in (_choice_check(), _number_check()):
        question = CheckQuestion(check)
        feedback = question.submit(value)
        assert not feedback.correct and question.output.value
    number = CheckQuestion(_number_check())
    number.answer.value = "<script>alert(1)</script>"       # escaped, and judged invalid
    assert "<script>" not in number.output.value and not number.feedback.valid


def test_a_forged_choice_index_from_the_browser_does_not_raise():
    question = CheckQuestion(_choice_check())
    # a forged front-end state is refused by the widget's own validation, and the check still works
    with pytest.raises(Exception):
        question.answer.value = 42
    assert question.submit().valid is False


# ---------------------------------------------------------------------------------- the lessons page
@pytest.mark.slow
def test_lessons_page_lists_the_lessons_in_order_and_steps():
    page = LessonsPage()
    assert [value for _, value in page.selector.options] == list(KEYS)
    assert page.previous.disabled and set(page.panels) == {KEYS[0]}
    page.next.click()
    assert page.selector.value == KEYS[1] and page.body.children[0] is page.panels[KEYS[1]].widget
    page.previous.click()
    assert page.selector.value == KEYS[0] and set(page.panels) == {KEYS[0], KEYS[1]}   # built once each
    page.show("nope")
    assert "No lesson" in page.status.message and page.status.is_error
    assert isinstance(lessons_widget(), widgets.VBox)


def test_previous_and_next_are_also_at_the_end_of_each_lesson_labelled_with_where_they_go():
    page = LessonsPage()
    children = list(page.widget.children)
    assert children.index(page.end_nav) == children.index(page.body) + 1          # right after the lesson
    assert isinstance(page.next_end, widgets.Button) and isinstance(page.previous_end, widgets.Button)  # keyboard
    assert page.previous_end.disabled and not page.next_end.disabled
    assert page.next_end.description == f"Next: 2. {L.lessons()[1].title}"
    page.next_end.click()
    assert page.selector.value == KEYS[1] and page.previous_end.description.startswith("Previous: 1. ")
    page.previous_end.click()
    assert page.selector.value == KEYS[0]
    page.selector.value = KEYS[-1]
    assert page.next_end.disabled and page.next.disabled and page.next_end.tooltip == "This is the last lesson"


def test_the_teachers_answers_are_on_the_page_only_in_teacher_mode():
    from explorer.app import build_app, teacher_mode_requested

    def page_text(page):
        return " ".join(getattr(w, "value", "") for w in page.widget.children if isinstance(w, widgets.HTML))

    page = LessonsPage()
    answer = L.lessons()[0].check.explanation
    assert not page.teacher_mode.value and answer.split(":")[0] not in page_text(page)   # a student's page
    page.teacher_mode.value = True                                       # the toggle
    assert "Teacher mode" in page.answers.value and "Answer:" in page.answers.value
    page.teacher_mode.value = False
    assert page.answers.value == ""
    assert teacher_mode_requested("?teacher=1") and teacher_mode_requested("config=x&teacher=true")
    assert not teacher_mode_requested("teacher=0") and not teacher_mode_requested(None)
    assert build_app(query_string="teacher=1").panel("Lessons").teacher_mode.value is True
    assert build_app(query_string="").panel("Lessons").answers.value == ""


# ---------------------------------------------------------------------------------- the Panel contract
def test_the_lessons_page_is_a_panel_whose_lesson_is_its_configuration():
    from explorer.errors import ConfigurationError
    from explorer.panels.base import Panel

    page = LessonsPage()
    assert isinstance(page, Panel) and isinstance(page.panels[KEYS[0]], Panel)
    assert page.controls["lesson"].widget is page.selector and page.config() == {"lesson": KEYS[0]}
    page.apply_config({"lesson": KEYS[1]})
    assert page.selector.value == KEYS[1] and page.body.children[0] is page.panels[KEYS[1]].widget
    assert page.next.disabled is False and page.previous.disabled is False
    with pytest.raises(ConfigurationError, match="lesson must be one of .* got 'nope'"):
        page.apply_config({"lesson": "nope"})
    assert page.config() == {"lesson": KEYS[1]}                       # a refused configuration changes nothing


def _on_contract_lesson(monkeypatch):
    """The first lesson, its live panel replaced by one on the Panel contract (What does epsilon mean?)."""
    import dataclasses

    import explorer.panels.lesson as module
    from explorer.panels.registry import entry

    monkeypatch.setitem(module.PANELS, "epsilon_meaning", (entry("epsilon_meaning").module,
                                                          entry("epsilon_meaning").class_name))
    first = L.lesson(KEYS[0])
    return dataclasses.replace(first, preset=L.Preset(panel="epsilon_meaning", shows="ε read through every model.",
                                                      kwargs=(("n", 500),), controls=(("epsilon", 2.0),)))


def test_a_lessons_figures_text_tables_exports_and_code_are_its_live_panels(monkeypatch):
    lesson_panel = LessonPanel(_on_contract_lesson(monkeypatch))
    live = lesson_panel.panel
    assert live.state.epsilon == 2.0 and lesson_panel.state is live.state
    assert [view.key for view in lesson_panel.figures()] == [view.key for view in live.figures()]
    assert len(lesson_panel.figures()) == 5 and lesson_panel.missing_hooks() == live.missing_hooks() == []
    for index, view in enumerate(live.figures()):
        assert lesson_panel.describe(index) == live.describe(index)
        assert lesson_panel.table(view.key).equals(live.table(view.key))
    assert lesson_panel.figure_view("accuracy") is live.figure_view("accuracy")
    assert lesson_panel.export_figure(0, "png").startswith(b"\x89PNG")
    assert lesson_panel.code() == live.code()
    old = live
    lesson_panel.reset()                                   # a new live panel: the hooks follow it
    assert lesson_panel.panel is not old and lesson_panel.state is lesson_panel.panel.state
    assert lesson_panel.describe(0) == lesson_panel.panel.describe(0)


def test_the_lessons_page_serves_the_shown_lessons_hooks(monkeypatch):
    import explorer.panels.lesson as module

    changed = _on_contract_lesson(monkeypatch)
    monkeypatch.setattr(module, "lesson", lambda key: changed if key == changed.key else L.lesson(key))
    page = LessonsPage()
    live = page.panels[KEYS[0]].panel
    assert page.live is live and page.code() == live.code() and page.missing_hooks() == []
    assert page.describe(1) == live.describe(1) and page.table(2).equals(live.table(2))


def test_a_lesson_whose_panel_is_not_on_the_contract_says_what_is_missing(built):
    from explorer.panels.base import Panel

    lesson_panel = built["deniability"]
    if isinstance(lesson_panel.panel, Panel):                 # migrated: then its hooks are its panel's
        assert lesson_panel.missing_hooks() == lesson_panel.panel.missing_hooks()
        return
    assert lesson_panel.missing_hooks() == ["code"] and lesson_panel.figures() == []
    with pytest.raises(NotImplementedError, match="RandomizedResponsePanel is not on the Panel contract yet: it has no code"):
        lesson_panel.code()
    with pytest.raises(NotImplementedError, match="it has no text description"):
        lesson_panel.describe(0)


def test_the_app_writes_and_loads_the_lesson_shown():
    from explorer.app import build_app

    app = build_app()
    page = app.panel("Lessons")
    page.selector.value = KEYS[1]
    config = app.export_config()
    assert config["tabs"]["Lessons"] == {"lesson": KEYS[1]}
    other = build_app()
    other.load_config(config)
    assert other.panel("Lessons").selector.value == KEYS[1]
    shown = other.panel("Lessons")
    assert shown.body.children[0] is shown.panels[KEYS[1]].widget and not shown.status.is_error
