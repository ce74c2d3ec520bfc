"""Tests written ahead of the population pass over the mutation target metrics-margins
(docs/math.md §4, §5: r/‖w̄ − ū‖, the within-type angle, the fraction outside the linear
regime, γ̄ and γ̃).  No claim check calls the first three (measured by
``tools/mutation_reach.py``), so these tests are their only judges: exact values on
configurations whose answers are known in closed form, at several scales, against mpmath
where a closed form is not exact in floats."""
import re

import mpmath as mp
import numpy as np
import pytest

import linteach as lt
from tolerances import REFERENCE, ULPS

SCALES = [2.0**-600, 1.0, 2.0**600]


@pytest.mark.parametrize("s", SCALES)
def test_relative_cluster_radius_is_r_over_the_gap_of_the_means(s):
    """w rows (1, 0), (3, 0) (w̄ = (2, 0), r_w = 1) and u rows (0, 2), (0, −2) (ū = 0,
    r_u = 2): r = 2 and ‖w̄ − ū‖ = 2, ratio 1; with u rows (0, 0.5), (0, −0.5) r = 1 and
    the ratio 1/2, at any scale; w̄ = ū gives inf."""
    W = np.array([[1.0, 0.0], [3.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    V = np.array([[1.0, 0.0], [3.0, 0.0], [0.0, 0.5], [0.0, -0.5]])
    np.testing.assert_array_equal(lt.relative_cluster_radius(np.stack([W, V]) * s), [1.0, 0.5])
    same = np.array([[1.0, 1.0], [3.0, 1.0], [2.0, 0.0], [2.0, 2.0]])   # w̄ = ū = (2, 1)
    assert lt.relative_cluster_radius(same * s) == np.inf
    clustered = np.array([[1.0, 1.0], [1.0, 1.0], [-2.0, 0.5], [-2.0, 0.5]])
    assert lt.relative_cluster_radius(clustered * s) == 0.0


@pytest.mark.parametrize("s", SCALES)
def test_max_within_type_angle_is_the_largest_angle_of_either_type(s):
    """w rows at 0°, 30° and 90° (largest π/2); u rows at 0° and 120° (2π/3): the answer
    is the larger, 2π/3; with u at 0° and 45° it is π/2 (the w's); a zero row is ignored."""
    def at(*deg):
        return [[np.cos(np.radians(a)), np.sin(np.radians(a))] for a in deg]
    w = at(0, 30, 90)
    W = np.array(w + at(0, 120, 120)) * s
    V = np.array(w + at(0, 45, 45)) * s
    got = lt.max_within_type_angle(np.stack([W, V]))
    np.testing.assert_allclose(got, [2 * np.pi / 3, np.pi / 2], rtol=REFERENCE)
    Z = np.array(at(0, 30, 90) + [[0.0, 0.0], [1.0, 0.0], [1.0, 1e-3]]) * s
    np.testing.assert_allclose(lt.max_within_type_angle(Z), np.pi / 2, rtol=REFERENCE)
    np.testing.assert_allclose(lt.max_within_type_angle(np.array(at(10, 10, 10) + at(5, 5, 5))
                                                        * s), 0.0, atol=ULPS)


def test_max_within_type_angle_is_accurate_near_zero_and_pi():
    """Two w rows at angle 1e-9 and two u rows at π − 1e-9: those angles to a few ulps
    (arccos of a rounded cosine would be off by ~1e-8 near 0)."""
    t = 1e-9
    W = np.array([[1.0, 0.0], [np.cos(t), np.sin(t)], [1.0, 0.0], [1.0, 0.0]])
    np.testing.assert_allclose(lt.max_within_type_angle(W), t, rtol=1e-6)
    U = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [-np.cos(t), np.sin(t)]])
    np.testing.assert_allclose(lt.max_within_type_angle(U), np.pi - t, rtol=REFERENCE)


@pytest.mark.parametrize("s", SCALES)
def test_fraction_outside_the_linear_regime_counts_strictly_inside_the_band(s):
    """w rows (1, ±3/2) and u rows (−4, 0): w̄ − ū = (5, 0), r = 3/2, so with c = 2 the band
    is |5x₁| < 3‖x‖.  Of (3, 4) (exactly on its edge: 15 = 2·(3/2)·5, every step exact),
    (0, 1), (1, 0), (1, 1) and (1/2, 1), two are strictly inside it: (0, 1) and (1/2, 1);
    the edge point is in the linear regime (≥).  c = 0 puts every point in the regime, a
    large c none."""
    W = np.array([[1.0, 1.5], [1.0, -1.5], [-4.0, 0.0], [-4.0, 0.0]]) * s
    X = np.array([[3.0, 4.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.5, 1.0]])
    np.testing.assert_array_equal(lt.linear_regime(W, X), [True, False, True, True, False])
    assert lt.fraction_outside_linear_regime(W, X) == 0.4
    assert lt.fraction_outside_linear_regime(W, X, c=0.0) == 0.0
    assert lt.fraction_outside_linear_regime(W, X, c=100.0) == 1.0
    # c = 1: only (0, 1) is inside |5x₁| < (3/2)‖x‖, per run of a batch
    np.testing.assert_allclose(lt.fraction_outside_linear_regime(np.stack([W, W]), X, c=1.0),
                               [0.2, 0.2], rtol=ULPS)


@pytest.mark.parametrize("s", SCALES)
def test_normalized_margin_is_the_smallest_margin_over_the_norm(s):
    """γ̄ = min_i y_i N_W(x_i)/‖W‖_F, scale-free: k = 1, α = 0.25, W rows (3, 0), (0, 4)
    (‖W‖ = 5); margins of (1, 0) (+1): 3; of (0, 1) (−1): 4; of (1, 1) (+1): 3 − 4 = −1, so
    γ̄ = −1/5 and, without the last point, 3/5."""
    net = lt.Net(k=1, alpha=0.25)
    W = np.array([[3.0, 0.0], [0.0, 4.0]]) * s
    X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1.0, -1.0, 1.0])
    np.testing.assert_allclose(lt.normalized_margin(net, W, X, y), -0.2, rtol=ULPS)
    np.testing.assert_allclose(lt.normalized_margin(net, W, X[:2], y[:2]), 0.6, rtol=ULPS)
    with pytest.raises(ValueError, match="`W` must be nonzero"):
        lt.normalized_margin(net, np.zeros((2, 2)), X, y)


