"""Tests written to kill mutants of the core numerics that survived ``make mutate``
(docs/mutation.md): the loss, the network, the trainers.

Each test pins one documented behaviour that no other test or claim check distinguished
from a small mutation of it.  (The verdict logic's kill tests are in test_mutation_kills.py.)
"""

import mpmath
import numpy as np
import pytest
from scipy.special import expit

import linteach as lt
from linteach import loss
from linteach._kernels import Controlled, Fused
from linteach.runs import MAX_LOG_NORM
from exact_oracle import wrong_sign_case


def _log_ell_exact(q: float) -> float:
    with mpmath.workdps(50):
        return float(mpmath.log(mpmath.log1p(mpmath.exp(-mpmath.mpf(q)))))


# -- linteach.loss (survivors of the loss-core campaign) ----------------------------------------
def test_log_ell_is_correctly_rounded_on_both_sides_of_the_series_switch():
    """``log ℓ`` is documented exact to double precision past the switch at q = 30 (the
    series −q − e^{−q}/2); a wrong sign of its e^{−q}/2 term is 10–24 ulps off here, far
    inside every tolerance of the claims."""
    q = np.concatenate([np.linspace(29.0, 31.0, 81), [30.0, np.nextafter(30.0, 31.0)]])
    exact = np.array([_log_ell_exact(float(x)) for x in q])
    ulps = np.abs(loss.log_ell(q) - exact) / np.spacing(np.abs(exact))
    assert ulps.max() <= 1.0


def test_mean_loss_reduces_over_the_last_axis_of_stacked_runs(rng):
    q = rng.standard_normal((3, 5)) * 4.0
    stacked = loss.mean_loss(q)
    assert stacked.shape == (3,)
    for i in range(3):
        np.testing.assert_allclose(stacked[i], loss.mean_loss(q[i]), rtol=1e-15)


def test_mean_loss_of_a_scalar_is_refused_naming_q_and_the_rule():
    with pytest.raises(ValueError, match=r"`q` must have at least 1 axis"):
        loss.mean_loss(0.5)


# -- linteach.train (survivors of the train-flow campaign) -------------------------------------
@pytest.mark.parametrize("log_norm", [MAX_LOG_NORM, np.nextafter(MAX_LOG_NORM, 0.0),
                                      float(np.log(np.exp(MAX_LOG_NORM + 5.0)))])
def test_normalized_flow_callback_w_is_none_exactly_when_run_w_is(log_norm):
    """The callback's ``W`` and ``Run.W`` are rebuilt from (direction, log ‖W‖) by one rule:
    ``None`` from ‖W‖ = e^MAX_LOG_NORM on.  At the threshold itself both are ``None``, one
    ulp below both are the weights (a ``≤`` in either place gives an array at the threshold),
    and past it, where e^log‖W‖ is still finite, ``None`` too (``≠`` would give weights)."""
    r = float(np.exp(log_norm))
    assert np.log(r) == log_norm  # W0 sits exactly at this log norm
    net = lt.Net(k=1, alpha=0.5)
    X, y = np.array([[1.0, 0.2], [-1.0, 0.3]]), np.array([1.0, -1.0])
    W0 = np.array([[r, 0.0], [0.0, 0.0]])
    seen = []
    run = lt.gradient_flow(net, W0, (X, y), dt=0.01, n_steps=0, normalized=True,
                           callback=lambda s, W, info: seen.append(W))
    assert run.log_norm == log_norm and len(seen) == 1
    if log_norm >= MAX_LOG_NORM:
        assert run.W is None and seen[0] is None
    else:
        np.testing.assert_array_equal(run.W, W0)
        np.testing.assert_array_equal(seen[0], W0)


# -- linteach.train (survivors of the train-sgd campaign) --------------------------------------
def test_sgd_trace_rows_are_numbered_by_epoch_from_the_initial_state(rng):
    """Row e of the SGD trace is the state after e epochs: row 0 is W0 (epoch 0), and its loss
    is the mean loss at W0 (the claims read the trace by position, never its `epoch`)."""
    data = lt.make_separable(8, 3, margin=0.2, rng=rng)
    net = lt.Net(k=2, alpha=0.4)
    W0 = net.init(3, scale=0.5, rng=rng)
    run = lt.sgd(net, W0, data, eta=0.1, n_epochs=3, rng=rng)
    np.testing.assert_array_equal(run.trace["epoch"], np.arange(4))
    q0 = data.y * net.forward(W0, data.X)
    np.testing.assert_allclose(run.trace["loss"][0], np.mean(np.log1p(np.exp(-q0))), rtol=1e-12)


