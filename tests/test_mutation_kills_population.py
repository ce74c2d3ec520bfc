"""Tests written to kill mutants of the core numerics that survived the population pass of
``make mutate`` (``python tools/mutate.py run --population``; docs/mutation.md): mutants
the verify-first campaigns' random samples left out, judged by the fast tests first.

Each test pins one documented behaviour that no other test or claim check distinguished
from a small mutation of it, against an independent reference.
"""
import numpy as np
import pytest

import linteach as lt
from linteach import loss
from proofs_check.kit import audit_ref_train as ref
from exact_oracle import wrong_sign_case


# -- linteach.train (train-flow) ----------------------------------------------------------------
@pytest.mark.parametrize("dt", [5e-9, 2e-9])
def test_normalized_flow_time_of_steps_on_the_logarithmic_mean_s_series_branch(dt):
    """Steps so short that log(1/‖∇L‖) moves by less than 1e-8 over each (here ~1.6·dt):
    the time of a step, dt‖W‖ times the logarithmic mean of 1/‖∇L‖ at its ends, takes the
    series log((1 − e^{−g})/g) = −g/2 + O(g²) there.  Against the reference integrator
    (which evaluates the logarithmic mean directly, docs/math.md §4): a wrong sign or
    factor of the series term moves each step's log time by ~g ≥ 1e-9, rounding by ~1e-15."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(5, 3))
    X /= np.linalg.norm(X, axis=1).max()
    y = np.array([1.0, -1.0, 1.0, 1.0, -1.0])
    W0 = rng.normal(size=(4, 3))
    run = lt.gradient_flow(lt.Net(k=2, alpha=0.3), W0, (X, y), dt=dt, n_steps=3,
                           normalized=True)
    _W, log_time = ref.normalized_replay(W0, X, y, dt, 3, 0.3, 1.0)
    assert abs(float(run.log_time) - log_time) <= 1e-12


# -- linteach.qp (qp-certify) and linteach.kkt (kkt): the last two open survivors ---------------
def test_solve_qp_clips_the_kept_solver_multipliers_at_zero(monkeypatch):
    """Where polish cannot improve an answer, solve_qp keeps the solver's own (θ, μ) once it
    passes the KKT re-check, whose dual feasibility allows a multiplier down to −1e-6-ish:
    SCS returns such multipliers (e.g. −1e-16 on inactive rows).  The μ handed back must
    still be ≥ 0 (KKT: μ ≥ 0), the solver's clipped at 0 and nothing else.  polish is
    switched off (as on a program with more active rows than it tries) and the re-check
    watched to see the solver's raw multipliers."""
    from linteach import qp

    seen = []
    real_report = qp.qp_kkt_report

    def watched(theta, G, h, mu):
        seen.append(np.array(mu, dtype=float))
        return real_report(theta, G, h, mu)
    monkeypatch.setattr(qp, "polish", lambda theta, G, h: None)
    monkeypatch.setattr(qp, "qp_kkt_report", watched)
    rng, kept = np.random.default_rng(0), 0
    for _ in range(6):  # feasible programs: 40 rows in 3 variables, most of them inactive
        G = rng.normal(size=(40, 3))
        h = G @ rng.normal(size=3) - rng.uniform(0.0, 1.0, size=40)
        seen.clear()
        try:
            theta, mu = qp.solve_qp(G, h, solver="SCS")
        except lt.SolverError:
            continue  # this answer failed the re-check: nothing kept
        raw = seen[-1]
        np.testing.assert_array_equal(mu, np.maximum(raw, 0.0))
        kept += bool(np.any(raw < 0))
    assert kept >= 1, "no kept answer had a negative multiplier: the clip went unexercised"


def test_kkt_certificate_allows_nnls_50_iterations_per_point(monkeypatch):
    """kkt_certificate's NNLS may take up to 50n iterations (n points; scipy's default is
    3n) before it gives up with a SolverError: the cap the certificate is documented with.
    The solver is watched, then made to report its cap as reached."""
    from linteach import kkt

    calls, real_nnls = [], kkt.nnls

    def watched(A, b, *, maxiter):
        calls.append((A.shape[1], maxiter))
        return real_nnls(A, b, maxiter=maxiter)
    monkeypatch.setattr(kkt, "nnls", watched)
    X = np.array([[1.0, 0.2], [-1.0, 0.1], [0.3, 1.0], [-0.2, -1.0], [0.8, -0.5]])
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    W = np.array([[1.0, 0.3], [0.2, 1.0], [-1.0, -0.3], [-0.2, -1.0]])
    kkt.kkt_certificate(W, X, y, alpha=0.3)
    assert calls == [(5, 50 * 5)]

    def capped(A, b, *, maxiter):
        raise RuntimeError("Maximum number of iterations reached.")
    monkeypatch.setattr(kkt, "nnls", capped)
    with pytest.raises(lt.SolverError, match="nnls"):
        kkt.kkt_certificate(W, X, y, alpha=0.3)


