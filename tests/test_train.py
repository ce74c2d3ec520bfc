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


def _directions(net, W0, data, *, dt, n_steps):
    seen = []
    run = lt.gradient_flow(net, W0, data, dt=dt, n_steps=n_steps, normalized=True, record="all",
                           callback=lambda s, W, info: seen.append(info["direction"].copy()))
    return run, seen


@pytest.mark.parametrize("norm", [1e160, 1e300])
def test_normalized_flow_moves_from_a_misclassifying_start_far_out(norm):
    """Regression (issue 15.2): the relative step's norm once squared entries ~1/‖W‖, so the
    direction froze and log_time stayed −inf from ‖W0‖ ≳ 1e154 with a misclassified point."""
    rng = np.random.default_rng(3)
    data = lt.make_symmetric_gaussians(20, 3, rng=rng)
    net = lt.Net(k=2, alpha=0.3)
    W = net.init(3, scale=1.0, rng=rng)
    assert np.any(net.margins(W, data.X, data.y) < 0)
    run, seen = _directions(net, W / np.linalg.norm(W) * norm, data, dt=0.01, n_steps=20)
    assert all(not np.array_equal(a, b) for a, b in zip(seen, seen[1:]))
    log_time = run.trace["log_time"]
    assert np.all(np.isfinite(log_time[1:])) and np.all(np.diff(log_time) > 0)
    # a misclassified point keeps ‖∇L‖ of order 1: a step takes time ≈ dt‖W‖
    assert log_time[1] == pytest.approx(np.log(0.01 * norm), abs=np.log(100.0))


def test_normalized_flow_with_a_large_step_keeps_moving_from_1e300():
    """Regression (issue 15.2): dt = 0.3 from a correctly classified W at ‖W‖ = 1e300 made a
    point misclassified after one step, and the flow froze there (seed 10 of this family)."""
    rng = np.random.default_rng(10)
    data = lt.make_separable(10, 2, margin=0.05, rng=rng)
    net = lt.Net(k=1, alpha=0.3)
    W = np.vstack([data.w_star, -data.w_star]) + 0.3 * rng.standard_normal((2, 2))
    assert np.all(net.margins(W, data.X, data.y) > 0)
    run, seen = _directions(net, W / np.linalg.norm(W) * 1e300, data, dt=0.3, n_steps=6)
    assert all(not np.array_equal(a, b) for a, b in zip(seen, seen[1:]))
    # the first steps, classified at margins ~1e300, took time e^{~1e298}: later steps at
    # speed O(1) add ~e^690 each, invisible in log t, so log t only never decreases
    assert np.all(np.isfinite(run.trace["log_time"][1:]))
    assert np.all(np.diff(run.trace["log_time"]) >= 0)


def _reference_log_times(net, W0, data, log_norms):
    """``log t`` at which the exact flow reaches each ``log ‖W‖``: an independent integrator
    (scipy's DOP853, tight tolerances) of ``dW/dℓ = −∇L/‖∇L‖``, ``dt/dℓ = 1/‖∇L‖``."""
    from scipy.integrate import solve_ivp

    def rhs(_, s):
        _, G = net.loss_and_grad(s[:-1].reshape(W0.shape), data.X, data.y)
        speed = np.linalg.norm(G)
        return np.concatenate([-G.ravel() / speed, [1.0 / speed]])

    def reach(target, last):
        event = lambda _, s: np.log(np.linalg.norm(s[:-1])) - target  # noqa: E731
        event.terminal = last
        return event

    events = [reach(t, i == len(log_norms) - 1) for i, t in enumerate(log_norms)]
    sol = solve_ivp(rhs, (0.0, 1e4), np.append(W0.ravel(), 0.0), method="DOP853", rtol=1e-10,
                    atol=1e-12, events=events)
    return np.log([hit[0][-1] for hit in sol.y_events])


def test_normalized_flow_time_matches_an_independent_integrator():
    """Issue 15.3: the left-endpoint time was short by ≈ γ dt ‖W‖/2 in log t (0.23 at
    ‖W‖ = 55, dt = 0.02 here); the time of each step now integrates the speed between its
    two ends.  Its error is below dt and shrinks when dt halves, at every ‖W‖ tested."""
    rng = np.random.default_rng(5)
    data = lt.make_symmetric_gaussians(12, 2, rng=rng)
    net = lt.Net(k=1, alpha=0.3)
    W0 = net.init(2, scale=0.5, rng=rng)
    targets = np.log([8.0, 20.0, 55.0])
    ref = _reference_log_times(net, W0, data, targets)
    errors = []
    for dt in (0.02, 0.01):
        run = lt.gradient_flow(net, W0, data, dt=dt, n_steps=int(5 / dt), normalized=True,
                               record="all")
        log_norm = run.trace["log_norm"]
        assert log_norm[-1] > targets[-1] and np.all(np.diff(log_norm) > 0)
        errors.append(np.abs(np.interp(targets, log_norm, run.trace["log_time"]) - ref))
        assert np.all(errors[-1] < dt), (dt, errors[-1])
    assert errors[1].max() < 0.75 * errors[0].max()


