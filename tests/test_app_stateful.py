"""The whole app driven without a browser by a hypothesis state machine (issue "One state, many views").

Random sequences of data-set switches, role and mark changes, epsilon changes (valid,
out of range, NaN, text), configuration loads, per-tab control changes and forged
values through ``widget.set_state`` (the path a websocket message takes).  After each
step: no exception escaped; every tab's epsilon equals the state's; every view
matches the state, or is marked out of date, or its tab says why in words; the
number of live widgets stays bounded.
"""

from __future__ import annotations

import json
import math
import re
import warnings

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from explorer.app import build_app
from explorer.errors import ConfigurationError, ExplorerError

pytestmark = pytest.mark.slow          # a stateful run of the whole app: more than a few seconds

DATASETS = ["Ruiz (2018) example", "Domingo-Ferrer and Muralidhar (2016) example", "Synthetic normal (n=1000, m=3)"]
EPSILONS = st.one_of(st.floats(min_value=0.0, max_value=10.0, allow_nan=False),
                     st.sampled_from([-1.0, -1e-9, 10.5, 1e6, math.inf, -math.inf, math.nan]),
                     st.sampled_from(["2.5", "abc", "x" * 500, "", None, [1.0]]))
EPSILON_TABS = ("t-closeness", "Multi-attribute RR", "Randomized response")
_APP = None


def _usable_columns(name: str, tab: str) -> set[str]:
    """The columns of the built-in data set ``name`` that the tab ``tab`` can take, with the data set's own
    roles: the multi-attribute RR tab its categorical and ordinal ones, the others any."""
    from explorer.core import datasets
    frame = datasets.load_builtin(name)
    if tab == "Multi-attribute RR":
        info = datasets.dataset_info(frame)
        return set(map(str, info.categorical)) | set(map(str, info.ordinal))
    return {str(column) for column in frame.columns}


def live_widgets() -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return len(widgets.Widget.widgets)


def the_app():
    """One app for every example (building one costs seconds): each example starts from its defaults."""
    global _APP
    if _APP is None:
        _APP = build_app()
        _APP.build_all()
        _APP.defaults = json.dumps(_APP.export_config())
    return _APP


def guarded_controls(panel) -> list:
    found, stack = [], [panel.widget]
    while stack:
        widget = stack.pop()
        if getattr(widget, "_explorer_guarded", False) and widget.has_trait("value") and \
                not isinstance(widget, (widgets.HTML, widgets.FileUpload)):
            found.append(widget)
        stack.extend(getattr(widget, "children", ()) or ())
    return found


