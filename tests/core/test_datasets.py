"""Built-in data sets and CSV loading (explorer.core.datasets)."""

from __future__ import annotations

import socket
from importlib import resources

import numpy as np
import pandas as pd
import pytest

from explorer.core import datasets
from explorer.errors import DatasetError, ExplorerError


def test_adult_has_all_records_and_columns_typed():
    frame = datasets.adult()
    assert frame.shape == (32561, 15)
    info = datasets.dataset_info(frame)
    assert info.licence == "CC BY 4.0"
    assert set(info.numeric) == set(datasets.ADULT_NUMERIC)
    for column in datasets.ADULT_NUMERIC:
        assert pd.api.types.is_integer_dtype(frame[column])
    for column in datasets.ADULT_CATEGORICAL:
        assert isinstance(frame[column].dtype, pd.CategoricalDtype)
    assert info.role("education") == "ordinal"


def test_adult_keeps_unknown_as_a_category_and_matches_the_raw_counts():
    frame = datasets.adult()
    # counts of adult.data: 1,836 '?' in workclass, 1,843 in occupation, 583 in native-country
    assert (frame["workclass"] == "?").sum() == 1836
    assert (frame["occupation"] == "?").sum() == 1843
    assert (frame["native-country"] == "?").sum() == 583
    assert (frame["income"] == ">50K").sum() == 7841
    assert frame["age"].min() == 17 and frame["age"].max() == 90
    assert frame.loc[0, "fnlwgt"] == 77516 and frame.loc[0, "workclass"] == "State-gov"


def test_adult_education_is_ordered_by_years_of_education():
    frame = datasets.adult()
    order = list(frame["education"].cat.categories)
    assert order[0] == "Preschool" and order[-1] == "Doctorate"
    years = frame.groupby("education", observed=True)["education-num"].first()
    assert list(years.loc[order]) == sorted(years)


def test_adult_loads_from_the_shipped_extract_without_network(monkeypatch):
    # The load time is a benchmark figure (benchmarks/bench_foundation.py), not asserted here.
    extract = resources.files("explorer.core").joinpath("data/adult.npz")
    assert extract.is_file() and len(extract.read_bytes()) < 1_000_000

    def no_network(*args, **kwargs):
        raise AssertionError("adult() tried to open a network connection")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    datasets._adult_arrays.cache_clear()
    first = datasets.adult()
    second = datasets.adult()
    info = datasets._adult_arrays.cache_info()
    assert (info.misses, info.hits) == (1, 1)                  # the extract is read once, then cached
    pd.testing.assert_frame_equal(first, second)
    first.loc[0, "age"] = 0                                    # frames do not share the cached arrays
    assert datasets.adult().loc[0, "age"] == 39


def test_adult6_is_six_copies():
    frame = datasets.adult6()
    assert frame.shape == (6 * 32561, 15)
    assert frame["age"].sum() == 6 * datasets.adult()["age"].sum()


def test_ruiz_example_is_002_table_1():
    frame = datasets.ruiz_example()
    assert frame.shape == (5, 6)
    assert frame["X3"].tolist() == [3707, 826, -1317, 2419, -1008]
    assert frame["Y3"].tolist() == [3248, 822, 248, 597, -1927]
    # Ruiz (2018) ranks descending (1 = largest): Table 1's X_1R column
    ranks = frame["X1"].rank(ascending=False).astype(int).tolist()
    assert ranks == [4, 2, 5, 3, 1]
    assert datasets.dataset_info(frame).groups["masked"] == ("Y1", "Y2", "Y3")


def test_domingo_muralidhar_example_is_004_table_1_with_its_ranks():
    frame = datasets.domingo_muralidhar_example()
    assert frame.shape == (20, 9)
    assert frame.loc[0, ["X1", "Y1", "Z1"]].tolist() == [103.69, 108.18, 108.21]
    # the printed ranks (ascending) are the ranks of the printed values
    printed = datasets.DOMINGO_MURALIDHAR_RANKS
    for j, column in enumerate(["X1", "X2", "X3", "Y1", "Y2", "Y3"]):
        assert frame[column].rank().astype(int).tolist() == printed[:, j].tolist(), column
    # Z is a permutation of X, attribute by attribute
    for j in (1, 2, 3):
        assert sorted(frame[f"Z{j}"]) == sorted(frame[f"X{j}"])


def test_synthetic_normal_is_seeded_and_shaped():
    a = datasets.synthetic_normal(500, [100, 1000], [10, 50], rng=7)
    b = datasets.synthetic_normal(500, [100, 1000], [10, 50], rng=7)
    pd.testing.assert_frame_equal(a, b)
    assert a.shape == (500, 2) and list(a.columns) == ["X1", "X2"]
    assert abs(a["X1"].mean() - 100) < 3 and abs(a["X2"].std() - 50) < 8


@pytest.mark.parametrize("kwargs, message", [
    ({"n": 0, "means": [0], "sds": [1]}, "n must be >= 1"),
    ({"n": 5, "means": [0, 1], "sds": [1]}, "sds must have one entry per mean"),
    ({"n": 5, "means": [0], "sds": [-1]}, "sds[0] must be >= 0"),
])
def test_synthetic_normal_refuses_bad_parameters(kwargs, message):
    with pytest.raises(ExplorerError, match=message.replace("[", r"\[").replace("]", r"\]")):
        datasets.synthetic_normal(**kwargs)


