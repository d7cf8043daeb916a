"""Nine short lessons through the four papers and one published release, as data: one idea, one live panel, one check question each.

A lesson (:class:`Lesson`) has a learning goal, a question to think about, a live panel preset to a
configuration that shows the point (:class:`Preset`), a takeaway in two sentences and a
check-your-understanding question (:class:`Check`) whose answers are re-validated in Python by
:func:`check_answer`.  Every number in a lesson's text is formatted from a core function's result
(:func:`lesson_numbers`), never typed by hand.

This module is data only and imports no widgets: the widgets live in :mod:`explorer.panels.lesson`, and
a notebook needs one line::

    from explorer.panels.lesson import lesson_widget
    lesson_widget("deniability")

>>> [lesson.key for lesson in lessons()][:3]
['deniability', 'epsilon', 'estimation']
>>> check_answer(lesson("epsilon").check, "1.39").correct
True
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from explorer.references import cite

__all__ = [
    "Check", "Feedback", "Preset", "Lesson", "LESSON_KEYS", "lessons", "lesson", "lesson_numbers",
    "check_answer",
]


# ====================================================================== the presets' inputs
#: Lesson 2's survey at epsilon 0: a prior far from uniform, so that an estimate that cannot learn from
#: the reports (it stays at its uniform start) is visibly far from the truth.
SECRECY_SURVEY = {"prior": (60, 30, 10), "n_samples": 10_000, "seed": 0}
#: The permutation tab's seed and record limit in lessons 5 and 6 (the tab's defaults, set by the presets).
PERMUTATION_SEED = 1
PERMUTATION_MAX_RECORDS = 5000
#: Lesson 5's and lesson 6's noise, as a fraction of each attribute's standard deviation.
REVERSE_MAPPING_NOISE = 1.0
INTRUDER_NOISE = 0.02
INTRUDER_DATASET = "Synthetic normal (n=1000, m=3)"


# ====================================================================== the data
@dataclass(frozen=True)
class Check:
    """A check-your-understanding question.

    ``kind`` is ``"choice"`` (``choices`` and the index ``answer`` of the right one; ``hints[i]`` says
    why choice ``i`` is wrong) or ``"number"`` (the right value ``answer``, accepted within
    ``tolerance``; ``hints[0]`` helps after a wrong number).  ``explanation`` says why the answer is right.
    """

    prompt: str
    kind: str
    answer: float
    explanation: str
    choices: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    tolerance: float = 0.0
    unit: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("choice", "number"):
            raise ValueError(f"kind must be 'choice' or 'number', got {self.kind!r}")
        if self.kind == "choice" and not (len(self.choices) == len(self.hints) and 0 <= self.answer < len(self.choices)):
            raise ValueError("a choice question needs one hint per choice and an answer among them")


@dataclass(frozen=True)
class Feedback:
    """What :func:`check_answer` says about a submitted answer."""

    correct: bool
    message: str
    valid: bool = True


@dataclass(frozen=True)
class Preset:
    """The live panel of a lesson: which panel, its constructor arguments, then control values in order.

    ``panel`` is one of ``randomized_response``, ``t_closeness``, ``permutation``, ``dominance``,
    ``multidim_rr``, ``releases``; ``dataset`` (a built-in data set's name) is loaded into the panel's state first;
    ``controls`` are ``(attribute, value)`` pairs set on the panel's widgets in order, and ``calls``
    ``(method, args)`` pairs called afterwards (for example ``("run_simulation", ())``).
    ``shows`` says, in words, what the configured panel shows.
    """

    panel: str
    shows: str
    kwargs: tuple[tuple[str, Any], ...] = ()
    controls: tuple[tuple[str, Any], ...] = ()
    calls: tuple[tuple[str, tuple], ...] = ()
    dataset: str | None = None


@dataclass(frozen=True)
class Lesson:
    """One lesson: one idea of the papers."""

    key: str
    title: str
    goal: str
    question: str
    takeaway: str
    check: Check
    paper: str
    section: str
    preset: Preset

    @property
    def citation(self) -> str:
        """The paper by authors and year, with the section: "Domingo-Ferrer and Soria-Comas (2018), Example 1"."""
        return cite(self.paper, self.section)


# ====================================================================== checking an answer
def _parse_number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float, np.integer, np.floating)):
        number = float(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", ".").replace("−", "-")
        if text.endswith("%"):
            try:
                number = float(text[:-1]) / 100
            except ValueError:
                return None
        else:
            try:
                number = float(text)
            except ValueError:
                return None
    else:
        return None
    return number if math.isfinite(number) else None


def check_answer(check: Check, value: Any) -> Feedback:
    """Judge ``value`` (a choice index, or a number or the text of one) against ``check``, in words.

    Never raises: a value that is not a valid answer (a forged index, text that is not a number, NaN,
    ``None``) gives ``Feedback(valid=False)`` with a sentence saying what is expected.

    >>> q = Check("Pick", "choice", 1, "B is right.", choices=("A", "B"), hints=("A is not.", ""))
    >>> check_answer(q, 1).message
    'Right. B is right.'
    >>> check_answer(q, 0).message
    'Not quite. A is not.'
    >>> check_answer(q, 7).valid
    False
    """
    if check.kind == "choice":
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < len(check.choices):
            return Feedback(False, "Choose one of the answers above, then press Check.", valid=False)
        if int(value) == int(check.answer):
            return Feedback(True, f"Right. {check.explanation}")
        return Feedback(False, f"Not quite. {check.hints[int(value)]}")
    number = _parse_number(value)
    if number is None:
        return Feedback(False, "Type a number (for example 0.25), then press Check.", valid=False)
    if abs(number - check.answer) <= check.tolerance:
        return Feedback(True, f"Right. {check.explanation}")
    hint = check.hints[0] if check.hints else ""
    return Feedback(False, f"Not quite: {_fmt(number, 4)} is not it. {hint}".rstrip())


# ====================================================================== numbers, from the core
def _fmt(value: float, digits: int = 3, *, strip: bool = True) -> str:
    """A number as lessons print it: ``digits`` decimals (trailing zeros dropped if ``strip``), thousands separated."""
    if float(value).is_integer() and abs(value) >= 1:
        return f"{int(value):,}".replace("-", "−")
    text = f"{value:,.{digits}f}"
    text = text.rstrip("0").rstrip(".") if strip and "." in text else text
    return text.replace("-", "−")


def _preset_matrices() -> dict[str, tuple[tuple[float, ...], ...]]:
    """The matrices the lessons put in the RR panel: Example 1, and equal rows (perfect secrecy) for r = 3."""
    from explorer.core import deniability as den

    secrecy = np.tile(np.arange(3, 0, -1) / 6, (3, 1))      # every column constant: epsilon 0
    return {"example1": tuple(map(tuple, den.example1_matrix().tolist())), "secrecy": tuple(map(tuple, secrecy.tolist()))}


@functools.lru_cache(maxsize=1)
def lesson_numbers() -> dict[str, float]:
    """Every number quoted by the lessons, computed by the core (cached; Adult is read once)."""
    from explorer.core import deniability as den
    from explorer.core import dominance as dom
    from explorer.core import mdrr as md
    from explorer.core import permutation as pm
    from explorer.core import rr
    from explorer.core import closeness as tc
    from explorer.core.datasets import adult, domingo_muralidhar_example, ruiz_example
    from explorer.core.mdrr.experiments import PAPER_RUNS, adult_mdrr_data

    n: dict[str, float] = {}
    # Lesson 1: Example 1 of Domingo-Ferrer and Soria-Comas (2018)
    e1 = den.example1_matrix()
    n["e1_epsilon"] = rr.epsilon_of(e1)
    n["e1_posterior"] = float(den.posterior_matrix(e1)[0, 0])
    n["e1_deniability"] = float(den.deniability_entropies(e1)[0])
    n["e1_prior_entropy"] = den.entropy([0.5, 0.5])
    warner = rr.warner_matrix(0.75)
    n["w_posterior"] = float(den.posterior_matrix(warner, [0.2, 0.8])[0, 0])
    n["w_deniability"] = float(den.deniability_entropies(warner, [0.2, 0.8])[0])
    # Lesson 2: epsilon of a matrix, perfect secrecy
    n["warner075_epsilon"] = rr.epsilon_of(rr.warner_matrix(0.75))
    n["warner08_epsilon"] = rr.epsilon_of(rr.warner_matrix(0.8))
    n["warner08_ratio"] = 0.8 / 0.2
    n["secrecy_epsilon"] = rr.epsilon_of(_preset_matrices()["secrecy"])
    # the lesson's survey at epsilon 0 (its preset: prior 60/30/10, the panel's sample size and seed)
    from explorer.core.rr.simulation import simulate_estimation
    survey = simulate_estimation(_preset_matrices()["secrecy"], SECRECY_SURVEY["n_samples"],
                                 prior=np.array(SECRECY_SURVEY["prior"]) / sum(SECRECY_SURVEY["prior"]),
                                 rng=SECRECY_SURVEY["seed"])
    n["secrecy_ibu_error"] = float(survey.max_abs_errors["ibu"])
    n["secrecy_ibu_share"] = float(survey.estimates["ibu"][0])
    # Lesson 3: estimation with the optimal design, r = 4, epsilon = 1
    grr = rr.optimal_matrix(4, 1.0)
    n["grr_keep"], n["grr_other"] = float(grr[0, 0]), float(grr[0, 1])
    # Lesson 4: Example 3, and income in Adult
    worst = tc.worst_case_cluster([0.2] * 5, epsilon=2.0)
    n["ex3_t"] = worst.t
    n["ex3_raised"], n["ex3_others"] = float(worst.distribution[0]), float(worst.distribution[1])
    milder = tc.worst_case_cluster([0.2] * 5, epsilon=1.0)
    n["ex3_eps1_t"], n["ex3_eps1_raised"] = milder.t, milder.guessing
    income = adult()["income"].value_counts(normalize=True, sort=False).to_numpy()
    raised = tc.worst_case_cluster(income, epsilon=2.0, value=1)
    n["income_share"], n["income_raised"] = float(income[1]), float(raised.distribution[1])
    n["income_low_share"] = float(income[0])              # "<=50K": the best guess without the cluster
    # Lesson 5: reverse mapping on Domingo-Ferrer and Muralidhar's running example
    table = domingo_muralidhar_example()
    X, Y = table[["X1", "X2", "X3"]], table[["Y1", "Y2", "Y3"]]
    Z = pm.reverse_map_frame(X, Y, rng=0)
    n["rm_x"], n["rm_y"], n["rm_z"] = float(X.iloc[0, 0]), float(Y.iloc[0, 0]), float(Z.iloc[0, 0])
    n["rm_rank_x"] = float(pm.ranks(X["X1"].to_numpy(), ties="first")[0])
    n["rm_rank_y"] = float(pm.ranks(Y["Y1"].to_numpy(), ties="first")[0])
    for j in (1, 2, 3):
        n[f"rm_rho{j}"] = pm.spearman(X[f"X{j}"], Y[f"Y{j}"])
    n["n_records_dm"] = float(len(table))
    # the lesson's panel: the same example masked with noise as large as each attribute's spread (its preset)
    from explorer.core.masking import mask
    x = X.to_numpy(dtype=float)
    y = mask(x, "additive_noise", REVERSE_MAPPING_NOISE, rng=pm.seed_streams(PERMUTATION_SEED)["mask"])
    z = pm.reverse_map_frame(x, y, rng=0)
    n["panel_x"], n["panel_y"], n["panel_z"] = float(x[0, 0]), float(y[0, 0]), float(z[0, 0])
    n["panel_rank_x"] = float(pm.ranks(x[:, 0], ties="first")[0])
    n["panel_rank_y"] = float(pm.ranks(y[:, 0], ties="first")[0])
    shift = pm.rank_shift(x[:, 0], y[:, 0])
    n["panel_moved"], n["panel_T"] = float(np.count_nonzero(shift)), float(np.count_nonzero(shift) / len(shift))
    # Lesson 6: permutation distance of record 3 (Table 3), the intruder's linkage (Section 5.1)
    distances = pm.permutation_distances(X, Y, rng=0)
    n["pd_record3"] = float(distances.distance[2])
    n["pd_closest3"] = float(distances.match_indices[distances.match_indptr[2]]) + 1
    linkage = pm.record_linkage(X, Y, rng=0)
    n["link_correct"] = float(np.sum(linkage.correct))
    verification = pm.linkage_verification(X, Y, n_random="all", rng=0)
    n["link_typical_distance"] = float(verification.typical_distance)
    n["link_chance"] = verification.typical_chance
    # the lesson's panel: 1,000 synthetic records, noise of 2% of each attribute's spread (its preset)
    from explorer.core.datasets import load_builtin
    found = pm.numeric_attributes(load_builtin(INTRUDER_DATASET), max_records=PERMUTATION_MAX_RECORDS,
                                  rng=pm.seed_streams(PERMUTATION_SEED)["data"])
    xs = found.X.to_numpy(dtype=float)
    ys = mask(xs, "additive_noise", INTRUDER_NOISE, rng=pm.seed_streams(PERMUTATION_SEED)["mask"])
    shift = pm.rank_shift(xs[:, 0], ys[:, 0])
    n["intruder_rho"] = pm.spearman(xs[:, 0], ys[:, 0])
    n["intruder_T"] = float(np.count_nonzero(shift) / len(shift))
    n["intruder_mean_r"] = float(np.abs(shift).mean())
    # Lesson 7: Ruiz's running example, D_j(0.5)
    ruiz = ruiz_example()
    R = dom.displacement_matrix(ruiz[["X1", "X2", "X3"]], ruiz[["Y1", "Y2", "Y3"]])
    n["ruiz_d2"], n["ruiz_d3"] = dom.disclosure_risk(R[:, 1], 0.5), dom.disclosure_risk(R[:, 2], 0.5)
    grid = dom.alpha_grid(-20, 211)
    verdict = dom.dominance(dom.risk_curve(R[:, 2], grid), dom.risk_curve(R[:, 1], grid))
    n["ruiz_alpha_min"] = verdict.grid_min
    # Lesson 8: the curse of dimensionality on Adult's eight attributes
    data = adult_mdrr_data()
    n["mdrr_n"] = float(data.n_records)
    n["mdrr_cells"] = float(md.n_combinations(data.cardinalities))
    n["mdrr_paper_runs"] = float(PAPER_RUNS)
    n["mdrr_joint_error"] = md.relative_error_bound(data.cardinalities, data.n_records)
    n["mdrr_education_cells"] = float(data.cardinalities[list(data.names).index("education")])
    n["mdrr_education_error"] = md.relative_error_bound([int(n["mdrr_education_cells"])], data.n_records)
    # Lesson 9: Google's COVID-19 Search Trends symptoms release (a published eps per user-day), read over a week
    from explorer.core.releases import read_release

    week = read_release("google-symptoms", periods=7)
    n["rel_epsilon"] = float(week.release["epsilon"])
    n["rel_days"] = float(week.periods)
    n["rel_odds"] = week.odds_bound
    n["rel_week_epsilon"] = week.composed_epsilon
    n["rel_week_odds"] = float(round(week.composed_odds_bound))
    return n


# ====================================================================== the lessons
@functools.lru_cache(maxsize=1)
def lessons() -> tuple[Lesson, ...]:
    """The lessons, in teaching order (built once; their numbers come from :func:`lesson_numbers`)."""
    n = lesson_numbers()
    n_matrices = _preset_matrices()
    f = _fmt
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    pct2 = lambda x: f"{100 * x:.2f}%"  # noqa: E731

    deniability = Lesson(
        key="deniability",
        title="Deniability and the posterior",
        goal=("Compute what an intruder believes after seeing a randomized answer (the posterior, by Bayes) and "
              "measure the deniability left as the entropy H(X | Y = v)."),
        question=("A respondent's answer was randomized with ε = 2. Seeing her report, how sure can an intruder be "
                  "of her true answer, and how much can she still deny?"),
        takeaway=(f"The posterior Pr(X = u | Y = v) is what the intruder believes after the report; in Example 1 "
                  f"(ε = {f(n['e1_epsilon'])}) he is {f(n['e1_posterior'])} sure after the report 1. Deniability is "
                  f"the entropy of that posterior: {f(n['e1_deniability'])} of the prior's "
                  f"{f(n['e1_prior_entropy'])} bit remain, so ε = 2 leaves little to deny."),
        check=Check(
            prompt=("A yes/no survey: 20% of the respondents would truly answer yes, and each tells the truth with "
                    "probability 0.75 (Warner's design). An intruder sees the report “yes”. How likely is the true "
                    "answer “yes” in his eyes?"),
            kind="choice", answer=2,
            choices=(f(0.2), f(0.75), f(n["w_posterior"]), f(1.0)),
            hints=("That is the prior, his belief before the report: it would stay so only under perfect secrecy.",
                   ("That is Pr(report yes | true yes), a cell of the matrix. Bayes weighs it by the prior: "
                    "0.75 × 0.2 / (0.75 × 0.2 + 0.25 × 0.8)."),
                   "",
                   ("Only if respondents whose true answer is no never reported yes; they do with probability "
                    "0.25, so the respondent can still deny.")),
            explanation=(f"Bayes (Eq. 3): 0.75 × 0.2 / (0.75 × 0.2 + 0.25 × 0.8) = {f(n['w_posterior'])}. The "
                         f"report raises his belief from 0.2 but not even to one half, and H(X | Y = yes) = "
                         f"{f(n['w_deniability'])} bits of deniability remain (Eq. 4).")),
        paper="rr-dp", section="Section II-A, Example 1",
        preset=Preset(
            panel="randomized_response",
            shows=("Example 1 as a custom matrix at ε = 2 (the tab's Example 1 preset): the posterior heatmap "
                   "(row 1 after report 1), the deniability bars H(X | Y = v) against H(X), and the curve of "
                   "deniability against ε. Change a cell of the matrix and watch the posterior follow: a row (the reports "
                   "of one true answer) must still sum to 1, so change the other cell of that row by the opposite "
                   "amount, or press “normalise rows” to divide the row by its sum; until then the row's sum is "
                   "marked in red and the figures keep the last valid matrix."),
            controls=(("n_categories", 2), ("epsilon", 2.0)),
            calls=(("set_custom_matrix", (n_matrices["example1"],)),)),
    )

    epsilon = Lesson(
        key="epsilon",
        title="The epsilon of a matrix, and perfect secrecy",
        goal=("Read ε off a randomized-response matrix (the largest ratio within a column, Eq. 6) and see why "
              f"ε = {f(n['secrecy_epsilon'])}, perfect secrecy, also makes the data useless."),
        question=("If every respondent reported with the same probabilities whatever her true answer, what could "
                  "the intruder learn from a report? And the data collector, from all the reports?"),
        takeaway=("ε of a matrix is the natural logarithm of the largest ratio between two entries of one column: "
                  f"seeing a report multiplies the odds of one answer over another by at most exp(ε) (Warner's design "
                  f"with p = 0.75 has ε = ln 3 = {f(n['warner075_epsilon'], 4)}). At ε = "
                  f"{f(n['secrecy_epsilon'])} all rows are equal, the posterior is the prior (perfect secrecy), "
                  "and the matrix is singular, so the data collector cannot estimate the distribution either."),
        check=Check(
            prompt=("Warner's design tells the truth with probability p = 0.8 and the other answer otherwise. "
                    "What is its ε? (two decimals)"),
            kind="number", answer=n["warner08_epsilon"], tolerance=0.006,
            hints=("ε is the natural logarithm of the largest ratio within a column (Eq. 6): each column holds "
                   "0.8 and 0.2.",),
            explanation=(f"Each column holds 0.8 and 0.2: ε = ln(0.8 / 0.2) = ln {f(n['warner08_ratio'])} = "
                         f"{f(n['warner08_epsilon'], 4)}. A report can multiply the odds by at most "
                         f"{f(n['warner08_ratio'])}.")),
        paper="rr-dp", section="Eq. (6) and Section II-A",
        preset=Preset(
            panel="randomized_response",
            shows=(f"The perfect-secrecy preset with three answers whose true shares are 60, 30 and 10%: every "
                   f"row is the same, ε = {f(n['secrecy_epsilon'])}, the posterior heatmap repeats the prior and "
                   "every deniability bar reaches H(X). The survey is already computed (press “Compute” to draw it "
                   "again): inversion is impossible (singular matrix), and the iterative Bayesian update, the only "
                   f"estimator left, stays at its uniform start ({f(n['secrecy_ibu_share'])} for each answer), off "
                   f"by up to {f(n['secrecy_ibu_error'])} from the truth. Then set Design to “optimal for ε” and "
                   "move ε away from 0 to see deniability fall."),
            kwargs=(("n_categories", 3),),
            controls=(("prior_source", "typed"),
                      ("prior_weights", ", ".join(str(w) for w in SECRECY_SURVEY["prior"])),
                      ("n_samples", SECRECY_SURVEY["n_samples"]), ("seed", SECRECY_SURVEY["seed"]),
                      ("epsilon", 0.0)),
            calls=(("set_custom_matrix", (n_matrices["secrecy"],)), ("run_simulation", ()))),
    )

    estimation = Lesson(
        key="estimation",
        title="Estimating frequencies, and why estimates go negative",
        goal=("Estimate the true distribution from randomized reports (Eq. 2), and explain why the unbiased "
              "estimate can fall below zero for a rare answer."),
        question=("The true share of a rare answer is 2%. Can a survey that randomizes its answers estimate that "
                  "share as below zero?"),
        takeaway=(f"With ε = 1 and four answers, the optimal design reports each wrong answer with probability "
                  f"{f(n['grr_other'], 4)}, so whenever fewer than {pct2(n['grr_other'])} of the reports say v, "
                  "inverting the matrix gives v a negative share. The inversion is unbiased but not a distribution; "
                  "clipping, projection or the iterative Bayesian update return a proper one at the price of a "
                  "small bias."),
        check=Check(
            prompt="Which of the four estimators in the panel can return a negative share?",
            kind="choice", answer=0,
            choices=("plain inversion, π̂ = (Pᵀ)⁻¹ λ̂ (Eq. 2)", "clip and rescale", "projection onto the simplex",
                     "iterative Bayesian update (IBU)"),
            hints=("", "Clip and rescale sets negative shares to 0 and rescales the rest: never negative.",
                   "The projection returns the closest proper distribution: never negative.",
                   "Each IBU step averages posteriors weighted by the reports: never negative."),
            explanation=(f"Inversion solves λ̂ = Pᵀ π exactly. Here λ(v) = {f(n['grr_other'], 4)} + "
                         f"{f(n['grr_keep'] - n['grr_other'], 4)} π(v), so a share of reports below "
                         f"{f(n['grr_other'], 4)} (sampling noise, for a rare answer) gives π̂(v) < 0.")),
        paper="multidim-rr", section="Section 2.1",
        preset=Preset(
            panel="randomized_response",
            shows=("Four answers with true shares 60, 30, 8 and 2%, the optimal design at ε = 1, and one simulated "
                   "survey of 300 respondents: the inversion's bar for the rarest answer is below zero, while "
                   "the other three estimators never go below zero."),
            kwargs=(("n_categories", 4),),
            controls=(("prior_source", "typed"), ("prior_weights", "60, 30, 8, 2"), ("design", "optimal"),
                      ("epsilon", 1.0), ("n_samples", 300), ("seed", 3)),
            calls=(("run_simulation", ()),)),
    )

    t_closeness = Lesson(
        key="t-closeness",
        title="t-closeness and differential privacy",
        goal=("Connect the two models: clusters exp(ε/2)-close to the whole data set under the ratio distance "
              "give ε-differential privacy (Proposition 1), and read with Example 3 what that ε still allows."),
        question=("ε = 2 sounds strict. If an intruder learns which cluster his target is in, how far can his best "
                  "guess of her sensitive value move?"),
        takeaway=(f"Under the ratio distance of Eq. (7), clusters that are all t-close with t = exp(ε/2) "
                  f"(t = {f(n['ex3_t'], 4)} at ε = 2) give ε-differential privacy. But in Example 3 a cluster may "
                  f"raise one of five equally frequent values from 0.2 to {f(n['ex3_raised'], 5)}, so the intruder's "
                  "best guess is right more than half the time: an ε must be read, not just quoted."),
        check=Check(
            prompt=("As in Example 3, five sensitive values each have share 0.2 in the data set, but now ε = 1. In "
                    "the most concentrated cluster that is still exp(ε/2)-close, how likely is the intruder's best "
                    "guess to be right? (two decimals)"),
            kind="number", answer=n["ex3_eps1_raised"], tolerance=0.006,
            hints=("t = exp(ε/2): the share 0.2 of one value can grow by the factor t, as long as the others keep "
                   "at least their share divided by t.",),
            explanation=(f"t = exp(0.5) = {f(n['ex3_eps1_t'], 4)}: one value grows to 0.2 × {f(n['ex3_eps1_t'], 4)} = "
                         f"{f(n['ex3_eps1_raised'], 4)}. At ε = 2 (Example 3) the same cluster puts "
                         f"{f(n['ex3_raised'], 5)} on one value and {f(n['ex3_others'], 6)} on each of the others: "
                         "halving ε reins the best guess in, but does not remove what the cluster tells.")),
        paper="rr-dp", section="Section IV, Example 3",
        preset=Preset(
            panel="t_closeness",
            shows=(f"UCI Adult in clusters of at least 50 records (MDAV on age, education-num, hours-per-week and "
                   f"sex), the sensitive attribute income and ε = 2: some clusters are within t = e of the data "
                   f"set, the red ones are not. The Example 3 view shows the worst cluster ε = 2 admits: the share "
                   f"of “>50K” rises from {f(n['income_share'], 4)} to {f(n['income_raised'], 4)}, so knowing the "
                   f"cluster makes a high income the intruder's best guess. Its title reads "
                   f"{pct(n['income_raised'])} against {pct(n['income_low_share'])} without the cluster: those "
                   f"are two different guesses, “>50K” in the cluster and “<=50K” in the whole data set, where "
                   f"“>50K” was right only {pct(n['income_share'])} of the time."),
            dataset="UCI Adult",
            controls=(("sensitive", "income"), ("distance", "ratio"), ("epsilon", 2.0), ("worst_value", 1))),
    )

    reverse_mapping = Lesson(
        key="reverse-mapping",
        title="Reverse mapping: every masking is a permutation",
        goal=("Reverse-map masked data onto the original values (Algorithm 1), and see any masking of a numeric "
              "attribute as a permutation of its values plus a small residual noise."),
        question=("Noise was added to every value. After the masking, are the published values new values, or the "
                  "old ones in a new order?"),
        takeaway=(f"Reverse mapping gives each masked value y the original value of the same rank: in the "
                  f"panel record 1's x = {f(n['panel_x'], 2)} has rank {f(n['panel_rank_x'])}, its masked "
                  f"y = {f(n['panel_y'], 2)} has rank {f(n['panel_rank_y'])}, so z = the X value of rank "
                  f"{f(n['panel_rank_y'])} = {f(n['panel_z'], 2)}. Whatever the method, Y is a permutation Z of X plus a "
                  "residual noise Y − Z that changes no rank, so protection against linkage comes from the "
                  "permutation alone."),
        check=Check(
            prompt="After reverse mapping, which statement about Z holds for any masking method?",
            kind="choice", answer=0,
            choices=("Z holds exactly the original values of X, in the order of Y's ranks.",
                     "Z equals X whenever the noise is small.",
                     "Z is Y with the noise averaged out.",
                     "Computing Z needs the masking method and its parameters."),
            hints=("",
                   "Z equals X only if the masking changed no rank; small noise can still swap close values.",
                   "Z is not an average: each z is an original value, taken at the rank of y.",
                   "Algorithm 1 needs only X and Y: the ranks of Y and the sorted values of X."),
            explanation=(f"Each z is the value of X whose rank is the rank of its y. In the running example, with "
                         f"the paper's printed masking (its Table 1), record 1's x = {f(n['rm_x'], 2)} has rank "
                         f"{f(n['rm_rank_x'])}, its y = {f(n['rm_y'], 2)} rank {f(n['rm_rank_y'])}, so z = "
                         f"{f(n['rm_z'], 2)}; the rank "
                         f"correlations between X and Y (the permutation) are {f(n['rm_rho1'])}, "
                         f"{f(n['rm_rho2'])} and {f(n['rm_rho3'])}.")),
        paper="new-directions", section="Section 2, Algorithm 1",
        preset=Preset(
            panel="permutation",
            shows=("The 20-record running example masked with much stronger additive noise than the paper's "
                   "(standard deviation equal to each attribute's): in the values plot Y is far from X, yet Z sits "
                   "on X's own values; the rank-displacement plot shows r = rank(y) − rank(x), how many ranks each "
                   f"record moved: {f(n['panel_moved'])} of {f(n['n_records_dm'])} records of X1 moved "
                   f"(T = {f(n['panel_T'])})."),
            dataset="Domingo-Ferrer and Muralidhar (2016) example",
            controls=(("max_records", PERMUTATION_MAX_RECORDS), ("method", "additive_noise"),
                      ("parameter", REVERSE_MAPPING_NOISE), ("seed", PERMUTATION_SEED))),
    )

    intruder = Lesson(
        key="intruder",
        title="Permutation distance and the maximum-knowledge intruder",
        goal=("Compute a record's permutation distance (Algorithm 2), which a subject can check with only her "
              "record and the published data, and judge an intruder's links against random records."),
        question=("An intruder who knows both the original and the masked data links every record. When should he "
                  "trust his links, and when could they be chance?"),
        takeaway=(f"A subject's permutation distance is the largest rank deviation to the closest masked record: "
                  f"record 3 of the running example (the paper's printed masking) is at distance {f(n['pd_record3'])}, from record "
                  f"{f(n['pd_closest3'])}. The maximum-knowledge intruder links "
                  f"{f(n['link_correct'])} of {f(n['n_records_dm'])} records correctly there, but "
                  f"{pct(n['link_chance'])} of random records match as closely as a typical original (distance "
                  f"{f(n['link_typical_distance'])} or less), so his links are deniable; when the masking permutes too little, original "
                  "records match far closer than chance and linkage is no longer deniable."),
        check=Check(
            prompt=("The intruder's match distances for the original records are much smaller than those of "
                    "random records. What does that tell?"),
            kind="choice", answer=1,
            choices=("The data are well protected: most records are matched at short distances.",
                     "His links beat chance: the masking permuted too little for linkage to be deniable.",
                     "Nothing: random records are always matched farther away.",
                     "The residual noise is too large."),
            hints=("Short distances make links easy, not hard: close matches are what the intruder wants.",
                   "",
                   ("Not always: in the 20-record example random records match as closely as the originals, and "
                    "then a link could be chance."),
                   "The residual noise changes no rank, so it does not affect rank distances at all."),
            explanation=("Random records show which distances happen by chance. When the original records match "
                         "far closer, a match is evidence of a true link; masking that permutes more brings the two "
                         "distributions back together.")),
        paper="new-directions", section="Sections 4-5",
        preset=Preset(
            panel="permutation",
            shows=("1,000 synthetic records masked with very little additive noise (2% of each attribute's "
                   "standard deviation): the distance histogram of original records sits far left of the random "
                   "records', and the verdict says the intruder can trust his links. Spearman's rho of X1 is "
                   f"{n['intruder_rho']:.3f} to three decimals, yet T = {f(n['intruder_T'])}: such noise still moves "
                   f"most records, by {f(n['intruder_mean_r'], 2)} ranks on average (r = rank(y) − rank(x)), too "
                   "few to hide them. Raise the parameter to 1 and watch the linkage become deniable."),
            dataset=INTRUDER_DATASET,
            controls=(("max_records", PERMUTATION_MAX_RECORDS), ("method", "additive_noise"),
                      ("parameter", INTRUDER_NOISE), ("seed", PERMUTATION_SEED))),
    )

    dominance = Lesson(
        key="dominance",
        title="Risk and loss aversion: dominance",
        goal=("Compare masking methods by the power means D(α) of their rank displacements for every risk "
              "aversion α ≤ 1, and recognise dominance and a crossing."),
        question=("Two masking methods: one moves most records a little, the other moves a few records a lot. "
                  "Which protects better, and does the answer depend on who asks?"),
        takeaway=(f"D(α) aggregates how far records moved, the least-moved records counting more as α falls; in "
                  f"Ruiz's example D₃(0.5) = {f(n['ruiz_d3'], 4, strip=False)} exceeds "
                  f"D₂(0.5) = {f(n['ruiz_d2'], 4, strip=False)}, and attribute 3 is better protected for every α from 1 "
                  f"down to {f(n['ruiz_alpha_min'])}: it dominates attribute 2. When the curves of two methods "
                  "cross, neither is better for everybody: the choice depends on the controller's aversion to risk "
                  "(α) or to information loss (θ)."),
        check=Check(
            prompt=("On one attribute the D(α) curves of two methods cross at a negative α. Which statement is "
                    "right?"),
            kind="choice", answer=2,
            choices=("The method with the larger D(1), the mean displacement, is better for everybody.",
                     "The method with the smaller D(α) protects better.",
                     "Neither dominates: which is better depends on the controller's risk aversion α.",
                     "The two methods protect equally."),
            hints=("D(1) is one point of the curve: a risk-averse controller (α very negative) looks at the "
                   "least-moved records, where the order can flip.",
                   "A larger D means records moved further: more protection, not less.",
                   "",
                   "They are equal only at the crossing; on each side one of them protects better."),
            explanation=("Dominance means better for every α ≤ 1. A crossing splits the α axis: left of it one "
                         "method protects better, right of it the other.")),
        paper="permutation-paradigm", section="Sections 3-5",
        preset=Preset(
            panel="dominance", dataset="UCI Adult",
            shows=("UCI Adult (a seeded sample of 5,000 records): additive noise (half of each attribute's standard "
                   "deviation) against rank swapping (values swapped at most 10% of the records apart in rank), "
                   "attribute fnlwgt: the D(α) curves "
                   "cross, and the verdict gives the crossing and who protects better on each side. Choose other "
                   "attributes to see one method dominate."),
            controls=(("risk_view", "1"),)),
    )

    rr_clusters = Lesson(
        key="rr-clusters",
        title="The curse of dimensionality and RR-Clusters",
        goal=("Explain why randomizing all attributes jointly fails on real data, and how RR-Clusters randomizes "
              "jointly only clusters of dependent attributes."),
        question=("Randomizing each attribute separately loses their relations; randomizing all of them at once "
                  "keeps them. Why not always randomize jointly?"),
        takeaway=(f"Adult's eight attributes have {f(n['mdrr_cells'])} combinations for {f(n['mdrr_n'])} records, "
                  f"so even in the best case the relative error of RR-Joint's estimates is "
                  f"{f(n['mdrr_joint_error'], 2)} (against {f(n['mdrr_education_error'], 3)} for education alone). "
                  "RR-Clusters randomizes jointly only small clusters of dependent attributes, keeping the relations "
                  "that matter at an error the data can bear."),
        check=Check(
            prompt="Why does RR-Joint fail on Adult's eight attributes?",
            kind="choice", answer=1,
            choices=("It is not differentially private.",
                     (f"There are {f(n['mdrr_cells'])} combinations for {f(n['mdrr_n'])} records: the estimate "
                      "needs many more records than combinations."),
                     "Its matrix is too large to compute with.",
                     "It loses the relations between attributes."),
            hints=("It is: its ε is that of its matrix, as for any randomized response.",
                   "",
                   "The explorer randomizes and estimates RR-Joint in closed form in a fraction of a second: the "
                   "problem is statistical, not computational.",
                   "That is RR-Independent's weakness; RR-Joint keeps every relation."),
            explanation=(f"The error of an estimated frequency grows like √(B(r − 1)/n): with r = "
                         f"{f(n['mdrr_cells'])} and n = {f(n['mdrr_n'])} the best case is "
                         f"{f(n['mdrr_joint_error'], 2)}, i.e. the estimate is noise.")),
        paper="multidim-rr", section="Sections 3.3 and 4",
        preset=Preset(
            panel="multidim_rr",
            shows=("Adult's eight attributes with keep probability p = 0.7: the dependence heatmap, the clusters "
                   "Algorithm 1 forms (at most 100 combinations, dependence at least 0.2) with each cluster's "
                   "best-case error beside RR-Joint's. Press “Compute” (5 runs, a few seconds) to fill in Table 1's "
                   "grid for this p: the figure then draws it, RR-Clusters' median error for each cluster limit. Each "
                   "Compute draws 5 new random runs (their seed is in the Code view), so the grid moves a little "
                   "from one press to the next; the paper's Table 1 takes the median of "
                   f"{f(n['mdrr_paper_runs'])} runs."),
            controls=(("p", 0.7), ("experiment", "table"), ("runs", 5)), dataset="UCI Adult"),
    )

    release = Lesson(
        key="reading-a-release",
        title="Reading a real release",
        goal=("Read a published deployment's ε together with its privacy unit, its period and its model: what its "
              "odds bound allows, what the budget becomes over a period, and which models apply to it."),
        question=(f"Google protected each user's daily symptom searches with ε = {f(n['rel_epsilon'])}. What does "
                  "that promise about one user's searches over a whole week?"),
        takeaway=(f"An ε is read with its unit and its period: Google's COVID-19 Search Trends symptoms release "
                  f"multiplies the odds about one user-day by at most e^ε = {f(n['rel_odds'])}, but "
                  f"{f(n['rel_days'])} days compose to at most ε = {f(n['rel_week_epsilon'])}, an odds bound of "
                  f"{f(n['rel_week_odds'])}. Only a local release, randomized on each device like Google Chrome's "
                  "RAPPOR, can also be read as randomized response through deniability and accuracy (RAPPOR's "
                  "permanent response is memoized, so repeated reports of one value keep the posterior of one "
                  "randomized answer), and an (ε, δ) or zCDP release is read through its pure-ε part."),
        check=Check(
            prompt=(f"The symptoms release protects each user's searches of one day with ε = {f(n['rel_epsilon'])}. "
                    f"By sequential composition, what ε bounds the protection of one user's searches over "
                    f"{f(n['rel_days'])} days? (two decimals)"),
            kind="number", answer=n["rel_week_epsilon"], tolerance=0.006,
            hints=("Sequential composition adds up the ε of every day on which the same person's data are used.",),
            explanation=(f"{f(n['rel_days'])} × {f(n['rel_epsilon'])} = {f(n['rel_week_epsilon'])}: the odds bound "
                         f"grows from {f(n['rel_odds'])} for one day to {f(n['rel_week_odds'])} for the week. It "
                         "is a bound, not the loss itself, and it is all the release promises.")),
        paper="rr-dp", section="Eq. (6)",
        preset=Preset(
            panel="releases",
            shows=(f"Google's COVID-19 Search Trends symptoms dataset read over {f(n['rel_days'])} days: the "
                   "release in words (its odds bound, the week's composition, why randomized response's readings "
                   "do not apply to a central release, its source) and the highest belief an intruder can reach "
                   "against his belief before. Pick Google Chrome's RAPPOR to see a local release read as "
                   "randomized response too (its permanent response is memoized: repeated reports of one value "
                   "keep the posterior of one randomized answer), Wikimedia's pageviews for a zCDP conversion, or the US Census "
                   "Bureau's redistricting data to see a quoted ε matched to one of two conversions."),
            controls=(("release", "google-symptoms"), ("periods", 7))),
    )
    return (deniability, epsilon, estimation, t_closeness, reverse_mapping, intruder, dominance, rr_clusters, release)


LESSON_KEYS: tuple[str, ...] = ("deniability", "epsilon", "estimation", "t-closeness", "reverse-mapping", "intruder",
                                "dominance", "rr-clusters", "reading-a-release")


def lesson(key: str) -> Lesson:
    """The lesson of ``key`` (one of :data:`LESSON_KEYS`)."""
    for item in lessons():
        if item.key == key:
            return item
    raise ValueError(f"lesson must be one of {list(LESSON_KEYS)}, got {key!r}")


# ====================================================================== the widgets moved
def __getattr__(name: str):
    """``lesson_widget`` and ``lessons_widget`` live in :mod:`explorer.panels.lesson` (this module is data only
    and imports no panel); the old names say where they went."""
    if name in ("lesson_widget", "lessons_widget"):
        raise AttributeError(f"explorer.lessons.{name} moved to explorer.panels.lesson.{name}: "
                             f"use 'from explorer.panels.lesson import {name}'")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