class AppMachine(RuleBasedStateMachine):

    @initialize()
    def start(self):
        self.app = the_app()
        self.app.load_config(self.app.defaults)
        self.app.panels["Data"].dataset.value = DATASETS[0]
        self.baseline = live_widgets()

    # ------------------------------------------------------------------ rules
    @rule(name=st.sampled_from(DATASETS))
    def switch_dataset(self, name):
        self.app.panels["Data"].dataset.value = name

    @rule(data=st.data(), role=st.sampled_from(["numeric", "categorical", "ordinal", "bogus"]))
    def change_role(self, data, role):
        data_panel = self.app.panels["Data"]
        column = data.draw(st.sampled_from(sorted(data_panel.role)))
        data_panel.role[column].set_state({"index": ["numeric", "categorical", "ordinal"].index(role)
                                           if role != "bogus" else 7})

    @rule(data=st.data(), kind=st.sampled_from(["sensitive", "quasi_identifier"]), value=st.booleans())
    def mark_column(self, data, kind, value):
        boxes = getattr(self.app.panels["Data"], kind)
        column = data.draw(st.sampled_from(sorted(boxes)))
        boxes[column].set_state({"value": value})

    @rule(value=EPSILONS)
    def set_epsilon(self, value):
        before = self.app.state.epsilon
        try:
            self.app.state.epsilon = value
        except ExplorerError as error:
            assert "epsilon" in str(error) and len(str(error)) < 300
            assert self.app.state.epsilon == before
        else:
            assert self.app.state.epsilon == float(value)

    @rule(value=EPSILONS)
    def load_configuration_with_epsilon(self, value):
        config = self.app.export_config()
        config["epsilon"] = value
        before = self.app.export_config()
        try:
            self.app.load_config(json.dumps(config))
        except (ExplorerError, ValueError) as error:
            assert "epsilon" in str(error) or "JSON" in str(error)
            assert self.app.export_config() == before           # a refused configuration changes nothing
        else:
            again = self.app.export_config()
            assert again["epsilon"] == float(value)
            assert again == self.app.export_config()

    @rule()
    def export_load_round_trip(self):
        config = self.app.export_config()
        self.app.load_config(json.dumps(config))
        assert self.app.export_config() == config

    @rule(name=st.sampled_from(DATASETS), k=st.integers(min_value=1, max_value=60))
    def load_configuration_of_another_data_set(self, name, k):
        config = self.app.export_config()
        config.update(dataset=name, roles={}, quasi_identifiers=[], sensitive=[])
        config["tabs"]["t-closeness"] = {**config["tabs"].get("t-closeness", {}), "k": k}
        before = self.app.export_config()
        try:
            self.app.load_config(json.dumps(config))
        except ConfigurationError as error:
            # refused as a whole, naming the tab and the value, when a tab's settings belong to the old data set:
            # a column the new data set lacks (the Permutation tab's attribute, the multi-attribute RR tab's
            # attributes) or the Permutation tab's "paper" method (a paper's printed masked version, only on a
            # paper's example)
            text = str(error)
            found = re.fullmatch(r"the (.+) tab's settings were refused: .*, got '(.+)'", text)
            assert found and found.group(1) in config["tabs"], text
            old_columns = set(before["roles"])
            assert found.group(2) in old_columns or (found.group(1), found.group(2)) == ("Permutation", "paper"), text
            # ... which the new data set lacks, or has with a role the tab cannot use (the multi-attribute RR tab
            # takes categorical and ordinal attributes; the roles were reset to the new data set's own)
            assert found.group(2) not in _usable_columns(name, found.group(1)) or found.group(2) == "paper", text
            assert self.app.export_config() == before           # a refused configuration changes nothing
            return
        assert self.app.state.dataset_name == name
        assert self.app.panels["t-closeness"]._k_wanted == k
        assert self.app.panels["Data"].dataset.value == name

    @rule(k=st.integers(min_value=1, max_value=60))
    def t_closeness_k(self, k):
        self.app.panels["t-closeness"].k.set_state({"value": k})

    @rule()
    def permutation_switch(self):
        self.app.panels["Permutation"].switch_button.click()     # shown only when needed; a click always works

    @rule()
    def t_closeness_switch(self):
        self.app.panels["t-closeness"].switch_button.click()

    @rule()
    def mdrr_switch(self):
        self.app.panels["Multi-attribute RR"].switch_button.click()      # to UCI Adult, the shared data set

    @rule(t_d=st.floats(min_value=0.0, max_value=1.0, allow_nan=False))
    def mdrr_t_d(self, t_d):
        self.app.panels["Multi-attribute RR"].t_d.set_state({"value": t_d})

    @rule(data=st.data(), tab=st.sampled_from(["Data", "t-closeness", "Permutation", "Multi-attribute RR",
                                               "Randomized response", "Dominance"]),
          forged=st.sampled_from([{"index": 9999}, {"index": -5}, {"value": 1e12}, {"value": -1e12},
                                  {"value": "x" * 2000}, {"max": 1e9}, {"min": 5, "max": 1},
                                  {"disabled": False}, {"options": ["a"]}, {"value": None}]))
    def forged_message(self, data, tab, forged):
        controls = guarded_controls(self.app.panels[tab])
        control = data.draw(st.sampled_from(controls))
        control.set_state(dict(forged))                 # must never raise

    # ------------------------------------------------------------------ invariants
    @invariant()
    def one_epsilon(self):
        state = self.app.state
        assert 0.0 <= state.epsilon <= 10.0
        for title in EPSILON_TABS:
            assert self.app.panels[title].epsilon.value == state.epsilon, title

    @invariant()
    def t_closeness_view_matches_the_state_or_says_why(self):
        tc = self.app.panels["t-closeness"]
        state = self.app.state
        if state.sensitive and state.sensitive[0] in tc.sensitive.options and not tc.status.is_error:
            assert tc.sensitive.value == state.sensitive[0]
        if tc.profile is not None and not tc.stale.stale and not tc.status.is_error:
            assert tc._caption.startswith(f"sensitive {tc.sensitive.value} given")
            assert tc.ratio_figure._suptitle.get_text() == f"S = {tc.sensitive.value}; " + \
                tc._short.split("; ", 1)[1] + f"; ε = {state.epsilon:g}"
            assert tc.caption.value.endswith(f"ε = {state.epsilon:g}, {tc.profile.distance} distance</small>")

    @invariant()
    def tabs_read_the_state_data_set(self):
        perm = self.app.panels["Permutation"]
        if perm.X is not None and not perm.status.is_error:
            assert set(perm.X.columns) <= set(self.app.state.dataset.columns)
            assert self.app.state.dataset_name in perm.data_name.value
        tc = self.app.panels["t-closeness"]
        state = self.app.state
        assert tc.quasi_identifiers.value == tuple(c for c in state.quasi_identifiers
                                                   if c in tc.quasi_identifiers.options)     # one home of marks

    @invariant()
    def multi_attribute_rr_reads_the_state(self):
        mdrr = self.app.panels["Multi-attribute RR"]
        if mdrr.data is not None and not mdrr.status.is_error and not mdrr.stale.stale:
            assert mdrr.data.n_records <= len(self.app.state.dataset)
            assert set(mdrr.data.names) <= set(self.app.state.dataset.columns)

    @invariant()
    def randomized_response_simulation_is_current_or_marked(self):
        rr = self.app.panels["Randomized response"]
        if rr.simulation is not None and not rr.simulation_stale.stale:
            assert rr._simulated_inputs == rr._simulation_inputs()

    @rule()
    def simulate(self):
        self.app.panels["Randomized response"].simulate.click()

    @invariant()
    def widgets_bounded(self):
        assert live_widgets() <= self.baseline + 400


AppMachine.TestCase.settings = settings(max_examples=4, stateful_step_count=12, deadline=None,
                                        phases=[Phase.explicit, Phase.reuse, Phase.generate],
                                        suppress_health_check=list(HealthCheck))
test_app_state_machine = pytest.mark.filterwarnings("ignore::DeprecationWarning")(AppMachine.TestCase)
