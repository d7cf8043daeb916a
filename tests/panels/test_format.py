"""The display formatter of the tabs' tables: yes/no, one number format, types in words, subscripts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from explorer.panels._format import format_value, html_table, subscripts_html, subscripts_in_html, type_name
from tests.panels.readable import problems, table_texts


@pytest.mark.parametrize("value, shown", [
    (True, "yes"), (np.bool_(False), "no"), (20170, "20,170"), (np.int64(1234567), "1,234,567"),
    (20170.4, "20,170"), (2.017e4, "20,170"), (0.123456, "0.1235"), (2.5, "2.5"), (2.0, "2"),
    (100.41, "100.4"), (-0.5, "-0.5"), (0.0, "0"), (3e-6, "3×10⁻⁶"), (1.5e16, "1.5×10¹⁶"),
    (float("nan"), "–"), (float("inf"), "∞"), (None, "–"), ("Prof-specialty", "Prof-specialty"),
])
def test_format_value(value, shown):
    assert format_value(value) == shown


def test_significant_digits_and_no_e_notation_for_ordinary_magnitudes():
    assert format_value(5087.9, digits=6) == "5,087.9"
    assert format_value(0.00012346) == "0.0001235"
    for x in np.geomspace(1e-4, 1e14, 60):
        assert "e" not in format_value(float(x)), x


@pytest.mark.parametrize("values, name", [
    ([True, False], "yes/no"), ([1, 2], "whole number"), ([1.5], "decimal"), (["a"], "category"),
    (pd.Categorical(["a"]), "category"), (pd.to_datetime(["2020-01-01"]), "date/time"),
])
def test_type_names_in_words(values, name):
    assert type_name(pd.Series(values).dtype) == name


def test_subscripts_only_for_one_letter_symbols():
    assert subscripts_html("d_i") == "d<sub>i</sub>"
    assert subscripts_html("D_j(α)") == "D<sub>j</sub>(α)"
    assert subscripts_html("T_v = 50, q_{ij}") == "T<sub>v</sub> = 50, q<sub>ij</sub>"
    assert subscripts_html("hours_per_week, education_num") == "hours_per_week, education_num"
    assert subscripts_html("<b>x_1</b>") == "&lt;b&gt;x<sub>1</sub>&lt;/b&gt;"


def test_html_table_formats_every_cell_and_header():
    frame = pd.DataFrame({"permutation distance d_i": [2.017e4, 1.0], "violates": [True, False],
                          "n": np.array([1000, 2], dtype="int64"), "label": ["<x>", "b"]})
    html = html_table(frame, css_class="t", max_height="100px")
    headers, cells = table_texts(html)
    assert headers[0] == "permutation distance di"
    assert cells == ["20,170", "yes", "1,000", "<x>", "1", "no", "2", "b"]
    assert "&lt;x&gt;" in html and "<x>" not in html.replace("&lt;x&gt;", "")
    assert problems(html) == []


def test_an_unnamed_index_leaves_an_empty_data_cell_in_the_corner_not_an_empty_header():
    frame = pd.DataFrame({"age": [39, 50]})
    assert "<thead><tr><td></td><th" in html_table(frame, css_class="t", index=True)
    assert "<thead><tr><th>row</th><th" in html_table(frame.rename_axis("row"), css_class="t", index=True)
    assert "<th></th>" not in html_table(frame, css_class="t", index=True)


def test_the_checker_catches_raw_output():
    raw = pd.DataFrame({"d_i": [2.017e4, 1e-7], "ok": [True, False]}).to_html()
    assert len(problems(raw)) >= 3


def test_subscripts_in_html_leaves_tags_and_entities_alone():
    assert subscripts_in_html("<span title='d_i'>d_i &amp; D_j(α)</span>") == (
        "<span title='d_i'>d<sub>i</sub> &amp; D<sub>j</sub>(α)</span>")
    assert subscripts_in_html("hours_per_week e_abs") == "hours_per_week e<sub>abs</sub>"