# -- linteach._kernels (survivors of the kernels campaign) -------------------------------------
def _unit_step_reference(D, X, y, alpha, v, log_scale, dt):
    """One normalized-flow step from ``W = e^log_scale · D`` (‖D‖ = 1), by a per-example loop:
    the step direction is ∇L/L at D up to a positive factor, Σ_i g_i (−y_i) ∇N_D(x_i) with
    the weights g_i = 1/(1 + e^{q_i}) taken in log space relative to the largest."""
    k = D.shape[0] // 2
    q = y * (np.maximum(X @ D.T, alpha * (X @ D.T)) @ np.repeat([1.0, -1.0], k))
    log_g = np.array([-float(mpmath.log1p(mpmath.exp(mpmath.mpf(qi) * v
                                                     * mpmath.exp(log_scale)))) for qi in q])
    weight = np.exp(log_g - log_g.max())
    G = np.zeros_like(D)
    for i, x in enumerate(X):
        for j in range(2 * k):
            slope = 1.0 if D[j] @ x > 0 else alpha
            G[j] += weight[i] * (-y[i]) * (1.0 if j < k else -1.0) * slope * x
    step = D - dt * G / np.linalg.norm(G)
    return step / np.linalg.norm(step)


@pytest.mark.parametrize("v, log_scale", [(1.0, 400.0), (1e200, 300.0)])
def test_normalized_step_with_every_loss_weight_below_e_minus_300(v, log_scale):
    """A misclassified point at ‖W‖ = e^400: every weight g_i/L_sum of ∇L/L is below e^-300,
    where the kernel rescales them (no claim's flow gets there: its data are separable); with
    v = 1e200 they are below e^-745 and would underflow to 0 (a frozen flow) unrescaled.
    The step's direction matches a per-example loop in log space."""
    alpha, dt = 0.5, 0.01
    D = np.array([[0.6, 0.3], [-0.5, 0.55]])
    D /= np.linalg.norm(D)
    X = np.array([[1.0, 0.2], [-0.3, 1.0], [0.8, -0.9]])
    y = np.array([1.0, -1.0, -1.0])
    net = lt.Net(k=1, alpha=alpha, v=v)
    q = net.margins(D, X, y)
    assert q.min() < 0 < q.max()  # one point on the wrong side
    run = lt.gradient_flow(net, D * np.exp(log_scale), (X, y), dt=dt, n_steps=1,
                           normalized=True)
    want = _unit_step_reference(D, X, y, alpha, v, log_scale, dt)
    np.testing.assert_allclose(run.direction, want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kernel", [Fused, lambda net: Controlled(net, np.negative)])
def test_kernel_sgd_update_options_are_keyword_only(kernel):
    """The kernel protocol's ``sgd_update(W, x, y, ex, *, eta, out, checked)``: ``eta`` is
    already folded into ``ex``, so a positional fifth argument is refused, not taken as η."""
    net = lt.Net(k=1, alpha=0.5)
    W, x = np.array([[1.0, 0.5], [-0.5, 1.0]]), np.array([0.3, -0.2])
    with pytest.raises(TypeError):
        kernel(net).sgd_update(W, x, 1.0, 0.1 * x, 0.1)


def test_batched_sgd_equals_looped_where_pre_activations_underflow():
    """Weights and inputs of 1e-160: every product w_jl x_il is subnormal, so each update
    decides its signs by the row-scaled recheck (the batched path's own call of it); the
    batch of runs still equals each run alone, bit for bit."""
    net = lt.Net(k=2, alpha=0.3)
    rng = np.random.default_rng(11)
    W0 = rng.standard_normal((2, 4, 3)) * 1e-160
    X = rng.standard_normal((5, 3)) * 1e-160
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    assert np.all(np.abs(X @ np.swapaxes(W0, -1, -2)) < np.finfo(float).tiny)  # subnormal
    batched = lt.sgd(net, W0, (X, y), eta=0.5, n_epochs=2, rng=np.random.default_rng(3))
    gens = np.random.default_rng(3).spawn(2)
    for r in range(2):
        alone = lt.sgd(net, W0[r], (X, y), eta=0.5, n_epochs=2, rng=gens[r])
        np.testing.assert_array_equal(batched.W[r], alone.W)


# -- findings of the campaigns ------------------------------------------------------------------
def test_smoothed_margin_past_a_summed_loss_of_e709_is_finite_and_exact():
    """Regression: a misclassified point at ‖W‖ = e^709 (‖x‖ ≈ 10) puts L_sum past float64,
    and γ̃ = −log(e^{L_sum} − 1)/‖W‖ ≈ −L_sum/‖W‖ ≈ −6.6 raised "`log_x` must be <= 709.783"
    from inside lt.smoothed_margin and the normalized flow's trace (the plain flow's
    outputs overflow there: it refuses such weights by their own error)."""
    D = np.array([[0.6, 0.3], [-0.5, 0.55]])
    D /= np.linalg.norm(D)
    X = 10.0 * np.array([[1.0, 0.2], [-0.3, 1.0], [0.8, -0.9]])
    y = np.array([1.0, -1.0, -1.0])
    net = lt.Net(k=1, alpha=0.5)
    W = D * np.exp(709.0)
    with mpmath.workdps(60):
        Wm, Xm = mpmath.matrix(W.tolist()), mpmath.matrix(X.tolist())
        norm = mpmath.sqrt(mpmath.fsum(w ** 2 for w in Wm))
        z = Xm * Wm.T  # (n, 2k), exact inputs
        q = [y[i] * (max(z[i, 0], 0.5 * z[i, 0]) - max(z[i, 1], 0.5 * z[i, 1]))
             for i in range(len(y))]
        L = mpmath.fsum(mpmath.log1p(mpmath.exp(-qi)) for qi in q)
        want = float(-mpmath.log(mpmath.expm1(L)) / norm)
    assert L > mpmath.mpf(np.finfo(float).max)
    np.testing.assert_allclose(lt.smoothed_margin(net, W, X, y), want, rtol=1e-12)
    run = lt.gradient_flow(net, W, (X, y), dt=0.01, n_steps=1, normalized=True)
    np.testing.assert_allclose(run.trace["smoothed_margin"][0], want, rtol=1e-12)


@pytest.mark.parametrize("how", ["loss_and_grad", "sgd"])
def test_signs_are_exact_where_underflow_flips_the_computed_pre_activation(how):
    """σ' is decided by the exact sign of w_j·x (docs/math.md §1), also where the float64 sum
    of underflowed products has the wrong sign: ∇L and an SGD update use slope α at the w
    row and 1 at the u row here, a per-row reference with the exact signs."""
    alpha, eta = 0.3, 0.5
    W, x, on = wrong_sign_case()
    net = lt.Net(k=1, alpha=alpha)
    slope = np.where(on > 0, 1.0, alpha) * np.array([1.0, -1.0])  # a_j σ'(z_j), v = 1
    q = float(np.dot(slope, W @ x))  # |q| ~ 1e-322: g(q) = 1/2 exactly
    assert expit(-q) == 0.5
    if how == "loss_and_grad":
        G = net.loss_and_grad(W, x[None, :], np.array([1.0]))[1]
        np.testing.assert_allclose(G, -0.5 * slope[:, None] * x[None, :], rtol=1e-13)
    else:
        run = lt.sgd(net, W, (x[None, :], np.array([1.0])), eta=eta, n_epochs=1, rng=0)
        np.testing.assert_allclose(run.W, W + (eta * 0.5) * slope[:, None] * x[None, :],
                                   rtol=1e-13)


# -- linteach.qp (survivors of the qp-certify campaign) ----------------------------------------
def test_solve_qp_accepts_a_checked_answer_that_polish_cannot_improve():
    """min ½θ² s.t. θ ≥ 1, thirty times over: more active rows than polish tries (20 per
    variable), so the solver's own (θ, μ) is kept once it passes the KKT re-check, with its
    multipliers clipped at 0 and nothing else: θ = 1 = Σ μ_i, each μ_i ≥ 0."""
    from linteach import kkt, qp

    G, h = np.ones((30, 1)), np.ones(30)
    assert kkt.polish(np.array([1.0]), G, h) is None
    theta, mu = qp.solve_qp(G, h)
    assert np.all(mu >= 0.0) and np.all(G @ theta >= h * (1 - kkt.FEAS_TOL))
    # the duality gap ½θ² − (μᵀh − ½‖Gᵀμ‖²) bounds ‖θ − θ*‖² / 2 (θ* = 1): the answer kept
    # must meet the documented distance tolerance (an unchecked solver answer may not)
    gap = 0.5 * theta @ theta - (mu @ h - 0.5 * (G.T @ mu) @ (G.T @ mu))
    assert np.sqrt(2.0 * max(gap, 0.0)) / np.linalg.norm(theta) <= kkt.DIST_TOL
    np.testing.assert_allclose(G.T @ mu, theta, rtol=kkt.KKT_TOL)  # stationarity: θ = Gᵀμ


# -- linteach.kkt (survivors of the kkt campaign) ----------------------------------------------
def test_qp_kkt_report_residuals_are_the_documented_formulas():
    """Each residual of ``qp_kkt_report`` at a pair that violates each condition, against
    its docstring formula evaluated row by row (the claims' answers are near-exact KKT
    pairs, where a residual's scaling is invisible)."""
    from linteach import kkt

    G = np.array([[2.0, 0.0], [0.5, 1.5], [-1.0, 1.0]])
    h = np.array([3.0, 1.0, 0.5])
    theta, mu = np.array([1.0, 0.4]), np.array([0.7, -0.2, 0.3])
    rep = kkt.qp_kkt_report(theta, G, h, mu)
    norm = float(np.sqrt(theta @ theta))
    rows = [float(np.sqrt(g @ g)) for g in G]
    slack = [float(g @ theta) - hi for g, hi in zip(G, h)]
    mu_plus = np.maximum(mu, 0.0)
    r_plus = G.T @ mu_plus - theta
    gap = float(mu_plus @ slack) + 0.5 * float(r_plus @ r_plus)
    want = {"feasibility": max(max(-s, 0.0) / max(1.0, r * norm) for s, r in zip(slack, rows)),
            "dual_feasibility": max(max(-m, 0.0) * r for m, r in zip(mu, rows)) / norm,
            "stationarity": float(np.sqrt(np.sum((theta - G.T @ mu) ** 2))) / norm,
            "complementarity": max(abs(m * s) for m, s in zip(mu, slack)) / norm ** 2,
            "distance": np.sqrt(2.0 * max(gap, 0.0)) / norm}
    # every condition violated, so each residual is seen (θ is infeasible: the duality
    # gap is negative and the distance bound 0)
    assert min(v for k, v in want.items() if k != "distance") > 0 and gap < 0
    for name, value in want.items():
        np.testing.assert_allclose(getattr(rep, name), value, rtol=1e-13, err_msg=name)
    # a feasible, non-optimal θ: the distance bound sqrt(2·gap)/‖θ‖ with a positive gap
    theta, mu = np.array([2.0, 1.5]), np.array([0.5, 0.25])
    G, h = np.eye(2), np.ones(2)
    r = G.T @ mu - theta
    gap = float(mu @ (G @ theta - h)) + 0.5 * float(r @ r)
    np.testing.assert_allclose(kkt.qp_kkt_report(theta, G, h, mu).distance,
                               np.sqrt(2.0 * gap) / np.sqrt(theta @ theta), rtol=1e-13)


def test_kkt_certificate_residuals_are_the_documented_formulas():
    """``kkt_certificate`` at a W that is not a KKT direction: its stationarity and
    complementarity are the docstring's formulas for the λ it returns, with W scaled to
    min_i q_i = 1 (so that ‖W‖ = 1/γ for unit W)."""
    from linteach import kkt

    X = np.array([[1.0, 0.3], [0.2, 1.0], [-1.0, -0.4], [-0.1, -1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    alpha, W = 0.4, np.array([[1.0, 0.7], [-0.3, -1.2]])
    cert = kkt.kkt_certificate(W, X, y, alpha=alpha)
    U = W / np.linalg.norm(W)
    Z = U @ X.T
    a = np.array([1.0, -1.0])
    q = y * (a @ np.maximum(Z, alpha * Z))
    gamma = q.min()
    Wn, qn = U / gamma, q / gamma
    grads = [np.outer(a * np.where(Z[:, i] > 0, 1.0, alpha), y[i] * X[i]) for i in range(4)]
    resid = Wn - sum(lam * g for lam, g in zip(cert.lam, grads))
    wnorm = np.linalg.norm(Wn)
    np.testing.assert_allclose(cert.gamma, gamma, rtol=1e-13)
    np.testing.assert_allclose(cert.stationarity, np.linalg.norm(resid) / wnorm, rtol=1e-10)
    comp = np.max(cert.lam * (qn - 1.0)) / wnorm ** 2
    assert comp > 1e-6  # not a KKT point: complementarity is seen
    np.testing.assert_allclose(cert.complementarity, comp, rtol=1e-10)


# -- linteach.loss, the scaled terms (survivors of the loss-scaled campaign) --------------------
def test_scaled_loss_terms_split_form_only_past_a_smallest_margin_of_30():
    """``lead = min q̂ > 0`` only for runs whose every margin *exceeds* 30 (docstring): a
    smallest margin of exactly 30 is a near run, lead = 0 and rest = log L_sum itself."""
    q_hat = np.array([[30.0, 31.0], [30.5, 31.0]])
    assert np.log(q_hat[0, 0]) == np.log(30.0)  # q = 30 exactly (‖W‖ = 1)
    lead, rest, _ = loss.scaled_loss_terms(q_hat, np.zeros(2))
    assert lead[0] == 0.0 and lead[1] == 30.5
    with mpmath.workdps(50):
        exact = float(mpmath.log(sum(mpmath.log1p(mpmath.exp(-mpmath.mpf(q)))
                                     for q in q_hat[0])))
    np.testing.assert_allclose(rest[0], exact, rtol=1e-14)


def test_scaled_loss_terms_refuses_a_scalar_naming_q_hat():
    with pytest.raises(ValueError, match=r"`q_hat` must have at least 1 axis"):
        loss.scaled_loss_terms(0.5, 0.0)


def test_scaled_loss_terms_far_run_split_form_is_exact_to_the_ulp():
    """A far run's ``rest = log L_sum + ‖W‖ min q̂`` is O(1); its e^{−q}/2 terms (≈ 3e-14
    here) are thousands of its ulps, so the series' sign is pinned against 50 digits."""
    q_hat = np.array([30.5, 31.0, 33.0])
    lead, rest, _ = loss.scaled_loss_terms(q_hat, 0.0)
    with mpmath.workdps(50):
        exact = float(mpmath.log(sum(mpmath.log1p(mpmath.exp(-mpmath.mpf(q))) for q in q_hat))
                      + mpmath.mpf(30.5))
    assert lead == 30.5
    np.testing.assert_allclose(rest, exact, rtol=4e-16)


def test_scaled_loss_terms_and_log_sum_loss_of_stacked_runs_equal_each_run_alone():
    """A batch mixing a far run (every margin > 30) and a near one gives each run what it
    gets alone (the weights log(g_i/L_sum) too); log_sum_loss reduces stacked runs row by
    row (the claims' flows batch runs of one kind: all far or all near)."""
    q_hat = np.array([[31.0, 32.5, 35.0], [0.5, -1.0, 2.0]])
    log_norm = np.array([0.0, 0.0])
    together = loss.scaled_loss_terms(q_hat, log_norm)
    for r in range(2):
        alone = loss.scaled_loss_terms(q_hat[r], log_norm[r])
        for a, b in zip(together, alone):
            np.testing.assert_allclose(a[r], b, rtol=1e-15)
    q = np.array([[0.5, -1.0, 2.0], [3.0, 0.1, -0.2]])
    np.testing.assert_allclose(loss.log_sum_loss(q), [loss.log_sum_loss(row) for row in q],
                               rtol=1e-15)


def test_logsumexp_of_stacked_rows_with_infinite_maxima_is_row_by_row():
    """Rows whose maximum is ±inf take the guarded path; each row's value is its own."""
    a = np.array([[0.0, 1.0, 2.0], [-np.inf, -np.inf, -np.inf], [np.inf, 0.0, 1.0],
                  [-np.inf, 0.5, -np.inf]])
    want = [float(mpmath.log(mpmath.fsum(mpmath.exp(x) for x in (0, 1, 2)))), -np.inf,
            np.inf, 0.5]
    np.testing.assert_allclose(loss.logsumexp(a), want, rtol=1e-15)
