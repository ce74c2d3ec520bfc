"""The network: gradient = central differences = a naive loop of Eq. 3; symmetries of Eq. 1."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import linteach as lt
from linteach._kernels import Fused, flow_state, grad_over_loss
from linteach.testing import GRAD_RTOL, gradient_check, kink_distance
from tolerances import (CANCELLATION, GRADIENT_FLOOR, HOMOGENEOUS, HOMOGENEOUS_FLOOR, IDENTITY,
                        OTHER_ROUTE, REORDERED, SUM_FLOOR, ULPS_FLOOR)

seeds = st.integers(0, 2**32 - 1)
alphas = st.floats(0.05, 0.95)


def _case(seed, k=3, d=4, n=7, scale=1.0, alpha=0.3, v=1.0):
    """A random net and data, redrawn until every pre-activation is away from its kink."""
    rng = np.random.default_rng(seed)
    net = lt.Net(k=k, alpha=alpha, v=v)
    while True:
        W = net.init(d, scale=scale, rng=rng)
        X = rng.standard_normal((n, d))
        if kink_distance(W, X) > 1e-3:
            return net, W, X, np.where(rng.random(n) < 0.5, 1.0, -1.0)


def naive_loss_and_grad(net, W, X, y):
    """Oracle: Eq. 1–3 written neuron by neuron, example by example (no vectorisation)."""
    k, (n, d) = net.k, X.shape
    sigma = lambda z: z if z > 0 else net.alpha * z  # noqa: E731
    dsigma = lambda z: 1.0 if z > 0 else net.alpha  # noqa: E731  (σ'(0) = α)
    L, G = 0.0, np.zeros_like(W)
    for i in range(n):
        out = sum(net.v * sigma(W[j] @ X[i]) for j in range(k)) \
            - sum(net.v * sigma(W[k + j] @ X[i]) for j in range(k))
        q = y[i] * out
        L += np.log1p(np.exp(-q)) / n
        g = 1.0 / (1.0 + np.exp(q))
        for j in range(k):  # Eq. 3 is the negative of these gradient terms, times η
            G[j] -= net.v * g * dsigma(W[j] @ X[i]) * y[i] * X[i] / n
            G[k + j] += net.v * g * dsigma(W[k + j] @ X[i]) * y[i] * X[i] / n
    return L, G


@given(seed=seeds, alpha=alphas, v=st.floats(0.2, 3.0))
def test_gradient_matches_central_differences(seed, alpha, v):
    net, W, X, y = _case(seed, alpha=alpha, v=v)
    assert gradient_check(net, W, X, y, rng=np.random.default_rng(seed)) < GRAD_RTOL


@given(seed=seeds, alpha=st.floats(0.0, 0.95))
def test_gradient_matches_naive_loop_of_eq3(seed, alpha):
    net, W, X, y = _case(seed, alpha=alpha, v=0.7)
    L, G = net.loss_and_grad(W, X, y)
    L0, G0 = naive_loss_and_grad(net, W, X, y)
    np.testing.assert_allclose(L, L0, rtol=IDENTITY)
    np.testing.assert_allclose(G, G0, rtol=OTHER_ROUTE, atol=GRADIENT_FLOOR)


@given(seed=seeds)
def test_batched_equals_looped(seed):
    rng = np.random.default_rng(seed)
    net = lt.Net(k=2, alpha=0.4)
    W = net.init(3, scale=1.0, rng=rng, batch=(2, 3))
    X = rng.standard_normal((2, 3, 5, 3))
    y = np.where(rng.random((2, 3, 5)) < 0.5, 1.0, -1.0)
    L, G = net.loss_and_grad(W, X, y)
    for a in range(2):
        for b in range(3):
            La, Ga = net.loss_and_grad(W[a, b], X[a, b], y[a, b])
            np.testing.assert_allclose(L[a, b], La, rtol=REORDERED)
            np.testing.assert_allclose(G[a, b], Ga, rtol=REORDERED, atol=ULPS_FLOOR)


@given(seed=seeds)
def test_shared_X_broadcasts_against_batched_W(seed):
    rng = np.random.default_rng(seed)
    net = lt.Net(k=2, alpha=0.4)
    W = net.init(3, scale=1.0, rng=rng, batch=(2, 3))
    X = rng.standard_normal((5, 3))
    np.testing.assert_allclose(net.forward(W, X),
                               np.stack([[net.forward(W[a, b], X) for b in range(3)]
                                         for a in range(2)]), rtol=REORDERED)


@given(seed=seeds, c=st.floats(1e-3, 1e3))
def test_one_homogeneous(seed, c):
    net, W, X, _ = _case(seed)
    np.testing.assert_allclose(net.forward(c * W, X), c * net.forward(W, X), rtol=HOMOGENEOUS,
                               atol=HOMOGENEOUS_FLOOR * c)


@given(seed=seeds)
def test_euler_identity_W_dot_grad_N_equals_N(seed):
    net, W, X, _ = _case(seed)
    grads = net.grad_output(W, X)  # (n, 2k, d)
    np.testing.assert_allclose(np.einsum("jd,njd->n", W, grads), net.forward(W, X),
                               rtol=HOMOGENEOUS, atol=HOMOGENEOUS_FLOOR)


@given(seed=seeds)
def test_permuting_neurons_within_a_type_leaves_output_unchanged(seed):
    net, W, X, _ = _case(seed, k=4)
    perm = np.random.default_rng(seed).permutation(4)
    Wp = np.vstack([W[:4][perm], W[4:][perm[::-1]]])
    np.testing.assert_allclose(net.forward(Wp, X), net.forward(W, X), rtol=IDENTITY, atol=SUM_FLOOR)


@given(seed=seeds)
def test_swapping_w_and_u_blocks_negates_output(seed):
    net, W, X, _ = _case(seed, k=3)
    np.testing.assert_allclose(net.forward(np.vstack([W[3:], W[:3]]), X), -net.forward(W, X),
                               rtol=IDENTITY, atol=SUM_FLOOR)


@pytest.mark.parametrize("alpha", [0.0, 0.3, 0.9])
def test_slope_convention_sigma_prime_at_zero_is_alpha(alpha):
    net = lt.Net(k=1, alpha=alpha)
    z = np.array([-2.0, 0.0, 3.0])
    np.testing.assert_array_equal(net.slope(z), [alpha, alpha, 1.0])
    # σ(z) = σ'(z) z, and the gradient at an exact kink uses σ'(0) = α
    W = np.array([[1.0, 0.0], [0.0, 1.0]])
    X = np.array([[0.0, 1.0]])  # w·x = 0 exactly
    grads = net.grad_output(W, X)[0]
    np.testing.assert_allclose(grads[0], alpha * X[0], atol=0)


def _normalized_grad(net, direction, X, y, log_norm):
    """``(log L_sum, ∇L/L)`` through the trainers' seam, as the normalized flow forms them."""
    kernel = Fused(net)
    q_hat, (lead, rest, log_w), pre = flow_state(kernel, direction, X, y, log_norm)
    G, _, log_gnorm = grad_over_loss(kernel, pre, X, y, log_w)
    return lt.loss.log_sum_loss_scaled(lead, rest, log_norm), G, log_gnorm


