"""The fused kernels compute what the direct formulas compute.

The kernels of ``linteach.network`` regroup sums (``σ(z) = αz + (1-α) relu(z)``, the mask
form of the backward, ``a_j σ'(z_j)`` from a two-row table).  A regrouped sum of floats
differs from the direct one by at most a small multiple of ``eps × Σ|terms|``, so each
comparison below is against ``REGROUP_RTOL × Σ|terms|`` of the very sum being compared,
never against a tolerance tuned to pass.
"""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import linteach as lt
from linteach import loss as _loss

#: fraction of the summed absolute terms by which a regrouped float sum may differ
REGROUP_RTOL = 1e-12

seeds = st.integers(0, 2**32 - 1)
alphas = st.sampled_from([0.0, 0.05, 0.3, 0.9])  # 0 = ReLU, which the kernels special-case


# -- the direct formulas (the code the kernels replaced), as oracles --------------------------
def direct_forward(net, W, X):
    Z = X @ np.swapaxes(W, -1, -2)
    return (Z * net.slope(Z)) @ net.a, Z


def direct_backward(net, Z, X, coef):
    dZ = coef[..., :, None] * net.slope(Z) * net.a
    return np.swapaxes(dZ, -1, -2) @ X


def forward_scale(net, Z):
    """``Σ_j |a_j σ(z_ij)|``: the size of the terms summed into ``N(x_i)``."""
    return (np.abs(Z * net.slope(Z)) @ np.abs(net.a))


def backward_scale(net, X, coef):
    """``|a_j| Σ_i |coef_i| |x_il|`` bounds the terms summed into ``G_jl``."""
    return np.abs(net.a)[:, None] * (np.swapaxes(np.abs(coef)[..., :, None] * np.abs(X), -1, -2)
                                     .sum(axis=-1)[..., None, :])


def assert_regrouped(actual, expected, scale):
    excess = np.abs(actual - expected) - REGROUP_RTOL * scale
    assert np.all(excess <= 0), f"regrouped sum off by {np.max(excess):.3e} beyond tolerance"


def _case(seed, alpha, *, batch, stacked, n=9, d=4, k=3):
    rng = np.random.default_rng(seed)
    net = lt.Net(k=k, alpha=alpha, v=float(rng.uniform(0.2, 2.0)))
    W = net.init(d, scale=float(rng.uniform(0.1, 3.0)), rng=rng, batch=batch)
    X = rng.standard_normal((batch if stacked else ()) + (n, d))
    y = np.where(rng.random(W.shape[:-2] + (n,)) < 0.5, 1.0, -1.0)
    return net, W, X, y


layouts = st.sampled_from([((), False), ((3,), False), ((3,), True), ((2, 2), True)])


@given(seeds, alphas, layouts)
def test_fused_forward_is_the_direct_forward(seed, alpha, layout):
    net, W, X, _ = _case(seed, alpha, batch=layout[0], stacked=layout[1])
    expected, Z = direct_forward(net, W, X)
    scale = forward_scale(net, Z)
    out, relu = net._fused_forward(W, X)
    assert_regrouped(out, expected, scale)
    assert_regrouped(net._forward(W, X)[0], expected, scale)
    np.testing.assert_array_equal(relu, np.maximum(Z, 0.0))
    np.testing.assert_array_equal(relu > 0, Z > 0)  # so the mask has σ'(0) = α


@given(seeds, alphas, layouts)
def test_mask_backward_is_the_direct_backward(seed, alpha, layout):
    net, W, X, _ = _case(seed, alpha, batch=layout[0], stacked=layout[1])
    Z = X @ np.swapaxes(W, -1, -2)
    coef = np.random.default_rng(seed).standard_normal(Z.shape[:-1])
    expected = direct_backward(net, Z, X, coef)
    assert_regrouped(net._backward(Z, X, coef), expected, backward_scale(net, X, coef))


