"""The lessons as data: their order, texts, citations, check questions and every number they quote."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from explorer import lessons as L
from explorer.core import deniability as den
from explorer.core import dominance as dom
from explorer.core import mdrr as md
from explorer.core import permutation as pm
from explorer.core import rr
from explorer.core import closeness as tc
from explorer.core.datasets import adult, domingo_muralidhar_example, ruiz_example
from explorer.core.mdrr.experiments import PAPER_RUNS, adult_mdrr_data
from explorer.core.releases import find_release, read_release
from explorer.references import PAPERS, cite

LESSONS = L.lessons()


def _texts(lesson: L.Lesson) -> list[str]:
    check = lesson.check
    return [lesson.title, lesson.goal, lesson.question, lesson.takeaway, lesson.preset.shows, lesson.citation,
            check.prompt, check.explanation, *check.choices, *check.hints]


def test_six_to_nine_lessons_in_the_order_of_the_keys():
    assert 6 <= len(LESSONS) <= 9
    assert tuple(lesson.key for lesson in LESSONS) == L.LESSON_KEYS
    assert len({lesson.title for lesson in LESSONS}) == len(LESSONS)
    assert L.lesson("t-closeness").title.startswith("t-closeness")
    with pytest.raises(ValueError, match="lesson must be one of"):
        L.lesson("nope")


def test_lessons_are_frozen():
    with pytest.raises(AttributeError):
        LESSONS[0].title = "changed"
    with pytest.raises(AttributeError):
        LESSONS[0].check.answer = 0


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_every_lesson_has_its_parts(lesson):
    assert lesson.goal and lesson.question.endswith("?") and lesson.preset.shows
    # the takeaway is two sentences ("0.5" or "Eq. (7)" are not sentence ends)
    sentences = re.findall(r"(?<!Eq)(?<!Eqs)[.!?](?:\s|$)", lesson.takeaway)
    assert len(sentences) == 2, lesson.takeaway
    assert lesson.preset.panel in ("randomized_response", "t_closeness", "permutation", "dominance", "multidim_rr",
                                   "releases")
    assert lesson.paper in PAPERS
    assert lesson.citation == cite(lesson.paper, lesson.section)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_papers_cited_by_authors_and_year_never_by_file_code(lesson):
    assert re.search(r"\((2016|2018|2022)\)", lesson.citation)
    for text in _texts(lesson):
        assert not re.search(r"(?<![\d.,])00[0-4](?![\d.,])", text), text
        assert "PAPER_NOTES" not in text and "ARCHITECTURE" not in text and "DELIVERY" not in text
        assert "paper 0" not in text.lower()


def test_every_paper_has_a_lesson():
    assert {lesson.paper for lesson in LESSONS} == set(PAPERS)


# ---------------------------------------------------------------------------------- check questions
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_check_question_right_and_wrong_feedback(lesson):
    check = lesson.check
    if check.kind == "choice":
        assert len(check.choices) >= 3
        right = L.check_answer(check, int(check.answer))
        assert right.correct and right.valid and right.message.startswith("Right.")
        assert check.explanation in right.message
        for index in range(len(check.choices)):
            if index == check.answer:
                continue
            wrong = L.check_answer(check, index)
            assert not wrong.correct and wrong.valid and wrong.message.startswith("Not quite.")
            assert check.hints[index] and check.hints[index] in wrong.message     # a reason for every wrong choice
    else:
        right = L.check_answer(check, f"{check.answer:.2f}")
        assert right.correct and check.explanation in right.message
        assert L.check_answer(check, check.answer).correct
        assert L.check_answer(check, f"{check.answer:.2f}".replace(".", ",")).correct   # a decimal comma
        wrong = L.check_answer(check, check.answer + 0.1)
        assert not wrong.correct and wrong.valid and check.hints[0] in wrong.message
        assert not L.check_answer(check, check.answer - 2 * check.tolerance - 1e-9).correct


FORGED = [None, -1, 99, 1.5, "1", "abc", "", True, float("nan"), float("inf"), [0], {"a": 1}, object(), "1e400"]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
@pytest.mark.parametrize("value", FORGED, ids=lambda value: "object()" if type(value) is object else repr(value))
def test_check_question_survives_forged_values(lesson, value):
    feedback = L.check_answer(lesson.check, value)
    assert isinstance(feedback, L.Feedback) and not feedback.correct
    assert feedback.message
    if lesson.check.kind == "choice" or value not in ("1", 1.5, -1, 99):
        assert not feedback.valid


def test_check_rejects_inconsistent_definitions():
    with pytest.raises(ValueError):
        L.Check("?", "choice", 3, "x", choices=("a", "b"), hints=("", ""))
    with pytest.raises(ValueError):
        L.Check("?", "essay", 0, "x")


# ---------------------------------------------------------------------------------- the numbers quoted
# Inputs a lesson states (parameters, labels, counts of answers), allowed besides the core's results.
INPUTS = {
    "deniability": {"1", "2", "20%", "0.2", "0.75", "0.25", "0.8"},
    "epsilon": {"0.75", "3", "0.8", "0.2", "2", "60", "30", "10%"},
    "estimation": {"2%", "1", "60", "30", "8", "300", "0"},
    "t-closeness": {"2", "0.2", "50", "1", "5", "0.5"},
    "reverse-mapping": {"1", "20"},
    "intruder": {"3", "1,000", "2%", "1"},
    "dominance": {"0.5", "1", "3", "2", "5,000", "10%"},
    "rr-clusters": {"0.7", "100", "0.2", "5", "1"},
    # the published epsilon, the days read, and the "-19" of the name COVID-19
    "reading-a-release": {"1.68", "7", "-19"},
}


def _core_results() -> dict[str, set[str]]:
    """The core's results for every lesson, computed here independently of explorer.lessons."""
    f = L._fmt
    out: dict[str, set[str]] = {}
    e1 = den.example1_matrix()
    posterior = den.posterior_matrix(e1)[0, 0]
    out["deniability"] = {f(rr.epsilon_of(e1)), f(posterior),
                          f(den.deniability_entropies(e1)[0]), f(den.entropy([0.5, 0.5])),
                          f(den.posterior_matrix(rr.warner_matrix(0.75), [0.2, 0.8])[0, 0]),
                          f(den.deniability_entropies(rr.warner_matrix(0.75), [0.2, 0.8])[0])}
    assert den.posterior_matrix(rr.warner_matrix(0.75), [0.2, 0.8])[0, 0] == pytest.approx(0.15 / 0.35)
    from explorer.core.rr.simulation import simulate_estimation
    survey = simulate_estimation(np.tile([0.5, 1 / 3, 1 / 6], (3, 1)), 10_000, prior=[0.6, 0.3, 0.1], rng=0)
    out["epsilon"] = {f(rr.epsilon_of(rr.warner_matrix(0.75)), 4), f(rr.epsilon_of(rr.warner_matrix(0.8)), 4),
                      f(rr.epsilon_of(np.tile([0.5, 1 / 3, 1 / 6], (3, 1)))),
                      f(math.exp(rr.epsilon_of(rr.warner_matrix(0.8)))),
                      f(survey.estimates["ibu"][0]), f(survey.max_abs_errors["ibu"])}
    grr = rr.optimal_matrix(4, 1.0)
    out["estimation"] = {f(grr[0, 1], 4), f"{100 * grr[0, 1]:.2f}%", f(grr[0, 0] - grr[0, 1], 4)}
    worst = tc.worst_case_cluster([0.2] * 5, epsilon=2.0)
    income = adult()["income"].value_counts(normalize=True, sort=False).to_numpy()
    raised = tc.worst_case_cluster(income, epsilon=2.0, value=1)
    milder = tc.worst_case_cluster([0.2] * 5, epsilon=1.0)
    out["t-closeness"] = {f(tc.closeness_for_epsilon(2.0), 4), f(worst.distribution[0], 5),
                          f(worst.distribution[1], 6), f(income[1], 4), f(raised.distribution[1], 4),
                          f(tc.closeness_for_epsilon(1.0), 4), f(milder.distribution[0], 4),
                          f"{100 * raised.distribution[1]:.1f}%", f"{100 * income[0]:.1f}%", f"{100 * income[1]:.1f}%"}
    table = domingo_muralidhar_example()
    X, Y = table[["X1", "X2", "X3"]], table[["Y1", "Y2", "Y3"]]
    Z = pm.reverse_map_frame(X, Y, rng=0)
    rank_y = pm.ranks(Y["Y1"].to_numpy(), ties="first")[0]
    from explorer.core.masking import mask
    x = X.to_numpy(dtype=float)
    y = mask(x, "additive_noise", 1.0, rng=pm.seed_streams(1)["mask"])        # the panel's masking (its preset)
    moved = np.count_nonzero(pm.ranks(y[:, 0], ties="first") != pm.ranks(x[:, 0], ties="first"))  # no ties here
    out["reverse-mapping"] = {f(X.iloc[0, 0], 2), f(Y.iloc[0, 0], 2), f(Z.iloc[0, 0], 2),
                              f(pm.ranks(X["X1"].to_numpy(), ties="first")[0]), f(rank_y),
                              *(f(pm.spearman(X[c], Y[c.replace("X", "Y")])) for c in X.columns),
                              f(y[0, 0], 2), f(pm.ranks(y[:, 0], ties="first")[0]),
                              f(np.sort(x[:, 0])[pm.ranks(y[:, 0], ties="first")[0] - 1], 2), f(moved),
                              f(moved / len(x))}
    assert Z.iloc[0, 0] == np.sort(X["X1"].to_numpy())[rank_y - 1]          # Algorithm 1, by hand
    distances = pm.permutation_distances(X, Y, rng=0)
    linkage = pm.record_linkage(X, Y, rng=0)
    verification = pm.linkage_verification(X, Y, n_random="all", rng=0)
    from explorer.core.datasets import load_builtin
    xs = load_builtin("Synthetic normal (n=1000, m=3)").to_numpy(dtype=float)
    ys = mask(xs, "additive_noise", 0.02, rng=pm.seed_streams(1)["mask"])     # the panel's masking (its preset)
    # r = rank(y) - rank(x), ties never counting: the gap between the rank intervals of x_k and y_k
    sx, sy = np.sort(xs[:, 0]), np.sort(ys[:, 0])
    lo_x, hi_x = np.searchsorted(sx, xs[:, 0], "left") + 1, np.searchsorted(sx, xs[:, 0], "right")
    lo_y, hi_y = np.searchsorted(sy, ys[:, 0], "left") + 1, np.searchsorted(sy, ys[:, 0], "right")
    r = np.where(lo_y > hi_x, lo_y - hi_x, np.where(hi_y < lo_x, hi_y - lo_x, 0))
    out["intruder"] = {f(distances.distance[2]), f(distances.match_indices[distances.match_indptr[2]] + 1),
                       f(linkage.correct.sum()), f(len(table)), f"{100 * verification.typical_chance:.1f}%",
                       f(verification.typical_distance), f"{pm.spearman(xs[:, 0], ys[:, 0]):.3f}",
                       f(np.mean(r != 0)), f(np.abs(r).mean(), 2)}
    ruiz = ruiz_example()
    R = dom.displacement_matrix(ruiz[["X1", "X2", "X3"]], ruiz[["Y1", "Y2", "Y3"]])
    grid = dom.alpha_grid(-20, 211)
    assert dom.dominance(dom.risk_curve(R[:, 2], grid), dom.risk_curve(R[:, 1], grid)).verdict == "A dominates"
    out["dominance"] = {f(dom.disclosure_risk(R[:, 2], 0.5), 4, strip=False),
                        f(dom.disclosure_risk(R[:, 1], 0.5), 4, strip=False), f(-20)}
    data = adult_mdrr_data()
    education = data.cardinalities[list(data.names).index("education")]
    out["rr-clusters"] = {f(md.n_combinations(data.cardinalities)), f(data.n_records),
                          f(md.relative_error_bound(data.cardinalities, data.n_records), 2),
                          f(md.relative_error_bound([education], data.n_records), 3),
                          f(PAPER_RUNS)}                  # the paper's runs per cell (Section 6.5)
    published = find_release("google-symptoms")
    assert (published["epsilon"], published["renews"], published["model"]) == (1.68, "day", "central")
    week = 7 * published["epsilon"]
    assert read_release("google-symptoms", periods=7).composed_epsilon == pytest.approx(week)
    out["reading-a-release"] = {f(math.exp(published["epsilon"])), f(week), f(round(math.exp(week)))}
    return out


