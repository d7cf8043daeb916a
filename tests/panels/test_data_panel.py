"""The Data panel: choosing, uploading, marking columns; bad input keeps the previous data."""

from __future__ import annotations

from datetime import datetime, timezone

import pandas as pd

from explorer.core.datasets import dataset_info
from explorer.state import AppState
from explorer.panels.data import DataPanel


def upload(panel: DataPanel, content: bytes, name: str = "data.csv", claimed_size: int | None = None) -> None:
    panel.upload.value = ({"name": name, "type": "text/csv", "size": claimed_size or len(content),
                           "content": memoryview(content),
                           "last_modified": datetime.now(timezone.utc)},)


def test_starts_with_adult_in_the_shared_state():
    state = AppState()
    panel = DataPanel(state)
    assert state.dataset_name == "UCI Adult"
    assert state.dataset.shape == (32561, 15)
    assert "32,561 records" in panel.summary.value
    assert len(panel.role) == 15


def test_choosing_the_004_example_previews_its_rows():
    panel = DataPanel()
    panel.dataset.value = "Domingo-Ferrer and Muralidhar (2016) example"
    assert panel.state.dataset.shape == (20, 9)
    assert "103.69" in panel.preview.value
    assert panel.preview.value.split("<tbody>")[1].count("<tr") == 10  # the first 10 rows
    assert "20 records" in panel.status.message


def test_a_good_upload_becomes_the_data_set():
    panel = DataPanel()
    upload(panel, b"age,city\n30,Reus\n41,Tarragona\n", name="people.csv")
    assert panel.dataset.value == "Uploaded: people.csv"
    assert list(panel.state.dataset.columns) == ["age", "city"]
    assert not panel.status.is_error


def test_a_bad_upload_shows_its_message_and_keeps_the_previous_data_set():
    panel = DataPanel()
    panel.dataset.value = "Ruiz (2018) example"
    before = panel.state.dataset
    upload(panel, b"a,b,c\n1,2,3\n4,5\n", name="ragged.csv")
    assert panel.status.is_error
    assert "line 3 has 2 fields" in panel.status.message
    assert panel.state.dataset is before
    assert panel.dataset.value == "Ruiz (2018) example"


def test_the_real_content_length_is_used_not_the_claimed_size():
    panel = DataPanel(max_bytes=100)
    upload(panel, b"a,b\n" + b"1,2\n" * 50, claimed_size=10)  # the client claims 10 bytes
    assert panel.status.is_error and "over the limit of 100 bytes" in panel.status.message


def test_roles_and_marks_update_the_shared_state():
    state = AppState()
    panel = DataPanel(state)
    panel.role["age"].value = "ordinal"
    assert dataset_info(state.dataset).role("age") == "ordinal"
    assert isinstance(state.dataset["age"].dtype, pd.CategoricalDtype)
    # UCI Adult's default marks are in the state, and the boxes show them
    assert state.quasi_identifiers == ["age", "education-num", "hours-per-week", "sex"]
    assert state.sensitive == ["income"] and panel.sensitive["income"].value and panel.quasi_identifier["sex"].value
    panel.quasi_identifier["sex"].value = False
    panel.sensitive["race"].value = True
    assert state.quasi_identifiers == ["age", "education-num", "hours-per-week"]
    assert state.sensitive == ["race", "income"]


def test_a_categorical_column_cannot_become_numeric():
    panel = DataPanel()
    panel.role["race"].value = "numeric"
    assert panel.status.is_error and "not numbers" in panel.status.message
    assert panel.role["race"].value == "categorical"
    assert dataset_info(panel.state.dataset).role("race") == "categorical"


def test_a_column_cannot_be_both_quasi_identifier_and_sensitive():
    panel = DataPanel()
    panel.quasi_identifier["age"].value = True
    panel.sensitive["age"].value = True
    assert panel.status.is_error and "both a quasi-identifier and sensitive" in panel.status.message
    assert panel.state.sensitive == ["income"] and not panel.sensitive["age"].value     # unchanged


