"""Regression: Assumption 4 LPs on which HiGHS's simplex ends with "model status unknown"."""
import numpy as np
import pytest

from linteach import convex
from linteach.generators import unit_rows
from proofs_check.kit import followup

#: min2024's control family (n 20, d 5, angle 0.35, label 2 flipped): these seeds made the
#: simplex end with status 4 on one point's LP and `assumption4_lp` raised SolverError
UNKNOWN_STATUS_SEEDS = (272, 288)


@pytest.mark.parametrize("seed", UNKNOWN_STATUS_SEEDS)
def test_assumption4_is_decided_with_a_witness_on_flipped_label_sets(seed):
    X, y = followup.mu_separated(np.random.default_rng(seed), 20, 5, angle=0.35)
    y = y.copy()
    y[2] = -y[2]
    res = convex.assumption4_lp(unit_rows(X), y)
    assert not res.holds
    # the witness, re-checked here (its documented meaning): z·x_i ≥ 1 on the other class,
    # z·x_j not negative (up to the margin)
    j, z, U = res.witness_index, res.witness, unit_rows(X)
    assert np.min(U[y == -y[j]] @ z) >= 1 - 1e-9
    assert U[j] @ z >= -res.margin


def test_the_witness_of_rows_whose_norms_overflow_is_that_of_the_rows_scaled_down():
    """A failing Assumption 4 on rows whose norms all pass float64 (entries ~1.5e308) has a
    representable witness: the witness of the same rows scaled by 2^-1000 (exact), scaled by
    2^-1000 in turn (z·x_i is unchanged).  It used to be the error "the witness leaves
    float64", because the minimum of z·x_i was taken on the rows rebuilt from their norms."""
    X = np.array([[1.5e308, 1.5e308], [1.5e308, -1e308], [-1.5e308, -1.2e308]])
    y = np.array([1.0, 1.0, -1.0])
    with np.errstate(over="ignore"):  # the premise: every norm passes float64
        assert not np.any(np.isfinite(np.linalg.norm(X, axis=1)))
    big, small = convex.assumption4_lp(X, y), convex.assumption4_lp(X * 2.0**-1000, y)
    assert not big.holds and big.witness_index == small.witness_index
    np.testing.assert_array_equal(big.witness, np.ldexp(small.witness, -1000))
    # its documented meaning on the points as given: min z·x_i = 1 on the other class
    other = X[y == -y[big.witness_index]] * 2.0**-1000
    np.testing.assert_allclose((other @ np.ldexp(big.witness, 1000)).min(), 1.0, rtol=1e-14)