def _numbers(text: str) -> list[str]:
    # references to the papers' parts are not quantities
    text = re.sub(r"\b(Eqs?\.|Example|Examples|Section|Sections|Proposition|Algorithm|Table|Bound|Figure)\s*"
                  r"\(?[\dIVX.\-–, ]+\)?", " ", text)
    text = re.sub(r"[A-Za-zπλ]\w*\s*\(\s*[\d.]+\s*\)", " ", text)   # D(1), ln(...) arguments are inputs below
    text = re.sub(r"\b(record|answer|report|attribute|column|value|lesson)s?\s+\d+", " ", text, flags=re.I)
    text = re.sub(r"\b[A-Za-z_][A-Za-z_]*\d+\b|D[₂₃]", " ", text)                        # X1, D₂ are names
    return re.findall(r"[−-]?\d[\d,]*(?:\.\d+)?%?", text)


def test_numbers_in_lesson_text_are_the_cores():
    results = _core_results()
    for lesson in LESSONS:
        allowed = results[lesson.key] | INPUTS[lesson.key]
        for text in _texts(lesson):
            if text == lesson.citation:          # authors, year and section: checked above
                continue
            for token in _numbers(text):
                token = token.rstrip(",")
                assert token in allowed, f"{lesson.key}: {token!r} in {text!r} is not a core result"
        # and each core result is really quoted (a silent change of a number would not go unnoticed)
        quoted = " ".join(_texts(lesson))
        for value in results[lesson.key]:
            assert value in quoted, f"{lesson.key}: {value} not quoted"


