"""linteach.convex / linteach.kkt: every solver answer against an independent oracle.

Data are generated here (not by linteach.data): a unit linear teacher, x ~ N(0, I), points
with |w*·x| < 0.1 dropped, y = sign(w*·x).  Oracles: SciPy SLSQP, closed forms on antipodal
data, and KKT conditions checked by name in NumPy.
"""
import numpy as np
import pytest
from scipy.optimize import minimize, nnls

cvxpy = pytest.importorskip("cvxpy")
from linteach import convex as cv, qp  # noqa: E402
from linteach.errors import NotSeparableError, SolverError  # noqa: E402
from tolerances import (ACTIVE_SET, CLEARLY_WORSE, EXACT_BOUND_SLACK,  # noqa: E402
                        IDENTITY, KKT_GAMMA, MULTIPLIERS, ORACLE, ORACLE_FLOOR, POLISHED,
                        POLISHED_ZERO, SECOND_SOLVER, SECOND_SOLVER_FLOOR)

ALPHA = 0.3
# Seeds kept on purpose (every other test draws from the `rng` fixture): each names a draw
# that builds the case its test needs, which most draws do not.
#: teacher data and tilt for which the tilted start classifies every point correctly yet
#: its pattern is not PAR (most draws give a start that misclassifies a point)
NON_PAR_SEED = 9
#: the antipodal set of the KKT-certificate tests, and a perturbation of its KKT point that
#: still classifies every point correctly (a large perturbation usually breaks a point), so
#: the negative control is "all correct, yet not KKT"
KKT_POINT_SEED, OFF_KKT_SEED = 12, 13
SECOND_SOLVERS = [s for s in ("OSQP", "SCS") if s in cvxpy.installed_solvers()]


def teacher_data(seed, n=30, d=4):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    X = rng.standard_normal((6 * n, d))
    X = X[np.abs(X @ w) >= 0.1][:n]
    return X, np.sign(X @ w)


def antipodal(seed, n=15, d=4):
    X, y = teacher_data(seed, n, d)
    return np.vstack([X, -X]), np.concatenate([y, -y])


def par_pattern(y, alpha):
    return np.where(y > 0, 1.0, alpha), np.where(y > 0, alpha, 1.0)


def net_out(W, X, alpha, v):
    """Naive Eq. 1: v Σ σ(w_j·x) − v Σ σ(u_j·x)."""
    k = len(W) // 2
    sig = lambda z: np.maximum(z, alpha * z)  # noqa: E731
    return v * sig(X @ W[:k].T).sum(axis=1) - v * sig(X @ W[k:].T).sum(axis=1)


def slsqp_min_norm(G, h, x0):
    """Independent solve of min ||θ||² s.t. Gθ ≥ h."""
    res = minimize(lambda t: t @ t, x0, jac=lambda t: 2 * t, method="SLSQP",
                   constraints=[{"type": "ineq", "fun": lambda t: G @ t - h, "jac": lambda t: G}],
                   options={"ftol": 1e-13, "maxiter": 2000})
    assert res.success, res.message
    return res.x


# ---------------------------------------------------------------- SVM without bias
def test_svm_kkt_conditions_by_name(rng):
    X, y = teacher_data(rng)
    w = cv.svm_no_bias(X, y)
    m = y * (X @ w)
    active = m <= 1 + ACTIVE_SET
    a = np.zeros(len(y))
    a[active] = nnls((y[:, None] * X)[active].T, w)[0]
    violations = {
        "primal feasibility": max(0.0, 1 - m.min()),
        "dual feasibility": max(0.0, -a.min()),
        "stationarity": np.linalg.norm(w - X.T @ (a * y)) / np.linalg.norm(w),
        "complementary slackness": np.max(np.abs(a * (m - 1))),
        "strong duality": abs(a.sum() - w @ w) / (w @ w),  # max Σa − ½‖Σ a_i y_i x_i‖²
    }
    assert {k: v for k, v in violations.items() if v > POLISHED} == {}
    assert active.sum() >= 1


