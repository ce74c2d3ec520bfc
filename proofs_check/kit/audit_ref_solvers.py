"""Naive second implementations (engine audits): solver answers by their certificates.

Part of :mod:`proofs_check.kit.audit_ref` (read its docstring for the rules).
"""
from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linprog, nnls

__all__ = ["qp_multipliers", "kkt_residuals", "qp_kkt", "svm_rows", "eq8_rows", "pattern_rows", "a4_slack"]


# -- solver answers (docs/math.md §3, §6, §7) --------------------------------------------------
def qp_multipliers(theta, G, h, *, active_tol: float = 1e-6) -> np.ndarray:
    """Our own multipliers ``μ ≥ 0`` of ``θ`` for ``min ½‖θ‖² s.t. Gθ ≥ h``: the NNLS fit of
    ``θ = Σ μ_i G_i`` over the constraints active at ``θ`` (within ``active_tol`` relative)."""
    theta, G, h = np.asarray(theta, float).ravel(), np.asarray(G, float), np.asarray(h, float)
    scale = max(1.0, float(np.abs(h).max()))
    active = np.flatnonzero(G @ theta - h <= active_tol * scale)
    mu = np.zeros(len(h))
    if len(active):
        mu[active] = nnls(G[active].T, theta)[0]
    return mu


def kkt_residuals(theta, mu, G, h) -> dict:
    """Named KKT residuals of the pair ``(θ, μ)`` for ``min ½‖θ‖² s.t. Gθ ≥ h`` (relative)."""
    theta, G, h = np.asarray(theta, float).ravel(), np.asarray(G, float), np.asarray(h, float)
    mu = np.asarray(mu, float)
    slack = G @ theta - h
    scale = max(1.0, float(np.abs(h).max()))
    tnorm = max(float(np.linalg.norm(theta)), 1e-300)
    return {"stationarity": float(np.linalg.norm(theta - G.T @ mu)) / tnorm,
            "primal_feasibility": float(max(0.0, -slack.min())) / scale,
            "complementarity": float(np.abs(mu * slack).sum()) / max(float(mu @ h), 1e-300),
            "dual_feasibility": float(max(0.0, -mu.min()))}


def qp_kkt(theta, G, h, *, active_tol: float = 1e-6) -> dict:
    """Named KKT residuals of ``θ`` with our own multipliers (:func:`qp_multipliers`)."""
    return kkt_residuals(theta, qp_multipliers(theta, G, h, active_tol=active_tol), G, h)


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
