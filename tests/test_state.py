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
