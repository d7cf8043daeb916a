"""chi2_factor (the stdlib's normal quantile, squared) equals scipy's chi-square quantile with one degree of freedom."""

from __future__ import annotations

import pytest
from scipy import special, stats

from explorer.core.rr.estimation import chi2_factor


@pytest.mark.parametrize("r", [1, 2, 3, 7, 100, 10**6])
@pytest.mark.parametrize("alpha", [1e-12, 1e-6, 0.001, 0.05, 0.1, 0.5, 0.95])
def test_chi2_factor_is_scipys_chi_square_quantile(r, alpha):
    assert chi2_factor(r, alpha) == pytest.approx(special.chdtri(1, alpha / r), rel=1e-12)
    assert chi2_factor(r, alpha) == pytest.approx(stats.chi2.isf(alpha / r, 1), rel=1e-9)


def test_a_dense_matrix_is_inverted_as_scipy_does_and_a_singular_one_refused():
    import numpy as np
    from scipy import linalg

    from explorer.core.rr.estimation import inversion_estimate
    from explorer.errors import SingularMatrixError

    rng = np.random.default_rng(0)
    for r in (2, 5, 40):
        p = rng.random((r, r)) + np.eye(r) * r
        p /= p.sum(axis=1, keepdims=True)                     # a row-stochastic RR matrix, Pr(Y=v | X=u)
        lam = rng.dirichlet(np.ones(r))
        np.testing.assert_allclose(inversion_estimate(p, lam), linalg.solve(p.T, lam), rtol=1e-10, atol=1e-12)
    with pytest.raises(SingularMatrixError, match="singular"):
        inversion_estimate(np.full((3, 3), 1 / 3), [0.2, 0.3, 0.5])  # perfect secrecy: constant columns