def test_normalized_grad_is_gradient_over_loss(rng):
    net = lt.Net(k=3, alpha=0.3)
    W = net.init(4, scale=0.5, rng=rng)
    X, y = rng.standard_normal((6, 4)), np.where(rng.random(6) < 0.5, 1.0, -1.0)
    L, G = net.loss_and_grad(W, X, y)
    norm = np.linalg.norm(W)
    log_lsum, Gn, log_gnorm = _normalized_grad(net, W / norm, X, y, np.log(norm))
    np.testing.assert_allclose(np.exp(log_lsum), 6 * L, rtol=IDENTITY)
    np.testing.assert_allclose(Gn, G / L, rtol=OTHER_ROUTE, atol=GRADIENT_FLOOR)
    np.testing.assert_allclose(log_gnorm, np.log(np.linalg.norm(G / L)), rtol=IDENTITY)


def test_normalized_grad_finite_far_past_float_range():
    net = lt.Net(k=2, alpha=0.3)
    X = np.array([[1.0, 0.2], [-1.0, 0.1]])
    y = np.array([1.0, -1.0])
    direction = np.array([[1.0, 0.0], [0.9, 0.1], [-1.0, 0.0], [-0.8, 0.1]])
    direction /= np.linalg.norm(direction)
    q_hat = net.margins(direction, X, y)
    assert np.all(q_hat > 0)
    log_lsum, Gn, _ = _normalized_grad(net, direction, X, y, np.float64(2000.0))  # ‖W‖ = e^2000
    # L_sum ≈ e^{-e^2000 min q̂} is below every float; ∇L/L is the argmin point's -∇q
    assert log_lsum == -np.inf
    i = int(np.argmin(q_hat))
    expected = -y[i] * net.grad_output(direction, X)[i]
    np.testing.assert_allclose(Gn, expected, rtol=IDENTITY)