def _mp_smoothed(margins_hat, log_norm):
    """γ̃ = −log(e^{L_sum} − 1)/‖W‖ with L_sum = Σ log(1 + e^{−‖W‖q̂_i}), in mpmath."""
    with mp.workdps(60):
        norm = mp.exp(mp.mpf(log_norm))
        l_sum = mp.fsum(mp.log1p(mp.exp(-norm * mp.mpf(q))) for q in margins_hat)
        return float(-mp.log(mp.expm1(l_sum)) / norm)


@pytest.mark.parametrize("e", [-3, 0, 5, 399, 400, 401, 700])
def test_smoothed_margin_is_its_definition_on_both_sides_of_the_switch(e):
    """γ̃ of W = 2^e·W₀ (‖W₀‖ = 5, margins 3 and 4 per unit W₀), against mpmath: the direct
    formula up to ‖W₀‖-scaled 2^400, the split one past it, with the same answer."""
    net = lt.Net(k=1, alpha=0.25)
    W0 = np.array([[3.0, 0.0], [0.0, 4.0]])
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    W = np.ldexp(W0, e)
    want = _mp_smoothed([3.0 / 5.0, 4.0 / 5.0], np.log(5.0) + e * np.log(2.0))
    np.testing.assert_allclose(lt.smoothed_margin(net, W, X, y), want, rtol=REFERENCE)


def _direct_smoothed(net, W, X, y):
    """The direct formula γ̃ = smoothed_margin_from(log L_sum(q), log ‖W‖) of the margins."""
    from linteach import loss
    return loss.smoothed_margin_from(loss.log_sum_loss(net.margins(W, X, y)),
                                     np.log(np.linalg.norm(W, axis=(-2, -1))))


