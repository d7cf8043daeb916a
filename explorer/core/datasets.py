"""Built-in data sets and CSV loading.

Every loader returns a :class:`pandas.DataFrame` with typed columns (categorical
columns as ``category`` dtype, numeric ones as int or float) whose ``attrs["dataset"]``
holds a :class:`DatasetInfo`: name, source, citation, licence and which columns
are numeric, categorical and ordinal.  :func:`dataset_info` reads it back (or
infers it from the dtypes of any frame).

The papers' running examples are typed in from their tables; UCI Adult ships as
a compressed extract inside the package (``data/adult.npz``, built by
``tools/build_adult_extract.py`` from ``adult.data``), so the explorer works
without network access.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from explorer._validation import check_int, check_number, check_rng
from explorer.errors import DatasetError, ExplorerTypeError
from explorer.references import cite, full_citation

__all__ = [
    "DatasetInfo",
    "dataset_info",
    "with_info",
    "ruiz_example",
    "domingo_muralidhar_example",
    "DOMINGO_MURALIDHAR_RANKS",
    "adult",
    "adult6",
    "ADULT_NUMERIC",
    "ADULT_CATEGORICAL",
    "ADULT_QUASI_IDENTIFIERS",
    "ADULT_SENSITIVE",
    "synthetic_normal",
    "load_csv",
    "BUILTIN_DATASETS",
    "LEGACY_NAMES",
    "DM_EXAMPLE",
    "RUIZ_EXAMPLE",
    "canonical_name",
    "load_builtin",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_ROWS",
    "DEFAULT_MAX_COLUMNS",
]

#: Upload limits of :func:`load_csv` (the Voilà websocket limit is set to match).
DEFAULT_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_MAX_ROWS = 500_000
DEFAULT_MAX_COLUMNS = 200

ROLES = ("numeric", "categorical", "ordinal")


@dataclass(frozen=True)
class DatasetInfo:
    """What a data set is and how its columns are to be read.

    ``ordinal`` columns are categorical columns whose category order is meaningful
    (they can be ranked); ``groups`` names blocks of columns, e.g. the original
    (X), masked (Y) and reverse-mapped (Z) attributes of a paper example.

    ``quasi_identifiers`` and ``sensitive`` are the data set's default marks (the
    app's state takes them when the data set is chosen); ``masked`` maps each
    original column to the column of its printed masked version, for the papers'
    running examples (:meth:`masked_frame` reads it).
    """

    name: str
    numeric: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    ordinal: tuple[str, ...] = ()
    source: str = ""
    citation: str = ""
    licence: str = ""
    description: str = ""
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    quasi_identifiers: tuple[str, ...] = ()
    sensitive: tuple[str, ...] = ()
    masked: dict[str, str] = field(default_factory=dict)

    @property
    def original_columns(self) -> tuple[str, ...]:
        """The original columns that have a printed masked version (empty for most data sets)."""
        return tuple(self.masked)

    def masked_frame(self, frame: pd.DataFrame) -> pd.DataFrame | None:
        """The printed masked version of ``frame``'s original columns, named like them (None if there is none).

        Examples
        --------
        >>> frame = ruiz_example()
        >>> dataset_info(frame).masked_frame(frame).loc[0].tolist()
        [8, 160, 3248]
        """
        if not self.masked or not set(self.masked.values()) <= set(map(str, frame.columns)):
            return None
        return frame[list(self.masked.values())].set_axis(list(self.masked), axis=1)

    def role(self, column: str) -> str:
        """``"numeric"``, ``"ordinal"`` or ``"categorical"`` for a column of the data set."""
        if column in self.ordinal:
            return "ordinal"
        if column in self.numeric:
            return "numeric"
        if column in self.categorical:
            return "categorical"
        raise DatasetError(f"column {column!r} is not in data set {self.name!r}")

    def with_roles(self, roles: dict[str, str]) -> "DatasetInfo":
        """A copy with column roles changed (``{"age": "ordinal", ...}``)."""
        numeric, categorical, ordinal = list(self.numeric), list(self.categorical), list(self.ordinal)
        for column, role in roles.items():
            if role not in ROLES:
                raise DatasetError(f"role of column {column!r} must be one of {ROLES}, got {role!r}")
            for group in (numeric, categorical, ordinal):
                if column in group:
                    group.remove(column)
            {"numeric": numeric, "categorical": categorical, "ordinal": ordinal}[role].append(column)
        return replace(self, numeric=tuple(numeric), categorical=tuple(categorical), ordinal=tuple(ordinal))


def _infer_info(frame: pd.DataFrame, name: str = "data") -> DatasetInfo:
    numeric, categorical, ordinal = [], [], []
    for column in frame.columns:
        dtype = frame[column].dtype
        if isinstance(dtype, pd.CategoricalDtype):
            (ordinal if dtype.ordered else categorical).append(str(column))
        elif pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
            numeric.append(str(column))
        else:
            categorical.append(str(column))
    return DatasetInfo(name=name, numeric=tuple(numeric), categorical=tuple(categorical), ordinal=tuple(ordinal))


def dataset_info(frame: pd.DataFrame) -> DatasetInfo:
    """The :class:`DatasetInfo` of a frame: its own if a loader attached one, else inferred from dtypes."""
    if not isinstance(frame, pd.DataFrame):
        raise ExplorerTypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    info = frame.attrs.get("dataset")
    if isinstance(info, DatasetInfo):
        present = set(map(str, frame.columns))
        if present == set(info.numeric) | set(info.categorical) | set(info.ordinal):
            return info
        inferred = _infer_info(frame, info.name)
        keep = {c: info.role(c) for c in present if c in set(info.numeric) | set(info.categorical) | set(info.ordinal)}
        masked = {x: y for x, y in info.masked.items() if x in present and y in present}
        return replace(inferred, source=info.source, citation=info.citation, licence=info.licence,
                       description=info.description,
                       quasi_identifiers=tuple(c for c in info.quasi_identifiers if c in present),
                       sensitive=tuple(c for c in info.sensitive if c in present),
                       masked=masked if len(masked) == len(info.masked) else {}).with_roles(keep)
    return _infer_info(frame)


def with_info(frame: pd.DataFrame, info: DatasetInfo) -> pd.DataFrame:
    """Attach ``info`` to ``frame`` (in place) and return it."""
    frame.attrs["dataset"] = info
    return frame


# --------------------------------------------------------------------------- paper examples

#: The one name of each paper's running example (the Data tab, configurations and every tab use it).
DM_EXAMPLE = "Domingo-Ferrer and Muralidhar (2016) example"
RUIZ_EXAMPLE = "Ruiz (2018) example"

_RUIZ_TABLE_1 = """\
13 135 3707 8 160 3248
20 52 826 20 57 822
2 123 -1317 -1 122 248
15 165 2419 18 135 597
29 160 -1008 29 164 -1927
"""

_RUIZ_CITATION = full_citation("permutation-paradigm") + " Table 1."


def ruiz_example() -> pd.DataFrame:
    """The running example of Ruiz (2018), Table 1: original X_1..X_3 and masked Y_1..Y_3, 5 records.

    X was drawn from N(10, 10^2), N(100, 40^2), N(1000, 2000^2) and Y is X plus noise.
    Ruiz (2018) ranks these values in *descending* order (rank 1 = largest); the explorer ranks
    ascending (see ``docs/conventions.md``).

    References
    ----------
    .. [1] N. Ruiz, "On some consequences of the permutation paradigm for data anonymization: centrality
       of permutation matrices, universal measures of disclosure risk and information loss, evaluation by
       dominance", Information Sciences, 2018.

    Computes: Ruiz (2018), Table 1.

    Examples
    --------
    >>> ruiz_example().loc[0, ["X1", "Y1"]].tolist()
    [13, 8]
    """
    values = np.loadtxt(io.StringIO(_RUIZ_TABLE_1), dtype=np.int64)
    columns = ["X1", "X2", "X3", "Y1", "Y2", "Y3"]
    frame = pd.DataFrame(values, columns=columns, index=pd.RangeIndex(5, name="record"))
    return with_info(frame, DatasetInfo(
        name=RUIZ_EXAMPLE, numeric=tuple(columns),
        source="Typed in from Table 1 of Ruiz (2018)", citation=_RUIZ_CITATION, licence="quoted for teaching",
        description="The running example of Ruiz (2018), Table 1: 5 records, 3 attributes, original X and "
                    "its printed noise-masked version Y.",
        groups={"original": ("X1", "X2", "X3"), "masked": ("Y1", "Y2", "Y3")},
        masked={"X1": "Y1", "X2": "Y2", "X3": "Y3"}))


_DM_TABLE_1 = """\
    103.69 981.80 4928.80 108.18 972.62 4876.73 108.21 980.97 4893.50
    93.13 980.97 4931.16 96.60 1020.73 5005.04 96.18 988.44 4986.25
    100.87 902.21 5108.54 105.26 882.92 4900.68 107.62 902.21 4905.71
    95.24 953.37 5084.18 88.02 944.54 4949.78 93.13 953.37 4941.81
    96.18 1086.34 5212.25 91.57 1057.83 5267.57 95.50 1052.34 5232.96
    93.16 986.70 5232.96 100.41 991.34 5230.64 99.72 984.87 5212.25
    95.50 952.13 4824.95 100.31 959.89 4824.03 98.99 971.09 4835.05
    115.53 988.44 5437.43 123.37 1061.23 5450.70 116.75 1057.63 5437.43
    98.99 941.48 4835.05 103.12 903.25 4752.03 103.69 941.48 4824.95
    109.96 984.87 4950.48 104.82 912.77 4997.61 105.59 952.13 4954.28
    99.72 1005.19 5158.64 87.83 1025.01 5166.63 87.62 990.58 5158.64
    116.75 1057.63 4986.25 112.21 1082.43 4988.44 109.81 1086.34 4950.48
    107.62 1025.13 4954.28 114.29 988.93 4889.75 110.63 981.80 4900.79
    87.62 1031.74 4905.71 90.83 1049.58 4902.04 95.24 1025.13 4928.80
    109.81 971.09 4941.81 113.64 1002.19 5020.71 109.96 986.70 5084.18
    110.63 1052.34 4495.19 103.07 1052.03 4519.26 100.87 1031.74 4495.19
    113.76 972.20 4893.50 117.00 962.84 5087.90 115.53 972.20 5143.05
    105.59 1027.64 5143.05 89.43 1049.97 5072.79 93.16 1027.64 5108.54
    108.21 990.58 4714.76 115.79 1036.10 4662.73 113.76 1005.19 4714.76
    104.74 1023.96 4900.79 104.00 1037.00 4931.99 104.74 1023.96 4931.16
