"""Deliberately naive second implementations of what the engine computes (engine audits).

Each function is written from the definition in ``docs/math.md`` (section cited), with
plain Python loops over neurons, points and steps, and never calls the ``linteach``
function it audits (only ``math``/NumPy elementwise operations and, for solver answers,
SciPy's NNLS and LP as *independent* formulations whose answers are re-checked here).
Speed is irrelevant; obviousness is the point.  :mod:`proofs_check.kit.audit` compares
these with the engine on each claim's own cases.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linprog, nnls

__all__ = ["sigma", "sigma_prime", "forward", "log_loss_terms", "log_sum_loss", "mean_loss",
           "grad_mean_loss", "grad_over_loss", "cluster_radius", "band_mask", "agreement", "par",
           "normalized_margin", "smoothed_margin", "sgd_replay", "euler_replay",
           "normalized_replay", "sgd_constants", "qp_kkt", "svm_rows", "eq8_rows",
           "pattern_rows", "a4_slack"]


# -- the network and the loss (docs/math.md §1, §2) ------------------------------------------
def sigma(z: float, alpha: float) -> float:
    """Leaky ReLU ``σ(z) = max(z, αz)``."""
    return z if z > 0 else alpha * z


def sigma_prime(z: float, alpha: float) -> float:
    """``σ'(z) = 1`` for ``z > 0``, ``α`` otherwise (the convention σ'(0) = α)."""
    return 1.0 if z > 0 else alpha


def forward(W, X, alpha: float, v: float) -> np.ndarray:
    """Eq. 1, one point and one neuron at a time: ``v Σ_j σ(w_j·x) − v Σ_j σ(u_j·x)``."""
    W, X = np.asarray(W, float), np.asarray(X, float)
    k = W.shape[0] // 2
    out = np.empty(len(X))
    for i, x in enumerate(X):
        total = 0.0
        for j in range(2 * k):
            a = v if j < k else -v
            total += a * sigma(float(np.dot(W[j], x)), alpha)
        out[i] = total
    return out


def _log_ell(q: float) -> float:
    """``log ℓ(q)`` with ``ℓ(q) = log(1 + e^{−q})``, in the two regimes where each form is exact."""
    if q > 30.0:  # ℓ = e^{−q}(1 − e^{−q}/2 + …): log ℓ = −q − e^{−q}/2 to double precision
        return -q - 0.5 * math.exp(-q)
    return math.log(math.log1p(math.exp(-q)))


def log_loss_terms(q) -> np.ndarray:
    """``log ℓ(q_i)`` per point (docs/math.md §2)."""
    return np.array([_log_ell(float(qi)) for qi in np.asarray(q, float)])


def _logsumexp(values) -> float:
    top = max(values)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(x - top) for x in values))


def log_sum_loss(q) -> float:
    """``log L_sum = log Σ_i ℓ(q_i)``."""
    return _logsumexp(list(log_loss_terms(q)))


def mean_loss(q) -> float:
    """``L = (1/n) Σ_i ℓ(q_i)`` (Eq. 2, mean)."""
    return math.exp(log_sum_loss(q)) / len(q)


def _g(q: float) -> float:
    """``g(q) = −ℓ'(q) = 1/(1 + e^{q})``, without overflow."""
    return math.exp(-q) / (1.0 + math.exp(-q)) if q > 0 else 1.0 / (1.0 + math.exp(q))


def _grad_terms(W, X, y, alpha, v, coef) -> np.ndarray:
    """``−Σ_i coef_i y_i ∇_W N_W(x_i)``, neuron by neuron (the directions of Eq. 3)."""
    W, X, y = np.asarray(W, float), np.asarray(X, float), np.asarray(y, float)
    k = W.shape[0] // 2
    G = np.zeros_like(W)
    for i, x in enumerate(X):
        for j in range(2 * k):
            a = v if j < k else -v
            G[j] -= coef[i] * y[i] * a * sigma_prime(float(np.dot(W[j], x)), alpha) * x
    return G


def grad_mean_loss(W, X, y, alpha: float, v: float) -> np.ndarray:
    """``∇L = −(1/n) Σ_i g(q_i) y_i ∇N(x_i)``: minus the average of the Eq. 3 updates / η."""
    q = np.asarray(y, float) * forward(W, X, alpha, v)
    return _grad_terms(W, X, y, alpha, v, [_g(float(qi)) / len(q) for qi in q])


def _log_g(q: float) -> float:
    return -q - math.log1p(math.exp(-q)) if q > 0 else -math.log1p(math.exp(q))


