"""Naive second implementations (engine audits): the network, the loss and its gradient.

Written from docs/math.md §1–§2 with plain loops over points and neurons; part of
:mod:`proofs_check.kit.audit_ref` (read its docstring for the rules).
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["sigma", "sigma_prime", "forward", "log_loss_terms", "logsumexp", "log_sum_loss",
           "mean_loss", "g_loss", "grad_terms", "grad_mean_loss", "grad_over_loss"]


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


def logsumexp(values) -> float:
    top = max(values)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(x - top) for x in values))


def log_sum_loss(q) -> float:
    """``log L_sum = log Σ_i ℓ(q_i)``."""
    return logsumexp(list(log_loss_terms(q)))


def mean_loss(q) -> float:
    """``L = (1/n) Σ_i ℓ(q_i)`` (Eq. 2, mean)."""
    return math.exp(log_sum_loss(q)) / len(q)


def g_loss(q: float) -> float:
    """``g(q) = −ℓ'(q) = 1/(1 + e^{q})``, without overflow."""
    return math.exp(-q) / (1.0 + math.exp(-q)) if q > 0 else 1.0 / (1.0 + math.exp(q))


def grad_terms(W, X, y, alpha, v, coef) -> np.ndarray:
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
    return grad_terms(W, X, y, alpha, v, [g_loss(float(qi)) / len(q) for qi in q])


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
    return log_lsum, grad_terms(direction, X, y, alpha, v, coef)