def test_svm_matches_slsqp(rng):
    X, y = teacher_data(rng, n=12, d=3)
    w = cv.svm_no_bias(X, y)
    w_ref = slsqp_min_norm(y[:, None] * X, np.ones(len(y)), np.ones(3))
    np.testing.assert_allclose(w, w_ref, rtol=ORACLE, atol=ORACLE_FLOOR)
    np.testing.assert_array_equal(cv.max_margin_teacher(X, y), w)


def test_svm_degenerate_active_set_is_exact():
    # both constraints active, one with a zero multiplier: a raw interior-point answer is
    # off by ~1e-4 here; the polished one is exact
    np.testing.assert_allclose(cv.svm_no_bias([[2.0, 0.0], [-1.0, 1.0]], [1, -1]),
                               [0.5, -0.5], atol=IDENTITY)


@pytest.mark.parametrize("X, y", [([[1.0], [2.0]], [1, -1]),            # separable with bias only
                                  ([[1.0, 0.0], [1.0, 0.0]], [1, -1])])  # contradictory labels
def test_svm_not_separable(X, y):
    with pytest.raises(NotSeparableError, match="augment_bias"):
        cv.svm_no_bias(X, y)


# ---------------------------------------------------------------- Eq. 8
@pytest.mark.parametrize("alpha", [0.0, 0.3, 0.7, 1.0])
def test_eq8_primal_equals_kernel_dual(alpha, rng):
    X, y = teacher_data(rng)
    w, u = cv.solve_eq8(X, y, alpha)
    w2, u2, lam = cv.eq8_kernel_dual(X, y, alpha)
    theta, theta2 = np.concatenate([w, u]), np.concatenate([w2, u2])
    np.testing.assert_allclose(theta2, theta, rtol=MULTIPLIERS,
                               atol=MULTIPLIERS * np.linalg.norm(theta))
    assert lam.min() >= 0
    np.testing.assert_allclose(lam.sum(), 2 * theta @ theta, rtol=ORACLE)  # Σλ = 2‖θ‖²
    # the kernel is the Gram matrix of ψ_i = (x_i, −αx_i) (y=+1), (αx_i, −x_i) (y=−1)
    psi = np.where((y > 0)[:, None], np.hstack([X, -alpha * X]), np.hstack([alpha * X, -X]))
    np.testing.assert_allclose(cv.eq8_kernel(X, y, alpha), psi @ psi.T, atol=IDENTITY)


@pytest.mark.parametrize("alpha", [0.0, 0.3, 0.9])
def test_eq8_antipodal_closed_form(alpha, rng):
    # symmetry (w, u) -> (−u, −w) and uniqueness give u = −w, then w = w_svm / (1 + α)
    X, y = antipodal(rng)
    w, u = cv.solve_eq8(X, y, alpha)
    w_svm = cv.svm_no_bias(X, y)
    np.testing.assert_allclose(u, -w, atol=POLISHED_ZERO)
    np.testing.assert_allclose(w, w_svm / (1 + alpha), rtol=POLISHED)


def test_eq8_alpha_one_is_the_linear_svm_for_any_data(rng):
    # α = 1: constraints are y(w − u)·x ≥ 1, and ‖w‖² + ‖u‖² ≥ ½‖w − u‖² with equality
    # iff u = −w, so w − u is exactly the SVM solution (no symmetry needed)
    X, y = teacher_data(rng)
    w, u = cv.solve_eq8(X, y, 1.0)
    np.testing.assert_allclose(w - u, cv.svm_no_bias(X, y), rtol=POLISHED)
    np.testing.assert_allclose(u, -w, atol=POLISHED_ZERO)