def test_normalized_flow_at_a_stationary_point_stays_there_and_takes_no_time():
    """X = {x, −x}, both labelled +1, and every neuron orthogonal to x: each pre-activation
    is 0, σ' = α at both points, and ∇L = −g(0)·α·v·(x − x)·(±1) = 0 exactly.  The flow
    stays at a stationary point, as the exact flow does (train.py: a zero ∇L is not
    moving), silently: no 0/0, the weights unchanged (to their rebuilding from direction and
    log norm), no time accumulated."""
    x = np.array([1.0, 0.5, -0.25])
    X, y = np.stack([x, -x]), np.array([1.0, 1.0])
    W0 = np.array([[0.5, -1.0, 0.0], [1.0, -1.0, 2.0]])  # rows ⟂ x
    assert np.all(W0 @ x == 0.0)
    run = lt.gradient_flow(lt.Net(k=1, alpha=0.3), W0, (X, y), dt=0.01, n_steps=3,
                           normalized=True, record="all")
    np.testing.assert_allclose(run.W, W0, rtol=1e-15)  # rebuilt as direction · e^log‖W‖
    assert run.log_time == -np.inf
    assert np.all(np.asarray(run.trace["log_time"]) == -np.inf)


# -- linteach.train (train-sgd) -----------------------------------------------------------------
@pytest.mark.parametrize("filed", [False, True], ids=["per-update", "on_epoch"])
def test_sgd_counts_a_loss_of_exactly_eps0_as_a_mistake(filed):
    """An ε0-mistake is a step whose example's loss before the update is *at least* ε0
    (docs/math.md §3): at a start whose only neuron pair is orthogonal to the only point,
    q = 0 and ℓ(0) = log 2, so with ε0 = log 2 the first step is a mistake, counted alike
    whether the losses are read per update or from the filed epoch."""
    X, y = np.array([[1.0, 2.0]]), np.array([1.0])
    W0 = np.array([[2.0, -1.0], [-4.0, 2.0]])  # both rows ⟂ x: N_W(x) = 0
    eps0 = float(np.log(2.0))
    assert loss.ell(0.0) == eps0
    run = lt.sgd(lt.Net(k=1, alpha=0.3), W0, (X, y), eta=0.1, n_epochs=1, eps0=eps0, rng=0,
                 on_epoch=(lambda updates: None) if filed else None)
    assert list(run.trace["mistakes"]) == [0, 1]


def test_sgd_callback_weights_are_read_only():
    """The callback's ``W`` is the trainer's own weights, read-only (sgd's docstring): a
    callback that writes to it raises instead of changing the run."""
    X, y = np.array([[1.0, 2.0], [-1.0, 0.5]]), np.array([1.0, -1.0])
    W0 = np.array([[0.3, -0.1], [0.2, 0.4]])
    seen = []

    def callback(t, W, info):
        seen.append(W.flags.writeable)
        with pytest.raises(ValueError, match="read-only"):
            W[...] = 0.0
    lt.sgd(lt.Net(k=1, alpha=0.3), W0, (X, y), eta=0.1, n_epochs=1, rng=0, callback=callback)
    assert seen == [False, False]


# -- linteach._kernels (kernels): the batched SGD update ----------------------------------------
def test_batched_sgd_signs_are_exact_where_underflow_flips_the_computed_pre_activation():
    """σ' is decided by the exact sign of w_j·x (docs/math.md §1) in a batch of runs too:
    two runs of the wrong-sign case (d = 64 ≫ 2k = 2, so the underflow bound d·2^-1074
    flags the computed ±20·2^-1074) each update with slope α at the w row and 1 at the u
    row, the per-row reference with the exact signs."""
    alpha, eta = 0.3, 0.5
    W, x, on = wrong_sign_case()
    slope = np.where(on > 0, 1.0, alpha) * np.array([1.0, -1.0])  # a_j σ'(z_j), v = 1
    W0 = np.stack([W, W])  # (R = 2, 2k, d): the batched update path
    run = lt.sgd(lt.Net(k=1, alpha=alpha), W0, (x[None, :], np.array([1.0])), eta=eta,
                 n_epochs=1, rng=0)
    expected = W + (eta * 0.5) * slope[:, None] * x[None, :]  # g(q) = 1/2: |q| ~ 1e-322
    for r in range(2):
        np.testing.assert_allclose(run.W[r], expected, rtol=1e-13)


