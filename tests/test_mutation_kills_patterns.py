"""Tests written for the survivors of the population pass over the mutation target patterns
(the agreement patterns of docs/math.md §6–§7: NAR and its β, PAR(β), n_diff).  The pass let
through a point on which the w neurons are orthogonal counted as a side, and a negative β
accepted by ``in_par``."""
import re

import numpy as np
import pytest

from linteach._scale import norms
from linteach.patterns import (VANISHING, agreement, in_par, max_n_diff, par_fractions,
                               par_margins)


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


def _with_small_u_neuron(t):
    """w neurons (0.9, 0.9), (0.9, 0.8), u neurons (−0.9, −0.9), (−t, 0): both types agree on
    x = (1, 1) when the small neuron counts, and ‖W‖ (≈ 2.2) does not see it."""
    return np.array([[0.9, 0.9], [0.9, 0.8], [-0.9, -0.9], [-t, 0.0]])


def test_a_neuron_of_norm_at_most_vanishing_times_the_net_s_norm_has_no_direction():
    """Vanishing means ‖u‖ ≤ VANISHING·‖W‖ (the threshold scales with ‖W‖, here ≈ 2.2, and
    includes the boundary): at the threshold and at half of it the u type agrees on no
    point (no NAR); at twice it the small neuron's direction counts (an NAR)."""
    X = np.array([[1.0, 1.0]])
    W_norm = norms(_with_small_u_neuron(0.0).reshape(-1))
    threshold = VANISHING * W_norm
    assert norms(_with_small_u_neuron(threshold).reshape(-1)) == W_norm
    assert agreement(_with_small_u_neuron(threshold), X) is None
    assert agreement(_with_small_u_neuron(threshold / 2), X) is None
    assert agreement(_with_small_u_neuron(2 * threshold), X) is not None


def test_the_vanishing_threshold_is_each_run_s_own():
    """Batched runs of very different ‖W‖ (d = 100: all entries 0.9, ‖W‖ = 18; or one
    entry per neuron, ‖W‖ ≈ 1.6) each use their own norm: the small u neuron of norm 1e-8
    (above 1e-9·1.6, below 1e-9·18) counts in the second run alone, as when it runs alone."""
    d = 100
    big = np.full((4, d), 0.9) * np.array([[1.0], [1.0], [-1.0], [-1.0]])
    small = np.zeros((4, d))
    small[:3, 0] = [0.9, 0.8, -0.9]
    small[3, 0] = -1e-8
    X = np.ones((1, d))
    batched = agreement(np.stack([big, small]), X)
    alone = [agreement(big, X), agreement(small, X)]
    np.testing.assert_array_equal(batched.in_nar, [a is not None for a in alone])
    np.testing.assert_array_equal(batched.in_nar, [True, True])


def test_par_margins_are_y_times_the_unit_neurons_products():
    """``y_i ŵ·x_i`` and ``−y_i û·x_i``: 0.6 and 1 for the (0.6, 0.8) and (−1, 0) neurons on
    x = e₁ with y = 1; −0.6 and −1 with y = −1."""
    W, X = np.array([[0.6, 0.8], [-1.0, 0.0]]), [[1.0, 0.0]]
    for y, sign in ((1, 1.0), (-1, -1.0)):
        mw, mu = par_margins(W, X, [y])
        np.testing.assert_allclose(mw, [[sign * 0.6]], rtol=1e-15)
        np.testing.assert_allclose(mu, [[sign * 1.0]], rtol=1e-15)


def test_in_par_holds_at_a_margin_equal_to_beta_and_takes_beta_by_keyword_only():
    """PAR(β) asks margins ≥ β: a margin of exactly 0.5 is in PAR(0.5).  β is keyword-only."""
    W, X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), [[0.5, 0.0]], [1]
    assert in_par(W, X, y, beta=0.5)
    with pytest.raises(TypeError):
        in_par(W, X, y, 0.5)


def test_a_neuron_orthogonal_to_a_point_is_not_in_par_by_itself():
    """par_fractions counts a neuron in PAR when every margin is > 0: a w neuron with
    margin exactly 0 on a point is not (1 of 2), a u neuron with a margin 0 neither."""
    W = np.array([[1.0, 1.0], [0.0, 1.0], [-1.0, -1.0], [-1.0, 0.0]])
    X, y = [[1.0, 0.0], [0.0, 1.0]], [1, 1]
    fw, fu = par_fractions(W, X, y)
    assert fw == 0.5 and fu == 0.5