def grad_over_loss(direction, log_norm: float, X, y, alpha: float, v: float):
    """``(log L_sum, ∇L_sum/L_sum)`` at ``W = e^{log_norm}·direction`` (the late phase).

    By 1-homogeneity ``q_i(W) = ρ q_i(Ŵ)`` and ``∇N`` is scale-free; the weights
    ``g(q_i)/L_sum`` are formed in log space, so this is finite where ``L_sum`` underflows.
    """
    q = math.exp(log_norm) * np.asarray(y, float) * forward(direction, X, alpha, v)
    log_lsum = log_sum_loss(q)
    coef = [math.exp(_log_g(float(qi)) - log_lsum) for qi in q]
    return log_lsum, _grad_terms(direction, X, y, alpha, v, coef)


# -- metrics (docs/math.md §4, §5, §6) --------------------------------------------------------
def _mean(rows):
    total = np.zeros(len(rows[0]))
    for r in rows:
        total = total + r
    return total / len(rows)


def cluster_radius(W) -> float:
    """``r = max(max_j ‖w_j − w̄‖, max_j ‖u_j − ū‖)`` (§5)."""
    W = np.asarray(W, float)
    k = W.shape[0] // 2
    r = 0.0
    for rows in (W[:k], W[k:]):
        mean = _mean(list(rows))
        for row in rows:
            r = max(r, math.sqrt(sum(float(e) ** 2 for e in row - mean)))
    return r


def band_mask(W, X, c: float = 2.0):
    """``|(w̄ − ū)·x| ≥ c·r‖x‖`` per point (§5), with both sides ``(mask, lhs, rhs)``."""
    W = np.asarray(W, float)
    k = W.shape[0] // 2
    diff = _mean(list(W[:k])) - _mean(list(W[k:]))
    r = cluster_radius(W)
    lhs = np.array([abs(float(np.dot(diff, x))) for x in np.asarray(X, float)])
    rhs = np.array([c * r * math.sqrt(sum(float(e) ** 2 for e in x)) for x in np.asarray(X, float)])
    return lhs >= rhs, lhs, rhs


def agreement(W, X):
    """The agreement pattern (§6): ``side_w, side_u ∈ {−1, 0, +1}^n`` and β (0 if in no NAR)."""
    W, X = np.asarray(W, float), np.asarray(X, float)
    k = W.shape[0] // 2
    sides, beta = [], math.inf
    for rows in (W[:k], W[k:]):
        side = []
        for x in X:
            cos = [float(np.dot(row, x)) / math.sqrt(float(np.dot(row, row))) for row in rows]
            if min(cos) > 0:
                side.append(1)
            elif max(cos) < 0:
                side.append(-1)
            else:
                side.append(0)
            beta = min(beta, min(abs(c) for c in cos))
        sides.append(np.array(side))
    if any((s == 0).any() for s in sides):
        beta = 0.0
    return sides[0], sides[1], beta


def par(W, X, y):
    """§7 and §8: fractions of w and u neurons alone in PAR, whether all are (β = 0), and the
    most points on which two neurons of one type disagree in sign (``max n_diff``)."""
    W, X = np.asarray(W, float), np.asarray(X, float)
    k = W.shape[0] // 2
    in_w = [all(yi * float(np.dot(W[j], x)) > 0 for x, yi in zip(X, y)) for j in range(k)]
    in_u = [all(-yi * float(np.dot(W[j], x)) > 0 for x, yi in zip(X, y)) for j in range(k, 2 * k)]
    n_diff = []
    for rows in (range(k), range(k, 2 * k)):
        worst = 0
        for a in rows:
            for b in rows:
                worst = max(worst, sum((float(np.dot(W[a], x)) > 0) != (float(np.dot(W[b], x)) > 0)
                                       for x in X))
        n_diff.append(worst)
    return sum(in_w) / k, sum(in_u) / k, all(in_w) and all(in_u), n_diff


def normalized_margin(W, X, y, alpha, v) -> float:
    """``γ̄ = min_i q_i / ‖W‖`` (§4)."""
    q = np.asarray(y, float) * forward(W, X, alpha, v)
    return float(min(q)) / math.sqrt(float(np.sum(np.asarray(W, float) ** 2)))


def smoothed_margin(W, X, y, alpha, v) -> float:
    """Eq. 5: ``γ̃ = −log(e^{L_sum} − 1)/‖W‖`` with the **summed** loss."""
    q = np.asarray(y, float) * forward(W, X, alpha, v)
    lsum = math.exp(log_sum_loss(q))
    return -math.log(math.expm1(lsum)) / math.sqrt(float(np.sum(np.asarray(W, float) ** 2)))