def test_a_forged_role_value_is_refused():
    panel = DataPanel()
    panel._on_role("age", {"new": "<script>", "old": "numeric"})
    assert panel.status.is_error and "must be numeric, categorical or ordinal" in panel.status.message


def test_roles_are_kept_by_the_state_not_in_frame_attrs():
    panel = DataPanel()
    panel.role["age"].value = "ordinal"
    assert panel.state.dataset.attrs == {} and panel.state.roles()["age"] == "ordinal"
    assert "category" in panel._dtype["age"].value


def test_the_data_tab_follows_a_state_changed_elsewhere():
    panel = DataPanel()
    panel.state.load_config({**panel.state.to_config(), "dataset": "Ruiz (2018) example", "roles": {},
                             "quasi_identifiers": ["X1"], "sensitive": ["Y1"]})
    assert panel.dataset.value == "Ruiz (2018) example"
    assert panel.quasi_identifier["X1"].value and panel.sensitive["Y1"].value
    assert not panel.sensitive["X1"].value


def test_switching_data_sets_closes_the_replaced_column_widgets():
    panel = DataPanel()
    old = panel.role["age"]
    panel.dataset.value = "Ruiz (2018) example"
    assert old.comm is None and old.layout.comm is None           # closed, with its layout


def test_a_forged_out_of_range_index_is_words_through_the_guard():
    from explorer.panels.browser import guard_widgets
    panel = DataPanel()
    guard_widgets(panel.widget, panel.status)
    panel.dataset.set_state({"index": 42})
    assert panel.status.is_error and "refused" in panel.status.message and panel.dataset.value == "UCI Adult"


def test_the_column_types_and_the_preview_are_in_users_words():
    from explorer.panels._format import type_name
    from tests.panels.readable import problems

    state = AppState()
    panel = DataPanel(state)
    shown = {column: widget.value for column, widget in panel._dtype.items()}
    assert shown == {column: type_name(state.dataset[column].dtype) for column in shown}
    assert set(shown.values()) <= {"whole number", "decimal", "category", "yes/no", "date/time"}
    assert "whole number" in shown.values() and "category" in shown.values()
    assert problems(panel.preview.value) == []
    # a yes/no column and a large float read as yes/no and a plain number
    panel.load_frame(pd.DataFrame({"flag": [True, False], "weight": [20170.4, 1.5]}), "small")
    assert panel._dtype["flag"].value == "yes/no" and panel._dtype["weight"].value == "decimal"
    assert problems(panel.preview.value) == []
    assert ">yes<" in panel.preview.value and "20,170.4" in panel.preview.value


def test_a_papers_example_is_one_named_data_set_with_its_printed_masked_version():
    panel = DataPanel(dataset="004")                                   # an old name is read, never shown
    assert panel.dataset.value == "Domingo-Ferrer and Muralidhar (2016) example"
    assert "<b>Domingo-Ferrer and Muralidhar (2016) example</b>: 20 records" in panel.summary.value
    assert "printed masked version: Y1 of X1, Y2 of X2, Y3 of X3" in panel.summary.value
    assert not any(old in " ".join(panel.dataset.options) for old in ("004", "002", "ruiz", "Running example"))


# ---------------------------------------------------------------------------------- the Panel contract
def test_the_data_tab_is_a_panel_whose_data_set_is_a_view_of_the_state():
    from explorer.panels.base import Panel

    state = AppState()
    panel = DataPanel(state)
    assert isinstance(panel, Panel) and not hasattr(panel, "_syncing")
    assert panel.controls["dataset"].state == "dataset_name" and panel.controls["dataset"].widget is panel.dataset
    assert panel.config() == {}                      # the app's configuration writes the data set, roles, marks
    panel.apply_config({"dataset": "Ruiz (2018) example"})    # a view's key is the state's: ignored here
    assert state.dataset_name == "UCI Adult"
    state.select_dataset("Ruiz (2018) example")       # the state moves the control, not the other way round
    assert panel.dataset.value == "Ruiz (2018) example" and "X1" in panel.role
    assert panel.missing_hooks() == [] and panel.figures() == []


