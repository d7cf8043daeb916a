"""Build the shipped UCI Adult extract (explorer/core/data/adult.npz) from the raw file.

Run once by a maintainer: ``python tools/build_adult_extract.py ../shared/data/adult/adult.data``.
The extract keeps all 15 columns and all 32,561 records of ``adult.data``; ``?``
(unknown) is kept as a category of its own, as in 003 Section 6.  Categorical
columns are stored as integer codes plus their labels, numeric ones as int64,
in a compressed numpy archive: loading it takes a few milliseconds.
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd

COLUMNS = ["age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
           "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week", "native-country",
           "income"]
NUMERIC = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"]


def main(source: str, target: str = "explorer/core/data/adult.npz") -> None:
    frame = pd.read_csv(source, header=None, names=COLUMNS, skipinitialspace=True, dtype=str)
    frame = frame.dropna(how="all")
    arrays = {}
    for column in COLUMNS:
        values = frame[column].str.strip()
        if column in NUMERIC:
            arrays[f"num:{column}"] = values.astype(np.int64).to_numpy()
        else:
            if column == "education":
                # ordinal: order the labels by education-num
                order = (frame.assign(e=values).groupby("e")["education-num"].first().astype(int)
                         .sort_values().index.tolist())
                categories = order
            else:
                categories = sorted(values.unique())
            codes = pd.Categorical(values, categories=categories).codes.astype(np.int8)
            arrays[f"codes:{column}"] = codes
            arrays[f"labels:{column}"] = np.array(categories, dtype=str)
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(target, **arrays)
    print(f"wrote {target}: {len(frame)} records, {len(COLUMNS)} columns")


if __name__ == "__main__":
    main(*sys.argv[1:])