def test_check_answers_equal_the_core():
    assert L.lesson("epsilon").check.answer == pytest.approx(math.log(4))
    assert L.lesson("epsilon").check.answer == rr.epsilon_of(rr.warner_matrix(0.8))
    assert L.lesson("t-closeness").check.answer == tc.worst_case_cluster([0.2] * 5, epsilon=1.0).guessing
    assert L.lesson("t-closeness").check.answer == pytest.approx(0.2 * math.exp(0.5))
    release = L.lesson("reading-a-release").check
    assert release.answer == read_release("google-symptoms", periods=7).composed_epsilon == pytest.approx(11.76)
    deniability = L.lesson("deniability").check
    posterior = den.posterior_matrix(rr.warner_matrix(0.75), [0.2, 0.8])[0, 0]
    assert deniability.choices[deniability.answer] == L._fmt(posterior)
    # the 2018 paper's Example 3 as printed (0.5436 truncated, 0.1141)
    worst = tc.worst_case_cluster([0.2] * 5, epsilon=2.0)
    assert worst.distribution[0] == pytest.approx(0.54366, abs=5e-6)
    assert worst.distribution[1] == pytest.approx(0.114086, abs=5e-7)


def test_format_uses_a_true_minus_and_thousands():
    assert L._fmt(-20) == "−20" and L._fmt(1814400) == "1,814,400" and L._fmt(0.5, 4) == "0.5"
    assert L._fmt(1.28004, 4, strip=False) == "1.2800"


