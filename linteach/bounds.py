"""Theorem 4.1's constants and the proof's potentials (docs/math.md §3, App. B).

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

from ._check import (FLOAT_INT_MAX, check_alpha, check_array, check_int, check_real,
                     float_guard)

__all__ = ["SGDBound", "sgd_update_bound", "teacher_weights", "potential_F", "potential_G",
           "invariant_bounds"]


@dataclass(frozen=True)
class SGDBound:
    """Theorem 4.1's constants for one setting (docs/math.md §3); every field a float."""

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
    docs/math.md §3 (the paper's display equations are lost; this is the reconstruction).
    ``1 − e^{−ε0}`` is computed with ``expm1`` so tiny ``ε0`` keeps its digits.

    Examples
    --------
    >>> from linteach.bounds import sgd_update_bound
    >>> bd = sgd_update_bound(40, 0.1, R_x=1.0, R_0=1e-3, alpha=0.3, k=5, eta=0.1, v=1.0,
    ...                       w_star_norm=10.0)
    >>> bool(bd.M >= bd.T_exact > 0)
    True
    """
    n = check_int("n", n, ge=1, le=FLOAT_INT_MAX)
    eps = check_real("eps", eps, gt=0.0)
    R_x = check_real("R_x", R_x, gt=0.0)
    R_0 = check_real("R_0", R_0, ge=0.0)
    alpha = check_alpha(alpha)
    if alpha == 0.0:
        raise ValueError("`alpha` must be > 0 for Theorem 4.1 (a = 0 for ReLU), got 0.0")
    k = check_int("k", k, ge=1, le=FLOAT_INT_MAX)
    eta = check_real("eta", eta, gt=0.0)
    v = check_real("v", v, gt=0.0)
    w_star_norm = check_real("w_star_norm", w_star_norm, gt=0.0)

    args = (n, eps, R_x, R_0, alpha, k, eta, v, w_star_norm)
    try:  # numpy scalars throughout, so that every overflow and underflow raises
        with np.errstate(all="raise"):
            values = _direct(*(np.float64(x) for x in args))
    except FloatingPointError:  # some product leaves float64: the same formulas in logs
        values = _from_logs(*args)
    eps0, a, b, c, T_exact, M = values
    # In float, T_exact carries a few ulps of rounding and M − T_exact can be 1e-21 of T
    # (tiny ε0: 1/(1 − e^{−ε0}) and 1 + 1/ε0 then nearly agree), so round T_exact up by far
    # more than its rounding error, and M up to at least that: neither is ever reported
    # below the exact root
    T_exact = T_exact * (1.0 + ROUND_UP)
    M = max(M * (1.0 + ROUND_UP), T_exact)
    if not np.isfinite(M):
        raise ValueError(_range_error("M", np.log(M) if M > 0 else np.inf, args))
    return SGDBound(float(eps0), float(a), float(b), float(c), float(T_exact), float(M))


#: relative allowance by which T_exact and M are rounded up (their rounding error is < 1e-15
#: in the direct evaluation and < 709·4·2^-53 ≈ 3e-13 in the log-space one)
ROUND_UP = 2.0**-40


def _direct(n, eps, R_x, R_0, alpha, k, eta, v, w_star_norm):
    """The constants by their formulas, in float64 (raises on overflow or underflow)."""
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
    return eps0, a, b, c, T_exact, M


def _log_one_minus_exp_neg(log_x):
    """``log(1 − e^{−x})`` from ``log x``, for any ``x > 0``."""
    if log_x < -30.0:  # 1 − e^{−x} = x(1 − x/2 + …)
        return log_x - 0.5 * np.exp(log_x)
    return float(np.log(-np.expm1(-np.exp(min(log_x, 700.0)))))


def _from_logs(n, eps, R_x, R_0, alpha, k, eta, v, w_star_norm):
    """The constants through their logarithms: right wherever their products leave float64."""
    L = np.log
    la = np.logaddexp
    lk, leta, lv, lR, lw, ln = L(float(k)), L(eta), L(v), L(R_x), L(w_star_norm), L(float(n))
    lR0 = L(R_0) if R_0 > 0 else -np.inf
    log_A = la(0.0, L(2.0) + lk + leta + 2 * lv + 2 * lR + ln)
    log_eps0 = L(eps) - log_A
    log_a = L(2.0) + lk + leta + lv + L(alpha) + _log_one_minus_exp_neg(log_eps0) - ln
    log_b = lw + L(2.0) + 0.5 * (lk + leta) + 0.5 * la(0.0, lk + leta + 2 * lv + 2 * lR)
    log_c = L(4.0) + lk + lR0 + lw
    log_B, log_C = log_b - log_a, log_c - log_a                   # T = ((B + √(B² + 4C))/2)²
    log_root = la(log_B, 0.5 * la(2 * log_B, L(4.0) + log_C)) - L(2.0)
    log_T = 2 * log_root
    log_F = la(L(eps), log_A) - L(eps)
    log_P = ln + lw + 0.5 * la(2 * lR - 2 * L(alpha), -(lk + leta + 2 * lv + 2 * L(alpha)))
    log_S = L(2.0) + ln + lR0 + lw - leta - lv - L(alpha)
    terms = [2 * log_P + 2 * log_F, log_P + 0.5 * log_S + 1.5 * log_F, log_S + log_F]
    log_M = np.logaddexp.reduce([t for t in terms if t > -np.inf])
    logs = dict(eps0=log_eps0, a=log_a, b=log_b, c=log_c, T_exact=log_T, M=log_M)
    args = (n, eps, R_x, R_0, alpha, k, eta, v, w_star_norm)
    out = []
    for name, value in logs.items():
        if name == "c" and value < _LOG_HUGE:  # R_0 → 0 (R_0 = 0 gives c = 0): c enters
            out.append(float(np.exp(value)))    # T_exact and M only through its log, so a
            continue                            # subnormal or zero c is reported, not refused
        if not _LOG_TINY < value < _LOG_HUGE:
            raise ValueError(_range_error(name, value, args))
        out.append(float(np.exp(value)))
    return tuple(out)


#: constants are reported only while they are normal float64 numbers
_LOG_HUGE, _LOG_TINY = np.log(np.finfo(float).max) - 1e-9, np.log(np.finfo(float).tiny)


def _range_error(name, log_value, args):
    n, eps, R_x, R_0, alpha, k, eta, v, w_star_norm = args
    where = "overflows" if log_value > 0 else "underflows"
    return (f"Theorem 4.1's constant `{name}` {where} float64 (log {name} = {log_value:.4g}) "
            f"for `n`={n!r}, `eps`={eps!r}, `R_x`={R_x!r}, `R_0`={R_0!r}, `alpha`={alpha!r}, "
            f"`k`={k!r}, `eta`={eta!r}, `v`={v!r}, `w_star_norm`={w_star_norm!r}")


def teacher_weights(w_star, k: int) -> np.ndarray:
    """``W* = (w*, …, w*, −w*, …, −w*)`` (k copies each), shape ``(..., 2k, d)``."""
    k = check_int("k", k, ge=1)
    w_star = check_array("w_star", w_star, min_ndim=1)
    block = np.repeat(w_star[..., None, :], k, axis=-2)
    return np.concatenate([block, -block], axis=-2)


def _W(W):
    W = check_array("W", W, min_ndim=2)
    if W.shape[-2] % 2:
        raise ValueError(f"`W` must have shape (..., 2k, d) with an even number of rows, "
                         f"got {W.shape}")
    return W


def potential_F(W, w_star) -> np.ndarray:
    """``F(W) = ⟨W, W*⟩`` (App. B), one value per run; ``W (..., 2k, d)``, ``w_star (..., d)``."""
    W = _W(W)
    w_star = check_array("w_star", w_star, min_ndim=1)
    if w_star.shape[-1] != W.shape[-1]:
        raise ValueError(f"`w_star` has d = {w_star.shape[-1]} but `W` has input dimension "
                         f"{W.shape[-1]}")
    k = W.shape[-2] // 2
    try:
        np.broadcast_shapes(W.shape[:-2], w_star.shape[:-1])
    except ValueError:
        raise ValueError(f"run axes of `W` {W.shape[:-2]} and `w_star` {w_star.shape[:-1]} "
                         "do not broadcast") from None
    with float_guard("F(W) = ⟨W, W*⟩ of `W` and `w_star` overflows float64"):
        return np.sum(W * teacher_weights(w_star, k), axis=(-2, -1))


def potential_G(W) -> np.ndarray:
    """``G(W) = ‖W‖_F`` (App. B), one value per run (no squaring: any finite ``W``)."""
    W = _W(W)
    flat = W.reshape(W.shape[:-2] + (-1,))
    # by a power of two to entries ≤ 1 first: exact, and no precision lost among subnormals
    e = np.frexp(np.abs(flat).max(axis=-1))[1]
    with float_guard("G(W) = ‖W‖_F of `W` overflows float64"):
        return np.ldexp(np.linalg.norm(np.ldexp(flat, -e[..., None]), axis=-1), e)


def invariant_bounds(g, *, k, eta, v, alpha, R_x):
    """The proof's per-step bounds at an SGD step with ``g_t = g(y N_{W_t}(x))``.

    Returns
    -------
    (F_gain_min, G2_gain_max)
        ``F(W_{t+1}) − F(W_t) ≥ 2kηvα·g_t`` (uses ``y⟨x, w*⟩ ≥ 1`` and ``σ' ≥ α``) and
        ``G(W_{t+1})² − G(W_t)² ≤ 2η + 2kη²v²R_x²`` (uses ``⟨W, ∇N⟩ = N`` and ``g·q ≤ 1``).
        The first has the shape of ``g``, the second broadcasts with ``R_x``.
    """
    k = check_int("k", k, ge=1, le=FLOAT_INT_MAX)
    eta = check_real("eta", eta, gt=0.0)
    v = check_real("v", v, gt=0.0)
    alpha = check_alpha(alpha)
    g = check_array("g", g, min_ndim=0)
    if np.any((g < 0) | (g > 1)):
        raise ValueError(f"`g` must lie in [0, 1] (g = 1/(1 + e^q)), got values in "
                         f"[{g.min():.3g}, {g.max():.3g}]")
    R_x = check_array("R_x", R_x, min_ndim=0)
    if np.any(R_x < 0):
        raise ValueError(f"`R_x` must be >= 0, got {R_x.min():.3g}")
    with float_guard("the invariant bounds overflow float64 for these `k`, `eta`, `v`, `R_x`"):
        kf, eta, v = np.float64(k), np.float64(eta), np.float64(v)  # numpy: overflow is caught
        return 2.0 * kf * eta * v * alpha * g, 2.0 * eta + 2.0 * kf * eta**2 * v**2 * R_x**2
