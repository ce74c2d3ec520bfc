"""Theorem 4.1's constants and the proof's potentials (EQUATIONS §3, App. B).

Conventions, stated once:

* ``w_star`` is a teacher **in the theorem's normalisation**, ``y_i⟨w*, x_i⟩ ≥ 1`` for every
  i; the tightest is the max-margin teacher, ``‖w*‖ = 1/γ``.
* ``R_x ≥ max_i ‖x_i‖`` and ``R_0 ≥`` every initial neuron norm ``‖w_0^(j)‖, ‖u_0^(j)‖``.
* ``W`` has shape ``(..., 2k, d)`` (w rows, then u rows), as everywhere in linteach.
* A step is an ε0-mistake when its example's loss *before* the update is ``≥ ε0``.

The constants, with ``A = 1 + 2kηv²R_x²n``::

    ε0 = ε / A
    a  = 2kηvα(1 − e^{−ε0}) / n
    b  = ‖w*‖·sqrt(4k²η²v²R_x² + 4kη)
    c  = 4kR_0‖w*‖
    T_exact = ((b + sqrt(b² + 4ac)) / (2a))²          (root of a·T = b·√T + c in √T)
    M(n, ε) = P²Fε² + P·√S·Fε^{3/2} + S·Fε  ≥ T_exact

with ``Fε = (ε + A)/ε``, ``P = n‖w*‖·sqrt(R_x²/α² + 1/(kηv²α²))`` and
``S = 2nR_0‖w*‖/(ηvα)``.  ``M ≥ T_exact`` because ``T_exact ≤ B² + B√C + C`` with
``B = b/a < P·Fε`` and ``C = c/a < S·Fε`` (using ``1/(1 − e^{−ε0}) < 1 + 1/ε0``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._check import check_alpha, check_int, check_real

__all__ = ["SGDBound", "sgd_update_bound", "teacher_weights", "potential_F", "potential_G",
           "invariant_bounds"]


@dataclass(frozen=True)
class SGDBound:
    """Theorem 4.1's constants for one setting (EQUATIONS §3); every field a float."""

    eps0: float
    a: float
    b: float
    c: float
    T_exact: float
    M: float


def sgd_update_bound(n, eps, *, R_x, R_0, alpha, k, eta, v, w_star_norm) -> SGDBound:
    """Theorem 4.1's bound on SGD updates made in mistake epochs.

    Parameters
    ----------
    n : int
        Number of training points, ``n >= 1``.
    eps : float
        Target loss ``ε > 0``.
    R_x : float
        ``max_i ‖x_i‖``, ``> 0``.
    R_0 : float
        Largest initial neuron norm, ``>= 0``.
    alpha : float
        Leaky slope, ``0 < alpha < 1`` (the bound is void for ReLU).
    k : int
        Neurons per type.
    eta : float
        SGD step, ``> 0``.
    v : float
        Second-layer magnitude, ``> 0``.
    w_star_norm : float
        ``‖w*‖`` of a teacher with ``y_i⟨w*, x_i⟩ ≥ 1`` (``1/γ`` for the tightest), ``> 0``.

    Returns
    -------
    SGDBound
        ``eps0, a, b, c, T_exact, M``: at most ``T_exact`` updates fall in leading mistake
        epochs (each epoch with at least one ε0-mistake), and ``M ≥ T_exact`` is the
        paper-style closed form, ``Θ(n⁴/ε²)``.

    Notes
    -----
    EQUATIONS §3 (the paper's display equations are lost; this is the reconstruction).
    ``1 − e^{−ε0}`` is computed with ``expm1`` so tiny ``ε0`` keeps its digits.

    Examples
    --------
    >>> from linteach.bounds import sgd_update_bound
    >>> bd = sgd_update_bound(40, 0.1, R_x=1.0, R_0=1e-3, alpha=0.3, k=5, eta=0.1, v=1.0,
    ...                       w_star_norm=10.0)
    >>> bool(bd.M >= bd.T_exact > 0)
    True
    """
    n = check_int("n", n, ge=1)
    eps = check_real("eps", eps, gt=0.0)
    R_x = check_real("R_x", R_x, gt=0.0)
    R_0 = check_real("R_0", R_0, ge=0.0)
    alpha = check_alpha(alpha)
    if alpha == 0.0:
        raise ValueError("`alpha` must be > 0 for Theorem 4.1 (a = 0 for ReLU), got 0.0")
    k = check_int("k", k, ge=1)
    eta = check_real("eta", eta, gt=0.0)
    v = check_real("v", v, gt=0.0)
    w_star_norm = check_real("w_star_norm", w_star_norm, gt=0.0)

    A = 1.0 + 2.0 * k * eta * v**2 * R_x**2 * n
    eps0 = eps / A
    a = 2.0 * k * eta * v * alpha * -np.expm1(-eps0) / n
    b = w_star_norm * np.sqrt(4.0 * k**2 * eta**2 * v**2 * R_x**2 + 4.0 * k * eta)
    c = 4.0 * k * R_0 * w_star_norm
    T_exact = ((b + np.sqrt(b**2 + 4.0 * a * c)) / (2.0 * a)) ** 2
    F_eps = (eps + A) / eps
    P = n * w_star_norm * np.sqrt(R_x**2 / alpha**2 + 1.0 / (k * eta * v**2 * alpha**2))
    S = 2.0 * n * R_0 * w_star_norm / (eta * v * alpha)
    M = P**2 * F_eps**2 + P * np.sqrt(S) * F_eps**1.5 + S * F_eps
    return SGDBound(float(eps0), float(a), float(b), float(c), float(T_exact), float(M))


