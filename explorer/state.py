"""The app's one validated state: data set, column roles, the shared epsilon and each tab's parameters.

Every tab of the explorer reads this state and writes its own parameters into
it; no tab keeps a private copy of a shared value.  Every value that reaches the
state is checked here, whatever sent it (a widget, a configuration, a page
address, a notebook): a refused value raises an
:class:`~explorer.errors.ExplorerError` naming the parameter and (a shortened
form of) the value, and the state keeps its last valid value.

Decisions
---------
* One epsilon, one range for every tab: ``EPSILON_MIN <= epsilon <= EPSILON_MAX``
  (0 to 10).  NaN, negative numbers, text that is not a number and infinity are
  refused.  An infinite epsilon would mean "no randomization" (the identity
  matrix); the randomized response tab can show that matrix by its design, but
  the shared epsilon stays finite so that every tab can draw it.
* Column roles are the dtypes of the state's frame (``numeric``: a number dtype,
  ``categorical``: an unordered category, ``ordinal``: an ordered category) and
  :meth:`AppState.roles` reads them; nothing is kept in ``DataFrame.attrs``
  (the state strips it).  The data set's description (name, source, licence,
  default marks, printed masked version) is :attr:`AppState.info`.
* The marks (quasi-identifiers, sensitive attributes) live here and nowhere
  else.  Choosing a data set puts its default marks (its description's, e.g.
  UCI Adult's quasi-identifiers age, education-num, hours-per-week, sex and
  sensitive income) into the state, so the configuration holds them; a data
  set without default marks (an upload) keeps the marks on the columns it has;
  a configuration being loaded sets its own instead.
* The papers' running examples are data sets like any other, each under one
  name (:data:`explorer.core.datasets.DM_EXAMPLE`,
  :data:`~explorer.core.datasets.RUIZ_EXAMPLE`), their printed masked version
  attached (:meth:`AppState.masked_version`).  Older names (``"004"``,
  ``"ruiz"``, ``"004 running example"``, ...) are accepted on input and mapped
  to that name (:data:`explorer.core.datasets.LEGACY_NAMES`).
* The configuration is the state written out, each parameter once (see
  :meth:`AppState.to_config`); loading checks everything before it changes
  anything, so a refused configuration leaves the state as it was.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import replace
from typing import Any

import pandas as pd
import traitlets

from explorer import __version__
from explorer._validation import QUOTE_CHARS, check_epsilon, quote
from explorer.core import datasets
from explorer.core.datasets import DatasetInfo, dataset_info
from explorer.errors import ConfigurationError, DatasetError, ExplorerError, InvalidParameterError

__all__ = ["AppState", "EPSILON_MIN", "EPSILON_MAX", "EPSILON_STEP", "ROLES", "UPLOAD_PREFIX",
           "check_shared_epsilon", "shorten", "CONFIG_KEYS"]

#: The one range of the shared epsilon, used by every tab.
EPSILON_MIN = 0.0
EPSILON_MAX = 10.0
EPSILON_STEP = 0.05
ROLES = ("numeric", "categorical", "ordinal")
#: Data sets added by an upload (or a notebook's frame) are named "Uploaded: <file name>".
UPLOAD_PREFIX = "Uploaded: "
#: The keys of a configuration, in the order they are written.
CONFIG_KEYS = ("explorer", "dataset", "roles", "quasi_identifiers", "sensitive", "epsilon", "tabs")
#: ``shorten(value)``: how the state quotes a refused value (the one quoting rule of :mod:`explorer._validation`).
shorten = quote


def check_shared_epsilon(value: Any, name: str = "epsilon") -> float:
    """The shared epsilon: a finite number in [:data:`EPSILON_MIN`, :data:`EPSILON_MAX`].

    Examples
    --------
    >>> check_shared_epsilon("2.5")
    2.5
    >>> check_shared_epsilon(float("nan"))
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: epsilon must be a number, got NaN
    """
    if isinstance(value, str) and len(value) > QUOTE_CHARS:
        raise InvalidParameterError(f"{name} must be a number, got {shorten(value)}")
    number = check_epsilon(value, name, allow_inf=True)
    if math.isinf(number):
        raise InvalidParameterError(f"{name} must be finite (at most {EPSILON_MAX:g}), got inf: an infinite "
                                    "epsilon means no randomization, which the shared epsilon does not take")
    if number > EPSILON_MAX:
        raise InvalidParameterError(f"{name} must be <= {EPSILON_MAX:g} (the range every tab uses), "
                                    f"got {shorten(value)}")
    return number


def _strip_attrs(frame: pd.DataFrame) -> pd.DataFrame:
    new = frame.copy(deep=False)
    new.attrs = {}
    return new


def _as_role(frame: pd.DataFrame, column: str, role: str) -> pd.Series:
    """Column ``column`` of ``frame`` with the dtype of ``role`` (refused in words if impossible)."""
    series = frame[column]
    dtype = series.dtype
    if role == "numeric":
        if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
            return series
        converted = pd.to_numeric(series.astype("string"), errors="coerce")
        if (converted.isna() & series.notna()).any():
            raise DatasetError(f"column {shorten(column)} has values that are not numbers; it cannot be numeric")
        return converted.astype(float)
    ordered = role == "ordinal"
    if isinstance(dtype, pd.CategoricalDtype):
        if dtype.ordered == ordered:
            return series
        return series.cat.as_ordered() if ordered else series.cat.as_unordered()
    return pd.Series(pd.Categorical(series, ordered=ordered), index=series.index, name=series.name)


#: Tab parameters of earlier releases that are now the state's: a tab's own data source (its data set is the
#: state's, named once by the configuration's ``dataset``).  Configurations that hold them still load; the keys
#: are dropped: the configuration's own ``dataset`` is the data set of every tab (the Permutation tab's
#: ``source``; a Dominance ``source`` of ``"ruiz"`` or ``"dm"``; the Multi-attribute RR tab's ``source``,
#: "Shared data set", "UCI Adult" or "UCI Adult x 6", which are data sets of the Data tab).
LEGACY_TAB_KEYS = {"Permutation": ("source",), "Dominance": ("source",), "Multi-attribute RR": ("source",)}


def _without_legacy_keys(title: Any, params: Any) -> Any:
    if not isinstance(params, dict):
        return params
    dropped = LEGACY_TAB_KEYS.get(title, ())
    return {k: v for k, v in params.items() if k not in dropped}


class _Epsilon(traitlets.TraitType):
    """A trait holding the shared epsilon: every value goes through :func:`check_shared_epsilon`."""

    info_text = f"a finite number in [{EPSILON_MIN:g}, {EPSILON_MAX:g}]"

    def validate(self, obj: Any, value: Any) -> float:
        return check_shared_epsilon(value)


class AppState(traitlets.HasTraits):
    """The explorer's shared, validated state.

    Attributes (traits, observable)
    -------------------------------
    dataset : pandas.DataFrame or None
        The data set every tab reads (no ``attrs``; roles are its dtypes).
    dataset_name : str
        Its name: a key of :data:`explorer.core.datasets.BUILTIN_DATASETS` or ``"Uploaded: <file>"``.
    info : DatasetInfo or None
        Its description (source, licence) and roles.
    quasi_identifiers, sensitive : list of str
        Columns the user marked (disjoint).
    epsilon : float
        The one epsilon of every tab, in [0, 10].
    tab_params : dict
        ``{tab title: {parameter: value}}``, written by the tabs (JSON values only).

    Examples
    --------
    >>> state = AppState()
    >>> state.select_dataset("Ruiz (2018) example")
    >>> state.epsilon = 2.0
    >>> state.to_config()["dataset"]
    'Ruiz (2018) example'
    >>> state.epsilon = -1
    Traceback (most recent call last):
    ...
    explorer.errors.InvalidParameterError: epsilon must be >= 0, got -1
    """

    dataset = traitlets.Instance(pd.DataFrame, allow_none=True)
    dataset_name = traitlets.Unicode("")
    info = traitlets.Instance(DatasetInfo, allow_none=True)
    epsilon = _Epsilon(1.0)
    quasi_identifiers = traitlets.List(traitlets.Unicode())
    sensitive = traitlets.List(traitlets.Unicode())
    tab_params = traitlets.Dict()

    def __init__(self, **kwargs: Any) -> None:
        self.uploads: dict[str, pd.DataFrame] = {}
        frame = kwargs.pop("dataset", None)
        super().__init__(**kwargs)
        if frame is not None:
            self.use_frame(frame, kwargs.get("dataset_name") or "data")

    # ------------------------------------------------------------------ validation
    @traitlets.validate("dataset")
    def _valid_dataset(self, proposal: Any) -> pd.DataFrame | None:
        """A frame set directly (``state.dataset = frame``) is made like one chosen by name: roles as dtypes,
        no ``attrs`` (its description goes to :attr:`info`)."""
        frame = proposal["value"]
        if frame is None or not frame.attrs:
            return frame
        info = dataset_info(frame)
        clean = _strip_attrs(frame)
        for column in clean.columns:
            clean[column] = _as_role(clean, column, info.role(str(column)))
        self.info = info
        if info.quasi_identifiers or info.sensitive:       # a loader's frame: its default marks follow it
            self._default_marks = (list(info.quasi_identifiers), [c for c in info.sensitive
                                                                  if c not in info.quasi_identifiers])
        return clean

    @traitlets.observe("dataset")
    def _apply_default_marks(self, change: Any) -> None:
        """A loader's frame set directly (``state.dataset = adult()``) brings its default marks, as a choice by
        name does (this observer runs before the tabs')."""
        marks, self._default_marks = getattr(self, "_default_marks", None), None
        if marks is not None:
            self.set_marks(*marks)

    @traitlets.validate("quasi_identifiers", "sensitive")
    def _valid_columns(self, proposal: Any) -> list[str]:
        name = proposal["trait"].name
        columns = list(proposal["value"])
        if self.dataset is not None:
            unknown = [c for c in columns if c not in set(map(str, self.dataset.columns))]
            if unknown:
                raise DatasetError(f"{name} must be columns of {self.dataset_name!r}, got {shorten(unknown[0])}")
        other = self.sensitive if name == "quasi_identifiers" else self.quasi_identifiers
        both = sorted(set(columns) & set(other))
        if both:
            raise DatasetError(f"column {shorten(both[0])} cannot be both a quasi-identifier and sensitive")
        return columns

    @traitlets.validate("tab_params")
    def _valid_tab_params(self, proposal: Any) -> dict:
        value = proposal["value"]
        if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
            raise ConfigurationError(f"tabs must map each tab to an object, got {shorten(value)}")
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            raise ConfigurationError("tab parameters must be plain JSON values (numbers, text, lists)") from None
        return copy.deepcopy(value)

    # ------------------------------------------------------------------ data sets
    def dataset_names(self) -> list[str]:
        """The data sets one can choose: the built-ins (the papers' running examples among them), then uploads."""
        return [*datasets.BUILTIN_DATASETS, *self.uploads]

    def add_upload(self, name: str, frame: pd.DataFrame) -> str:
        """Keep an uploaded frame under ``"Uploaded: <name>"`` (returned); it is not selected."""
        if not isinstance(frame, pd.DataFrame):
            raise DatasetError(f"an upload must be a pandas DataFrame, got {type(frame).__name__}")
        label = UPLOAD_PREFIX + str(name)[:80]
        self.uploads[label] = frame
        return label

    def select_dataset(self, name: str) -> None:
        """Make ``name`` the data set of every tab; the marks become the data set's default marks (if it has
        none, the marks on columns it has stay).

        ``name`` is a name of :meth:`dataset_names` or an older name of a built-in
        (:data:`explorer.core.datasets.LEGACY_NAMES`), which is mapped to its one name.
        """
        if not isinstance(name, str):
            raise DatasetError(f"dataset must be a name, got {shorten(name)}")
        name = datasets.canonical_name(name)
        if name in self.uploads:
            frame = self.uploads[name]
        elif name in datasets.BUILTIN_DATASETS:
            frame = datasets.load_builtin(name)
        elif name.startswith(UPLOAD_PREFIX):
            raise DatasetError(f"this configuration uses the uploaded file {shorten(name[len(UPLOAD_PREFIX):])}, "
                               "which is not part of a configuration: upload that file in the Data tab first, "
                               "then load the configuration again")
        else:
            raise DatasetError(f"dataset {shorten(name)} is not available here; choose one of "
                               f"{self.dataset_names()}")
        self._set_frame(name, frame)

    def use_frame(self, frame: pd.DataFrame, name: str) -> str:
        """Use any DataFrame (e.g. from a notebook) as the data set, as an upload named ``name``."""
        label = self.add_upload(name, frame)
        self.select_dataset(label)
        return label

    def _set_frame(self, name: str, frame: pd.DataFrame) -> None:
        info = dataset_info(frame)
        clean = _strip_attrs(frame)
        for column in clean.columns:        # roles are dtypes: make them agree with the loader's description
            role = info.role(str(column))
            clean[column] = _as_role(clean, column, role)
        columns = set(map(str, clean.columns))
        if info.quasi_identifiers or info.sensitive:        # the data set's default marks
            qi = [c for c in info.quasi_identifiers if c in columns]
            sensitive = [c for c in info.sensitive if c in columns and c not in qi]
        else:                                               # none: the marks on columns it has stay
            qi = [c for c in self.quasi_identifiers if c in columns]
            sensitive = [c for c in self.sensitive if c in columns]
        with self.hold_trait_notifications():
            self.set_trait("quasi_identifiers", qi)
            self.set_trait("sensitive", sensitive)
            self.dataset_name = name
            self.info = info
            self.dataset = clean

    def masked_version(self) -> pd.DataFrame | None:
        """The printed masked version of the data set's original columns (a paper's running example), named
        like the original columns; None when the data set has none.

        Examples
        --------
        >>> state = AppState()
        >>> state.select_dataset("Ruiz (2018) example")
        >>> state.masked_version().columns.tolist()
        ['X1', 'X2', 'X3']
        """
        if self.dataset is None or self.info is None:
            return None
        return self.info.masked_frame(self.dataset)

    def roles(self) -> dict[str, str]:
        """``{column: role}`` of the data set, read from its dtypes."""
        if self.dataset is None:
            return {}
        info = dataset_info(self.dataset)
        return {str(c): info.role(str(c)) for c in self.dataset.columns}

    def set_roles(self, roles: dict[str, str]) -> None:
        """Change column roles (``{"age": "ordinal"}``); the frame's dtypes follow.  All or nothing."""
        frame = self.dataset
        if frame is None:
            raise DatasetError("there is no data set to give roles to")
        if not isinstance(roles, dict):
            raise DatasetError(f"roles must map columns to roles, got {shorten(roles)}")
        new = frame.copy(deep=False)
        for column, role in roles.items():
            if column not in new.columns:
                raise DatasetError(f"roles name column {shorten(column)}, which {self.dataset_name!r} lacks")
            if role not in ROLES:
                raise DatasetError(f"role of column {shorten(column)} must be numeric, categorical or ordinal, "
                                   f"got {shorten(role)}")
            new[column] = _as_role(new, column, role)
        if self.info is not None:
            self.info = replace(self.info, numeric=(), categorical=(), ordinal=()).with_roles(
                {str(c): dataset_info(new).role(str(c)) for c in new.columns})
        self.dataset = new

    def set_marks(self, quasi_identifiers: list[str], sensitive: list[str]) -> None:
        """Mark quasi-identifiers and sensitive attributes together (checked together)."""
        qi, sens = [str(c) for c in quasi_identifiers], [str(c) for c in sensitive]
        both = sorted(set(qi) & set(sens))
        if both:
            raise DatasetError(f"column {shorten(both[0])} cannot be both a quasi-identifier and sensitive")
        with self.hold_trait_notifications():
            self.set_trait("quasi_identifiers", [])
            self.set_trait("sensitive", [])
            self.quasi_identifiers = qi
            self.sensitive = sens

    # ------------------------------------------------------------------ tabs
    def set_tab(self, title: str, params: dict[str, Any]) -> None:
        """Write a tab's own parameters (shared values such as epsilon are left out)."""
        own = {k: v for k, v in dict(params).items() if k != "epsilon"}
        if self.tab_params.get(title) != own:
            self.tab_params = {**self.tab_params, title: own}

    # ------------------------------------------------------------------ configuration
    def to_config(self) -> dict[str, Any]:
        """The state written out, each parameter once (JSON-serialisable)."""
        return {"explorer": __version__, "dataset": self.dataset_name, "roles": self.roles(),
                "quasi_identifiers": list(self.quasi_identifiers), "sensitive": list(self.sensitive),
                "epsilon": float(self.epsilon), "tabs": copy.deepcopy(self.tab_params)}

    @staticmethod
    def parse_config(config: Any) -> dict[str, Any]:
        """A configuration (dict or JSON text) in today's form; the form of explorer 0.x (``data``/``panels``)
        is read too.  Raises :class:`ConfigurationError` in words."""
        if isinstance(config, (str, bytes)):
            if len(config) > 2_000_000:
                raise ConfigurationError(f"configuration is too long ({len(config):,} characters; at most 2,000,000)")
            try:
                config = json.loads(config)
            except json.JSONDecodeError as error:
                raise ConfigurationError(f"configuration is not valid JSON: {error.msg} at line {error.lineno}") \
                    from None
        if not isinstance(config, dict):
            raise ConfigurationError("configuration must be a JSON object made by 'Export configuration'")
        if "data" in config and "dataset" not in config:           # the earlier form
            data = config["data"]
            if not isinstance(data, dict):
                raise ConfigurationError(f"configuration 'data' must be an object, got {shorten(data)}")
            panels = config.get("panels", {})
            config = {"explorer": config.get("explorer", __version__), "dataset": data.get("dataset"),
                      "roles": data.get("roles", {}),
                      **{key: data[key] for key in ("quasi_identifiers", "sensitive") if key in data},
                      **({"epsilon": config["epsilon"]} if "epsilon" in config else {}),
                      "tabs": {k: {n: x for n, x in v.items() if n != "epsilon"} if isinstance(v, dict) else v
                               for k, v in (panels.items() if isinstance(panels, dict) else [])}}
        unknown = sorted(set(config) - set(CONFIG_KEYS))
        if unknown:
            raise ConfigurationError(f"configuration has unknown entries: {shorten(unknown)}")
        if "dataset" not in config:
            raise ConfigurationError("configuration must name its 'dataset'")
        for key, kind in (("roles", dict), ("quasi_identifiers", list), ("sensitive", list), ("tabs", dict)):
            if key in config and not isinstance(config[key], kind):
                raise ConfigurationError(f"configuration '{key}' must be a JSON {'object' if kind is dict else 'list'}"
                                         f", got {shorten(config[key])}")
        config = dict(config)
        config["dataset"] = datasets.canonical_name(config["dataset"])
        if "tabs" in config:
            config["tabs"] = {title: _without_legacy_keys(title, params) for title, params in config["tabs"].items()}
        return config

    def load_config(self, config: Any) -> None:
        """Set the whole state from a configuration; nothing changes unless all of it is valid."""
        config = self.parse_config(config)
        try:
            epsilon = check_shared_epsilon(config["epsilon"]) if "epsilon" in config else self.epsilon
            trial = AppState()
            trial.uploads = self.uploads
            trial.select_dataset(config["dataset"])
            trial.set_roles(dict(config.get("roles", {})))
            if "quasi_identifiers" in config or "sensitive" in config:     # else the data set's default marks
                trial.set_marks(config.get("quasi_identifiers", []), config.get("sensitive", []))
            trial.tab_params = dict(config.get("tabs", {}))
        except ExplorerError as error:
            raise ConfigurationError(f"configuration not applied: {error}") from None
        with self.hold_trait_notifications():
            self.set_trait("quasi_identifiers", [])
            self.set_trait("sensitive", [])
            self.dataset_name = trial.dataset_name
            self.info = trial.info
            self.dataset = trial.dataset
            self.quasi_identifiers = trial.quasi_identifiers
            self.sensitive = trial.sensitive
            self.epsilon = epsilon
            self.tab_params = trial.tab_params
