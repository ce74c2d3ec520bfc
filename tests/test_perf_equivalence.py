"""The fused kernels behind the trainers' seam compute what the direct formulas compute.

The kernels of ``linteach._kernels`` regroup sums (``σ(z) = αz + (1-α) relu(z)``, the mask
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
from linteach._kernels import (SGD_SCRATCH_FROM, Controlled, Fused, flow_state, grad_over_loss,
                               loss_and_grad)

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
def test_net_forward_is_eq1_and_the_fused_forward_regroups_it(seed, alpha, layout):
    net, W, X, _ = _case(seed, alpha, batch=layout[0], stacked=layout[1])
    expected, Z = direct_forward(net, W, X)
    np.testing.assert_array_equal(net.forward(W, X), expected)  # σ(z) = max(z, αz) = σ'(z) z
    out, relu = Fused(net).forward(W, X)
    assert_regrouped(out, expected, forward_scale(net, Z))
    np.testing.assert_array_equal(relu, np.maximum(Z, 0.0))
    np.testing.assert_array_equal(relu > 0, Z > 0)  # so the mask has σ'(0) = α


@given(seeds, alphas, layouts, st.sampled_from([1, 9]))
def test_fused_backward_is_net_backward_bit_for_bit(seed, alpha, layout, n):
    """Also for one point, where the kernel forms an outer product instead of a matmul."""
    net, W, X, _ = _case(seed, alpha, batch=layout[0], stacked=layout[1], n=n)
    Z = X @ np.swapaxes(W, -1, -2)
    coef = np.random.default_rng(seed).standard_normal(Z.shape[:-1])
    G = net.backward(W, X, coef)
    np.testing.assert_array_equal(Fused(net).backward(np.maximum(Z, 0.0), X, coef), G)
    assert_regrouped(G, direct_backward(net, Z, X, coef), backward_scale(net, X, coef))


@given(seeds, alphas, layouts)
def test_fused_loss_and_grad_is_the_direct_one(seed, alpha, layout):
    net, W, X, y = _case(seed, alpha, batch=layout[0], stacked=layout[1])
    out, Z = direct_forward(net, W, X)
    q = y * out
    coef = -y * _loss.g(q) / q.shape[-1]
    L, G = net.loss_and_grad(W, X, y)
    L_k, G_k = loss_and_grad(Fused(net), W, X, y, np.empty(Z.shape))
    np.testing.assert_array_equal(L_k, L)  # the public call is the kernel the trainers use
    np.testing.assert_array_equal(G_k, G)
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
    kernel = Fused(net)
    _, (lead_k, rest_k, log_w_k), pre = flow_state(kernel, direction, X, y, log_norm)
    Gn, _, _ = grad_over_loss(kernel, pre, X, y, log_w_k)
    np.testing.assert_allclose(_loss.log_sum_loss_scaled(lead_k, rest_k, log_norm),
                               _loss.log_sum_loss_scaled(lead, rest, log_norm),
                               rtol=1e-9)  # log L_sum moves with the margins: e^2 ‖q‖ ulps
    # coef = g_i / L_sum: rounding of q (× e^{log_norm}) shifts it by ≤ 2 coef_i |Δq|
    q_err = REGROUP_RTOL * forward_scale(net, Z) * np.exp(log_norm)[..., None]
    scale = backward_scale(net, X, np.abs(coef) * (1 + 2 * q_err))
    assert_regrouped(Gn, direct_backward(net, Z, X, coef), scale)


def _sgd_inputs(W, X, y, eta):
    return np.swapaxes(X, -1, -2), y[:, 0], (eta * y)[..., None] * X


@given(seeds, alphas, st.sampled_from([1, 4]))
def test_sgd_update_is_eq3_and_one_run_equals_its_run_in_a_batch(seed, alpha, runs):
    net, W, X, y = _case(seed, alpha, batch=(runs,), stacked=True, n=1)
    eta, kernel = 0.37, Fused(net)
    out, Z = direct_forward(net, W, X)
    g = _loss.g(y * out)
    expected = W - eta * direct_backward(net, Z, X, -y * g)
    x, yy, ex = _sgd_inputs(W, X, y, eta)
    W_step = W.copy()
    q, gq = kernel.sgd_update(W_step, x, yy, ex, eta=eta)
    for r in range(runs):  # the single-run form rounds exactly as its run in the batch
        W_one = W[r].copy()
        q_one, g_one = kernel.sgd_update(W_one, X[r, 0], y[r, 0], ex[r, 0], eta=eta)
        np.testing.assert_array_equal(W_one, W_step[r])
        assert (q_one, g_one) == (q[r], gq[r])
    step_scale = eta * backward_scale(net, X, g * (1 + 1e-3))  # Eq. 3's own terms
    assert_regrouped(W_step, expected, np.abs(W) + step_scale)
    assert_regrouped(q, (y * out)[:, 0], forward_scale(net, Z)[:, 0])


@pytest.mark.parametrize("runs", [1, 3])
def test_sgd_update_scratch_changes_no_bit(runs):
    """Above SGD_SCRATCH_FROM weights the outer product is formed in ``out``: same bits."""
    net, W, X, y = _case(5, 0.3, batch=(runs,), stacked=True, n=1, d=40, k=60)
    W = W * 1e-3  # a margin near 0, so g(q) is not 0 and the update moves every row
    assert W.size >= SGD_SCRATCH_FROM
    kernel, eta = Fused(net), 0.2
    x, yy, ex = _sgd_inputs(W, X, y, eta)
    plain, buffered = W.copy(), W.copy()
    if runs == 1:
        kernel.sgd_update(plain[0], X[0, 0], y[0, 0], ex[0, 0], eta=eta)
        kernel.sgd_update(buffered[0], X[0, 0], y[0, 0], ex[0, 0], eta=eta,
                          out=np.empty_like(W[0]))
    else:
        kernel.sgd_update(plain, x, yy, ex, eta=eta)
        kernel.sgd_update(buffered, x, yy, ex, eta=eta, out=np.empty_like(W))
    np.testing.assert_array_equal(buffered, plain)
    assert not np.array_equal(plain, W)


@given(seeds, alphas, layouts)
def test_controlled_identity_is_net_forward_and_backward(seed, alpha, layout):
    net, W, X, _ = _case(seed, alpha, batch=layout[0], stacked=layout[1])
    coef = np.random.default_rng(seed).standard_normal(np.broadcast_shapes(
        W.shape[:-2], X.shape[:-2]) + X.shape[-2:-1])
    kernel = Controlled(net, lambda G: G)
    N, pre = kernel.forward(W, X)
    np.testing.assert_array_equal(N, net.forward(W, X))
    np.testing.assert_array_equal(kernel.backward(pre, X, coef), net.backward(W, X, coef))


# -- negative controls go through the trainers' `grad` seam ----------------------------------
def flip_u(G):
    H = G.copy()
    H[..., H.shape[-2] // 2:, :] *= -1.0
    return H


def _small(seed=11):
    rng = np.random.default_rng(seed)
    net = lt.Net(k=3, alpha=0.3)
    data = lt.make_separable(10, 3, margin=0.2, rng=rng)
    return net, net.init(3, scale=0.5, rng=rng, batch=2), data


TRAINERS = {
    "sgd": lambda net, W, d, **kw: lt.sgd(net, W, d, eta=0.3, n_epochs=3,
                                          rng=np.random.default_rng(1), **kw),
    "sgd-one-run": lambda net, W, d, **kw: lt.sgd(net, W[0], d, eta=0.3, n_epochs=3,
                                                  rng=np.random.default_rng(1), **kw),
    "gd": lambda net, W, d, **kw: lt.gd(net, W, d, eta=0.3, n_steps=30, **kw),
    "flow": lambda net, W, d, **kw: lt.gradient_flow(net, W, d, dt=0.3, n_steps=30, **kw),
    "flow-normalized": lambda net, W, d, **kw: lt.gradient_flow(net, W, d, dt=0.02, n_steps=30,
                                                                normalized=True, **kw),
}


def _weights(run):
    return run.direction * np.exp(run.log_norm)[..., None, None]


@pytest.mark.parametrize("trainer", sorted(TRAINERS))
def test_every_trainer_honours_a_frozen_gradient(trainer):
    net, W0, data = _small()
    run = TRAINERS[trainer](net, W0, data, grad=np.zeros_like)
    start = W0 if trainer != "sgd-one-run" else W0[0]
    np.testing.assert_allclose(_weights(run), start, rtol=1e-15, atol=0)  # nothing moved
    assert not np.allclose(_weights(TRAINERS[trainer](net, W0, data)), start)


@pytest.mark.parametrize("trainer", sorted(TRAINERS))
def test_every_trainer_honours_a_flipped_update(trainer):
    """A control changes the outcome: the u rows move the other way."""
    net, W0, data = _small()
    true, flipped = TRAINERS[trainer](net, W0, data), TRAINERS[trainer](net, W0, data, grad=flip_u)
    start = W0 if trainer != "sgd-one-run" else W0[0]
    moved_true, moved_flip = _weights(true) - start, _weights(flipped) - start
    assert np.sum(moved_true[..., 3:, :] * moved_flip[..., 3:, :]) < 0
    assert np.sum(moved_true[..., :3, :] * moved_flip[..., :3, :]) > 0


def test_grad_must_be_callable_and_keep_the_shape():
    net, W0, data = _small()
    with pytest.raises(TypeError, match="`grad` must be callable"):
        lt.gd(net, W0, data, eta=0.1, n_steps=2, grad="flip")
    with pytest.raises(ValueError, match="`grad` must return an array of shape"):
        lt.gd(net, W0, data, eta=0.1, n_steps=2, grad=lambda G: G[0])


@pytest.mark.parametrize("trainer", sorted(TRAINERS))
def test_identity_control_trains_like_the_stock_kernel(trainer):
    """Whole short runs: the paper's forward (Controlled) and the fused one differ by
    rounding only (no kinks are crossed differently at this seed; a crossing would show as a
    large difference)."""
    net, W0, data = _small()
    fused = TRAINERS[trainer](net, W0, data)
    paper = TRAINERS[trainer](net, W0, data, grad=lambda G: G)
    np.testing.assert_allclose(fused.direction, paper.direction, rtol=0, atol=1e-12)
    np.testing.assert_allclose(fused.log_norm, paper.log_norm, rtol=1e-12)


def test_gd_with_reused_buffer_equals_repeated_public_calls():
    net, W0, data = _small()
    W = W0.copy()
    for _ in range(25):
        W = W - 0.3 * net.loss_and_grad(W, data.X, data.y)[1]
    run = lt.gd(net, W0, data, eta=0.3, n_steps=25)
    np.testing.assert_array_equal(run.W, run.direction * np.exp(run.log_norm)[:, None, None])
    norm = np.sqrt((W * W).reshape(2, -1).sum(axis=-1))
    np.testing.assert_array_equal(run.direction, W / norm[:, None, None])


# -- Thm 4.1's monitor: fed whole epochs (on_epoch) or update by update (callback) ----------
@pytest.mark.parametrize("corrupt", [False, True])
def test_thm41_monitor_fed_by_epochs_equals_the_per_update_callback(monkeypatch, corrupt):
    """``train_configuration`` hands the monitor whole epochs; the same monitor called after
    every update (what it did before) must end with the same bits in every clause it keeps,
    across ``lt.sgd`` calls (chunks of epochs) and under the negative control's kernel."""
    from proofs_check.kit import sgd_cases

    rng = np.random.default_rng(0)
    ds = lt.make_separable(12, 3, margin=0.5, rng=rng)
    w_star = sgd_cases.theorem_teacher(ds.X, ds.y)
    net = lt.Net(k=2, alpha=0.4, v=1.3)
    W0 = net.init(3, scale=0.5, rng=rng, batch=3) * np.array([1e-3, 0.1, 3.0])[:, None, None]
    grad = sgd_cases.flip_u_update if corrupt else None
    real = lt.sgd

    def per_update(*args, on_epoch, **kw):  # the callback route, as before on_epoch existed
        return real(*args, callback=on_epoch.__self__, **kw)

    seen = []  # what every epoch's clauses read: the monitor's epoch arrays
    end_epoch = sgd_cases.Monitor._end_epoch
    monkeypatch.setattr(sgd_cases.Monitor, "_end_epoch", lambda self: (
        seen.append([a.copy() for a in (self.buf, self.g, self.loss_before)]), end_epoch(self)))

    def train():
        return sgd_cases.train_configuration(net, ds.X, ds.y, w_star, W0, eta=0.5,
                                             eps=[0.3, 0.1], max_epochs=11, rng=5, chunk=4,
                                             grad=grad)
    by_epoch = train()
    monkeypatch.setattr(sgd_cases.lt, "sgd", per_update)
    by_update = train()
    assert by_epoch[2] == by_update[2] > 4  # more than one lt.sgd call
    for name in ("F_slack", "G_slack", "F_worst_t", "G_worst_t", "lead_epochs", "free_found",
                 "free_max_loss", "t_eps", "min_g", "t"):
        a, b = (np.atleast_1d(getattr(r[0], name)) for r in (by_epoch, by_update))
        assert a.dtype == b.dtype and np.array_equal(a.view(np.uint8), b.view(np.uint8)), name
    assert np.array_equal(by_epoch[1], by_update[1])
    assert len(seen) == 2 * by_epoch[2]
    for e, (a, b) in enumerate(zip(seen[:len(seen) // 2], seen[len(seen) // 2:])):
        for x, z in zip(a, b):
            assert np.array_equal(x.view(np.uint64), z.view(np.uint64)), f"epoch {e + 1}"
    if corrupt:  # the control is visible in what was compared
        assert np.min(np.minimum(by_epoch[0].F_slack, by_epoch[0].G_slack)) < 0