# ---------------------------------------------------------------------------------- the docs pages
def test_docs_quote_the_lessons_as_built():
    """docs/lessons.md and docs/teachers-guide.md quote the lessons' own text, so their numbers are the core's."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "docs"
    lessons_page = (root / "lessons.md").read_text(encoding="utf-8")
    guide = (root / "teachers-guide.md").read_text(encoding="utf-8")
    for lesson in LESSONS:
        for text in (lesson.title, lesson.goal, lesson.question, lesson.takeaway, lesson.preset.shows,
                     lesson.citation):
            assert text in lessons_page, text
        check = lesson.check
        assert check.prompt in guide and check.explanation in guide
        if check.kind == "choice":
            assert f"- {check.choices[int(check.answer)]} (**right**)" in guide
            for hint in check.hints:
                assert hint in guide
        else:
            assert f"**Answer.** {L._fmt(check.answer, 2)} " in guide
            assert L.check_answer(check, L._fmt(check.answer, 2)).correct      # the answer printed is accepted
    for text in (lessons_page, guide):
        assert not re.search(r"(?<![\d.,])00[0-4](?![\d.,])", text)
        assert "PAPER_NOTES" not in text and "ARCHITECTURE" not in text and "DELIVERY" not in text


# ---------------------------------------------------------------------------------- the notebooks
def test_one_thin_notebook_per_lesson_with_outputs_cleared():
    import json
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "notebooks" / "lessons"
    paths = sorted(folder.glob("*.ipynb"))
    assert [p.stem.split("_", 1)[1].replace("_", "-") for p in paths] == list(L.LESSON_KEYS)
    for number, (path, lesson) in enumerate(zip(paths, LESSONS), 1):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        assert [c["cell_type"] for c in cells] == ["markdown", "code"], path.name
        markdown, code = "".join(cells[0]["source"]), "".join(cells[1]["source"])
        assert markdown.startswith(f"# Lesson {number} of {len(LESSONS)}: {lesson.title}\n")
        assert not re.search(r"\d", markdown.split("\n", 1)[1].replace(f"Lesson {number + 1}", "")
                             .replace(f"{number + 1:02d}_", "")), "numbers belong in the lesson data"
        assert code.strip().endswith(f'lesson_widget("{lesson.key}", heading=False)')
        assert code.startswith("from explorer.panels.lesson import lesson_widget")
        assert cells[1]["outputs"] == [] and cells[1]["execution_count"] is None


# ---------------------------------------------------------------------------------- the live panels
def _panel(key):
    from explorer.panels.lesson import build_preset_panel

    panel = build_preset_panel(L.lesson(key).preset)
    wait = getattr(panel, "wait", None)
    if callable(wait):
        wait(300)
    return panel


def _labels(widget) -> set[str]:
    """Every control name a student can see in a panel: descriptions, button labels and choices."""
    import ipywidgets as widgets

    found: set[str] = set()
    stack = [widget]
    while stack:
        w = stack.pop()
        if not isinstance(w, widgets.Widget):
            continue
        if getattr(w, "description", ""):
            found.add(str(w.description))
        labels = getattr(w, "_options_labels", None)
        if labels:
            found.update(str(label) for label in labels)
        stack.extend(getattr(w, "children", ()) or ())
    return found


#: The lessons whose panel text names a control in “quotes” (the others name none: nothing to check).
NAMING = [lesson for lesson in LESSONS if re.search(r"“([^”]+)”", lesson.preset.shows)]


def test_some_lessons_name_their_controls_and_no_lesson_says_simulate_or_run():
    assert NAMING
    for lesson in LESSONS:
        assert not re.search(r"\b(simulate|Run)\b", lesson.preset.shows), lesson.key   # the button is "Compute"


@pytest.mark.parametrize("lesson", NAMING, ids=lambda lesson: lesson.key)
def test_every_control_a_lesson_names_exists_in_its_panel(lesson):
    """A name in “quotes” in a lesson's panel text is a button, control or choice of that panel, by that name."""
    named = re.findall(r"“([^”]+)”", lesson.preset.shows)
    labels = _labels(_panel(lesson.key).widget)
    for name in named:
        assert name in labels, f"{lesson.key}: “{name}” is not a control of its panel ({sorted(labels)[:40]})"
    assert not re.search(r"\b(simulate|Run)\b", lesson.preset.shows)      # the button is "Compute"