@pytest.mark.parametrize("batched", [False, True], ids=["one run", "batch"])
def test_sgd_at_an_exact_kink_takes_slope_alpha(batched):
    """σ'(0) = α (docs/math.md §1) in the one-run update and in a batch of runs: every
    neuron orthogonal to the only point, so each pre-activation is exactly 0, q = 0,
    g(0) = 1/2, and the update of row j is η·(1/2)·y·a_j·α·x, as in the formula."""
    alpha, eta = 0.3, 0.5
    x, yv = np.array([1.0, 2.0, -0.5]), 1.0
    W = np.array([[2.0, -1.0, 0.0], [1.0, 0.0, 2.0]])  # both rows ⟂ x
    assert np.all(W @ x == 0.0)
    starts = (W, 2.0 * W) if batched else (W,)
    run = lt.sgd(lt.Net(k=1, alpha=alpha), np.stack(starts) if batched else W,
                 (x[None, :], np.array([yv])), eta=eta, n_epochs=1, rng=0)
    a = np.array([1.0, -1.0])
    for r, Wr in enumerate(starts):
        np.testing.assert_allclose(run.W[r] if batched else run.W,
                                   Wr + (eta * 0.5 * yv * alpha) * a[:, None] * x, rtol=1e-15)


def test_batched_normalized_step_rescales_only_the_run_whose_loss_weights_are_all_tiny():
    """Two runs in one batch, v = 1e200: at ‖W‖ = e^300 a misclassified point makes every
    weight g_i/L_sum of ∇L/L fall below e^-745 (they would underflow to 0 unrescaled, a
    frozen flow), at ‖W‖ = e^-460 the weights are ordinary.  The kernel rescales per run
    (the largest log weight of each run), so each run of the batch steps as it does alone."""
    net = lt.Net(k=1, alpha=0.5, v=1e200)
    D = np.array([[0.6, 0.3], [-0.5, 0.55]])
    D /= np.linalg.norm(D)
    X = np.array([[1.0, 0.2], [-0.3, 1.0], [0.8, -0.9]])
    y = np.array([1.0, -1.0, -1.0])
    W0 = np.stack([D * np.exp(300.0), D * np.exp(-460.0)])
    batched = lt.gradient_flow(net, W0, (X, y), dt=0.01, n_steps=1, normalized=True)
    for r in range(2):
        alone = lt.gradient_flow(net, W0[r], (X, y), dt=0.01, n_steps=1, normalized=True)
        assert not np.allclose(alone.direction, D)  # the step moves the direction
        np.testing.assert_allclose(batched.direction[r], alone.direction, rtol=1e-14)


def test_kernel_sgd_update_checks_underflowed_signs_by_default():
    """``Fused.sgd_update`` rechecks signs that underflow may have flipped unless told the
    weights are safe (``checked=True`` by default): called without ``checked`` on the
    wrong-sign case, it updates with the exact signs, as the per-row reference does."""
    from linteach._kernels import Fused

    alpha, eta = 0.3, 0.5
    W, x, on = wrong_sign_case()
    slope = np.where(on > 0, 1.0, alpha) * np.array([1.0, -1.0])  # a_j σ'(z_j), v = 1
    W_run = W.copy()
    Fused(lt.Net(k=1, alpha=alpha)).sgd_update(W_run, x, 1.0, eta * x, eta=eta)
    np.testing.assert_allclose(W_run, W + (eta * 0.5) * slope[:, None] * x[None, :],
                               rtol=1e-13)


def _log_grad_norm(W, X, y, alpha):
    """log ‖∇L(W)‖ (mean loss, v = 1) by the per-example formula in plain float64:
    ∇_{w_j} L = (1/n) Σ_i −y_i g(q_i) a_j σ'(w_j·x_i) x_i (docs/math.md §1); fine where the
    misclassified points' g(q) ≈ 1 carry the sum (the others' g underflow to 0 harmlessly)."""
    from scipy.special import expit

    k = W.shape[0] // 2
    a = np.repeat([1.0, -1.0], k)
    Z = X @ W.T
    q = y * (np.maximum(Z, alpha * Z) @ a)
    c = -y * expit(-q) / len(X)
    G = (np.where(Z > 0, 1.0, alpha) * a * c[:, None]).T @ X
    return float(np.log(np.linalg.norm(G)))


