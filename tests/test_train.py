"""Trainers: SGD fits separable data; the late-phase flow stays finite far past margin 500."""
import warnings

import numpy as np
import pytest

import linteach as lt


def test_sgd_fits_separable_data_to_zero_training_error(rng):
    data = lt.make_separable(60, 4, margin=0.1, rng=rng)
    net = lt.Net(k=8, alpha=0.3)
    run = lt.sgd(net, net.init(4, scale=1e-3, rng=rng), data, eta=0.2, n_epochs=60, rng=rng)
    assert np.all(net.margins(run.W, data.X, data.y) > 0)
    assert run.trace["loss"][-1] < run.trace["loss"][0]


def test_sgd_counts_eps0_mistakes_before_each_update(rng):
    data = lt.make_separable(20, 3, margin=0.2, rng=rng)
    net = lt.Net(k=2, alpha=0.5)
    seen = []
    run = lt.sgd(net, net.init(3, scale=1e-2, rng=rng), data, eta=0.5, n_epochs=5, rng=rng,
                 eps0=0.05, callback=lambda t, W, info: seen.append(info["loss_before"]))
    per_epoch = np.asarray(seen).reshape(5, 20)
    np.testing.assert_array_equal(run.trace["mistakes"][1:], (per_epoch >= 0.05).sum(axis=1))
    assert run.trace["mistakes"][0] == 0 and len(run.trace["epoch"]) == 6


def test_sgd_same_seed_same_weights_and_inputs_never_mutated(rng):
    data = lt.make_separable(15, 3, margin=0.1, rng=rng)
    net = lt.Net(k=3, alpha=0.3)
    W0 = net.init(3, scale=0.1, rng=rng)
    W0_copy, X_copy = W0.copy(), data.X.copy()
    a = lt.sgd(net, W0, data, eta=0.1, n_epochs=3, rng=np.random.default_rng(7))
    b = lt.sgd(net, W0, data, eta=0.1, n_epochs=3, rng=np.random.default_rng(7))
    np.testing.assert_array_equal(a.W, b.W)
    np.testing.assert_array_equal(W0, W0_copy)
    np.testing.assert_array_equal(data.X, X_copy)
    for trainer in (lambda: lt.gd(net, W0, data, eta=0.1, n_steps=5),
                    lambda: lt.gradient_flow(net, W0, data, dt=0.1, n_steps=5, normalized=True)):
        trainer()
        np.testing.assert_array_equal(W0, W0_copy)


def test_sgd_step_is_eq3(rng):
    """One epoch on one point is exactly the update of Eq. 3."""
    net = lt.Net(k=2, alpha=0.3, v=0.7)
    X, y = np.array([[0.3, -0.5]]), np.array([-1.0])
    W0 = net.init(2, scale=1.0, rng=rng)
    W1 = lt.sgd(net, W0, (X, y), eta=0.25, n_epochs=1, rng=rng).W
    q = y[0] * net.forward(W0, X)[0]
    g = 1 / (1 + np.exp(q))
    slopes = net.slope(W0 @ X[0])
    signs = np.repeat([1.0, -1.0], 2)
    expected = W0 + 0.25 * 0.7 * g * (signs * slopes)[:, None] * y[0] * X[0]
    np.testing.assert_allclose(W1, expected, rtol=1e-14)


def test_late_phase_flow_far_past_margin_500_without_warnings(rng):
    data = lt.make_symmetric_gaussians(20, 3, rng=rng)
    net = lt.Net(k=3, alpha=0.3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = lt.gradient_flow(net, net.init(3, scale=1e-2, rng=rng), data, dt=0.1,
                               n_steps=12_000, normalized=True)
    tr = run.trace
    assert tr["min_margin"][-1] > 500 and tr["log_norm"][-1] > 709  # past float64's range
    assert run.W is None and np.isfinite(run.log_norm)
    assert np.all(np.isfinite(tr["smoothed_margin"])) and np.all(np.isfinite(tr["log_norm"]))
    assert np.all(~np.isnan(tr["log_loss"]))
    # Run.direction is a unit vector that still classifies every point
    assert np.linalg.norm(run.direction) == pytest.approx(1.0)
    assert np.all(net.margins(run.direction, data.X, data.y) > 0)


def test_smoothed_margin_below_normalized_margin_once_loss_small(rng):
    data = lt.make_symmetric_gaussians(30, 3, rng=rng)
    net = lt.Net(k=4, alpha=0.3)
    run = lt.gradient_flow(net, net.init(3, scale=0.1, rng=rng), data, dt=0.02, n_steps=3000,
                           normalized=True)
    tr = run.trace
    late = tr["log_loss"] + np.log(data.n) < np.log(np.log(2))  # L_sum < log 2
    assert late.sum() > 10
    ulp = 4 * np.finfo(float).eps * np.abs(tr["normalized_margin"][late])
    assert np.all(tr["smoothed_margin"][late] <= tr["normalized_margin"][late] + ulp)


def test_plain_euler_flow_and_gd_agree(rng):
    data = lt.make_separable(10, 2, margin=0.1, rng=rng)
    net = lt.Net(k=2, alpha=0.3)
    W0 = net.init(2, scale=0.5, rng=rng)
    a = lt.gd(net, W0, data, eta=0.05, n_steps=50)
    b = lt.gradient_flow(net, W0, data, dt=0.05, n_steps=50)
    np.testing.assert_array_equal(a.W, b.W)
    np.testing.assert_allclose(np.exp(b.log_time), 2.5)


def test_normalized_flow_continuous_time_matches_plain_euler_early(rng):
    """The angle-controlled step is an Euler step of the same flow: same W at the same time."""
    data = lt.make_separable(10, 2, margin=0.2, rng=rng)
    net = lt.Net(k=2, alpha=0.3)
    W0 = net.init(2, scale=1.0, rng=rng)
    fine = lt.gradient_flow(net, W0, data, dt=1e-3, n_steps=400, normalized=True)
    t = float(np.exp(fine.log_time))
    plain = lt.gradient_flow(net, W0, data, dt=t / 4000, n_steps=4000)
    np.testing.assert_allclose(fine.W, plain.W, rtol=2e-3, atol=2e-3 * np.linalg.norm(W0))


def test_trace_schedule_is_log_spaced_and_small():
    data = lt.make_separable(5, 2, margin=0.1, rng=np.random.default_rng(0))
    net = lt.Net(k=1)
    run = lt.gd(net, net.init(2, scale=0.1, rng=np.random.default_rng(1)), data, eta=0.1,
                n_steps=10_000)
    steps = run.trace["step"]
    assert steps[0] == 0 and steps[-1] == 10_000 and len(steps) <= 202
    assert np.all(np.diff(steps) > 0)
