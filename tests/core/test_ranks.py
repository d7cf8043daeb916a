"""Average ranks without scipy.stats, and which core modules import it."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(deadline=None)   # the first example imports scipy.stats
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=60))
def test_average_ranks_equal_scipys_rankdata(values):
    from scipy.stats import rankdata

    from explorer.core.permutation.ranking import _average_ranks

    np.testing.assert_array_equal(_average_ranks(np.asarray(values, dtype=float)),
                                  rankdata(values, method="average"))


@pytest.mark.slow
def test_the_rr_and_permutation_cores_do_not_import_scipy_stats():
    """scipy.stats costs a kernel about a second of CPU: the tabs a visitor opens must not need it."""
    import subprocess
    import sys

    code = ("import sys, explorer.core.rr.estimation, explorer.core.permutation.ranking, explorer.core.permutation; "
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