def test_an_upload_selects_it_once_without_passing_through_another_data_set():
    state = AppState()
    panel = DataPanel(state)
    panel.dataset.value = "Ruiz (2018) example"
    names = []
    state.observe(lambda change: names.append(change["new"]), names="dataset_name")
    upload(panel, b"age,city\n30,Reus\n41,Tarragona\n", name="people.csv")
    assert names == ["Uploaded: people.csv"]          # the dropdown's new choices wrote nothing to the state
    assert panel.dataset.value == "Uploaded: people.csv" and "Uploaded: people.csv" in panel.dataset.options


def test_a_refused_choice_is_said_and_the_dropdown_shows_the_state_again(monkeypatch):
    from explorer.errors import DatasetError

    state = AppState()
    panel = DataPanel(state)

    def refuse(name):
        raise DatasetError(f"dataset {name!r} is not available here")

    monkeypatch.setattr(state, "select_dataset", refuse)
    panel.dataset.value = "Ruiz (2018) example"
    assert panel.status.is_error and "is not available here" in panel.status.message
    assert panel.dataset.value == "UCI Adult" and state.dataset_name == "UCI Adult"


def _run(code: str) -> dict:
    namespace: dict = {}
    exec(compile(code, "<DataPanel.code>", "exec"), namespace)     # noqa: S102 - the snippet is ours
    return namespace


def test_code_loads_the_current_data_set_roles_and_marks():
    panel = DataPanel()
    panel.role["age"].value = "ordinal"
    panel.quasi_identifier["sex"].value = False
    panel.sensitive["race"].value = True
    code = panel.code()
    assert "explorer.state import AppState" in code and "select_dataset(\"UCI Adult\")" in code
    assert code.count("set_roles") == 1 and '"age": "ordinal"' in code and '"fnlwgt"' not in code
    state = _run(code)["state"]
    assert state.dataset_name == panel.state.dataset_name
    assert state.quasi_identifiers == panel.state.quasi_identifiers
    assert state.sensitive == panel.state.sensitive and state.roles() == panel.state.roles()
    assert (state.dataset.dtypes == panel.state.dataset.dtypes).all()


def test_code_of_a_papers_example_sets_no_role_and_its_marks():
    panel = DataPanel(dataset="Ruiz (2018) example")
    code = panel.code()
    assert "set_roles" not in code
    state = _run(code)["state"]
    assert state.dataset_name == "Ruiz (2018) example" and state.roles() == panel.state.roles()
    assert state.quasi_identifiers == panel.state.quasi_identifiers and state.sensitive == panel.state.sensitive


def test_code_of_an_upload_reads_the_file_again(tmp_path, monkeypatch):
    content = b"age,city\n30,Reus\n41,Tarragona\n35,Reus\n"
    panel = DataPanel()
    upload(panel, content, name="people.csv")
    panel.quasi_identifier["age"].value = True
    panel.sensitive["city"].value = True
    (tmp_path / "people.csv").write_bytes(content)
    monkeypatch.chdir(tmp_path)
    code = panel.code()
    assert "datasets.load_csv(\"people.csv\"" in code
    state = _run(code)["state"]
    assert state.dataset_name == "Uploaded: people.csv"
    assert state.quasi_identifiers == ["age"] and state.sensitive == ["city"]
    pd.testing.assert_frame_equal(state.dataset, panel.state.dataset)


def test_closing_the_panel_stops_following_the_state():
    state = AppState()
    panel = DataPanel(state)
    panel.close()
    state.select_dataset("Ruiz (2018) example")        # nothing of the closed panel runs
    assert panel.dataset.comm is None and "X1" not in panel.role