def test_eq8_alpha_zero_decouples_into_one_class_svms(rng):
    X, y = teacher_data(rng)
    w, u = cv.solve_eq8(X, y, 0.0)
    pos, neg = y > 0, y < 0
    np.testing.assert_allclose(w, cv.svm_no_bias(X[pos], np.ones(pos.sum())), rtol=POLISHED)
    np.testing.assert_allclose(u, cv.svm_no_bias(X[neg], np.ones(neg.sum())), rtol=POLISHED)


@pytest.mark.parametrize("second", SECOND_SOLVERS)
def test_clarabel_and_second_solver_agree(second, rng):
    X, y = teacher_data(rng)
    for solve in (lambda s: np.concatenate(cv.solve_eq8(X, y, ALPHA, solver=s)),
                  lambda s: cv.svm_no_bias(X, y, solver=s),
                  lambda s: cv.nar_program(X, y, ALPHA, *par_pattern(y, ALPHA), k=2,
                                           solver=s).ravel()):
        np.testing.assert_allclose(solve(second), solve("CLARABEL"), rtol=SECOND_SOLVER,
                                   atol=SECOND_SOLVER_FLOOR)


def test_no_solver_passing_recheck_raises_solver_error(monkeypatch, rng):
    X, y = teacher_data(rng)
    w, wu = cv.svm_no_bias(X, y), cv.solve_eq8(X, y, 0.3)
    monkeypatch.setitem(cv.SOLVER_OPTIONS, "CLARABEL", {"max_iter": 1})
    with pytest.raises(SolverError, match="CLARABEL"):
        qp.solve_qp(y[:, None] * X, np.ones(len(y)), solver="CLARABEL")
    # the SVM and Eq. 8 (the SVM of its rows) fall back to the exact decision
    # (linteach.separable), which needs no solver
    np.testing.assert_allclose(cv.svm_no_bias(X, y, solver="CLARABEL"), w, rtol=SECOND_SOLVER)
    for got, want in zip(cv.solve_eq8(X, y, 0.3, solver="CLARABEL"), wu):
        np.testing.assert_allclose(got, want, rtol=SECOND_SOLVER)


# ---------------------------------------------------------------- pattern-restricted (P)
def check_pattern_solution(W, X, y, alpha, c_w, c_u, k, v):
    q = y * net_out(W, X, alpha, v)
    scale = np.abs(W).max() * np.abs(X).max()
    assert q.min() >= 1 - POLISHED, "feasibility"
    for block, c in ((W[:k], c_w), (W[k:], c_u)):
        np.testing.assert_allclose(np.ptp(block, axis=0), 0, atol=POLISHED * scale)  # clustered
        side = np.where(c == 1.0, 1.0, -1.0)
        assert (side * (block @ X.T)).min() >= -POLISHED * scale, "pattern sign constraints"


def test_nar_par_on_antipodal_is_eq8_clustered(rng):
    X, y = antipodal(rng)
    k, v = 3, 0.7
    c_w, c_u = par_pattern(y, ALPHA)
    W = cv.nar_program(X, y, ALPHA, c_w, c_u, k=k, v=v)
    check_pattern_solution(W, X, y, ALPHA, c_w, c_u, k, v)
    w, u = cv.solve_eq8(X, y, ALPHA)       # clustered (P) in PAR = Eq. 8 scaled by 1/(vk)
    np.testing.assert_allclose(v * k * W[0], w, rtol=POLISHED)
    np.testing.assert_allclose(v * k * W[k], u, rtol=POLISHED)


