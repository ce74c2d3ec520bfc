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
