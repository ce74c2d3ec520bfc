"""Tests written to kill mutants of the convex programs and Assumption 4's LPs that survived
``make mutate`` (docs/mutation.md, targets ``convex`` and ``assumption4``).

Each test pins one documented behaviour that no other test or claim check distinguished from a
small mutation of it.  Expected values are derived by hand in the docstrings.
"""
import numpy as np
import pytest
import scipy.sparse as sp

from linteach import assumption4, convex
from linteach.errors import SolverError


# -- linteach.assumption4.lp_feasible -----------------------------------------------------------
@pytest.mark.parametrize("sparse", [False, True])
def test_lp_feasible_with_a_zero_right_hand_side_is_feasible(sparse):
    """``Gθ ≥ 0`` always holds at θ = 0, whatever G (and no entry of h sets the scale)."""
    G = np.array([[1.0, -2.0], [-3.0, 0.5], [0.0, 1.0]])
    assert assumption4.lp_feasible(sp.csr_matrix(G) if sparse else G, np.zeros(3)) is True


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("scale", [1e-300, 1.0, 1e300])
def test_lp_feasible_decides_an_interval_at_any_scale(sparse, scale):
    """One unknown: ``s·θ ≥ s`` and ``−s·θ ≥ −2s`` is θ ∈ [1, 2] (feasible); ``s·θ ≥ 2s`` and
    ``−s·θ ≥ −s`` is θ ∈ [2, 1] (empty).  Both at s = 1e-300, 1, 1e300 (the row and h
    rescaling must not change the answer)."""
    G = np.array([[scale], [-scale]])
    wrap = sp.csr_matrix if sparse else np.asarray
    assert assumption4.lp_feasible(wrap(G), np.array([scale, -2.0 * scale])) is True
    assert assumption4.lp_feasible(wrap(G), np.array([2.0 * scale, -scale])) is False


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_lp_feasible_decides_an_interval_whose_bounds_alone_are_extreme(scale):
    """``θ ≥ s`` and ``−θ ≥ −2s`` is θ ∈ [s, 2s] (feasible); ``θ ≥ 2s`` and ``−θ ≥ −s`` is
    empty, for s = 1e-300 and 1e300 while G is of order one: h must be brought to order one
    too (left as is, 1e-300 is inside any solver tolerance of 0, and 1e300 past its infinity)."""
    G = np.array([[1.0], [-1.0]])
    assert assumption4.lp_feasible(G, np.array([scale, -2.0 * scale])) is True
    assert assumption4.lp_feasible(G, np.array([2.0 * scale, -scale])) is False


# -- linteach.assumption4.assumption4_lp --------------------------------------------------------
#: positives e1, e2 and one negative −e1
X_L = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
Y_L = np.array([1.0, 1.0, -1.0])


def test_assumption4_slacks_of_a_small_set_by_hand():
    """X_L by hand.  Negative j = 2: max z·(−e1) s.t. z1 ≥ 1, z2 ≥ 1, −z1 ≤ 1 is −1 (z1 = 1),
    slack +1.  Positive j = 0: max z·(−e1) s.t. z1 ≥ 1 (the negative class flipped), −z1 ≤ 1
    is −1, slack +1.  Positive j = 1: max −z2 s.t. z1 ≥ 1, −z2 ≤ 1 is 1 (z2 = −1), slack −1:
    z = (1, −1) is negative on the negative point and on the positive e2, so it fails at j = 1."""
    res = assumption4.assumption4_lp(X_L, Y_L)
    np.testing.assert_allclose(res.slack, [1.0, -1.0, 1.0], atol=1e-9)
    assert not res.holds and res.witness_index == 1


def test_assumption4_refuses_a_dual_certificate_that_does_not_re_check(monkeypatch):
    """The LP's dual is re-checked in NumPy, stationarity first.  For X_L's negative point the
    dual is unique: ``−e1 (a_b − 1) = a_1 e1 + a_2 e2`` with the last constraint inactive
    (a_b = 0) gives a = (1, 0, 0).  Swapping the two positive points' multipliers keeps a ≥ 0
    and the duality gap (Σa is unchanged) but breaks stationarity by ‖(1, −1)‖ = √2, against
    an allowance of 1e-7 · (Σ|a| + 1) · max|A| = 2e-7: it must raise."""
    real = assumption4.highs

    def swapped(c, A_ub, b_ub):
        res = real(c, A_ub, b_ub)
        if np.any(c) and len(b_ub) == 3:  # the slack LP of the negative point
            m = res.ineqlin.marginals
            m[:2] = m[1::-1].copy()
        return res

    monkeypatch.setattr(assumption4, "highs", swapped)
    with pytest.raises(SolverError, match="dual certificate failed"):
        assumption4.assumption4_lp(X_L, Y_L)


def test_assumption4_point_deep_in_the_other_cone_has_slack_minus_one():
    """The documented value of a strict violation is −1: the negative (1, 1)/√2 lies deep in
    the positives' cone (z1, z2 ≥ 1 give z·x = (z1 + z2)/√2 ≥ √2 > 1, so the slack LP is
    infeasible) and a z positive on e1, e2 is positive on it."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]) / np.array([[1.0], [1.0], [np.sqrt(2)]])
    res = assumption4.assumption4_lp(X, [1.0, 1.0, -1.0])
    assert res.slack[2] == -1.0 and not res.holds


def test_assumption4_refuses_an_infeasible_answer_its_own_feasibility_lp_contradicts(
        monkeypatch):
    """If HiGHS calls X_L's negative point's slack LP infeasible (status 2: every z with
    z1, z2 ≥ 1 would have z·(−e1) > 1) while the feasibility LP returns a z with z1 ≥ 1, so
    z·(−e1) = −z1 < 0, the two answers contradict each other: SolverError, not a violation."""
    real = assumption4.highs

    def infeasible(c, A_ub, b_ub):
        res = real(c, A_ub, b_ub)
        if np.any(c) and len(b_ub) == 3:
            res.status = 2
        return res

    monkeypatch.setattr(assumption4, "highs", infeasible)
    with pytest.raises(SolverError, match="HiGHS status 2"):
        assumption4.assumption4_lp(X_L, Y_L)


def test_assumption4_with_the_origin_as_a_point_fails_at_it_without_warnings():
    """z·0 = 0 for every z: a point at the origin is never strictly on either side, so its
    slack is 0 (borderline: fails).  Its row is not normalised (nothing to divide by)."""
    res = assumption4.assumption4_lp([[0.0, 0.0], [1.0, 0.0], [-1.0, 0.0]], [1, 1, -1])
    assert res.slack[0] == 0.0 and not res.holds and res.witness_index == 0


def test_assumption4_with_one_point_names_its_only_class():
    with pytest.raises(ValueError, match=r"both classes for Assumption 4, got only \+1"):
        assumption4.assumption4_lp([[1.0]], [1])


# -- linteach.convex --------------------------------------------------------------------------
def test_eq8_kernel_dual_solver_is_keyword_only():
    """``solver`` follows ``*`` in the signature: passing it by position is a TypeError."""
    with pytest.raises(TypeError):
        convex.eq8_kernel_dual([[1.0, 0.0], [-1.0, 0.0]], [1, -1], 0.5, "CLARABEL")
