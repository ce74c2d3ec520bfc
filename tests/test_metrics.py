"""Geometric measures: hand-checkable configurations, batch = loop, and basic invariants."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import linteach as lt
from tolerances import IDENTITY, REORDERED

seeds = st.integers(0, 2**32 - 1)


def test_cluster_radius_and_means_by_hand():
    W = np.array([[1.0, 0.0], [3.0, 0.0], [0.0, 1.0], [0.0, -1.0]])  # k = 2
    w_bar, u_bar = lt.neuron_means(W)
    np.testing.assert_array_equal(w_bar, [2.0, 0.0])
    np.testing.assert_array_equal(u_bar, [0.0, 0.0])
    assert lt.cluster_radius(W) == 1.0
    assert lt.relative_cluster_radius(W) == 0.5
    assert lt.max_within_type_angle(W) == pytest.approx(np.pi)  # u neurons antiparallel


def test_linear_regime_by_hand():
    W = np.array([[1.0, 0.0], [1.0, 0.2], [-1.0, 0.0], [-1.0, -0.2]])  # r = 0.1, w̄−ū = (2, 0.2)
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.1, 1.0]])
    # |(w̄−ū)·x| = 2, 0.2, 0.4 against 2r‖x‖ = 0.2, 0.2, 0.201
    np.testing.assert_array_equal(lt.linear_regime(W, X), [True, True, True])
    np.testing.assert_array_equal(lt.linear_regime(W, X, c=2.1), [True, False, True])
    assert lt.fraction_outside_linear_regime(W, X, c=2.1) == pytest.approx(1 / 3)


@given(seed=seeds, alpha=st.floats(0.01, 0.99))
def test_perfectly_clustered_leaky_net_has_linear_boundary(seed, alpha):
    """r = 0 ⇒ every point is in the linear regime and sign N = sign((w−u)·x) (Cor. 6.1)."""
    rng = np.random.default_rng(seed)
    w, u = rng.standard_normal(3), rng.standard_normal(3)
    W = np.vstack([w, w, w, u, u, u])
    X = rng.standard_normal((50, 3))
    assert lt.cluster_radius(W) == 0 and lt.linear_regime(W, X).all()
    net = lt.Net(k=3, alpha=alpha)
    np.testing.assert_array_equal(np.sign(net.forward(W, X)), np.sign(X @ (w - u)))


def test_agreement_pattern_and_beta_by_hand():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    W = np.array([[1.0, 1.0], [2.0, 1.0], [-1.0, 1.0], [-1.0, 2.0]])
    a = lt.agreement(W, X)
    np.testing.assert_array_equal(a.side_w, [1, 1])
    np.testing.assert_array_equal(a.side_u, [-1, 1])
    assert a.beta == pytest.approx(1 / np.sqrt(5))  # neuron (2,1) on point (0,1) is closest
    np.testing.assert_array_equal(a.c(0.3)[1], [0.3, 1.0])


@pytest.mark.parametrize("w1, why", [
    ([2.0, -1.0], "the w neurons disagree on point (0, 1)"),
    ([2e-12, 1e-12], "a vanishing neuron has no direction, so no side"),
])
def test_no_agreement_pattern_by_hand(w1, why):
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    W = np.array([[1.0, 1.0], w1, [-1.0, 1.0], [-1.0, 2.0]])
    assert lt.agreement(W, X) is None, why


def test_in_par_and_fractions_by_hand():
    X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    y = np.array([1.0, -1.0])
    W = np.array([[1.0, 0.5], [1.0, -0.5], [-1.0, 0.0], [0.0, 1.0]])
    assert not lt.in_par(W, X, y)  # the second u neuron is orthogonal to both points
    fw, fu = lt.par_fractions(W, X, y)
    assert (fw, fu) == (1.0, 0.5)
    W[3] = [-2.0, 1.0]
    assert lt.in_par(W, X, y)


def test_max_n_diff_by_hand():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -2.0]])
    W = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 0.5], [-1.0, 0.6]])
    w_max, u_max = lt.max_n_diff(W, X)
    assert (w_max, u_max) == (2, 0)  # w neurons differ on points 2 and 3


@given(seed=seeds)
def test_metrics_batched_equal_looped(seed):
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((4, 6, 3))
    X = rng.standard_normal((7, 3))
    y = np.where(rng.random(7) < 0.5, 1.0, -1.0)
    net = lt.Net(k=3, alpha=0.3)
    for f in (lt.cluster_radius, lt.relative_cluster_radius, lt.max_within_type_angle,
              lambda W: lt.linear_regime(W, X), lambda W: lt.in_par(W, X, y),
              lambda W: lt.par_fractions(W, X, y), lambda W: lt.max_n_diff(W, X),
              lambda W: lt.normalized_margin(net, W, X, y)):
        batched = f(W)
        for r in range(4):
            looped = f(W[r])
            if isinstance(batched, tuple):
                for b, lo in zip(batched, looped):
                    np.testing.assert_array_equal(b[r], lo)
            else:
                np.testing.assert_allclose(batched[r], looped, rtol=REORDERED)


def test_smoothed_margin_metric_matches_formula(rng):
    net = lt.Net(k=2, alpha=0.3)
    X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    y = np.array([1.0, -1.0])
    W = 3 * np.array([[1.0, 0.0], [1.0, 0.1], [-1.0, 0.0], [-1.0, 0.1]])
    l_sum = net.loss(W, X, y) * 2
    expected = -np.log(np.expm1(l_sum)) / np.linalg.norm(W)
    np.testing.assert_allclose(lt.smoothed_margin(net, W, X, y), expected, rtol=IDENTITY)
    assert lt.smoothed_margin(net, W, X, y) <= lt.normalized_margin(net, W, X, y)
