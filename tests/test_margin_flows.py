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
    """One plain Euler flow (no ``normalized``) of all runs from their states, run ``r`` with
    the step ``factor·K·‖W_r‖/‖∇L_r‖``, for ``count/factor`` steps, every step recorded; a
    run's drop over the records with L_sum < log 2 for its own n: mean losses of log(2)/6
    are late for n = 4 points (L_sum = 4/6·log 2) and would not be for d = 10 or for the 7
    runs (X's other axes)."""
    net, X, y, W0 = _batch(n=4, d=10, runs=7)
    calls = []
    rows = np.array([1.0, 0.9, 0.95])[:, None] * np.linspace(1.0, 2.0, len(W0))

    class Run:
        trace = {"log_loss": np.full((3, len(W0)), np.log(np.log(2.0) / 6.0)),
                 "smoothed_margin": rows}

    def fake(net_, W, data, *, dt, n_steps, record, **kw):
        calls.append((W, data, dt, n_steps, record, kw))
        return Run
    monkeypatch.setattr(lt, "gradient_flow", fake)
    for K, factor, count in ((3.0, 1.0, 8), (1.0, 0.25, 8)):
        calls.clear()
        got = mf.bad_step_drops(net, W0, X, y, K, factor, count)
        [(W, data, dt, n_steps, record, kw)] = calls
        for r in range(len(W0)):
            norm_grad = np.linalg.norm(net.loss_and_grad(W0[r], X[r], y[r])[1])
            assert np.isclose(dt[r], K * factor * np.linalg.norm(W0[r]) / norm_grad,
                              rtol=1e-12)
        assert dt.shape == (len(W0),)
        assert n_steps == int(count / factor) and record == "all" and kw == {}
        np.testing.assert_array_equal(W, W0)
        np.testing.assert_array_equal(data[0], X)
        np.testing.assert_array_equal(data[1], y)
        np.testing.assert_allclose(got, np.full(len(W0), 0.1), rtol=1e-12)


def test_bad_step_drops_of_a_batch_equal_each_run_alone_bit_for_bit():
    """The batched control equals the same flows one run at a time (each its own data), from
    the states where eq6's late phase enters, at eq6's own sizes, steps and counts."""
    from proofs_check.claims import eq6
    spec = eq6.FAMILIES["separable"]
    net = lt.Net(k=spec["k"], alpha=spec["alpha"], v=spec["v"])
    rng = np.random.default_rng(5)
    built = []
    for _ in range(2):
        ds = flow.make_data(spec["kind"], rng, n=spec["n"], d=spec["d"], margin=spec["margin"])
        W0 = net.init(ds.d, scale=1.0, rng=rng, batch=2)
        built.append((ds.X, ds.y, W0 * np.asarray(eq6.INIT_SCALES)[:, None, None]))
    X, y, W0 = flow.stack_runs(built)
    _, entry, _ = mf.late_phase(net, W0, X, y, eq6.DT, eq6.N_LATE)
    have = [r for r in range(len(W0)) if entry[r] is not None]
    We, X, y = np.stack([entry[r] for r in have]), X[have], y[have]
    assert len(We) >= 3
    found = []
    for K in eq6.BAD_K:
        for factor in (1.0, 0.5):
            got = mf.bad_step_drops(net, We, X, y, K, factor, eq6.BAD_COUNT)
            alone = []
            for r in range(len(We)):  # a 2-D run of its own, with its own step
                ratio = np.linalg.norm(We[r]) / np.linalg.norm(
                    net.loss_and_grad(We[r], X[r], y[r])[1])
                trace = lt.gradient_flow(net, We[r], (X[r], y[r]), dt=K * ratio * factor,
                                         n_steps=int(round(eq6.BAD_COUNT / factor)),
                                         record="all").trace
                alone.append(flow.largest_drop(trace["smoothed_margin"][:, None], mf.late_mask(
                    trace["log_loss"], X.shape[-2])[:, None])[0])
            np.testing.assert_array_equal(got, alone)
            found.append(got)
    assert (np.concatenate(found) != 0).any()  # the flows broke the late phase somewhere