# -- trainers (docs/math.md §3, §4) ---------------------------------------------------------
def sgd_replay(W0, X, y, order, eta: float, alpha: float, v: float) -> np.ndarray:
    """Eq. 3 step by step over ``order`` (the visited indices): returns the final W."""
    W = np.array(W0, dtype=float)
    k = W.shape[0] // 2
    for i in order:
        x, yy = X[i], float(y[i])
        gq = _g(yy * float(forward(W, x[None, :], alpha, v)[0]))
        old = W.copy()
        for j in range(2 * k):
            sign = 1.0 if j < k else -1.0  # w ← w + η v g σ' y x ; u ← u − η v g σ' y x
            W[j] = old[j] + sign * eta * v * gq * sigma_prime(float(np.dot(old[j], x)), alpha) \
                * yy * x
    return W


def euler_replay(W0, X, y, dt: float, n_steps: int, alpha, v) -> np.ndarray:
    """Plain Euler ``W ← W − dt ∇L(W)`` (App. A)."""
    W = np.array(W0, dtype=float)
    for _ in range(n_steps):
        W = W - dt * grad_mean_loss(W, X, y, alpha, v)
    return W


def normalized_replay(W0, X, y, dt: float, n_steps: int, alpha, v):
    """The late-phase flow as plain Euler steps of size ``h_t = dt‖W_t‖/‖∇L(W_t)‖`` (§4).

    ``h_t ∇L = dt‖W‖·G/‖G‖`` with ``G = ∇L_sum/L_sum`` taken in log space
    (:func:`grad_over_loss`), so the step is exact where ``L`` underflows.  The time of a
    step is the arc length ``dt‖W_t‖`` over a speed ``‖∇L‖`` whose log is linear between the
    step's two ends: ``dt‖W_t‖·(b − a)/(log b − log a)`` with ``a, b = 1/‖∇L‖`` at
    ``W_t, W_{t+1}`` (§4).  Returns ``(W, log_time)``: the final weights and the log of the
    summed time.
    """
    W, log_time, n = np.array(W0, dtype=float), -math.inf, len(X)

    def log_slowness(W):  # log(1/‖∇L(W)‖), and the unit step direction
        rho = math.sqrt(float(np.sum(W * W)))
        log_lsum, G = grad_over_loss(W / rho, math.log(rho), X, y, alpha, v)
        gnorm = math.sqrt(float(np.sum(G * G)))
        return rho, G, gnorm, -(log_lsum - math.log(n)) - (math.log(gnorm) if gnorm else 0.0)

    rho, G, gnorm, slow = log_slowness(W)
    for _ in range(n_steps):
        if gnorm == 0:
            break
        W = W - dt * rho * G / gnorm
        next_rho, next_G, next_gnorm, next_slow = log_slowness(W)
        lo, hi = min(slow, next_slow), max(slow, next_slow)
        gap = hi - lo  # log of the logarithmic mean of e^lo and e^hi
        log_mean = hi + (math.log(-math.expm1(-gap) / gap) if gap > 0 else 0.0)
        log_time = _logsumexp([log_time, math.log(dt) + math.log(rho) + log_mean])
        rho, G, gnorm, slow = next_rho, next_G, next_gnorm, next_slow
    return W, log_time


def sgd_constants(n, eps, *, R_x, R_0, alpha, k, eta, v, w_star_norm) -> dict:
    """Theorem 4.1's ε0, a, b, c, T_exact and M, term by term from §3."""
    eps0 = eps / (1 + 2 * v ** 2 * R_x ** 2 * eta * k * n)
    a = 2 * k * eta * v * alpha * -math.expm1(-eps0) / n  # 1 − e^{−ε0}, no cancellation
    b = w_star_norm * math.sqrt(4 * k ** 2 * eta ** 2 * v ** 2 * R_x ** 2 + 4 * k * eta)
    c = 4 * k * R_0 * w_star_norm
    sqrt_T = (b + math.sqrt(b * b + 4 * a * c)) / (2 * a)  # a·s² − b·s − c = 0, s = √T
    A = 1 + 2 * k * eta * v ** 2 * R_x ** 2 * n
    F = (eps + A) / eps
    P = n * w_star_norm * math.sqrt(R_x ** 2 / alpha ** 2 + 1 / (k * eta * v ** 2 * alpha ** 2))
    S = 2 * n * R_0 * w_star_norm / (eta * v * alpha)
    M = P ** 2 * F ** 2 + P * math.sqrt(S) * F ** 1.5 + S * F
    return {"eps0": eps0, "a": a, "b": b, "c": c, "T_exact": sqrt_T ** 2, "M": M}