def teacher_weights(w_star, k: int) -> np.ndarray:
    """``W* = (w*, …, w*, −w*, …, −w*)`` (k copies each), shape ``(..., 2k, d)``."""
    k = check_int("k", k, ge=1)
    w_star = np.asarray(w_star, dtype=np.float64)
    if w_star.ndim < 1 or not np.all(np.isfinite(w_star)):
        raise ValueError(f"`w_star` must be a finite array of shape (..., d), got {w_star.shape}")
    block = np.repeat(w_star[..., None, :], k, axis=-2)
    return np.concatenate([block, -block], axis=-2)


def potential_F(W, w_star) -> np.ndarray:
    """``F(W) = ⟨W, W*⟩`` (App. B), one value per run; ``W (..., 2k, d)``, ``w_star (..., d)``."""
    W = np.asarray(W, dtype=np.float64)
    if W.ndim < 2 or W.shape[-2] % 2:
        raise ValueError(f"`W` must have shape (..., 2k, d), got {W.shape}")
    return np.sum(W * teacher_weights(w_star, W.shape[-2] // 2), axis=(-2, -1))


def potential_G(W) -> np.ndarray:
    """``G(W) = ‖W‖_F`` (App. B), one value per run."""
    return np.linalg.norm(np.asarray(W, dtype=np.float64), axis=(-2, -1))


def invariant_bounds(g, *, k, eta, v, alpha, R_x):
    """The proof's per-step bounds at an SGD step with ``g_t = g(y N_{W_t}(x))``.

    Returns
    -------
    (F_gain_min, G2_gain_max)
        ``F(W_{t+1}) − F(W_t) ≥ 2kηvα·g_t`` (uses ``y⟨x, w*⟩ ≥ 1`` and ``σ' ≥ α``) and
        ``G(W_{t+1})² − G(W_t)² ≤ 2η + 2kη²v²R_x²`` (uses ``⟨W, ∇N⟩ = N`` and ``g·q ≤ 1``).
        The first has the shape of ``g``, the second broadcasts with ``R_x``.
    """
    k = check_int("k", k, ge=1)
    eta = check_real("eta", eta, gt=0.0)
    v = check_real("v", v, gt=0.0)
    alpha = check_alpha(alpha)
    g = np.asarray(g, dtype=np.float64)
    R_x = np.asarray(R_x, dtype=np.float64)
    return 2.0 * k * eta * v * alpha * g, 2.0 * eta + 2.0 * k * eta**2 * v**2 * R_x**2