def test_nar_non_par_pattern_matches_slsqp():
    X, y = teacher_data(NON_PAR_SEED, n=10, d=3)
    rng = np.random.default_rng(NON_PAR_SEED)
    w_svm = cv.svm_no_bias(X, y)
    r = rng.standard_normal(3)
    r -= (r @ w_svm) / (w_svm @ w_svm) * w_svm                # tilt w away from the SVM
    w0, u0 = w_svm + 1.5 * np.linalg.norm(w_svm) / np.linalg.norm(r) * r, -0.3 * w_svm
    k, v = 2, 1.0
    W0 = np.vstack([np.tile(w0, (k, 1)), np.tile(u0, (k, 1))])
    q0 = y * net_out(W0, X, ALPHA, v)
    assert q0.min() > 0 and (y * (X @ w0)).min() < 0        # a feasible, non-PAR pattern
    c_w, c_u = np.where(X @ w0 > 0, 1.0, ALPHA), np.where(X @ u0 > 0, 1.0, ALPHA)
    W = cv.nar_program(X, y, ALPHA, c_w, c_u, k=k, v=v)
    check_pattern_solution(W, X, y, ALPHA, c_w, c_u, k, v)
    assert np.linalg.norm(W) <= np.linalg.norm(W0 / q0.min()) + EXACT_BOUND_SLACK
    n, d = X.shape
    margin_rows = np.hstack([np.tile((v * y * c_w)[:, None] * X, k),
                             np.tile(-(v * y * c_u)[:, None] * X, k)])
    sign_rows = np.zeros((2 * k * n, 2 * k * d))
    for j in range(2 * k):
        side = np.where((c_w if j < k else c_u) == 1.0, 1.0, -1.0)
        sign_rows[j * n:(j + 1) * n, j * d:(j + 1) * d] = side[:, None] * X
    G = np.vstack([margin_rows, sign_rows])
    h = np.concatenate([np.ones(n), np.zeros(2 * k * n)])
    np.testing.assert_allclose(W.ravel(), slsqp_min_norm(G, h, (W0 / q0.min()).ravel()),
                               rtol=ORACLE, atol=ORACLE_FLOOR)


def test_nar_infeasible_pattern():
    # c_w = α (w·x ≤ 0) and c_u = 1 (u·x ≥ 0) on a positive point: N(x) ≤ 0
    with pytest.raises(ValueError, match="infeasible"):
        cv.nar_program([[1.0, 0.0], [-1.0, 0.0]], [1, -1], ALPHA, [ALPHA, ALPHA], [1.0, 1.0])


def test_par_restricted_p_differs_from_eq8_although_assumption4_holds():
    # Finding: condition 4 does not put Eq. 8's minimiser inside PAR.  Here w·x_1 < 0,
    # so (P) restricted to PAR has a larger optimum, with active sign constraints (kinks),
    # and is not a KKT point of (P) with σ'(0) = α; at α = 0.1 the two coincide.
    r = np.array([-0.5, np.sqrt(3) / 2])
    X, y = np.array([[4.0, 0.0], 0.5 * r, [-1.0, 0.0], -4 * r]), np.array([1, 1, -1, -1.0])
    assert cv.assumption4_lp(X, y).slack.min() >= 0.125 - POLISHED
    for alpha, same in ((0.1, True), (0.3, False)):
        w, u = cv.solve_eq8(X, y, alpha)
        W = cv.nar_program(X, y, alpha, *par_pattern(y, alpha), k=1)
        assert ((y * (X @ w)).min() > 0) == same
        assert np.allclose(W, [w, u], rtol=POLISHED) == same
        assert (np.sum(W**2) > w @ w + u @ u + CLEARLY_WORSE) == (not same)
        assert cv.kkt_certificate(W, X, y, alpha=alpha).holds() == same


def test_eq8_infeasible_with_a_zero_point():
    for solve in (cv.solve_eq8, cv.eq8_kernel_dual):
        with pytest.raises(ValueError, match="infeasible"):
            solve([[1.0, 0.0], [0.0, 0.0]], [1, -1], ALPHA)


def test_raw_solver_answers_are_judged_by_their_residuals(monkeypatch, rng):
    # without polishing, an answer is accepted only if its duality gap guarantees
    # ‖θ − θ*‖ ≤ DIST_TOL ‖θ‖; the solver chain moves on until one is
    X, y = teacher_data(rng)
    w_ref, u_ref = cv.solve_eq8(X, y, ALPHA)
    monkeypatch.setattr(qp, "polish", lambda *args: None)
    try:
        w, u = cv.solve_eq8(X, y, ALPHA)
    except SolverError as exc:
        assert "distance=" in str(exc)
    else:
        theta, ref = np.concatenate([w, u]), np.concatenate([w_ref, u_ref])
        assert np.linalg.norm(theta - ref) <= ORACLE * np.linalg.norm(ref)