# -- solver answers (docs/math.md §3, §6, §7) --------------------------------------------------
def qp_kkt(theta, G, h, *, active_tol: float = 1e-6) -> dict:
    """Named KKT residuals of ``θ`` for ``min ½‖θ‖² s.t. Gθ ≥ h`` with our own multipliers.

    The multipliers ``μ ≥ 0`` are the NNLS fit of ``θ = Σ μ_i G_i`` over the constraints
    active at ``θ`` (within ``active_tol`` relative); then every condition is measured.
    """
    theta, G, h = np.asarray(theta, float).ravel(), np.asarray(G, float), np.asarray(h, float)
    slack = G @ theta - h
    scale = max(1.0, float(np.abs(h).max()))
    active = np.flatnonzero(slack <= active_tol * scale)
    mu = np.zeros(len(h))
    if len(active):
        mu[active] = nnls(G[active].T, theta)[0]
    tnorm = max(float(np.linalg.norm(theta)), 1e-300)
    return {"stationarity": float(np.linalg.norm(theta - G.T @ mu)) / tnorm,
            "primal_feasibility": float(max(0.0, -slack.min())) / scale,
            "complementarity": float(np.abs(mu * slack).sum()) / max(float(mu @ h), 1e-300),
            "dual_feasibility": float(max(0.0, -mu.min()))}


def svm_rows(X, y):
    """The SVM's constraints ``y_i w·x_i ≥ 1`` as rows ``(G, h)``."""
    rows = [float(yi) * np.asarray(x, float) for x, yi in zip(X, y)]
    return np.array(rows), np.ones(len(rows))


def eq8_rows(X, y, alpha):
    """Eq. 8's constraints on ``θ = (w, u)``: ``(x, −αx)`` for y = +1, ``(−αx, x)`` for y = −1."""
    rows = []
    for x, yi in zip(np.asarray(X, float), y):
        rows.append(np.concatenate([x, -alpha * x]) if yi > 0 else np.concatenate([-alpha * x, x]))
    return np.array(rows), np.ones(len(rows))


def pattern_rows(X, y, alpha, side_w, side_u, k, v):
    """(P) in one agreement pattern on ``θ = vec(W)`` (§6): margins, then every neuron's side."""
    X = np.asarray(X, float)
    n, d = X.shape
    rows, h = [], []
    for i in range(n):
        cw = 1.0 if side_w[i] > 0 else alpha
        cu = 1.0 if side_u[i] > 0 else alpha
        row = np.zeros((2 * k, d))
        for j in range(2 * k):  # N(x_i) = v Σ_l c^w_i w_l·x_i − v Σ_l c^u_i u_l·x_i
            row[j] = (v * cw if j < k else -v * cu) * float(y[i]) * X[i]
        rows.append(row.ravel())
        h.append(1.0)
    for j in range(2 * k):
        side = side_w if j < k else side_u
        for i in range(n):
            row = np.zeros((2 * k, d))
            row[j] = side[i] * X[i]
            rows.append(row.ravel())
            h.append(0.0)
    return np.array(rows), np.array(h)


def a4_slack(P, xj) -> float:
    """``−max{z·x_j : Pz ≥ 1, z·x_j ≤ 1}`` (§7) from the **dual** LP, certificate re-checked.

    Dual: ``min Σλ_i·(−1) + μ`` over ``λ, μ ≥ 0`` with ``−Pᵀλ + μ x_j = x_j``.  Returns
    ``nan`` when the dual is infeasible (the primal is unbounded or deep: no finite slack).
    """
    P, xj = np.asarray(P, float), np.asarray(xj, float)
    m = len(P)
    A_eq = np.hstack([-P.T, xj[:, None]])
    cost = np.concatenate([-np.ones(m), [1.0]])
    res = linprog(cost, A_eq=A_eq, b_eq=xj, bounds=[(0, None)] * (m + 1), method="highs")
    if res.status != 0:
        return math.nan
    lam = res.x
    if np.linalg.norm(A_eq @ lam - xj) > 1e-8 * (1 + np.abs(A_eq).sum()) or lam.min() < -1e-12:
        raise ArithmeticError("the dual certificate of the Assumption 4 LP failed its re-check")
    return -float(cost @ lam)