def test_lesson_1_the_posterior_quoted_and_the_row_rule_it_explains():
    n = L.lesson_numbers()
    panel = _panel("deniability")
    assert den.posterior_matrix(panel.reading.matrix)[0, 0] == pytest.approx(n["e1_posterior"])
    before = np.array(panel.reading.matrix)
    panel.matrix_grid.cells[1][0].value = 0.3                  # one cell: the row sums to 1.2
    assert panel.status.is_error and "sums to" in panel.status.message
    np.testing.assert_allclose(panel.reading.matrix, before)  # the figures keep the last valid matrix
    panel.normalise_rows.click()                               # as the lesson says: the row divided by its sum
    assert not panel.status.is_error
    np.testing.assert_allclose(panel.reading.matrix[1], [0.25, 0.75])


def test_lesson_2_at_epsilon_0_the_estimate_is_far_from_the_truth():
    n = L.lesson_numbers()
    panel = _panel("epsilon")
    assert panel.reading.epsilon == 0
    sim = panel.simulation["result"]
    np.testing.assert_allclose(sim.true, [0.6, 0.3, 0.1], atol=0.02)           # the preset's prior
    assert np.isnan(sim.estimates["inversion"]).all()                          # singular: no inversion
    assert sim.max_abs_errors["ibu"] == pytest.approx(n["secrecy_ibu_error"])  # the number the text quotes
    assert sim.max_abs_errors["ibu"] > 0.2                                     # far from the truth
    assert L._fmt(n["secrecy_ibu_error"]) in L.lesson("epsilon").preset.shows