@given(seeds, alphas, layouts)
def test_fused_loss_and_grad_is_the_direct_one(seed, alpha, layout):
    net, W, X, y = _case(seed, alpha, batch=layout[0], stacked=layout[1])
    out, Z = direct_forward(net, W, X)
    q = y * out
    coef = -y * _loss.g(q) / q.shape[-1]
    L, G = net._loss_and_grad(W, X, y)
    # the loss terms are positive: a plain relative bound, widened by the margins' rounding
    q_err = REGROUP_RTOL * forward_scale(net, Z)
    np.testing.assert_allclose(L, _loss.ell(q).mean(axis=-1), rtol=1e-12,
                               atol=float(np.max(q_err)))
    # coef moves with q by at most |g'| ≤ 1/4 times q's rounding
    scale = backward_scale(net, X, np.abs(coef) + np.abs(y) * q_err / (4 * q.shape[-1]))
    assert_regrouped(G, direct_backward(net, Z, X, coef), scale)


@given(seeds, alphas, layouts)
def test_fused_normalized_grad_is_the_direct_one(seed, alpha, layout):
    net, W, X, y = _case(seed, alpha, batch=layout[0], stacked=layout[1])
    norm = np.linalg.norm(W.reshape(W.shape[:-2] + (-1,)), axis=-1)
    direction, log_norm = W / norm[..., None, None], np.log(norm) + 2.0
    out, Z = direct_forward(net, direction, X)
    lead, rest, log_w = _loss.scaled_loss_terms(y * out, log_norm)
    coef = -y * np.exp(log_w)
    log_lsum, Gn = net._normalized_grad(direction, X, y, log_norm)
    np.testing.assert_allclose(log_lsum, _loss.log_sum_loss_scaled(lead, rest, log_norm),
                               rtol=1e-9)  # log L_sum moves with the margins: e^2 ‖q‖ ulps
    # coef = g_i / L_sum: rounding of q (× e^{log_norm}) shifts it by ≤ 2 coef_i |Δq|
    q_err = REGROUP_RTOL * forward_scale(net, Z) * np.exp(log_norm)[..., None]
    scale = backward_scale(net, X, np.abs(coef) * (1 + 2 * q_err))
    assert_regrouped(Gn, direct_backward(net, Z, X, coef), scale)


@given(seeds, alphas, st.sampled_from([1, 4]))
def test_sgd_step_is_eq3(seed, alpha, runs):
    net, W, X, y = _case(seed, alpha, batch=(runs,), stacked=True, n=1)
    eta = 0.37
    out, Z = direct_forward(net, W, X)
    g = _loss.g(y * out)
    expected = W - eta * direct_backward(net, Z, X, -y * g)
    x, ex = np.swapaxes(X, -1, -2), (eta * y)[..., None] * X
    W_step = W.copy()
    q, gq = net._sgd_step(W_step, x, y[:, 0], ex, None)
    W_buffered = W.copy()
    net._sgd_step(W_buffered, x, y[:, 0], ex, np.empty_like(W))
    np.testing.assert_array_equal(W_buffered, W_step)  # the buffer only changes where
    for r in range(runs):  # the single-run form rounds exactly as its run in the batch
        W_one = W[r].copy()
        q_one, g_one = net._sgd_step_one(W_one, X[r, 0], y[r, 0], ex[r, 0])
        np.testing.assert_array_equal(W_one, W_step[r])
        W_one = W[r].copy()
        net._sgd_step_one(W_one, X[r, 0], y[r, 0], ex[r, 0], np.empty_like(W_one))
        np.testing.assert_array_equal(W_one, W_step[r])
        assert (q_one, g_one) == (q[r], gq[r])
    step_scale = eta * backward_scale(net, X, g * (1 + 1e-3))  # Eq. 3's own terms
    assert_regrouped(W_step, expected, np.abs(W) + step_scale)
    assert_regrouped(q, (y * out)[:, 0], forward_scale(net, Z)[:, 0])


