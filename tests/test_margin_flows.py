"""proofs_check.kit.margin_flows: eq6's flows and its control's steps, by their definitions."""
import numpy as np

import linteach as lt
from proofs_check.kit import flow, margin_flows as mf


def _batch(n=12, d=3, k=2, runs=2, seed=4):
    rng = np.random.default_rng(seed)
    net = lt.Net(k=k, alpha=0.3)
    ds = lt.make_separable(n, d, margin=0.3, rng=rng)
    X, y = np.broadcast_to(ds.X, (runs, n, d)).copy(), np.broadcast_to(ds.y, (runs, n)).copy()
    return net, X, y, net.init(d, scale=1.0, rng=rng, batch=runs)


def test_rate_samples_are_taken_exactly_at_the_log_spaced_marks(monkeypatch):
    net, X, y, W0 = _batch()
    marks = sorted(set(np.unique(np.geomspace(1, 40, 6).astype(int)).tolist()))
    assert marks[0] == 1 and marks[-1] == 40
    seen = []
    real = flow.gamma_rate

    def spy(net_, direction, log_norm, X_, y_):
        seen.append(np.array(log_norm))
        return real(net_, direction, log_norm, X_, y_)
    monkeypatch.setattr(flow, "gamma_rate", spy)
    run, entry, samples = mf.late_phase(net, W0, X, y, 0.01, 40, rate_points=6)
    assert len(samples) == len(marks) == len(seen)
    trace = run.trace  # every step recorded: the samples are the marks' states
    for s, log_norm in zip(marks, seen):
        np.testing.assert_array_equal(log_norm, trace["log_norm"][s])
    seen.clear()
    run, samples = mf.euler_phase(net, W0, X, y, 1.0, 40, rate_points=6)
    assert len(samples) == len(marks) == len(seen)
    assert mf.euler_phase(net, W0, X, y, 1.0, 40)[1] == []


def test_the_entry_is_the_first_state_past_assumption_6_1():
    net, X, y, W0 = _batch()
    run, entry, _ = mf.late_phase(net, W0, X, y, 0.05, 300)
    late = mf.late_mask(run.trace["log_loss"], X.shape[-2])
    for r in range(len(W0)):
        if not late[:, r].any():
            assert entry[r] is None
            continue
        s = int(np.argmax(late[:, r]))
        assert np.isclose(np.linalg.norm(entry[r]), np.exp(run.trace["log_norm"][s, r]),
                          rtol=1e-12)
    assert any(e is not None for e in entry)


def test_bad_step_drops_are_plain_euler_with_the_documented_step_and_count(monkeypatch):
    """Each run alone, plain Euler (no ``normalized``) from its state with the step
    ``factor·K·‖W‖/‖∇L‖`` for ``count/factor`` steps, every step recorded; its drop over the
    records with L_sum < log 2 for its own n: mean losses of log(2)/6 are late for n = 4
    points (L_sum = 4/6·log 2) and would not be for d = 10 or for the 7 runs (X's other
    axes)."""
    net, X, y, W0 = _batch(n=4, d=10, runs=7)
    calls = []

    class Run:
        trace = {"log_loss": np.full(3, np.log(np.log(2.0) / 6.0)),
                 "smoothed_margin": np.array([1.0, 0.9, 0.95])}

    def fake(net_, W, data, *, dt, n_steps, record, **kw):
        calls.append((W, data, dt, n_steps, record, kw))
        return Run
    monkeypatch.setattr(lt, "gradient_flow", fake)
    for K, factor, count in ((3.0, 1.0, 8), (1.0, 0.25, 8)):
        calls.clear()
        got = mf.bad_step_drops(net, W0, X, y, K, factor, count)
        assert len(calls) == len(W0)
        for r, (W, data, dt, n_steps, record, kw) in enumerate(calls):
            norm_grad = np.linalg.norm(net.loss_and_grad(W0[r], X[r], y[r])[1])
            assert np.isclose(dt, K * factor * np.linalg.norm(W0[r]) / norm_grad, rtol=1e-12)
            assert n_steps == int(count / factor) and record == "all" and kw == {}
            np.testing.assert_array_equal(W, W0[r])
            np.testing.assert_array_equal(data[0], X[r])
            np.testing.assert_array_equal(data[1], y[r])
        np.testing.assert_allclose(got, np.full(len(W0), 0.1), rtol=1e-12)


def test_late_mask_is_l_sum_below_log_2():
    just = np.log(np.log(2.0))  # n = 1: log n = 0 exactly, L_sum = log 2 exactly
    assert not mf.late_mask(just, 1) and mf.late_mask(np.nextafter(just, -np.inf), 1)
    assert mf.late_mask(np.log(np.log(2.0) / 8.0), 7) and not mf.late_mask(
        np.log(np.log(2.0) / 6.0), 7)


def test_a_late_phase_without_rate_points_takes_no_samples():
    net, X, y, W0 = _batch()
    assert mf.late_phase(net, W0, X, y, 0.01, 20)[2] == []


def test_refine_leaves_a_run_whose_slack_is_exactly_zero():
    from proofs_check.claims import eq6
    drop = np.array([1e-3])
    half = eq6.SHRINK * drop + eq6.DROP_FLOOR  # the allowed drop itself: slack 0, it holds
    assert eq6.shrink_slack(drop, half)[0] == 0.0

    def never(runs, level):
        raise AssertionError(f"refined runs {runs} at level {level}: they hold")
    assert np.isnan(mf.refine(drop, half, eq6.refined_slack, 3, never)).all()
