"""Naive second implementations (engine audits): the trainers and Theorem 4.1's constants.

Part of :mod:`proofs_check.kit.audit_ref` (read its docstring for the rules).
"""
from __future__ import annotations

import math

import numpy as np

from .audit_ref_net import (forward, g_loss, grad_mean_loss, grad_over_loss, logsumexp,
                            sigma_prime)

__all__ = ["sgd_replay", "euler_replay", "normalized_replay", "sgd_constants"]


# -- trainers (docs/math.md §3, §4) ---------------------------------------------------------
def sgd_replay(W0, X, y, order, eta: float, alpha: float, v: float, margins=None) -> np.ndarray:
    """Eq. 3 step by step over ``order`` (the visited indices): returns the final W (and
    appends each visited point's margin before its update to ``margins``, if given)."""
    W = np.array(W0, dtype=float)
    k = W.shape[0] // 2
    for i in order:
        x, yy = X[i], float(y[i])
        q = yy * float(forward(W, x[None, :], alpha, v)[0])
        if margins is not None:
            margins.append(q)
        gq = g_loss(q)
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
        log_time = logsumexp([log_time, math.log(dt) + math.log(rho) + log_mean])
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
