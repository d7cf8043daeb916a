"""The app's one validated state (explorer/state.py): epsilon, data sets, roles, configuration."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from explorer.core import datasets
from explorer.errors import ConfigurationError, DatasetError, ExplorerError
from explorer.state import EPSILON_MAX, AppState, check_shared_epsilon


@pytest.mark.parametrize("value, words", [
    (-1.0, "epsilon must be >= 0, got -1.0"),
    (math.nan, "epsilon must be a number, got NaN"),
    (math.inf, "epsilon must be finite"),
    (12.0, "epsilon must be <= 10"),
    ("abc", "epsilon must be a number, got 'abc'"),
    (None, "epsilon must be a number, got None"),
    (True, "epsilon must be a number, got True"),
])
def test_epsilon_is_refused_with_words_naming_it_and_the_value(value, words):
    state = AppState()
    state.epsilon = 2.0
    with pytest.raises(ExplorerError) as info:
        state.epsilon = value
    assert words in str(info.value)
    assert state.epsilon == 2.0


def test_epsilon_accepts_the_one_range_and_number_text():
    state = AppState()
    for value in (0.0, 0.5, EPSILON_MAX, "3.25"):
        state.epsilon = value
        assert state.epsilon == float(value)


def test_a_long_text_is_never_echoed_whole():
    with pytest.raises(ExplorerError) as info:
        check_shared_epsilon("9" * 100 + "x" * 1_000_000)
    assert len(str(info.value)) < 200


def test_roles_live_in_the_state_not_in_frame_attrs():
    state = AppState()
    state.select_dataset("UCI Adult")
    assert state.dataset.attrs == {}
    assert state.roles()["education"] == "ordinal" and state.roles()["age"] == "numeric"
    assert state.info.source                          # the description is kept beside the frame
    state.set_roles({"age": "ordinal", "race": "ordinal"})
    assert state.roles()["age"] == "ordinal" and isinstance(state.dataset["age"].dtype, pd.CategoricalDtype)
    assert state.dataset.attrs == {}
    with pytest.raises(DatasetError, match="not numbers"):
        state.set_roles({"race": "numeric"})
    with pytest.raises(DatasetError, match="must be numeric, categorical or ordinal"):
        state.set_roles({"race": "fancy"})
    assert state.roles()["race"] == "ordinal"


def test_marks_are_checked_together():
    state = AppState()
    state.select_dataset("Ruiz (2018) example")
    state.set_marks(["X1", "X2"], ["X3"])
    with pytest.raises(DatasetError, match="cannot be both"):
        state.set_marks(["X1"], ["X1"])
    with pytest.raises(DatasetError, match="must be columns of"):
        state.sensitive = ["nope"]
    assert state.quasi_identifiers == ["X1", "X2"] and state.sensitive == ["X3"]
    state.select_dataset("Domingo-Ferrer and Muralidhar (2016) example")          # marks on columns it has stay
    assert state.quasi_identifiers == ["X1", "X2"] and state.sensitive == ["X3"]
    state.select_dataset("Synthetic normal (n=1000, m=3)")
    assert state.sensitive == ["X3"]


def test_the_papers_examples_are_ordinary_named_data_sets():
    state = AppState()
    assert {"Domingo-Ferrer and Muralidhar (2016) example", "Ruiz (2018) example", "UCI Adult"} <= set(state.dataset_names())
    state.select_dataset("Domingo-Ferrer and Muralidhar (2016) example")
    assert len(state.dataset) == 20


def test_configuration_writes_each_parameter_once_and_round_trips():
    state = AppState()
    state.select_dataset("Ruiz (2018) example")
    state.set_roles({"X1": "ordinal"})
    state.set_marks(["X2"], ["X1"])
    state.epsilon = 0.75
    state.set_tab("t-closeness", {"k": 3, "epsilon": 9.0})       # a tab's copy of epsilon is not kept
    config = state.to_config()
    assert list(config) == ["explorer", "dataset", "roles", "quasi_identifiers", "sensitive", "epsilon", "tabs"]
    assert json.dumps(config).count("epsilon") == 1
    other = AppState()
    other.load_config(json.dumps(config))
    assert other.to_config() == config


def test_a_refused_configuration_changes_nothing():
    state = AppState()
    state.select_dataset("UCI Adult")
    before = state.to_config()
    for bad, words in (({**before, "epsilon": -1}, "epsilon must be >= 0"),
                       ({**before, "dataset": "nope"}, "dataset 'nope' is not available"),
                       ({**before, "sensitive": ["age"], "quasi_identifiers": ["age"]}, "cannot be both"),
                       ({**before, "roles": {"race": "numeric"}}, "not numbers"),
                       ({**before, "extra": 1}, "unknown entries"),
                       ("x" * 3_000_000, "too long")):
        with pytest.raises(ConfigurationError, match=words):
            state.load_config(bad)
        assert state.to_config() == before


def test_a_configuration_naming_an_upload_says_so_in_words():
    state = AppState()
    state.use_frame(pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "x"]}), "class.csv")
    config = state.to_config()
    assert config["dataset"] == "Uploaded: class.csv"
    fresh = AppState()
    with pytest.raises(ConfigurationError, match="uses the uploaded file 'class.csv'.*upload that file"):
        fresh.load_config(config)
    fresh.use_frame(pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "x"]}), "class.csv")
    fresh.load_config(config)
    assert fresh.to_config() == config


def test_the_earlier_configuration_form_is_read():
    state = AppState()
    state.load_config({"data": {"dataset": "Ruiz (2018) example", "quasi_identifiers": ["X1"]}, "epsilon": 2.5,
                       "panels": {"Multi-attribute RR": {"epsilon": 7.0, "t_d": 0.3}}})
    assert state.epsilon == 2.5 and state.quasi_identifiers == ["X1"]
    assert state.tab_params == {"Multi-attribute RR": {"t_d": 0.3}}


def test_builtin_frames_are_not_changed_by_the_state():
    frame = datasets.load_builtin("Ruiz (2018) example")
    state = AppState()
    state.use_frame(frame, "mine")
    state.set_roles({"X1": "ordinal"})
    assert "dataset" in frame.attrs and not isinstance(frame["X1"].dtype, pd.CategoricalDtype)


def test_configurations_naming_the_examples_by_their_old_names_still_load():
    from explorer.state import AppState
    state = AppState()
    state.select_dataset("004 running example")
    assert state.dataset_name == "Domingo-Ferrer and Muralidhar (2016) example"
    assert len(state.dataset) == 20


# ------------------------------------------------------------------ issue 22: the state owns every shared value
def test_each_paper_example_has_one_name_and_its_printed_masked_version():
    state = AppState()
    for name, n_records in (("Domingo-Ferrer and Muralidhar (2016) example", 20), ("Ruiz (2018) example", 5)):
        state.select_dataset(name)
        assert state.dataset_name == name and state.info.name == name           # one name, everywhere
        masked = state.masked_version()
        assert masked.shape == (n_records, 3) and masked.columns.tolist() == ["X1", "X2", "X3"]
        pd.testing.assert_frame_equal(masked, state.dataset[["Y1", "Y2", "Y3"]].set_axis(["X1", "X2", "X3"], axis=1))
    state.select_dataset("UCI Adult")
    assert state.masked_version() is None


@pytest.mark.parametrize("old, name", [
    ("004", "Domingo-Ferrer and Muralidhar (2016) example"), ("dm", "Domingo-Ferrer and Muralidhar (2016) example"),
    ("004 running example", "Domingo-Ferrer and Muralidhar (2016) example"),
    ("002", "Ruiz (2018) example"), ("ruiz", "Ruiz (2018) example"), ("002 running example", "Ruiz (2018) example"),
    ("Running example of Ruiz (2018), Table 1", "Ruiz (2018) example")])
def test_old_names_are_accepted_on_input_and_only_the_one_name_is_shown(old, name):
    state = AppState()
    state.select_dataset(old)
    assert state.dataset_name == name and state.to_config()["dataset"] == name
    other = AppState()
    other.load_config({"dataset": old, "epsilon": 1.5})                       # a configuration, a page address
    assert other.dataset_name == name and name in other.dataset_names() and old not in other.dataset_names()


def test_choosing_a_data_set_puts_its_default_marks_in_the_state_and_the_configuration():
    state = AppState()
    state.select_dataset("Ruiz (2018) example")
    assert state.quasi_identifiers == [] and state.sensitive == []
    state.select_dataset("UCI Adult")
    marks = (["age", "education-num", "hours-per-week", "sex"], ["income"])
    assert (state.quasi_identifiers, state.sensitive) == marks
    config = state.to_config()
    assert (config["quasi_identifiers"], config["sensitive"]) == marks
    direct = AppState()
    direct.dataset = datasets.adult()                                       # a notebook's frame: the same marks
    assert (direct.quasi_identifiers, direct.sensitive) == marks


def test_a_configuration_sets_its_own_marks_over_the_defaults():
    state = AppState()
    state.load_config({"dataset": "UCI Adult", "quasi_identifiers": ["age"], "sensitive": ["race"]})
    assert state.quasi_identifiers == ["age"] and state.sensitive == ["race"]
    state.load_config({"dataset": "UCI Adult", "quasi_identifiers": [], "sensitive": []})
    assert state.quasi_identifiers == [] and state.sensitive == []          # none, as the configuration says
    state.load_config({"dataset": "UCI Adult"})                             # no marks given: the data set's
    assert state.sensitive == ["income"]


def test_an_old_configuration_with_a_tab_level_source_still_loads():
    state = AppState()
    state.load_config({"explorer": "0.9", "dataset": "UCI Adult", "roles": {}, "quasi_identifiers": ["age"],
                       "sensitive": ["income"], "epsilon": 2.0,
                       "tabs": {"Permutation": {"source": "004", "seed": 4, "method": "paper"}}})
    assert state.dataset_name == "UCI Adult" and state.tab_params == {"Permutation": {"seed": 4, "method": "paper"}}
    old_form = AppState()
    old_form.load_config({"data": {"dataset": "004 running example"}, "panels": {"Permutation": {"source": "002"}}})
    assert old_form.dataset_name == "Domingo-Ferrer and Muralidhar (2016) example"
    assert old_form.tab_params == {"Permutation": {}}


def test_a_refused_configuration_with_marks_changes_nothing():
    state = AppState()
    state.select_dataset("UCI Adult")
    before = state.to_config()
    with pytest.raises(ConfigurationError, match="quasi_identifiers must be columns of"):
        state.load_config({"dataset": "Ruiz (2018) example", "quasi_identifiers": ["age"], "epsilon": 3.0})
    assert state.to_config() == before