class PassThrough(lt.Net):
    """Overrides ``_backward`` with itself: forces the generic (unfused) path, same maths."""

    def _backward(self, Z, X, coef):
        return super()._backward(Z, X, coef)


class Frozen(lt.Net):
    """Negative control: a backward that returns zero gradient."""

    def _backward(self, Z, X, coef):
        return np.zeros(Z.shape[:-2] + (Z.shape[-1], X.shape[-1]))


class FrozenLoss(lt.Net):
    """Negative control one level up: ``_loss_and_grad`` itself returns zero gradient."""

    def _loss_and_grad(self, W, X, y):
        return super()._loss_and_grad(W, X, y)[0], np.zeros(np.broadcast_shapes(
            W.shape, X.shape[:-2] + W.shape[-2:]))


class FrozenFlow(lt.Net):
    """Negative control for the late-phase flow: ``_normalized_grad`` returns zero."""

    def _normalized_grad(self, direction, X, y, log_norm):
        log_lsum, G = super()._normalized_grad(direction, X, y, log_norm)
        return log_lsum, np.zeros_like(G)


def _small(cls, seed=11):
    rng = np.random.default_rng(seed)
    net = cls(k=3, alpha=0.3)
    data = lt.make_separable(10, 3, margin=0.2, rng=rng)
    return net, net.init(3, scale=0.5, rng=rng, batch=2), data


def test_fused_path_is_taken_only_by_the_stock_net():
    assert lt.Net(k=2)._fused_ok
    assert not any(cls(k=2)._fused_ok for cls in (PassThrough, Frozen, FrozenLoss, FrozenFlow))


TRAINERS = {
    "sgd": lambda net, W, d: lt.sgd(net, W, d, eta=0.3, n_epochs=3, rng=np.random.default_rng(1)),
    "gd": lambda net, W, d: lt.gd(net, W, d, eta=0.3, n_steps=30),
    "flow-normalized": lambda net, W, d: lt.gradient_flow(net, W, d, dt=0.02, n_steps=30,
                                                          normalized=True),
}


@pytest.mark.parametrize("cls, trainer", [(Frozen, name) for name in sorted(TRAINERS)]
                         + [(FrozenLoss, "gd"), (FrozenFlow, "flow-normalized")])
def test_every_trainer_uses_an_overridden_kernel(cls, trainer):
    net, W0, data = _small(cls)
    run = TRAINERS[trainer](net, W0, data)
    np.testing.assert_allclose(run.direction * np.exp(run.log_norm)[:, None, None], W0,
                               rtol=1e-15, atol=0)  # zero gradient: nothing moved


@pytest.mark.parametrize("trainer", sorted(TRAINERS))
def test_fused_and_generic_paths_train_alike(trainer):
    """Whole short runs: per-step rounding differences stay at rounding level (no kinks
    are crossed differently at this seed; a crossing would show as a large difference)."""
    fused = TRAINERS[trainer](*_small(lt.Net))
    generic = TRAINERS[trainer](*_small(PassThrough))
    np.testing.assert_allclose(fused.direction, generic.direction, rtol=0, atol=1e-12)
    np.testing.assert_allclose(fused.log_norm, generic.log_norm, rtol=1e-12)


def test_gd_with_reused_buffer_equals_repeated_public_calls():
    net, W0, data = _small(lt.Net)
    W = W0.copy()
    for _ in range(25):
        W = W - 0.3 * net.loss_and_grad(W, data.X, data.y)[1]
    run = lt.gd(net, W0, data, eta=0.3, n_steps=25)
    np.testing.assert_array_equal(run.W, run.direction * np.exp(run.log_norm)[:, None, None])
    norm = np.sqrt((W * W).reshape(2, -1).sum(axis=-1))
    np.testing.assert_array_equal(run.direction, W / norm[:, None, None])
