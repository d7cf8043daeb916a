"""Every formula, algorithm, masking method, data set and experiment of the explorer, grouped by model.

numpy, pandas and scipy only: nothing here imports widgets or plotting (import-linter contracts in
``pyproject.toml`` check it).

Packages, one per model:

:mod:`explorer.core.rr`
    Randomized response and PRAM: matrices, epsilon, randomizing, frequency estimation.
:mod:`explorer.core.mdrr`
    Multi-dimensional randomized response: RR-Independent, RR-Joint, RR-Clusters, RR-Adjustment.
:mod:`explorer.core.closeness`
    t-closeness and differential privacy: ratio distance, clusterings, cluster profiles.
:mod:`explorer.core.permutation`
    The permutation paradigm: ranks, reverse mapping, permutation distance, permuted privacy, intruder.
:mod:`explorer.core.dominance`
    Power-mean measures of risk and loss, dominance, calibration.

Modules shared by several models: :mod:`~explorer.core.deniability`, :mod:`~explorer.core.epsilon_meaning`,
:mod:`~explorer.core.epsilon_choice`, :mod:`~explorer.core.datasets`, :mod:`~explorer.core.masking`, :mod:`~explorer.core.cost`,
:mod:`~explorer.core.export`.

The module paths of release 0.1 (``explorer.core.rr_mechanisms``, ``explorer.core.t_closeness``, ...)
still import, with a :class:`DeprecationWarning` naming the new path (:data:`MOVED`); they go in the next
release.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

#: Module paths of release 0.1 and where their contents live now.
MOVED = {
    "randomized_response": "rr", "rr_mechanisms": "rr.mechanisms", "rr_estimation": "rr.estimation",
    "rr_simulation": "rr.simulation",
    "multidim_rr": "mdrr", "rr_protocols": "mdrr.protocols", "rr_dependence": "mdrr.dependence",
    "rr_adjustment": "mdrr.adjustment", "rr_count_queries": "mdrr.count_queries", "experiments": "mdrr.experiments",
    "t_closeness": "closeness", "closeness_distance": "closeness.distance", "cluster_profile": "closeness.profile",
    "microaggregation": "closeness.microaggregation", "t_close_merging": "closeness.merging",
    "ranks": "permutation.ranking", "reverse_mapping": "permutation.reverse_mapping",
    "permutation_distance": "permutation.distance", "permuted_privacy": "permutation.privacy",
    "intruder": "permutation.intruder",
    "displacement": "dominance.displacement", "power_means": "dominance.means", "risk_loss": "dominance.risk_loss",
    "masking_comparison": "dominance.comparison", "calibration": "dominance.calibration",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old module path as the module that holds its contents now, with a DeprecationWarning."""

    def find_spec(self, fullname, path=None, target=None):
        prefix, _, name = fullname.rpartition(".")
        if prefix != __name__ or name not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        new = f"{__name__}.{MOVED[spec.name.rpartition('.')[2]]}"
        warnings.warn(f"{spec.name} moved to {new}; the old path goes in the next release",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module):
        """Nothing to run: the module is the one that holds the contents now."""


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModules())