def test_sgd_update_of_underflowing_preactivations_takes_the_true_slope():
    """Regression (issue 15.4): w·x = 1e-331 > 0 underflows to 0 in float64, u·x < 0; the SGD
    update (Eq. 3 at margin ≈ 0, so g = 1/2) must use σ' = 1 for w and α for u."""
    net = lt.Net(k=1, alpha=0.3)
    W0 = np.array([[1.0, 1.0, -0.9], [-1.0, -1.0, 0.9]]) * 1e-170
    X, y = np.array([[0.5, 0.5, 1.0]]) * 1e-160, np.array([1.0])
    assert np.all(X @ W0.T == 0.0)
    step = lt.sgd(net, W0, (X, y), eta=0.5, n_epochs=1, rng=0).W - W0
    expected = 0.5 * 0.5 * (net.a * np.array([1.0, 0.3]))[:, None] * y[0] * X[0]
    np.testing.assert_allclose(step, expected, rtol=1e-9)


# -- sgd(on_epoch=...): an epoch's updates filed by the trainer -------------------------------
def _filed_both_ways(net, W0, data, **kw):
    """The same SGD run with a per-update callback and with ``on_epoch``: what each saw."""
    seen, epochs = [], []
    cb = lambda t, W, info: seen.append((t, W.copy(), info["index"].copy(),  # noqa: E731
                                         info["g"].copy(), info["loss_before"].copy()))
    a = lt.sgd(net, W0, data, callback=cb, **kw)
    b = lt.sgd(net, W0, data, on_epoch=lambda u: epochs.append(
        (u.t0, u.W.copy(), u.index.copy(), u.g.copy(), u.loss_before.copy())), **kw)
    return a, b, seen, epochs


def _bits(a):
    return np.asarray(a, dtype=np.float64).view(np.uint64)


@pytest.mark.parametrize("batch", [None, (1,), (3,), (2, 2)])
def test_on_epoch_files_the_updates_the_callback_sees_bit_for_bit(rng, batch):
    ds = lt.make_separable(9, 3, margin=0.4, rng=rng)
    net = lt.Net(k=2, alpha=0.3, v=0.8)
    W0 = net.init(3, scale=0.5, rng=rng) if batch is None else \
        net.init(3, scale=0.5, rng=rng, batch=batch)
    a, b, seen, epochs = _filed_both_ways(net, W0, ds, eta=0.4, n_epochs=3, rng=7, eps0=0.3)
    assert np.array_equal(_bits(a.W), _bits(b.W))
    for key in a.trace.keys():  # the ε0-mistakes counted from the filed losses, too
        assert np.array_equal(a.trace[key], b.trace[key]), key
    assert [e[0] for e in epochs] == [0, 9, 18]
    lead = () if batch is None else batch
    start = W0
    for e, (t0, W, index, g, before) in enumerate(epochs):
        assert W.shape == lead + (10,) + W0.shape[-2:] and index.shape == lead + (9,)
        assert np.array_equal(_bits(W[..., 0, :, :]), _bits(start))  # the epoch's start
        for i in range(9):
            t, Wc, ic, gc, bc = seen[9 * e + i]
            assert t == t0 + i + 1
            assert np.array_equal(_bits(W[..., i + 1, :, :]), _bits(Wc))
            assert np.array_equal(index[..., i], ic)
            assert np.array_equal(_bits(g[..., i]), _bits(gc))
            assert np.array_equal(_bits(before[..., i]), _bits(bc))
        start = W[..., -1, :, :]


def test_on_epoch_comparison_sees_a_one_ulp_change(rng):
    """The bitwise comparison above is not vacuous: one ulp in one filed iterate shows."""
    ds = lt.make_separable(5, 2, margin=0.4, rng=rng)
    net = lt.Net(k=1, alpha=0.3)
    W0 = net.init(2, scale=0.5, rng=rng)
    _, _, seen, epochs = _filed_both_ways(net, W0, ds, eta=0.4, n_epochs=1, rng=1)
    W = epochs[0][1].copy()
    W[2, 0, 0] = np.nextafter(W[2, 0, 0], np.inf)
    assert not np.array_equal(_bits(W[2]), _bits(seen[1][1]))


def test_on_epoch_arrays_are_read_only_and_the_hook_is_checked(rng):
    ds = lt.make_separable(4, 2, margin=0.4, rng=rng)
    net = lt.Net(k=1, alpha=0.3)
    W0 = net.init(2, scale=0.5, rng=rng, batch=2)

    def write(u):
        for arr in (u.W, u.index, u.g, u.loss_before):
            with pytest.raises(ValueError, match="read-only"):
                arr[...] = 0
    lt.sgd(net, W0, ds, eta=0.1, n_epochs=1, rng=0, on_epoch=write)
    with pytest.raises(TypeError, match="`on_epoch` must be callable or None, got int"):
        lt.sgd(net, W0, ds, eta=0.1, n_epochs=1, rng=0, on_epoch=3)
