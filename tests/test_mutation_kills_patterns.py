"""Tests written for the survivors of the population pass over the mutation target patterns
(the agreement patterns of docs/math.md §6–§7: NAR and its β, PAR(β), n_diff).  The pass let
through a point on which the w neurons are orthogonal counted as a side, and a negative β
accepted by ``in_par``."""
import re

import numpy as np
import pytest

from linteach.patterns import agreement, in_par, max_n_diff


def test_a_point_some_neuron_is_orthogonal_to_is_on_no_side():
    """ŵ·x = 0 for a neuron of a type puts that type on neither side of x (side 0): the
    sides need every product > 0 or every one < 0.  Batched, the pattern is returned with
    β = 0; the u neurons, strictly negative on both points, are on side −1 of each."""
    W = np.array([[[0.0, 1.0], [0.0, 2.0], [-1.0, -1.0], [-1.0, -2.0]]])
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    pattern = agreement(W, X)
    np.testing.assert_array_equal(pattern.side_w, [[0, 1]])
    np.testing.assert_array_equal(pattern.side_u, [[-1, -1]])
    np.testing.assert_array_equal(pattern.beta, [0.0])
    assert agreement(W[0], X) is None


@pytest.mark.parametrize("beta", [-0.5, -1e-300])
def test_a_negative_beta_is_refused(beta):
    W = np.array([[1.0], [-1.0]])
    with pytest.raises(ValueError, match=re.escape(f"`beta` must be >= 0.0, got {beta}")):
        in_par(W, [[1.0]], [1], beta=beta)


def test_a_pattern_in_an_nar_says_so_and_reads_its_sides_as_alpha_or_one():
    """Both types agree on both points: in the NAR, β the smallest |ŵ·x| (here 1/√5, of
    (2, 1)/√5 on e₂ and of (−1, −2)/√5 on e₁); c is 1 on side +1 and α elsewhere, side 0
    included."""
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    inside = agreement(np.array([[[1.0, 1.0], [2.0, 1.0], [-1.0, -1.0], [-1.0, -2.0]]]), X)
    np.testing.assert_array_equal(inside.in_nar, [True])
    np.testing.assert_allclose(inside.beta, [5.0 ** -0.5], rtol=1e-15)
    c_w, c_u = inside.c(0.25)
    np.testing.assert_array_equal(c_w, [[1.0, 1.0]])
    np.testing.assert_array_equal(c_u, [[0.25, 0.25]])
    outside = agreement(np.array([[[0.0, 1.0], [0.0, 2.0], [1.0, 0.0], [-1.0, 0.0]]]), X)
    np.testing.assert_array_equal(outside.in_nar, [False])
    np.testing.assert_array_equal(outside.side_u, [[0, 0]])
    c_w, c_u = outside.c(0.25)
    np.testing.assert_array_equal(c_w, [[0.25, 1.0]])
    np.testing.assert_array_equal(c_u, [[0.25, 0.25]])


def test_max_n_diff_of_batched_points_is_that_of_each_run_alone():
    """With run axes on X as well as W, each run's count is its own (runs of 3 points)."""
    rng = np.random.default_rng(11)
    W, X = rng.standard_normal((2, 6, 4)), rng.standard_normal((2, 3, 4))
    w_max, u_max = max_n_diff(W, X)
    for r in range(2):
        assert (w_max[r], u_max[r]) == max_n_diff(W[r], X[r])


def test_a_positive_beta_asks_for_margins_of_at_least_beta():
    """Margins y·ŵ·x of 0.6 (w neurons (0.6, 0.8)) and 1 (u neuron (−1, 0)) on x = e₁:
    in PAR(β) for β = 0.3 and 0.5 and for "some β" (β = 0), not for β = 0.7."""
    W = np.array([[0.6, 0.8], [-1.0, 0.0]])
    X, y = [[1.0, 0.0]], [1]
    assert in_par(W, X, y) and in_par(W, X, y, beta=0.5) and in_par(W, X, y, beta=0.3)
    assert not in_par(W, X, y, beta=0.7)
