"""The published releases: the shipped table, the conversions, and each release read in words."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from explorer.core.epsilon_meaning import read_epsilon
from explorer.core.releases import (DATA_FILE, RELEASE_COLUMNS, compose, find_release, max_posterior,
                                    rappor_epsilon, read_release, release_label, releases, zcdp_delta,
                                    zcdp_to_epsilon, zcdp_to_epsilon_tight)
from explorer.errors import ExplorerTypeError, InvalidParameterError

TABLE = releases()

#: The table's only local release: Chrome's RAPPOR, its parameters read in Chromium's source code.
RAPPOR = "google-chrome-rappor"


def test_the_table_is_utf8_csv_with_a_header_and_at_least_twelve_rows():
    text = DATA_FILE.read_text(encoding="utf-8")
    assert text.splitlines()[0].split(",") == list(RELEASE_COLUMNS)
    assert len(TABLE) >= 12
    assert list(TABLE.columns) == list(RELEASE_COLUMNS)
    for column in ("organisation", "name", "epsilon", "delta", "unit", "period", "model", "source"):
        assert column in TABLE.columns
    assert TABLE["key"].is_unique and TABLE.apply(release_label, axis=1).is_unique


@pytest.mark.parametrize("key", TABLE["key"].tolist())
def test_every_row_has_unit_period_model_source_address_and_date(key):
    row = TABLE.set_index("key").loc[key]
    for column in ("organisation", "name", "unit", "period", "model", "source", "address", "verified_in", "checked"):
        assert isinstance(row[column], str) and row[column].strip(), (key, column)
    assert row["model"] in ("local", "central")
    assert row["address"].startswith("http") and row["verified_in"].startswith("http")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", row["checked"])
    assert math.isfinite(row["epsilon"]) and row["epsilon"] > 0
    assert 0 <= row["delta"] < 1e-4
    assert row["definition"] in ("pure", "approximate", "zcdp")
    assert (row["definition"] == "pure") == (row["delta"] == 0)
    assert (row["definition"] == "zcdp") == (not math.isnan(row["rho"]))
    assert row["renews"] in ("day", "month", "")
    assert (row["renews"] == "day") == (row["period"] == "per day")
    # user-facing text never cites the papers by their file codes
    assert not re.search(r"(?<![\d.,])00[0-4](?![\d.,])", " ".join(row[c] for c in ("source", "notes")))


def test_loader_returns_a_copy():
    table = releases()
    table.loc[0, "epsilon"] = 99.0
    assert releases().loc[0, "epsilon"] != 99.0


# ------------------------------------------------------------------ pinned rows (as read at their sources)
@pytest.mark.parametrize("key, epsilon, delta, unit, model", [
    ("google-symptoms", 1.68, 0.0, "user-day", "central"),
    ("google-vaccination", 2.19, 1e-5, "user-day", "central"),
    ("linkedin-audience", 34.9, 7e-9, "member", "central"),
    ("israel-births", 9.98, 0.0, "birth (mother and newborn)", "central"),
    ("wikimedia-pageviews-historical", 1.0, 0.0, "user-day (up to 30 pageviews of a user in a day)", "central"),
    ("wikimedia-pageviews-pre-2017", 1.0, 0.0, "user-day (up to 300 pageviews of a user in a day)", "central"),
    ("census-2018-e2e", 0.2499, 0.0, "person", "central"),
    ("census-2010-ddp-persons", 4.0, 0.0, "person", "central"),
    ("census-2010-ddp-households", 2.0, 0.0, "household", "central"),
])
def test_pinned_rows(key, epsilon, delta, unit, model):
    row = find_release(key)
    assert (row["epsilon"], row["delta"], row["unit"], row["model"]) == (epsilon, delta, unit, model)


def test_wikimedia_zcdp_conversion_reproduces_the_quoted_epsilon():
    row = find_release("wikimedia-pageviews")
    assert (row["rho"], row["delta"], row["definition"]) == (0.015, 1e-7, "zcdp")
    converted = zcdp_to_epsilon(row["rho"], row["delta"])
    assert converted == pytest.approx(0.015 + 2 * math.sqrt(0.015 * math.log(1e7)))
    assert converted == pytest.approx(row["epsilon"], abs=0.01)       # the README: "roughly epsilon = 1"


def test_census_2020_redistricting_row_as_read_at_its_sources():
    row = find_release("census-2020-redistricting")
    assert (row["organisation"], row["unit"], row["model"], row["definition"]) == (
        "US Census Bureau", "person", "central", "zcdp")
    assert row["epsilon"] == 17.14 and row["delta"] == 1e-10 and row["renews"] == ""
    # The production code's global_scale = 339/542 gives rho = 1 / global_scale^2, printed 2.56.
    assert row["rho"] == pytest.approx((542 / 339) ** 2, rel=1e-15) and round(row["rho"], 2) == 2.56
    assert row["address"] == "https://github.com/uscensusbureau/DAS_2020_Redistricting_Production_Code"


def test_chrome_rappor_row_as_read_in_chromium_s_source_code():
    row = find_release(RAPPOR)
    assert (row["organisation"], row["model"], row["definition"], row["delta"], row["renews"]) == (
        "Google", "local", "pure", 0.0, "")
    # rappor_parameters.h: NORMAL_NOISE = {fake 50%, fake one 50%, one coin 75%, zero coin 25%}, and
    # UMA_RAPPOR_TYPE = {128 cohorts, 4 Bloom filter bytes, 2 hash functions, NORMAL_NOISE}: f, p, q, h below.
    for quoted in ("This corresponds to the F privacy parameter", "This corresponds to the Q privacy parameter",
                   "This corresponds to the P privacy parameter", "PROBABILITY_75 one coin", "PROBABILITY_25 zero coin",
                   "2 hash functions, NORMAL_NOISE", "https://clients4.google.com/rappor"):
        assert quoted in row["notes"], quoted
    eps = rappor_epsilon(0.5, 0.25, 0.75, 2)
    assert row["epsilon"] == round(eps.permanent, 4) == round(4 * math.log(3), 4) == 4.3944
    assert round(eps.one_report, 4) == 2.0433 and "2.0433" in row["notes"]
    assert row["address"] == row["verified_in"] and row["verified_in"].startswith(
        "https://github.com/bloomberg/chromium.bb/blob/") and row["verified_in"].endswith(
        "components/rappor/public/rappor_parameters.h")
    assert "Erlingsson, Pihur and Korolova (2014)" in row["source"]
    assert row["unit"] == "a Chrome client's value of one metric" and "memoized" in row["period"]


def _rappor_brute_force(f, p, q, h, m):
    """Both epsilons of RAPPOR by enumeration, with no per-bit formula: the transition matrices of the permanent
    and the instantaneous randomized responses over all 2^m Bloom filters of m bits (Kronecker products of the
    per-bit 2 x 2 matrices), a report's distribution as their product, and the largest log-likelihood ratio over
    every pair of filters a value can set (1 to h bits) and every outcome."""
    permanent = np.array([[1 - f / 2, f / 2], [f / 2, 1 - f / 2]])        # row: true bit, column: B'
    instantaneous = np.array([[1 - p, p], [1 - q, q]])                     # row: B', column: reported bit
    perm, inst = np.ones((1, 1)), np.ones((1, 1))
    for _ in range(m):
        perm, inst = np.kron(perm, permanent), np.kron(inst, instantaneous)
    report = perm @ inst
    ones = np.array([bin(i).count("1") for i in range(2 ** m)])
    values = np.flatnonzero((ones >= 1) & (ones <= h))

    def largest(matrix):
        logs = np.log(matrix[values])
        return float((logs[:, None, :] - logs[None, :, :]).max())

    return largest(perm), largest(report)


@pytest.mark.parametrize("f, p, q, h, m", [
    (0.5, 0.25, 0.75, 2, 4),      # Chrome's NORMAL_NOISE with the UMA type's 2 hash functions
    (0.5, 0.25, 0.75, 2, 5),      # a bit outside both filters changes nothing
    (0.25, 0.25, 0.75, 2, 4),     # SPARSE_NOISE's fake-data probability
    (0.5, 0.25, 0.75, 3, 6),
    (0.8, 0.1, 0.6, 2, 4),        # asymmetric coins
    (0.25, 0.5, 0.75, 1, 3),
    (0.3, 0.9, 0.2, 1, 2),        # q < p
    (1.0, 0.2, 0.7, 2, 4),        # every bit fake: nothing is told
])
def test_rappor_epsilon_matches_a_brute_force_computation(f, p, q, h, m):
    eps = rappor_epsilon(f, p, q, h)
    permanent, one_report = _rappor_brute_force(f, p, q, h, m)
    assert eps.permanent == pytest.approx(permanent, abs=1e-12)
    assert eps.one_report == pytest.approx(one_report, abs=1e-12)
    assert eps.one_report <= eps.permanent + 1e-12      # one report tells less than the memoized response


def test_rappor_epsilon_for_chrome_and_the_paper_s_forms():
    eps = rappor_epsilon(0.5, 0.25, 0.75, 2)
    assert eps.permanent == pytest.approx(4 * math.log(3)) and eps.one_report == pytest.approx(4 * math.log(5 / 3))
    assert (round(eps.permanent, 4), round(eps.one_report, 4)) == (4.3944, 2.0433)
    # symmetric coins: h ln(q*(1 - p*)/(p*(1 - q*))) = 2h ln(q*/p*), q* = 0.625 and p* = 0.375 here
    assert eps.one_report == pytest.approx(2 * 2 * math.log(0.625 / 0.375))
    # asymmetric coins: below 2h times the larger per-bit ratio, which would overstate it
    f, p, q, h = 0.8, 0.1, 0.6, 2
    q_star, p_star = f / 2 * (p + q) + (1 - f) * q, f / 2 * (p + q) + (1 - f) * p
    assert rappor_epsilon(f, p, q, h).one_report < 2 * h * math.log(max(q_star / p_star, (1 - p_star) / (1 - q_star)))


@pytest.mark.parametrize("f, p, q, h, name", [
    (0.0, 0.25, 0.75, 2, "f"), (1.5, 0.25, 0.75, 2, "f"), (math.nan, 0.25, 0.75, 2, "f"),
    (0.5, -0.1, 0.75, 2, "p"), (0.5, 0.25, 1.2, 2, "q"), (0.5, 0.4, 0.4, 2, "q must differ from p"),
    (0.5, 0.25, 0.75, 0, "h"), (0.5, 0.25, 0.75, -3, "h"),
])
def test_rappor_epsilon_refuses_bad_input_naming_the_parameter(f, p, q, h, name):
    with pytest.raises(InvalidParameterError, match=name):
        rappor_epsilon(f, p, q, h)


def test_rappor_epsilon_refuses_a_fractional_number_of_hash_functions():
    with pytest.raises(ExplorerTypeError, match="h must be an integer"):
        rappor_epsilon(0.5, 0.25, 0.75, 1.5)


def test_census_code_releases_as_read_in_their_configurations():
    e2e, persons, households = (find_release(k) for k in ("census-2018-e2e", "census-2010-ddp-persons",
                                                          "census-2010-ddp-households"))
    assert "epsilon_budget_total: 0.2499" in e2e["notes"] and "E2E_2018_CONFIG.ini" in e2e["verified_in"]
    assert "epsilon_budget_total = 4.0" in persons["notes"] and "bounded_dp_multiplier = 2.0" in persons["notes"]
    assert "epsilon_budget_total: 2" in households["notes"] and "DHCH_DemonstrationProduct.ini" in households["verified_in"]
    for row in (e2e, persons, households):
        assert row["definition"] == "pure" and row["renews"] == "" and "geometric mechanism" in row["notes"]
        assert row["verified_in"].startswith(row["address"] + "/blob/")


def test_wikimedia_historical_rows_as_read_in_their_readmes():
    for key, scale in (("wikimedia-pageviews-historical", 30), ("wikimedia-pageviews-pre-2017", 300)):
        row = find_release(key)
        assert row["address"] == row["verified_in"] and row["address"].endswith("/00_README.html")
        assert "\"Privacy budget: epsilon = 1\"" in row["notes"] and f"\"Noise scale: {scale}\"" in row["notes"]
        assert f"a user contribution of {scale} pageviews will be obfuscated" in row["notes"]
        assert (row["renews"], row["period"]) == ("day", "per day")


def test_the_tighter_conversion_gives_the_bureau_s_printed_epsilon_and_the_simple_bound_does_not():
    row = find_release("census-2020-redistricting")
    tight, simple = zcdp_to_epsilon_tight(row["rho"], row["delta"]), zcdp_to_epsilon(row["rho"], row["delta"])
    assert round(tight, 2) == 17.14 == row["epsilon"]              # Canonne, Kamath and Steinke, Corollary 13
    assert round(simple, 2) == 17.90                                # Bun and Steinke's simple bound
    assert round(zcdp_to_epsilon_tight(2.56, 1e-10), 2) == 17.16     # the rounded rho would not give 17.14
    assert round(zcdp_to_epsilon(2.63, 1e-10), 2) == 18.19           # the issue's 18.19: total rho, simple bound


def _tight_by_orders(rho, delta):
    """Corollary 13 solved the other way: eps(a) = a rho + (ln(1/delta) + (a - 1) ln(1 - 1/a) - ln a) / (a - 1),
    minimised over the order a by a bounded scalar search (an independent route to the same number)."""
    from scipy.optimize import minimize_scalar

    def eps(a):
        return a * rho + (math.log(1 / delta) + (a - 1) * math.log1p(-1 / a) - math.log(a)) / (a - 1)

    return minimize_scalar(eps, bounds=(1 + 1e-9, 1e6), method="bounded", options={"xatol": 1e-12}).fun


@pytest.mark.parametrize("rho, delta", [(2.5562, 1e-10), (0.015, 1e-7), (0.5, 1e-6), (10.0, 1e-9), (0.001, 1e-5)])
def test_the_tighter_conversion_solves_corollary_13_and_never_exceeds_the_simple_bound(rho, delta):
    tight = zcdp_to_epsilon_tight(rho, delta)
    assert 0 < tight < zcdp_to_epsilon(rho, delta)
    assert zcdp_delta(rho, tight) == pytest.approx(delta, rel=1e-6)
    assert zcdp_delta(rho, tight * 0.99) > delta                     # a smaller epsilon needs a larger delta
    assert tight == pytest.approx(_tight_by_orders(rho, delta), rel=1e-6)


def test_the_tighter_conversion_refuses_bad_input_naming_the_parameter():
    for rho, delta, name in ((0.0, 1e-6, "rho"), (-1.0, 1e-6, "rho"), (1.0, 0.0, "delta"), (1.0, 1.0, "delta"),
                             (math.nan, 1e-6, "rho")):
        with pytest.raises(InvalidParameterError, match=name):
            zcdp_to_epsilon_tight(rho, delta)
    assert zcdp_to_epsilon_tight(1e-12, 0.5) == 0.0                  # a delta reached at epsilon = 0 already


def test_a_zcdp_release_reads_both_conversions_in_words_and_says_which_the_models_read():
    census = read_release("census-2020-redistricting")
    assert census.epsilon == census.converted_epsilon == pytest.approx(zcdp_to_epsilon((542 / 339) ** 2, 1e-10))
    assert census.tight_epsilon == pytest.approx(17.1436, abs=1e-4)
    line = census.lines["conversion"]
    assert "ε = ρ + 2·sqrt(ρ·ln(1/δ)) = 17.9002 (the simple bound of Bun and Steinke, 2016)" in line
    assert "ε = 17.1436 by the tighter conversion of Canonne, Kamath and Steinke (2020)" in line
    assert "the source quotes ε = 17.14, the tighter conversion's figure to the digits printed" in line
    assert "The models here read the simple bound, ε = 17.9002, as the pure-ε part" in line
    assert census.periods is None and "does not renew" in census.lines["period"]
    assert "do not apply" in census.lines["local models"]
    wikimedia = read_release("wikimedia-pageviews").lines["conversion"]
    assert "ε = 0.8546 by the tighter conversion" in wikimedia and "figure to the digits" not in wikimedia


def test_find_release_by_key_name_label_and_row():
    by_key = find_release("google-symptoms")
    assert find_release("COVID-19 Search Trends symptoms dataset")["key"] == "google-symptoms"
    assert find_release("google: covid-19 search trends symptoms dataset")["key"] == "google-symptoms"
    assert find_release(by_key)["epsilon"] == 1.68
    assert read_release(TABLE.iloc[0]).label == release_label(TABLE.iloc[0])


@pytest.mark.parametrize("bad", ["nope", 3, None, "x" * 500, {"name": "only a name"}])
def test_unknown_release_refused_naming_the_parameter(bad):
    with pytest.raises(InvalidParameterError, match="release must"):
        find_release(bad)


def test_a_row_with_bad_values_is_refused_in_words():
    row = dict(find_release("google-symptoms"))
    with pytest.raises(InvalidParameterError, match="epsilon"):
        find_release({**row, "epsilon": -1})
    with pytest.raises(InvalidParameterError, match="model must be one of"):
        find_release({**row, "model": "federated"})


# ------------------------------------------------------------------ formulas
def test_composition_odds_and_posterior():
    assert compose(1.68, 7) == pytest.approx(11.76)
    assert compose(16, 1) == 16
    with pytest.raises(InvalidParameterError, match="periods"):
        compose(1.0, 0)
    assert max_posterior(0.0) == 0.5
    assert max_posterior(math.log(3)) == pytest.approx(0.75)          # odds 1:1 -> 3:1
    assert max_posterior(math.log(9), 0.1) == pytest.approx(0.5)       # odds 1:9 -> 1:1
    with pytest.raises(InvalidParameterError, match="delta"):
        zcdp_to_epsilon(0.1, 0.0)
    with pytest.raises(InvalidParameterError, match="rho"):
        zcdp_to_epsilon(-0.1, 1e-6)


# ------------------------------------------------------------------ reading a release in words
def test_the_only_local_release_is_chrome_rappor():
    assert TABLE.loc[TABLE["model"] == "local", "key"].tolist() == [RAPPOR]


def test_read_a_local_release_in_words():
    reading = read_release(RAPPOR)
    eps = round(4 * math.log(3), 4)
    assert reading.local and reading.epsilon == eps and reading.periods is None and reading.composed_epsilon is None
    assert reading.odds_bound == pytest.approx(math.exp(eps))
    same = read_epsilon(eps, [0.2] * 5, labels=list("abcde"))
    assert reading.rr.conditional_entropy == same.conditional_entropy
    assert reading.rr.best_guess == same.best_guess
    lines = reading.lines
    assert set(lines) == {"release", "odds", "period", "deniability", "accuracy", "source"}
    assert "e^ε = 80.996" in lines["odds"] and "unit, a Chrome client's value of one metric" in lines["odds"]
    assert lines["period"].startswith("The budget holds for all time (memoized") and "does not renew" in lines["period"]
    assert "Domingo-Ferrer and Soria-Comas (2018)" in lines["deniability"]
    assert f"{same.best_guess:.3f}" in lines["deniability"]
    assert f"{same.estimate_error:.4f}" in lines["accuracy"]
    assert "rappor_parameters.h" in lines["source"]


def test_read_a_local_release_on_an_attribute():
    reading = read_release(RAPPOR, [60, 30, 10], labels=["x", "y", "z"], attribute="blood type", periods=3)
    assert reading.rr.prior.tolist() == pytest.approx([0.6, 0.3, 0.1])
    assert "blood type" in reading.lines["deniability"]
    assert reading.periods is None and reading.composed_epsilon is None      # memoized: no renewal to compose


def test_read_a_central_release_in_words():
    reading = read_release("google-symptoms", periods=7)
    assert not reading.local and reading.rr is None
    assert set(reading.lines) == {"release", "odds", "period", "local models", "source"}
    assert "do not apply" in reading.lines["local models"]
    assert "e^ε = 5.366" in reading.lines["odds"]
    assert "7 × 1.68 = 11.76" in reading.lines["period"]
    assert reading.composed_odds_bound == pytest.approx(math.exp(11.76))


def test_zcdp_and_approximate_releases_show_the_conversion_and_read_the_pure_part():
    wikimedia = read_release("wikimedia-pageviews")
    assert wikimedia.epsilon == pytest.approx(zcdp_to_epsilon(0.015, 1e-7))
    assert "ε = ρ + 2·sqrt(ρ·ln(1/δ)) = 0.9984" in wikimedia.lines["conversion"]
    assert "pure-ε part" in wikimedia.lines["conversion"]
    vaccination = read_release("google-vaccination")
    assert vaccination.epsilon == 2.19 and vaccination.converted_epsilon is None
    assert "δ = 1e-5" in vaccination.lines["conversion"] and "pure-ε part" in vaccination.lines["conversion"]
    assert "conversion" not in read_release("google-symptoms").lines


def test_releases_without_a_renewal_are_not_composed():
    births = read_release("israel-births", periods=5)
    assert births.periods is None and births.composed_epsilon is None
    assert "does not renew" in births.lines["period"]
    unstated = {**dict(find_release("google-symptoms")), "period": "not stated in the text checked", "renews": ""}
    assert "states no period" in read_release(unstated).lines["period"]


def test_monthly_budget_composes_over_months():
    linkedin = read_release("linkedin-audience")
    assert linkedin.periods == 12 and linkedin.composed_epsilon == pytest.approx(12 * 34.9)
    assert "12 months" in linkedin.lines["period"]
    assert math.isfinite(linkedin.odds_bound) and linkedin.posterior_from_even < 1


@pytest.mark.parametrize("key", TABLE["key"].tolist())
def test_every_release_reads(key):
    reading = read_release(key)
    assert reading.lines["release"].startswith(reading.label)
    assert (reading.rr is not None) == reading.local
    assert isinstance(reading.release, pd.Series) and np.isfinite(reading.epsilon)


def test_bad_reading_inputs_are_refused():
    with pytest.raises(InvalidParameterError, match="periods"):
        read_release("google-symptoms", periods=0)
    with pytest.raises(InvalidParameterError, match="prior"):
        read_release(RAPPOR, [1.0])


# ------------------------------------------------------------------ the documentation page
def _docs_table() -> str:
    """The table of docs/releases.md, generated from the data file."""
    def eps(r):
        if r["definition"] != "zcdp":
            return f"{r['epsilon']:g}"
        return f"ρ = {r['rho']:g} (quoted as ε = {r['epsilon']:g})"

    def delta(r):
        return "0" if r["delta"] == 0 else f"{r['delta']:.0e}".replace("e-0", "e-")

    rows = ["| organisation | release | ε | δ | privacy unit | period | model | source | checked |",
            "|---|---|---|---|---|---|---|---|---|"]
    for _, r in releases().iterrows():
        rows.append(f"| {r['organisation']} | {r['name']} | {eps(r)} | {delta(r)} | {r['unit']} | {r['period']} | "
                    f"{r['model']} | [{r['source']}]({r['address']}) | {r['checked']} |")
    return "\n".join(rows)


def test_docs_page_shows_the_table_and_worked_readings_as_computed():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "releases.md").read_text(encoding="utf-8")
    assert _docs_table() in page
    for key, periods in (("google-symptoms", 7), ("wikimedia-pageviews", None), ("census-2010-ddp-persons", None),
                         ("linkedin-audience", None), ("census-2020-redistricting", None),
                         (RAPPOR, None)):
        for name, line in read_release(key, periods=periods).lines.items():
            if name != "source":
                assert f"- {line}\n" in page, line
    assert "ε = ρ + 2·sqrt(ρ·ln(1/δ)) = 0.9984" in page and "7 × 1.68 = 11.76" in page
    census = find_release("census-2020-redistricting")
    assert f"gives {zcdp_to_epsilon_tight(census['rho'], census['delta']):.4f}, 17.14 to the digits printed" in page
    assert f"simple bound at the same ρ gives {zcdp_to_epsilon(census['rho'], census['delta']):.2f}" in page
    assert f"would give {zcdp_to_epsilon_tight(2.56, 1e-10):.2f}" in page
    assert f"gives ε = {zcdp_to_epsilon(2.63, 1e-10):.2f}, not 17.14" in page
    eps = rappor_epsilon(0.5, 0.25, 0.75, 2)
    assert f"4 ln 3 = {eps.permanent:.4f}" in page and f"4 ln(5/3) = {eps.one_report:.4f}" in page
    assert not re.search(r"(?<![\d.,])00[0-4](?![\d.,])", page)


def test_the_issue_names_the_loader_in_epsilon_choice():
    from explorer.core import epsilon_choice

    assert epsilon_choice.releases is releases
    assert {"organisation", "name", "epsilon", "delta", "unit", "period", "model", "source"} <= set(
        epsilon_choice.releases().columns)


# ------------------------------------------------------------------ every row verified at its own publication
#: The rows removed on 2026-11-26 because no figure of theirs was verified at their own publications.
REMOVED = ("apple-quicktype", "apple-emoji", "apple-lookup-hints", "apple-health", "apple-safari-domains",
           "apple-safari-autoplay", "microsoft-assistive-ai", "census-2020-ddhc-a")


@pytest.mark.parametrize("key", TABLE["key"].tolist())
def test_every_row_was_read_at_its_own_publication_not_in_a_list_about_it(key):
    row = find_release(key)
    assert "Not verified" not in row["notes"]
    for secondary in ("desfontain.es", "registry.opendp.org", "deployments-registry"):
        assert secondary not in row["verified_in"], (key, secondary)


def test_the_removed_rows_are_gone_and_the_docs_page_says_what_was_searched():
    from pathlib import Path

    assert not set(REMOVED) & set(TABLE["key"])
    page = (Path(__file__).resolve().parents[2] / "docs" / "releases.md").read_text(encoding="utf-8")
    assert "### Removed: not verified at their own publication (searched 2026-11-26)" in page
    for name in ("QuickType", "Emoji", "Lookup Hints", "Health Type Usage", "Safari Energy Draining Domains",
                 "Safari Autoplay Intent Detection", "Assistive AI"):
        assert name in page, name
    # the left-out candidates, cited by authors and year
    for citation in ("Aktay et al., 2020", "Ding, Kulkarni and Yekhanin, 2017", "Messing et al., 2020",
                     "Rogers et al., 2020"):
        assert citation in page, citation
    # the Detailed DHC-A, left out with its reason
    assert "Detailed DHC-A" in page and "configs/safetab-p/NMFv7-2020/config.json" in page and "19.776" in page
    assert "Erlingsson, Pihur and Korolova (2014)" in page                   # the RAPPOR row's bounds
