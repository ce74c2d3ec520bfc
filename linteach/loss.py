"""Logistic loss in log space (EQUATIONS §2).

Conventions, stated once:

* ``q`` are margins ``q_i = y_i N_W(x_i)``, shape ``(..., n)``; reductions run over the
  last axis.
* ``ℓ(q) = log(1 + e^{-q})`` and ``g(q) = -ℓ'(q) = 1 / (1 + e^{q})``.
* The training objective ``L`` is the **mean** over points (Eq. 2).  The Lyu & Li
  quantities (smoothed margin, Eq. 5; Assumption 6.1) use the **sum** ``L_sum = n L``.
* Late gradient flow drives margins into the hundreds, where ``ℓ`` underflows float64;
  every function here stays finite and warning-free for margins of ±1e4 and beyond
  because it works with ``log ℓ`` and ``log g`` instead.
"""
from __future__ import annotations

import numpy as np
from scipy.special import expit, log_expit

#: Above this margin log ℓ(q) = -q - e^{-q}/2 to double precision (next term is e^{-2q}/24).
_LOG_ELL_SERIES_FROM = 30.0


def ell(q):
    """Logistic loss ``ℓ(q) = log(1 + e^{-q})``, elementwise, never overflowing."""
    return np.logaddexp(0.0, -np.asarray(q, dtype=np.float64))


def g(q):
    """``g(q) = -ℓ'(q) = 1/(1 + e^{q})`` in (0, 1) (underflows to 0 only past q ≈ 745)."""
    return expit(-np.asarray(q, dtype=np.float64))


def log_g(q):
    """``log g(q) = -log(1 + e^{q})``, finite for every finite ``q``."""
    return log_expit(-np.asarray(q, dtype=np.float64))


def log_ell(q):
    """``log ℓ(q)``, finite for every finite ``q`` (ℓ itself underflows past q ≈ 745)."""
    q = np.asarray(q, dtype=np.float64)
    far = q > _LOG_ELL_SERIES_FROM
    near_q = np.where(far, 0.0, q)
    far_q = np.where(far, q, _LOG_ELL_SERIES_FROM)
    return np.where(far, -far_q - 0.5 * np.exp(-far_q), np.log(np.logaddexp(0.0, -near_q)))


def logsumexp(a):
    """``log Σ exp(a)`` over the last axis (scipy's is ~10× slower on small arrays)."""
    m = a.max(axis=-1, keepdims=True)
    return m[..., 0] + np.log(np.exp(a - m).sum(axis=-1))


def mean_loss(q):
    """The training loss ``L = (1/n) Σ ℓ(q_i)`` over the last axis (Eq. 2)."""
    return ell(q).mean(axis=-1)


def log_sum_loss(q):
    """``log L_sum = log Σ_i ℓ(q_i)`` over the last axis, finite in the late phase."""
    return logsumexp(log_ell(q))


def log_expm1_exp(log_x):
    """``log(e^{x} - 1)`` given ``log x``, stable for tiny and large ``x``."""
    log_x = np.asarray(log_x, dtype=np.float64)
    small = log_x < -20.0  # x < 2e-9: log(expm1(x)) = log x + x/2 + O(x^2)
    x = np.exp(np.where(small, -20.0, np.minimum(log_x, 700.0)))
    big = np.log(-np.expm1(-x)) + x  # log(e^x - 1) = x + log(1 - e^{-x})
    return np.where(small, log_x + 0.5 * np.exp(np.where(small, log_x, -20.0)), big)


def smoothed_margin_from(log_loss_sum, log_norm):
    """Smoothed margin ``γ̃ = -log(e^{L_sum} - 1) / ‖W‖`` (Eq. 5, summed loss).

    Takes ``log L_sum`` and ``log ‖W‖`` so it stays finite when ``L_sum`` underflows
    and ``‖W‖`` overflows.  Meaningful (and ≤ γ̄) once ``L_sum < log 2``.
    """
    return -log_expm1_exp(log_loss_sum) * np.exp(-np.asarray(log_norm, dtype=np.float64))
