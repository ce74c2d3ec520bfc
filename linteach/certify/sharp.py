"""The sharp constant ``c_k(α)`` of Theorem 5.1 for width k, its extremal nets, and a search.

``c_k(α) = m(1−α) / (m(1−α) + kα)`` with ``m = ⌊k/2⌋`` (docs/claims/thm5.1.md has the
proof): ``(1−α)/(1+α)`` for even k, ``m(1−α)/(m + (m+1)α)`` for odd ``k = 2m+1``, and 0 for
k = 1 (r = 0: no band constant plays a role).  For 0 < α < 1 every net of width k agrees in
sign with ``(w̄ − ū)·x`` wherever ``|(w̄ − ū)·x| > c_k(α)·r‖x‖``; :func:`extremal_net` ties
(N = 0) at ``|D| = c_k(α)·r‖x‖`` and disagrees strictly below.  The search over nets that
approaches it is :mod:`linteach.certify.adversary`.
"""
from __future__ import annotations

import numpy as np

from .._check import check_int, check_real

__all__ = ["sharp_constant", "extremal_net"]


def sharp_constant(k, alpha) -> float:
    """``c_k(α) = m(1−α)/(m(1−α) + kα)``, ``m = ⌊k/2⌋``, for ``k ≥ 1`` and ``0 < α < 1``.

    Example: ``sharp_constant(2, 0.5) == 1/3``; ``sharp_constant(3, 0.5) == 0.2``.
    """
    k = check_int("k", k, ge=1)
    alpha = check_real("alpha", alpha, gt=0.0, lt=1.0)
    m = k // 2
    return m * (1 - alpha) / (m * (1 - alpha) + k * alpha)


def extremal_net(k, alpha, *, c=None, d: int = 2, offset=(0.75, 0.5)):
    """The extremal net of width k at band constant ``c`` (default ``c_k(α)``) and its point.

    ``x̂ = e_1``; every w neuron is ``w̄ = p·e_2`` (so ``w̄·x̂ = 0``); the u neurons are
    ``ū ± e_1`` (``⌊k/2⌋`` each) and, for odd k, one at ``ū = −c·e_1 + q·e_2``; so r = 1,
    ``D(x̂) = c`` and ``N(x̂)/v = −⌊k/2⌋(1−α) + c(⌊k/2⌋(1−α) + kα)`` (≤ 0 iff ``c ≤ c_k``).
    Returns ``(W (2k, d), x̂)``.
    """
    k = check_int("k", k, ge=2)
    d = check_int("d", d, ge=2)
    c = sharp_constant(k, alpha) if c is None else check_real("c", c, ge=0.0)
    p, q = (check_real("offset", t) for t in offset)
    m = k // 2
    W = np.zeros((2 * k, d))
    W[:k, 1] = p
    W[k:, 0] = [-c + 1.0] * m + [-c - 1.0] * m + [-c] * (k - 2 * m)
    W[k:, 1] = q
    x = np.zeros(d)
    x[0] = 1.0
    return W, x