@pytest.mark.parametrize("log_scale", [320.0, 340.0])
def test_normalized_flow_time_where_every_loss_weight_is_below_e_minus_300(log_scale):
    """A misclassified point at ‖W‖ = e^340: every weight g_i/L_sum of ∇L/L is below e^-300
    and the kernel rescales them, correcting log ‖∇L/L‖ for the scale.  One step's time,
    dt‖W_0‖ times the logarithmic mean of 1/‖∇L‖ at its two ends (docs/math.md §4), with
    ‖∇L‖ from the per-example formula at W_0 and at the step's W_1."""
    alpha, dt = 0.5, 0.01
    net = lt.Net(k=1, alpha=alpha)
    D = np.array([[0.6, 0.3], [-0.5, 0.55]])
    D /= np.linalg.norm(D)
    X = np.array([[1.0, 0.2], [-0.3, 1.0], [0.8, -0.9]])
    y = np.array([1.0, -1.0, -1.0])
    W0 = D * np.exp(log_scale)
    run = lt.gradient_flow(net, W0, (X, y), dt=dt, n_steps=1, normalized=True)
    s0, s1 = -_log_grad_norm(W0, X, y, alpha), -_log_grad_norm(run.W, X, y, alpha)
    gap = abs(s1 - s0)
    log_mean = max(s0, s1) + (np.log(-np.expm1(-gap) / gap) if gap > 0 else 0.0)
    want = np.log(dt) + log_scale + log_mean
    assert abs(float(run.log_time) - want) <= 1e-9 * abs(want)


@pytest.mark.parametrize("normalized", [False, True])
def test_a_batch_of_one_run_equals_the_run_alone(normalized):
    """W0 with a run axis of length 1 (and n = 5 points ≠ 2k = 4 neurons): the gradient and
    the loss terms are formed over the batch's axes, the points on axis −2 whatever the
    leading axes; the run equals the same run without its run axis, bit for bit."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(5, 3))
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    W0 = rng.normal(size=(4, 3))
    net = lt.Net(k=2, alpha=0.3)
    one = lt.gradient_flow(net, W0[None], (X, y), dt=0.01, n_steps=3, normalized=normalized)
    alone = lt.gradient_flow(net, W0, (X, y), dt=0.01, n_steps=3, normalized=normalized)
    np.testing.assert_array_equal(one.W[0], alone.W)


def test_batched_gd_signs_are_exact_where_underflow_flips_the_computed_pre_activation():
    """The full-batch forward pass decides σ' by the exact sign too (docs/math.md §1), in a
    batch of runs: two runs of the wrong-sign case (d = 64 ≫ 2k = 2) each take the gd step
    W + η·(1/2)·a_j σ'(z_j)·x of the one-point mean loss, with the exact signs."""
    alpha, eta = 0.3, 0.5
    W, x, on = wrong_sign_case()
    slope = np.where(on > 0, 1.0, alpha) * np.array([1.0, -1.0])  # a_j σ'(z_j), v = 1
    run = lt.gd(lt.Net(k=1, alpha=alpha), np.stack([W, W]), (x[None, :], np.array([1.0])),
                eta=eta, n_steps=1)
    expected = W + (eta * 0.5) * slope[:, None] * x[None, :]  # g(q) = 1/2: |q| ~ 1e-322
    for r in range(2):
        np.testing.assert_allclose(run.W[r], expected, rtol=1e-13)


def test_gd_step_on_two_points_in_one_dimension_is_the_per_example_gradient():
    """n = 2 points in d = 1, k = 1 (2k = n = 2: a wrong branch would broadcast silently):
    a gd step is W − η∇L with ∇_{w_j} L = (1/n) Σ_i −y_i g(q_i) a_j σ'(w_j·x_i) x_i
    (docs/math.md §1), summed point by point."""
    from scipy.special import expit

    alpha, eta = 0.3, 0.5
    X, y = np.array([[1.0], [-2.0]]), np.array([1.0, -1.0])
    W0 = np.array([[0.5], [0.3]])
    a = np.array([1.0, -1.0])
    Z = X @ W0.T
    q = y * (np.maximum(Z, alpha * Z) @ a)
    G = np.zeros_like(W0)
    for i in range(2):
        for j in range(2):
            slope = 1.0 if Z[i, j] > 0 else alpha
            G[j] += -y[i] * expit(-q[i]) * a[j] * slope * X[i] / 2
    run = lt.gd(lt.Net(k=1, alpha=alpha), W0, (X, y), eta=eta, n_steps=1)
    np.testing.assert_allclose(run.W, W0 - eta * G, rtol=1e-14)