@pytest.mark.parametrize("e", [0, 1, 397])
def test_smoothed_margin_is_the_direct_formula_bit_for_bit_up_to_2_to_the_400(e):
    """Up to a scale exponent of 400 (W's direction times 2^e', |e'| ≤ 400, inclusive:
    W₀·2^397 has e' = 400) γ̃ is the direct formula bit for bit, as the trainers evaluate
    it; the split evaluation differs from it in the last bits there (checked: the premise),
    for a batch of two runs as for one."""
    net = lt.Net(k=1, alpha=0.25)
    W0 = np.array([[3.0, 0.1], [0.2, 4.0]])
    X, y = np.array([[1.0, 0.3], [0.7, 1.0], [0.1, -0.2]]), np.array([1.0, -1.0, 1.0])
    W = np.ldexp(W0, e)
    assert lt.smoothed_margin(net, W, X, y) == _direct_smoothed(net, W, X, y)
    batch = np.stack([W, 2.0 * W if e < 397 else W])
    np.testing.assert_array_equal(lt.smoothed_margin(net, batch, X, y),
                                  _direct_smoothed(net, batch, X, y))
    if e == 397:  # the premise: past the switch the split evaluation is another number
        assert lt.smoothed_margin(net, 2.0 * W, X, y) != _direct_smoothed(net, 2.0 * W, X, y)


@pytest.mark.parametrize("e", [-401, -450, -700])
def test_smoothed_margin_of_a_tiny_w_is_its_definition(e):
    """‖W‖ = 5·2^e far below 1: every margin is tiny, L_sum ≈ 2 log 2 and γ̃ ≈ −log 3/‖W‖,
    a huge negative number set by log ‖W‖ (the split evaluation), against mpmath."""
    net = lt.Net(k=1, alpha=0.25)
    W0 = np.array([[3.0, 0.0], [0.0, 4.0]])
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    want = _mp_smoothed([3.0 / 5.0, 4.0 / 5.0], np.log(5.0) + e * np.log(2.0))
    np.testing.assert_allclose(lt.smoothed_margin(net, np.ldexp(W0, e), X, y), want,
                               rtol=REFERENCE)


def test_the_band_s_c_is_keyword_only():
    """c is keyword-only in fraction_outside_linear_regime, as in linear_regime."""
    W, X = np.array([[1.0, 0.5], [1.0, -0.5], [-1.0, 0.0], [-1.0, 0.0]]), np.ones((2, 2))
    with pytest.raises(TypeError):
        lt.fraction_outside_linear_regime(W, X, 2.0)


@pytest.mark.parametrize("W_shape, X_shape, dW, dX", [((3, 4, 2), (2, 5, 3), 2, 3),
                                                      ((3, 4, 3), (2, 5, 2), 3, 2)])
def test_w_and_x_of_other_input_dimensions_are_named_with_both(W_shape, X_shape, dW, dX):
    """Batched W and X whose last axes differ, either way: the message gives both d's (the
    last axes, not a run axis)."""
    with pytest.raises(ValueError, match=re.escape(f"`W` has input dimension {dW} but `X` has "
                                                   f"d = {dX}")):
        lt.linear_regime(np.ones(W_shape), np.ones(X_shape))


def test_the_metrics_need_w_of_two_axes_and_an_even_row_count():
    with pytest.raises(ValueError, match=re.escape("`W` must have at least 2 axes")):
        lt.cluster_radius(np.ones(3))
    with pytest.raises(ValueError, match=re.escape("`W` must have shape (..., 2k, d) with k >= 1")):
        lt.cluster_radius(np.ones((3, 2)))


def test_batched_x_of_the_same_input_dimension_is_accepted():
    """W (4, 3) with X of two runs of five points in d = 3: the dimension rule reads X's last
    axis only."""
    assert lt.linear_regime(np.ones((4, 3)), np.ones((2, 5, 3))).shape == (2, 5)
