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


# ---------------------------------------------------------------- block-diagonal programs
from linteach import assumption4 as a4  # noqa: E402
import linteach as lt  # noqa: E402
from tolerances import ORACLE  # noqa: E402


def _alone(monkeypatch, X, y):
    """``assumption4_lp`` with every point's program solved alone (blocks of one)."""
    with monkeypatch.context() as m:
        m.setattr(a4, "BLOCKS", 1)
        return convex.assumption4_lp(X, y)


def _same(res, ref):
    assert res.holds == ref.holds
    if not ref.holds:  # the witness is a point of least slack (ties at −1 are common)
        np.testing.assert_allclose(res.slack[res.witness_index], ref.slack.min(), atol=ORACLE)
    finite = np.isfinite(ref.slack)
    np.testing.assert_array_equal(np.isfinite(res.slack), finite)
    np.testing.assert_allclose(res.slack[finite], ref.slack[finite], rtol=ORACLE, atol=ORACLE)


@pytest.mark.parametrize("seed", range(6))
def test_block_programs_answer_as_the_programs_alone(monkeypatch, seed):
    rng = np.random.default_rng(seed)
    n, d = 2 * int(rng.integers(20, 45)), int(rng.integers(2, 6))  # several blocks per class
    ds = lt.make_symmetric_gaussians(n, d, rng=rng) if seed % 2 else \
        lt.make_separable(n, d, margin=0.3, rng=rng)
    y = ds.y.copy() if seed % 3 else np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[:2] = (1.0, -1.0)
    _same(convex.assumption4_lp(ds.X, y), _alone(monkeypatch, ds.X, y))


def test_a_block_with_a_point_deep_in_the_cone_is_solved_point_by_point(monkeypatch):
    # x_3 = u_0 + u_1 (unit rows of the positives): every z with z·u_i ≥ 1 on the positives
    # has z·x_3/‖x_3‖ ≥ 2/‖x_3‖ > 1, so its program is infeasible, the block's as a whole
    # too; each of its points is then solved alone
    u1 = np.array([1.0, 0.5]) / np.hypot(1.0, 0.5)
    X = np.array([[1.0, 0.0], [1.0, 0.5], [-1.0, 0.0], [1.0 + u1[0], u1[1]], [-1.0, -0.4]])
    y = np.array([1.0, 1.0, -1.0, -1.0, -1.0])
    alone = []
    monkeypatch.setattr(a4, "_a4_slack", lambda P, x, f=a4._a4_slack: alone.append(x) or f(P, x))
    res = convex.assumption4_lp(X, y)
    assert not res.holds and res.witness_index == 3 and res.slack[3] == -1.0
    assert len(alone) == 3  # the negatives' block (3 points) fell back; the positives' did not
    _same(res, _alone(monkeypatch, X, y))


def test_a_block_answer_whose_certificate_fails_is_not_used(monkeypatch):
    # HiGHS's block duals corrupted: every block's re-check fails, each point is solved alone
    ds = lt.make_symmetric_gaussians(30, 3, rng=7)  # every program feasible
    X, y = ds.X, ds.y
    real = a4.highs

    def corrupt(c, A_ub, b_ub):
        res = real(c, A_ub, b_ub)
        if hasattr(A_ub, "tocsr"):  # a block program
            res.ineqlin.marginals = 2.0 * res.ineqlin.marginals
        return res

    ref = _alone(monkeypatch, X, y)
    alone = []
    monkeypatch.setattr(a4, "highs", corrupt)
    monkeypatch.setattr(a4, "_a4_slack", lambda P, x, f=a4._a4_slack: alone.append(x) or f(P, x))
    _same(convex.assumption4_lp(X, y), ref)
    assert len(alone) == 30


def test_block_programs_are_used_and_exact_on_unit_entries_and_violations(monkeypatch):
    """On a set with entries exactly ±1 (e1, e2 among the points) and two violated points
    (slack −1: the cap z·x_j ≤ 1 binds), every program of both classes is answered by its
    block, none alone, with the slacks the per-point programs give: the blocks' matrix keeps
    every nonzero entry and the caps' right-hand side is 1."""
    X = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0], [-0.8, -0.6]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    ref = _alone(monkeypatch, X, y)
    alone = []
    monkeypatch.setattr(a4, "_a4_slack", lambda P, x, f=a4._a4_slack: alone.append(x) or f(P, x))
    res = convex.assumption4_lp(X, y)
    assert alone == []
    np.testing.assert_allclose(res.slack, ref.slack, rtol=ORACLE, atol=ORACLE)
    # by hand: x_0 = e1 against z2 ≤ −1, 0.8 z1 + 0.6 z2 ≥ 1 (so z1 ≥ 2): slack 2; x_3 against
    # z1 ≥ 1, 0.6 z1 + 0.8 z2 ≥ 1: min 0.8 z1 + 0.6 z2 = 0.35 z1 + 0.75 at z1 = 1: slack 1.1;
    # x_1 and x_2 each lie on the other side of a z positive on the other class: −1
    np.testing.assert_allclose(res.slack, [2.0, -1.0, -1.0, 1.1], atol=1e-9)
