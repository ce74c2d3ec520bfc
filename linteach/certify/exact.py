"""Exact rational arithmetic for the sign test: the net, its slices, witnesses.

Every float64 is a dyadic rational, so ``W``, ``α`` and ``c`` are exact rationals and so are
``w̄``, ``ū``, ``g = w̄ − ū`` and ``r² = max_j ‖n_j − mean‖²``.  :class:`ExactNet` evaluates
``N_W(x)/v``, ``D = g·x`` and the band test ``D² ≥ c²r²‖x‖²`` in
:class:`fractions.Fraction`; :mod:`linteach.certify.recheck` re-checks certificates with it.
"""
from __future__ import annotations

from fractions import Fraction as F

import numpy as np

__all__ = ["ExactNet", "POINTS"]

#: points whose exact N, D and ‖x‖² an :class:`ExactNet` keeps
POINTS = 4096


def _dot(a, b):
    return sum(p * q for p, q in zip(a, b))


class ExactNet:
    """``W (2k, d)`` (w rows, then u rows) and ``α`` as exact rationals, for one side.

    ``side = -1`` swaps the types: then ``N`` and ``D`` change sign, so side −1 of ``W`` is
    side +1 of the swapped net.  ``scale_exp`` multiplies ``W`` by ``2**scale_exp`` (exact).
    """

    def __init__(self, W, alpha, *, side: int = 1, scale_exp: int = 0):
        W = np.asarray(W, dtype=np.float64)
        k = W.shape[0] // 2
        rows = [[F(float(t)) * F(2) ** scale_exp for t in row] for row in W]
        if side < 0:
            rows = rows[k:] + rows[:k]
        self.k, self.d = k, W.shape[1]
        self.alpha = F(float(alpha))
        self.w, self.u = rows[:k], rows[k:]
        self.w_bar = [sum(col) / k for col in zip(*self.w)]
        self.u_bar = [sum(col) / k for col in zip(*self.u)]
        self.g = [a - b for a, b in zip(self.w_bar, self.u_bar)]
        self.G = _dot(self.g, self.g)
        self.dev_w = [_dot(dv, dv) for dv in ([a - m for a, m in zip(row, self.w_bar)]
                                              for row in self.w)]
        self.dev_u = [_dot(dv, dv) for dv in ([a - m for a, m in zip(row, self.u_bar)]
                                              for row in self.u)]
        self.r2 = max(self.dev_w + self.dev_u)
        self.cache = {}
        self.points = {}

    def sigma(self, z):
        return z if z > 0 else self.alpha * z

    def f(self, x):
        """``N_W(x)/v`` exactly (x: rationals)."""
        return (sum(self.sigma(_dot(row, x)) for row in self.w)
                - sum(self.sigma(_dot(row, x)) for row in self.u))

    def D(self, x):
        return _dot(self.g, x)

    def witness(self, x, c) -> dict:
        """Exact verdict on the point ``x`` at band constant ``c``: in the band? disagreeing?

        ``N``, ``D`` and ``‖x‖²`` of a float point are kept (the last :data:`POINTS` points),
        so asking about the same point at another band costs only the band test."""
        key = None if any(isinstance(t, F) for t in x) else tuple(float(t) for t in x)
        got = self.points.get(key) if key is not None else None
        if got is None:
            xf = [t if isinstance(t, F) else F(float(t)) for t in x]
            got = (self.f(xf), self.D(xf), _dot(xf, xf))
            if key is not None:
                if len(self.points) >= POINTS:
                    self.points.clear()
                self.points[key] = got
        N, D, xx = got
        c = F(float(c))
        in_band = D * D >= c * c * self.r2 * xx
        sign = lambda a: (a > 0) - (a < 0)  # noqa: E731
        return {"in_band": in_band, "disagree": sign(N) != sign(D), "N_over_v": N, "D": D}

    # -- the slice S = {g·x = 1, ‖x‖² ≤ rho2} -------------------------------------------------
    def slice_extent(self, a, rho2):
        """``(m, q)``: on S, ``a·x`` ranges over ``m ± sqrt(q)``."""
        ag = _dot(a, self.g)
        return ag / self.G, (rho2 - 1 / self.G) * (_dot(a, a) - ag * ag / self.G)