# ---------------------------------------------------------------- Assumption 4
def test_assumption4_antipodal_holds(rng):
    X, y = antipodal(rng)
    res = cv.assumption4_lp(X, y)
    assert res.holds and res.witness is None
    assert res.slack.min() >= 1 - POLISHED            # −x_j is itself a point of the other class
    np.testing.assert_allclose(cv.assumption4_lp(1e3 * X, y).slack, res.slack, rtol=ORACLE)


def test_assumption4_asymmetric_fails_with_a_real_witness(rng):
    pos = np.array([1.0, 0.0, 0.0]) + 0.05 * rng.standard_normal((10, 3))  # narrow cone
    neg = np.column_stack([-rng.uniform(0.2, 1.0, 10), rng.uniform(0.0, 2.0, 10),
                           rng.uniform(-2.0, 2.0, 10)])                   # wide, one side
    X, y = np.vstack([pos, neg]), np.concatenate([np.ones(10), -np.ones(10)])
    res = cv.assumption4_lp(X, y)
    assert not res.holds
    z, j = res.witness, res.witness_index
    other = X[y == -y[j]]
    assert (other @ z).min() >= 1 - EXACT_BOUND_SLACK        # z positive on the whole other class
    assert X[j] @ z >= 0                          # ... yet not negative on x_j
    assert res.slack[j] == res.slack.min() < 0


def test_assumption4_empty_cone_is_reported():
    res = cv.assumption4_lp([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]], [1, 1, -1])
    assert res.positive_cone_empty and not res.negative_cone_empty
    assert not res.holds and res.witness_index in (0, 1)


# ---------------------------------------------------------------- KKT certificate of (P)
@pytest.fixture(scope="module")
def kkt_point():
    X, y = antipodal(KKT_POINT_SEED)
    W = cv.nar_program(X, y, ALPHA, *par_pattern(y, ALPHA), k=3, v=0.5)
    return W, X, y


def test_kkt_certificate_at_a_kkt_point(kkt_point):
    W, X, y = kkt_point
    c = cv.kkt_certificate(W, X, y, alpha=ALPHA, v=0.5)
    np.testing.assert_allclose([c.stationarity, c.complementarity, c.feasibility], 0, atol=ORACLE)
    assert c.holds() and c.n_kinks == 0
    np.testing.assert_allclose(c.gamma, 1 / np.linalg.norm(W), rtol=KKT_GAMMA)  # min q(W) = 1
    np.testing.assert_allclose(c.lam.sum(), np.linalg.norm(W) ** 2, rtol=ORACLE)


def test_kkt_certificate_negative_control(kkt_point):
    W, X, y = kkt_point
    W_bad = W + 0.5 * np.abs(W).max() * np.random.default_rng(
        OFF_KKT_SEED).standard_normal(W.shape)
    assert (y * net_out(W_bad, X, ALPHA, 0.5)).min() > 0     # all correct, yet not KKT
    c = cv.kkt_certificate(W_bad, X, y, alpha=ALPHA, v=0.5)
    assert c.stationarity + c.complementarity > 0.05 and not c.holds()


@pytest.mark.parametrize("scale", [1e-6, 1e6, 1e200])
def test_kkt_certificate_scale_invariant(kkt_point, scale, rng):
    W, X, y = kkt_point
    W = W + 0.1 * np.abs(W).max() * rng.standard_normal(W.shape)
    c, cs = (cv.kkt_certificate(V, X, y, alpha=ALPHA, v=0.5) for V in (W, scale * W))
    np.testing.assert_allclose([cs.stationarity, cs.complementarity, cs.gamma],
                               [c.stationarity, c.complementarity, c.gamma], rtol=ORACLE)
    np.testing.assert_allclose(cs.lam, c.lam, rtol=MULTIPLIERS, atol=ORACLE_FLOOR * c.lam.max())