def test_load_csv_infers_numeric_and_categorical_columns():
    frame = datasets.load_csv(b"age,city,score\n30,Reus,1.5\n41,Tarragona,2.0\n", name="people.csv")
    assert pd.api.types.is_integer_dtype(frame["age"])
    assert isinstance(frame["city"].dtype, pd.CategoricalDtype)
    assert pd.api.types.is_float_dtype(frame["score"])
    info = datasets.dataset_info(frame)
    assert info.numeric == ("age", "score") and info.categorical == ("city",)


def test_load_csv_reads_a_path_and_latin1(tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes("name,n\nLleida,1\nGirona,2\nBarça,3\n".encode("latin-1"))
    frame = datasets.load_csv(path)
    assert frame["name"].tolist() == ["Lleida", "Girona", "Barça"]


@pytest.mark.parametrize("content, message", [
    (b"", "the file is empty"),
    (b"   \n\n", "the file is empty"),
    (b"a,b,c\n", "header but no data rows"),
    (b"a,b,c\n1,2,3\n4,5\n", "line 3 has 2 fields, but the header has 3"),
    (b"a,b\n1,2\n3,4,5\n", "line 3 has 3 fields"),
    (b"a,a\n1,2\n", "names column 'a' twice"),
    (b"a,,c\n1,2,3\n", "column 2 of the header has an empty name"),
    (b"\x00\x01\x02binary", "not text"),
])
def test_load_csv_refuses_bad_files_with_a_reason(content, message):
    with pytest.raises(DatasetError, match=message):
        datasets.load_csv(content)


def test_load_csv_checks_caps_before_parsing():
    big = b"a,b\n" + b"1,2\n" * 100
    with pytest.raises(DatasetError, match="over the limit of 50 bytes"):
        datasets.load_csv(big, max_bytes=50)
    with pytest.raises(DatasetError, match="100 rows, over the limit of 10"):
        datasets.load_csv(big, max_rows=10)
    with pytest.raises(DatasetError, match="3 columns, over the limit of 2"):
        datasets.load_csv(b"a,b,c\n1,2,3\n", max_columns=2)


def test_load_csv_refuses_a_missing_path_and_a_wrong_kind(tmp_path):
    with pytest.raises(DatasetError, match="no such file"):
        datasets.load_csv(tmp_path / "missing.csv")
    with pytest.raises(TypeError, match="source must be bytes or a path"):
        datasets.load_csv(12)


def test_load_builtin_names_what_exists():
    assert datasets.load_builtin("Ruiz (2018) example").shape == (5, 6)
    with pytest.raises(DatasetError, match="dataset must be one of"):
        datasets.load_builtin("nope")


def test_dataset_info_follows_column_selection_and_roles():
    frame = datasets.adult()[["age", "education", "race"]]
    info = datasets.dataset_info(frame)
    assert info.numeric == ("age",) and info.ordinal == ("education",) and info.categorical == ("race",)
    changed = info.with_roles({"age": "ordinal"})
    assert changed.role("age") == "ordinal" and "age" not in changed.numeric
    with pytest.raises(DatasetError, match="role of column 'age' must be one of"):
        info.with_roles({"age": "weird"})
    assert np.all(datasets.dataset_info(pd.DataFrame({"x": [1.0]})).numeric == ("x",))


def test_paper_examples_carry_one_name_and_their_printed_masked_version():
    from explorer.core import datasets
    for name, loader in ((datasets.DM_EXAMPLE, datasets.domingo_muralidhar_example),
                         (datasets.RUIZ_EXAMPLE, datasets.ruiz_example)):
        frame = loader()
        info = datasets.dataset_info(frame)
        assert info.name == name and datasets.BUILTIN_DATASETS[name] is loader
        assert info.original_columns == ("X1", "X2", "X3")
        masked = info.masked_frame(frame)
        assert masked.columns.tolist() == ["X1", "X2", "X3"]
        assert masked.to_numpy().tolist() == frame[["Y1", "Y2", "Y3"]].to_numpy().tolist()
    assert datasets.dataset_info(datasets.adult()).masked_frame(datasets.adult()) is None


def test_legacy_names_map_to_the_one_name():
    from explorer.core import datasets
    for old in ("004", "dm", "004 running example", "Running example of Domingo-Ferrer and Muralidhar (2016), Table 1"):
        assert datasets.canonical_name(old) == datasets.DM_EXAMPLE
        assert len(datasets.load_builtin(old)) == 20
    for old in ("002", "ruiz", "002 running example"):
        assert datasets.canonical_name(old) == datasets.RUIZ_EXAMPLE
    assert set(datasets.LEGACY_NAMES.values()) <= set(datasets.BUILTIN_DATASETS)
    assert not set(datasets.LEGACY_NAMES) & set(datasets.BUILTIN_DATASETS)


def test_adult_describes_its_default_marks_and_a_subset_keeps_those_it_has():
    from explorer.core import datasets
    info = datasets.dataset_info(datasets.adult())
    assert info.quasi_identifiers == ("age", "education-num", "hours-per-week", "sex")
    assert info.sensitive == ("income",)
    assert datasets.dataset_info(datasets.adult6()).sensitive == ("income",)
    part = datasets.adult()[["age", "sex", "race"]]
    assert datasets.dataset_info(part).quasi_identifiers == ("age", "sex")
    assert datasets.dataset_info(part).sensitive == ()