"""

#: Ranks printed in Domingo-Ferrer and Muralidhar (2016), Table 1 (ascending, 1 = smallest):
#: columns rank(X1..X3), rank(Y1..Y3).
DOMINGO_MURALIDHAR_RANKS = np.loadtxt(io.StringIO("""\
    10 8 8 14 7 5
    2 7 9 6 11 13
    9 1 15 13 1 7
    4 4 14 2 4 10
    6 20 18 5 18 19
    3 10 19 8 9 18
    5 3 3 7 5 4
    19 11 20 20 19 20
    7 2 4 10 2 3
    16 9 11 12 3 12
    8 13 17 1 12 17
    20 19 13 15 20 11
    13 15 12 17 8 6
    1 17 7 4 15 8
    15 5 10 16 10 14
    17 18 1 9 17 1
    18 6 5 19 6 16
    12 16 16 3 16 15
    14 12 2 18 13 2
    11 14 6 11 14 9
"""), dtype=np.int64)

_DM_CITATION = full_citation("new-directions") + " Table 1."


def domingo_muralidhar_example() -> pd.DataFrame:
    """The running example of Domingo-Ferrer and Muralidhar (2016), Table 1: X, masked Y, reverse-mapped Z.

    Typed in from [1]_: 20 records of 3 attributes; X was drawn from normal distributions and Y is X
    plus normal noise.  Z is the paper's output of reverse mapping (Algorithm 1).

    References
    ----------
    .. [1] J. Domingo-Ferrer and K. Muralidhar, "New directions in anonymization: permutation paradigm,
       verifiability by subjects and intruders, transparency to users", Information Sciences
       337-338:11-24, 2016.

    Computes: Domingo-Ferrer and Muralidhar (2016), Table 1.

    Examples
    --------
    >>> frame = domingo_muralidhar_example()
    >>> frame.shape
    (20, 9)
    >>> frame.loc[0, ["X1", "Y1", "Z1"]].tolist()
    [103.69, 108.18, 108.21]
    """
    values = np.loadtxt(io.StringIO(_DM_TABLE_1), dtype=float)
    columns = ["X1", "X2", "X3", "Y1", "Y2", "Y3", "Z1", "Z2", "Z3"]
    frame = pd.DataFrame(values, columns=columns, index=pd.RangeIndex(20, name="record"))
    return with_info(frame, DatasetInfo(
        name=DM_EXAMPLE, numeric=tuple(columns),
        source="Typed in from Table 1 of Domingo-Ferrer and Muralidhar (2016)", citation=_DM_CITATION,
        licence="quoted for teaching",
        description="The running example of Domingo-Ferrer and Muralidhar (2016), Table 1: 20 records, "
                    "3 attributes, original X, its printed noise-masked version Y and reverse-mapped Z.",
        groups={"original": ("X1", "X2", "X3"), "masked": ("Y1", "Y2", "Y3"),
                "reverse_mapped": ("Z1", "Z2", "Z3")},
        masked={"X1": "Y1", "X2": "Y2", "X3": "Y3"}))


# --------------------------------------------------------------------------- UCI Adult

ADULT_NUMERIC = ("age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week")
#: UCI Adult's default marks: the quasi-identifiers and sensitive attribute the t-closeness tab opens with
#: (income: on Adult's MDAV clusters some are within t and some are not at every epsilon of the slider).
ADULT_QUASI_IDENTIFIERS = ("age", "education-num", "hours-per-week", "sex")
ADULT_SENSITIVE = ("income",)
ADULT_CATEGORICAL = ("workclass", "education", "marital-status", "occupation", "relationship", "race", "sex",
                     "native-country", "income")
_ADULT_COLUMNS = ("age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
                  "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week",
                  "native-country", "income")
_ADULT_CITATION = ("B. Becker and R. Kohavi, Adult, UCI Machine Learning Repository, 1996, "
                   "https://doi.org/10.24432/C5XW20")


@lru_cache(maxsize=1)
def _adult_arrays() -> dict[str, np.ndarray]:
    with resources.files("explorer.core").joinpath("data/adult.npz").open("rb") as handle:
        with np.load(handle, allow_pickle=False) as archive:
            return {key: archive[key] for key in archive.files}


def adult() -> pd.DataFrame:
    """UCI Adult (``adult.data``): 32,561 records, all 15 columns, ``?`` kept as a category.

    Numeric columns are int64; categorical ones are ``category`` dtype, with
    ``education`` ordered by years of education and ``income`` ordered.
    Licensed CC BY 4.0 by the UCI Machine Learning Repository.

    Examples
    --------
    >>> frame = adult()
    >>> frame.shape
    (32561, 15)
    >>> int((frame["workclass"] == "?").sum())
    1836
    """
    arrays = _adult_arrays()
    data = {}
    for column in _ADULT_COLUMNS:
        if column in ADULT_NUMERIC:
            data[column] = arrays[f"num:{column}"]
        else:
            ordered = column in ("education", "income")
            data[column] = pd.Categorical.from_codes(arrays[f"codes:{column}"],
                                                     categories=list(arrays[f"labels:{column}"]), ordered=ordered)
    frame = pd.DataFrame(data)
    return with_info(frame, DatasetInfo(
        name="UCI Adult", numeric=ADULT_NUMERIC,
        categorical=tuple(c for c in ADULT_CATEGORICAL if c not in ("education", "income")),
        ordinal=("education", "income"),
        source="UCI Machine Learning Repository, adult.data (32,561 records)", citation=_ADULT_CITATION,
        licence="CC BY 4.0", quasi_identifiers=ADULT_QUASI_IDENTIFIERS, sensitive=ADULT_SENSITIVE,
        description=("1994 US census extract; the data set of the experiments of "
                     f"{cite('multidim-rr')}.")))


def adult6() -> pd.DataFrame:
    """Adult concatenated 6 times (195,366 records), as in Domingo-Ferrer and Soria-Comas (2022), Section 6.5.

    References
    ----------
    .. [1] J. Domingo-Ferrer and J. Soria-Comas, "Multi-dimensional randomized response", IEEE
       Transactions on Knowledge and Data Engineering, 2022.
    """
    base = adult()
    frame = pd.concat([base] * 6, ignore_index=True)
    info = dataset_info(base)
    return with_info(frame, replace(info, name="UCI Adult x 6", source=info.source + ", concatenated 6 times",
                                    description=f"Adult repeated 6 times ({cite('multidim-rr', 'Section 6.5')})."))


# --------------------------------------------------------------------------- synthetic data

def synthetic_normal(n: int, means: Sequence[float], sds: Sequence[float], rng: Any = None,
                     *, round_to: int | None = 2) -> pd.DataFrame:
    """``n`` records of ``m`` independent normal attributes ``X1..Xm`` (seeded).

    The papers' running examples are drawn this way (Ruiz (2018) uses
    ``means=(10, 100, 1000), sds=(10, 40, 2000)``).  Values are rounded to
    ``round_to`` decimals (None keeps full precision).

    Examples
    --------
    >>> synthetic_normal(3, [0, 10], [1, 2], rng=0).shape
    (3, 2)
    """
    n = check_int(n, "n", minimum=1, maximum=100_000_000)
    means_arr = np.atleast_1d(np.asarray(means, dtype=float))
    sds_arr = np.atleast_1d(np.asarray(sds, dtype=float))
    if means_arr.ndim != 1 or means_arr.size == 0:
        raise DatasetError(f"means must be a non-empty list of numbers, got {means!r}")
    if sds_arr.shape != means_arr.shape:
        raise DatasetError(f"sds must have one entry per mean ({means_arr.size}), got {sds_arr.size}")
    for i, (mu, sd) in enumerate(zip(means_arr, sds_arr)):
        check_number(mu, f"means[{i}]")
        check_number(sd, f"sds[{i}]", minimum=0.0)
    generator = check_rng(rng)
    values = generator.normal(means_arr, sds_arr, size=(n, means_arr.size))
    if round_to is not None:
        values = np.round(values, round_to)
    columns = [f"X{j + 1}" for j in range(means_arr.size)]
    frame = pd.DataFrame(values, columns=columns)
    spec = ", ".join(f"N({mu:g}, {sd:g}^2)" for mu, sd in zip(means_arr, sds_arr))
    return with_info(frame, DatasetInfo(name=f"synthetic normal (n={n})", numeric=tuple(columns),
                                        source=f"drawn from {spec}", description="Independent normal attributes."))


# --------------------------------------------------------------------------- CSV

def _decode(raw: bytes) -> str:
    if b"\x00" in raw[:65536]:
        raise DatasetError("the file is not text (it contains NUL bytes); upload a CSV file")
    for encoding in ("utf-8-sig", "latin-1"):
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        control = sum(ch < " " and ch not in "\t\r\n" for ch in text[:65536])
        if control > 0.01 * max(1, min(len(text), 65536)):
            break
        return text
    raise DatasetError("the file could not be decoded as UTF-8 or Latin-1 text")


def load_csv(source: bytes | str | os.PathLike, *, name: str | None = None,
             max_bytes: int = DEFAULT_MAX_BYTES, max_rows: int = DEFAULT_MAX_ROWS,
             max_columns: int = DEFAULT_MAX_COLUMNS) -> pd.DataFrame:
    """Read a CSV file (bytes or a path) into a typed frame, refusing what cannot be used.

    Columns that parse as numbers become numeric; every other column becomes a
    ``category``.  Refused with a :class:`~explorer.errors.DatasetError` that says
    why: an empty file, a header without rows, a ragged row (its line number),
    text that is neither UTF-8 nor Latin-1, more than ``max_bytes`` bytes,
    ``max_rows`` rows or ``max_columns`` columns (checked before parsing), and
    duplicate or empty column names.

    Examples
    --------
    >>> load_csv(b"a,b\\n1,x\\n2,y\\n").dtypes.astype(str).tolist()
    ['int64', 'category']
    """
    max_bytes = check_int(max_bytes, "max_bytes", minimum=1)
    max_rows = check_int(max_rows, "max_rows", minimum=1)
    max_columns = check_int(max_columns, "max_columns", minimum=1)
    if isinstance(source, (bytes, bytearray, memoryview)):
        size = len(source)
        if size > max_bytes:
            raise DatasetError(f"the file has {size:,} bytes, over the limit of {max_bytes:,} bytes")
        raw = bytes(source)
        name = name or "uploaded CSV"
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.is_file():
            raise DatasetError(f"no such file: {str(path)!r}")
        size = path.stat().st_size
        if size > max_bytes:
            raise DatasetError(f"the file has {size:,} bytes, over the limit of {max_bytes:,} bytes")
        raw = path.read_bytes()
        name = name or path.name
    else:
        raise ExplorerTypeError(f"source must be bytes or a path, got {type(source).__name__}")
    if not raw.strip():
        raise DatasetError("the file is empty")
    text = _decode(raw)
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) - 1 > max_rows:
        raise DatasetError(f"the file has {len(lines) - 1:,} rows, over the limit of {max_rows:,}")
    try:
        dialect = csv.Sniffer().sniff(lines[0], delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    header = next(csv.reader([lines[0]], delimiter=delimiter))
    if len(header) > max_columns:
        raise DatasetError(f"the file has {len(header)} columns, over the limit of {max_columns}")
    stripped = [h.strip() for h in header]
    if any(not h for h in stripped):
        position = stripped.index("") + 1
        raise DatasetError(f"column {position} of the header has an empty name")
    seen: set[str] = set()
    for h in stripped:
        if h in seen:
            raise DatasetError(f"the header names column {h!r} twice")
        seen.add(h)
    body = [line for line in lines[1:]]
    if not any(line.strip() for line in body):
        raise DatasetError("the file has a header but no data rows")
    for number, row in enumerate(csv.reader(body, delimiter=delimiter), start=2):
        if not row:
            continue
        if len(row) != len(header):
            raise DatasetError(f"line {number} has {len(row)} fields, but the header has {len(header)}")
    try:
        frame = pd.read_csv(io.StringIO("\n".join(lines)), sep=delimiter, skipinitialspace=True,
                            skip_blank_lines=True)
    except (pd.errors.ParserError, ValueError) as error:
        raise DatasetError(f"the file could not be read as CSV: {error}") from None
    frame.columns = stripped
    for column in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[column].dtype) or pd.api.types.is_bool_dtype(frame[column].dtype):
            frame[column] = frame[column].astype("string").str.strip().astype("category")
    info = _infer_info(frame, name)
    return with_info(frame, replace(info, source=f"CSV file {name}"))


# --------------------------------------------------------------------------- registry

BUILTIN_DATASETS: dict[str, Callable[[], pd.DataFrame]] = {
    "UCI Adult": adult,
    "UCI Adult x 6": adult6,
    DM_EXAMPLE: domingo_muralidhar_example,
    RUIZ_EXAMPLE: ruiz_example,
    "Synthetic normal (n=1000, m=3)": lambda: synthetic_normal(1000, (100, 1000, 5000), (10, 50, 200), rng=0),
}


#: Names of earlier releases and of the tabs' former data sources, still accepted on input (configurations,
#: page addresses, notebooks, lessons) and mapped to the one name; nothing a user reads shows them.
LEGACY_NAMES: dict[str, str] = {
    "004 running example": DM_EXAMPLE,
    "002 running example": RUIZ_EXAMPLE,
    "004": DM_EXAMPLE,
    "002": RUIZ_EXAMPLE,
    "dm": DM_EXAMPLE,
    "ruiz": RUIZ_EXAMPLE,
    "Running example of Domingo-Ferrer and Muralidhar (2016), Table 1": DM_EXAMPLE,
    "Running example of Ruiz (2018), Table 1": RUIZ_EXAMPLE,
}


def canonical_name(name: str) -> str:
    """The one name of a data set given any of its names (:data:`LEGACY_NAMES` are mapped, others kept).

    Examples
    --------
    >>> canonical_name("004")
    'Domingo-Ferrer and Muralidhar (2016) example'
    >>> canonical_name("UCI Adult")
    'UCI Adult'
    """
    return LEGACY_NAMES.get(name, name) if isinstance(name, str) else name


def load_builtin(name: str) -> pd.DataFrame:
    """Load a built-in data set by its name in :data:`BUILTIN_DATASETS` (or a :data:`LEGACY_NAMES` name)."""
    try:
        loader = BUILTIN_DATASETS[canonical_name(name)]
    except (KeyError, TypeError):
        raise DatasetError(f"dataset must be one of {sorted(BUILTIN_DATASETS)}, got {name!r}") from None
    return loader()