def test_kkt_certificate_needs_all_points_correct(kkt_point):
    W, X, y = kkt_point
    with pytest.raises(ValueError, match="correctly classified"):
        cv.kkt_certificate(W, X, -y, alpha=ALPHA, v=0.5)


# ---------------------------------------------------------------- bad input
X2, Y2 = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
W2 = np.array([[1.0, 0.0], [-1.0, 0.0]])
BAD = [
    (cv.svm_no_bias, ([1.0, 2.0], [1]), {}, ValueError, "at least 2 axes"),
    (cv.svm_no_bias, (np.ones((2, 2, 2)), Y2), {}, ValueError, "must be 2-D (n, d)"),
    (cv.svm_no_bias, ([[np.nan, 0.0], [1.0, 0.0]], Y2), {}, ValueError, "finite"),
    (cv.svm_no_bias, ([["a", "b"], ["c", "d"]], Y2), {}, TypeError, "real numbers"),
    (cv.svm_no_bias, (X2, [1.0, 0.0]), {}, ValueError, "only -1 and +1"),
    (cv.svm_no_bias, (X2, [1.0, -1.0, 1.0]), {}, ValueError, "3 labels but `X` has 2 rows"),
    (cv.svm_no_bias, (X2, Y2), {"solver": "NOPE"}, ValueError, "`solver` must be one of"),
    (cv.svm_no_bias, (X2, Y2), {"solver": 3}, TypeError, "`solver` must be a str"),
    (cv.solve_eq8, (X2, Y2, 1.5), {}, ValueError, "`alpha` must be <= 1.0, got 1.5"),
    (cv.solve_eq8, (X2, Y2, -0.1), {}, ValueError, "`alpha` must be >= 0.0"),
    (cv.eq8_kernel_dual, (X2, Y2, "0.3"), {}, TypeError, "`alpha` must be a real number"),
    (cv.nar_program, (X2, Y2, 1.0, [1, 1], [1, 1]), {}, ValueError, "`alpha` must be < 1.0"),
    (cv.nar_program, (X2, Y2, 0.3, [1, 0.5], [0.3, 1]), {}, ValueError,
     "`c_w` entries must be alpha=0.3 or 1"),
    (cv.nar_program, (X2, Y2, 0.3, [1, 0.3], [0.3, 1, 1]), {}, ValueError,
     "`c_u` must have shape (n,) = (2,)"),
    (cv.nar_program, (X2, Y2, 0.3, [1, 0.3], [0.3, 1]), {"k": 0}, ValueError, "`k` must be >= 1"),
    (cv.nar_program, (X2, Y2, 0.3, [1, 0.3], [0.3, 1]), {"k": 1.5}, TypeError,
     "`k` must be an integer"),
    (cv.nar_program, (X2, Y2, 0.3, [1, 0.3], [0.3, 1]), {"v": -1.0}, ValueError,
     "`v` must be > 0"),
    (cv.kkt_certificate, (W2[:1], X2, Y2), {"alpha": 0.3}, ValueError, "even number 2k of rows"),
    (cv.kkt_certificate, (np.ones((2, 3)), X2, Y2), {"alpha": 0.3}, ValueError, "input dimension"),
    (cv.kkt_certificate, (0 * W2, X2, Y2), {"alpha": 0.3}, ValueError, "all zeros"),
    (cv.kkt_certificate, (W2, X2, Y2), {"alpha": 1.0}, ValueError, "`alpha` must be < 1.0"),
    (cv.kkt_certificate, (W2, X2, Y2), {"alpha": 0.3, "v": 0}, ValueError, "`v` must be > 0"),
    (cv.assumption4_lp, (X2, [1, 1]), {}, ValueError, "both classes"),
    (cv.assumption4_lp, (X2, Y2), {"margin": -1.0}, ValueError, "`margin` must be >= 0"),
]