def test_normalized_grad_of_a_misclassified_point_far_out_does_not_underflow():
    """Regression (issue 15.2): at ‖W‖ = e^700 a misclassified point's weight g/L_sum is
    ~e^-700; ∇L/L is then rescaled before it is formed, and its log norm corrected."""
    net = lt.Net(k=1, alpha=0.3)
    X, y = np.array([[1.0, 0.5], [0.5, 1.0]]), np.array([1.0, -1.0])
    direction = np.array([[1.0, 0.2], [0.1, 1.0]]) / np.sqrt(2.05)
    for log_norm in (5.0, 700.0):
        _, Gn, log_gnorm = _normalized_grad(net, direction, X, y, np.float64(log_norm))
        assert np.isfinite(log_gnorm) and np.all(np.isfinite(Gn)) and np.any(Gn != 0)
    # the direction of the step does not depend on the rescaling: compare with mpmath-free
    # reference: at large ‖W‖ the misclassified point (the larger |q|) dominates
    q_hat = net.margins(direction, X, y)
    worst = int(np.argmin(q_hat))
    expected = -y[worst] * net.grad_output(direction, X)[worst]
    np.testing.assert_allclose(Gn / np.linalg.norm(Gn), expected / np.linalg.norm(expected),
                               rtol=CANCELLATION, atol=IDENTITY)


@given(seed=seeds, alpha=st.floats(0.0, 0.95))
def test_backward_is_the_naive_loop_of_eq3(seed, alpha):
    """``Net.backward`` with ``coef = dL/dN`` is the gradient, neuron by neuron."""
    net, W, X, y = _case(seed, alpha=alpha, v=0.7)
    L0, G0 = naive_loss_and_grad(net, W, X, y)
    q = net.margins(W, X, y)
    G = net.backward(W, X, -y * lt.loss.g(q) / len(y))
    np.testing.assert_allclose(G, G0, rtol=OTHER_ROUTE, atol=GRADIENT_FLOOR)


def test_backward_rejects_coefficients_of_the_wrong_length():
    net = lt.Net(k=1)
    with pytest.raises(ValueError, match="`coef` must have 3 entries"):
        net.backward(np.ones((2, 2)), np.ones((3, 2)), np.ones(2))


def _tiny_case(alpha):
    """``w·x = 1e-330·(0.5 + 0.5 − 0.9) > 0``: every product underflows to 0 in float64."""
    net = lt.Net(k=1, alpha=alpha)
    W = np.array([[1.0, 1.0, -0.9], [-1.0, -1.0, 0.9]]) * 1e-170
    X = np.array([[0.5e-160, 0.5e-160, 1e-160]])
    return net, W, X


@pytest.mark.parametrize("alpha", [0.0, 0.3])
def test_underflowing_preactivations_keep_their_true_slope(alpha):
    """Regression (issue 15.4): w·x = 1e-331 > 0 (u·x < 0) underflows to 0 in float64; the
    slopes are still 1 for w and α for u, as they are for the same weights times 1e170."""
    net, W, X = _tiny_case(alpha)
    assert np.all(X @ W.T == 0.0)  # the float64 pre-activations are exact zeros
    slopes = net.grad_output(W, X)[0][:, 0] / (net.a * X[0, 0])
    np.testing.assert_array_equal(slopes, [1.0, alpha])
    np.testing.assert_array_equal(net.grad_output(W, X), net.grad_output(W * 1e170, X))
    coef = np.array([1.0])
    G = net.backward(W, X, coef)
    np.testing.assert_array_equal(G[:, 0] / (net.a * X[0, 0]), [1.0, alpha])
    # the trainers' kernel: full batch and the SGD update decide alike
    kernel = Fused(net)
    N, pre = kernel.forward(W, X)
    np.testing.assert_array_equal(kernel.backward(pre, X, coef), G)
    W1 = W.copy()
    kernel.sgd_update(W1, X[0], 1.0, 0.5 * X[0], eta=0.5)
    step = (W1 - W)[:, 0] / (net.a * 0.5 * X[0, 0])  # η y x_0 a_j σ'(z_j) g, g = 1/2
    np.testing.assert_allclose(step, 0.5 * np.array([1.0, alpha]), rtol=IDENTITY)
    Wb = W[None].copy()
    kernel.sgd_update(Wb, X[0][None, :, None], np.array([1.0]), 0.5 * X[0][None, None, :],
                      eta=0.5)
    np.testing.assert_array_equal(Wb[0], W1)


def test_exact_kink_still_takes_alpha_after_rescaling():
    """Only an exact kink gets σ'(0) = α, also on the rescaled path (an exact zero forces it)."""
    net = lt.Net(k=1, alpha=0.3)
    W = np.array([[1e-200, 0.0], [1e-200, 1e-200]])
    X = np.array([[0.0, 1e-200]])  # w·x = 0 exactly; u·x = 1e-400 > 0 underflows
    slopes = net.grad_output(W, X)[0][:, 1] / (net.a * X[0, 1])
    np.testing.assert_array_equal(slopes, [0.3, 1.0])