def test_lesson_3_the_inversion_goes_negative_below_the_quoted_share():
    n = L.lesson_numbers()
    panel = _panel("estimation")
    assert panel.reading.matrix[0, 1] == pytest.approx(n["grr_other"])
    sim = panel.simulation["result"]
    assert sim.estimates["inversion"][3] < 0                                   # the rarest answer
    assert all(np.all(sim.estimates[m] >= 0) for m in ("clip", "simplex", "ibu"))


def test_lesson_4_the_worst_cluster_title_names_the_two_guesses_the_text_explains():
    n = L.lesson_numbers()
    panel = _panel("t-closeness")
    assert panel.worst.distribution[1] == pytest.approx(n["income_raised"])
    title = panel.worst_artists.guess.get_text()
    shows = L.lesson("t-closeness").preset.shows
    for share in (n["income_raised"], n["income_low_share"], n["income_share"]):
        assert f"{100 * share:.1f}%" in title and f"{100 * share:.1f}%" in shows
    assert ">50K, right" in title and "<=50K" in title
    assert max(len(line) for line in title.splitlines()) <= 60                  # short lines: not cut at 1366 px


@pytest.mark.parametrize("ties", ["random", "average"])
def test_lesson_5_quotes_its_panel_and_rank_changes_do_not_depend_on_ties(ties):
    n = L.lesson_numbers()
    panel = _panel("reverse-mapping")
    panel.ties.value = ties
    panel.wait(120)
    a = panel.analysis
    assert (a.X[0, 0], a.Y[0, 0], a.Z[0, 0]) == pytest.approx((n["panel_x"], n["panel_y"], n["panel_z"]))
    assert pm.ranks(a.Y[:, 0], ties="first")[0] == n["panel_rank_y"]
    assert a.extent[0] == pytest.approx(n["panel_T"]) and np.count_nonzero(a.displacement[:, 0]) == n["panel_moved"]
    np.testing.assert_array_equal(a.displacement, np.column_stack(
        [pm.ranks(a.Y[:, j], ties="first") - pm.ranks(a.X[:, j], ties="first") for j in range(3)]))   # no ties here


def test_lesson_6_quotes_its_panel_and_rho_1_gives_no_displacement_under_every_tie_policy():
    n = L.lesson_numbers()
    panel = _panel("intruder")
    a = panel.analysis
    assert a.spearman[0] == pytest.approx(n["intruder_rho"]) and a.extent[0] == pytest.approx(n["intruder_T"])
    assert np.abs(a.displacement[:, 0]).mean() == pytest.approx(n["intruder_mean_r"])
    assert "can trust his links" in panel.verdict.value
    assert len(np.unique(a.X[:, 0])) < len(a.X)                                 # values rounded: ties
    panel.method.value = "identity"                                             # rho = 1
    for ties in ("random", "average"):
        panel.ties.value = ties
        panel.wait(120)
        a = panel.analysis
        assert a.ties == ties and np.all(a.spearman == 1.0)
        assert np.all(a.displacement == 0) and a.extent.tolist() == [0.0, 0.0, 0.0]
        assert "T = 0.00" in panel.describe("displacement") and "from 0 to 0" in panel.describe("displacement")


def test_lesson_7_states_the_displacement_convention_on_its_figure():
    panel = _panel("dominance")
    assert panel.convention.value == "rank"
    assert "r = rank(y) − rank(x)" in panel.risk_ax.get_title()


def test_lesson_8_the_figure_shows_the_runs_when_compute_is_done():
    panel = _panel("rr-clusters")
    assert "No runs yet" in panel.describe("error-curves")
    panel.run_button.click()
    panel.wait(600)
    assert panel.status.message.startswith("Done: 45 of 45 runs")
    assert not panel.curve_artists.hint.get_visible()                           # no "no runs yet: press Compute"
    drawn = [line for line in panel._table_lines if len(line.get_xdata())]
    assert len(drawn) == 3 and all(np.isfinite(line.get_ydata()).all() for line in drawn)
    text = panel.describe("error-curves")
    assert "5 run(s) per cell" in text and "No runs" not in text
    table = panel.table("error-curves")
    assert (table["runs"] == 5).all() and np.isfinite(table["measured"]).all()