@pytest.mark.parametrize("func, args, kwargs, exc, fragment", BAD,
                         ids=[f"{b[0].__name__}-{b[4][:24]}" for b in BAD])
def test_bad_input(func, args, kwargs, exc, fragment):
    with pytest.raises(exc) as info:
        func(*args, **kwargs)
    assert fragment in str(info.value)


def test_assumption4_invariant_under_per_point_scaling(rng):
    """Condition 4 speaks of cones: rescaling each point positively changes nothing.

    (An invariance guard: this draw passed before points were unit-normalised too; the
    failing draws were found by proofs_check.lem6_1's `scales` family.)"""
    Xp = np.abs(rng.standard_normal((6, 3))) + 0.2
    X = np.vstack([Xp, -Xp])
    y = np.concatenate([np.ones(6), -np.ones(6)])
    scales = 10.0 ** rng.uniform(-5, 5, size=12)
    assert cv.assumption4_lp(X, y).holds
    assert cv.assumption4_lp(X * scales[:, None], y).holds


def test_assumption4_point_deep_in_the_other_cone_is_a_violation_with_witness():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [5.0, 5.0], [-1.0, -1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])  # (5, 5) is negative but inside the positive cone
    res = cv.assumption4_lp(X, y)
    assert not res.holds and res.witness_index == 2
    z = res.witness
    assert np.all(X[y > 0] @ z >= 1 - POLISHED) and X[2] @ z >= 0


def test_clarabel_through_its_own_api_equals_clarabel_through_cvxpy(monkeypatch, rng):
    """The direct call (DIRECT_CLARABEL) solves the same programs as cvxpy's Clarabel: the
    SVM, Eq. 8 and the lifted pattern program agree to the polished tolerance."""
    from linteach import qp
    X, y = teacher_data(rng)
    programs = (lambda: np.concatenate(cv.solve_eq8(X, y, ALPHA)),
                lambda: cv.svm_no_bias(X, y),
                lambda: cv.nar_program(X, y, ALPHA, *par_pattern(y, ALPHA), k=2).ravel())
    direct = [solve() for solve in programs]
    monkeypatch.setattr(qp, "DIRECT_CLARABEL", False)
    for got, solve in zip(direct, programs):
        np.testing.assert_allclose(got, solve(), rtol=POLISHED, atol=POLISHED)


def test_eq8_falls_back_to_the_exact_svm_of_its_rows_when_every_solver_fails():
    """Found by the fuzz test: X with one row 40529 times the others makes Eq. 8 so badly
    conditioned that CLARABEL (both routes), OSQP and SCS fail although it is feasible.
    Eq. 8 is the SVM through the origin of its rows y_i ψ_i, decided exactly instead."""
    X = np.array([[0.0, 1.0], [-40529.0, 1.0], [1.0, 1.0], [1.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    w, u = cv.solve_eq8(X, y, 0.5)
    rows = np.where((y > 0)[:, None], np.hstack([X, -0.5 * X]), np.hstack([-0.5 * X, X]))
    theta = np.concatenate([w, u])
    assert (rows @ theta).min() >= 1 - POLISHED
    from linteach.separable import exact_svm
    np.testing.assert_allclose(theta, exact_svm(rows, np.ones(4)), rtol=POLISHED)


def test_a_row_norm_beyond_float64_is_a_clear_error():
    """Found by the fuzz test: a row (3.3e300, the largest float) has a norm past float64,
    and the unit scaling overflowed with a warning; it is now a ValueError naming X.
    Assumption 4, which needs only each row's direction, answers."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [3.28081168e300, np.finfo(float).max]])
    with pytest.raises(ValueError, match="`X` has a row norm beyond float64"):
        cv.svm_no_bias(X, np.array([1.0, 1.0, -1.0, 1.0]))
    cv.assumption4_lp(X, np.array([1.0, 1.0, -1.0, 1.0]))  # no warning (errors here)
