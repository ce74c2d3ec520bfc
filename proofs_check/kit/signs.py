"""Sign of ``N_W(x)`` against ``sign((w̄ − ū)·x)``, decided exactly where floats cannot.

Shared by ``thm5.1``, ``cor6.1``, ``appD.1`` (and ``appK``).  The theorems are about the
real numbers the float inputs denote, so every sign this module reports is the exact one:

* Each value (``N``, ``D = (w̄ − ū)·x``, and the regime test ``|D| − c·r‖x‖``) is first
  computed in float64.  Its float sign is certain when the value is farther than
  :data:`THRESH` times its *scale* (the sum of the magnitudes it is built from) from 0;
  float64's error, about (d + 2k)·1.1e-16 of that scale, is far below it for d, k up
  to 10⁴, so the
  threshold only decides how many points take the slow road, never the answer.
* Points whose ``N`` or ``D`` is that close to 0, and points whose signs disagree while
  their regime test is that close to 0, are re-evaluated in exact rational arithmetic
  (every float is a dyadic rational, α, v and c included; see :class:`_Exact`): ``w̄``,
  ``ū`` and ``r² = max_j ‖w_j − w̄‖²`` exactly, the regime as ``D² ≥ c²r²‖x‖²``.  The
  regime test of an *agreeing* point is left to floats: it only decides whether that
  point's (non-negative) slack is counted, never whether a violation is missed.

Ties: ``sign(0) = 0``.  A point with ``D = 0`` (in the regime only when ``r = 0`` or
``x = 0``) agrees iff ``N = 0``; a point with ``D ≠ 0`` and ``N = 0`` is a disagreement (a
ReLU net's zero region).  Slack, per point of the regime: ``s·N/(v·k·|D|)`` with
``s = sign D`` (≥ α in theory when c = 2, since then ``s·N ≥ α·v·k·|D|``), forced below 0
(by at least :data:`TIE`) when the exact signs disagree and to ≥ 0 when they agree.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from linteach.metrics import cluster_radius, neuron_means

#: relative distance from 0 (w.r.t. the value's scale) under which signs are decided exactly
THRESH = 1e-10
#: slack reported for a disagreement of zero size (N = 0 while D ≠ 0): a tie is a violation
TIE = float(np.finfo(np.float64).tiny)


def _ints(values):
    """Floats as integers over one common power-of-two denominator: ``(ints, denominator)``."""
    ratios = [float(a).as_integer_ratio() for a in values]
    den = max(q for _, q in ratios)
    return [p * (den // q) for p, q in ratios], den


class _Exact:
    """Exact ``N``, ``D`` and regime membership for single points of one net.

    Every float is a dyadic rational, so with one power-of-two denominator per array the
    whole computation is in Python integers (exact, and ~10× faster than ``Fraction``).
    """

    def __init__(self, net, W, c):
        self.k, self.v = net.k, Fraction(float(net.v))
        self.pa, self.qa = float(net.alpha).as_integer_ratio()
        self.pc, self.qc = float(c).as_integer_ratio()
        flat, self.Lw = _ints(np.ravel(W))
        d = W.shape[-1]
        self.W = [flat[j * d:(j + 1) * d] for j in range(2 * self.k)]
        w_rows, u_rows = self.W[:self.k], self.W[self.k:]
        sum_w = [sum(col) for col in zip(*w_rows)]
        sum_u = [sum(col) for col in zip(*u_rows)]
        self.S = [a - b for a, b in zip(sum_w, sum_u)]                # k·(w̄ − ū)·Lw
        self.R2 = max(sum((self.k * a - b) ** 2 for a, b in zip(row, total))  # (k·Lw·r)²
                      for rows, total in ((w_rows, sum_w), (u_rows, sum_u)) for row in rows)

    def point(self, x):
        xi, Lx = _ints(x)
        out = 0                                                        # N·qa·Lw·Lx / v
        for j, row in enumerate(self.W):
            z = sum(a * b for a, b in zip(row, xi))
            s = z * self.qa if z > 0 else z * self.pa
            out += s if j < self.k else -s
        Dk = sum(a * b for a, b in zip(self.S, xi))                    # D·k·Lw·Lx
        in_regime = (Dk * self.qc) ** 2 >= self.pc**2 * self.R2 * sum(a * a for a in xi)
        N = self.v * Fraction(out, self.qa * self.Lw * Lx)
        return N, Fraction(Dk, self.k * self.Lw * Lx), in_regime


def _sign(a):
    return (a > 0) - (a < 0)


def sign_agreement(net, W, X, *, c: float = 2.0) -> dict:
    """Exact sign agreement of ``N_W`` with ``(w̄ − ū)·x`` on the points ``X (n, d)``.

    Returns a dict of arrays over the points: ``agree``, ``in_regime`` (``|D| ≥ c·r‖x‖``),
    ``slack`` (see module docstring; NaN outside the regime), ``ratio`` (``|D|/(r‖x‖)``,
    inf when ``r‖x‖ = 0``), ``N``, ``D``, and ``exact`` (points decided in rationals).
    """
    W, X = np.asarray(W, dtype=np.float64), np.atleast_2d(np.asarray(X, dtype=np.float64))
    k, v = net.k, net.v
    N = net.forward(W, X)
    w_bar, u_bar = neuron_means(W)
    D = X @ (w_bar - u_bar)
    r = float(cluster_radius(W))
    xn = np.linalg.norm(X, axis=1)
    absZ = np.abs(X) @ np.abs(W).T                                   # (n, 2k) magnitudes
    scale_N, scale_D = v * absZ.sum(axis=1), absZ.sum(axis=1) / k
    edge = c * r * xn
    span_W = float(np.abs(W).max())
    unsure = (np.abs(N) <= THRESH * scale_N) | (np.abs(D) <= THRESH * scale_D)
    if net.alpha == 0.0:  # every neuron certainly off: a ReLU net's output is exactly 0
        Z = X @ W.T
        zero = np.all((Z < 0) & (np.abs(Z) > THRESH * absZ), axis=1)
        N = np.where(zero, 0.0, N)
        unsure &= ~(zero & (np.abs(D) > THRESH * scale_D))
    sN, sD, in_regime = np.sign(N), np.sign(D), np.abs(D) >= edge
    # regime membership matters only where the signs disagree: decide those exactly too
    unsure |= (sN != sD) & (np.abs(np.abs(D) - edge)
                            <= THRESH * (scale_D + c * (r + span_W) * xn))
    idx = np.flatnonzero(unsure)
    if idx.size:
        exact = _Exact(net, W, c)
        for i in idx:
            Ne, De, reg = exact.point(X[i])
            sN[i], sD[i], in_regime[i] = _sign(Ne), _sign(De), reg
            N[i], D[i] = float(Ne), float(De)
    agree = sN == sD
    with np.errstate(divide="ignore", invalid="ignore"):  # D = 0 and r‖x‖ = 0 handled below
        raw = np.where(sD != 0, sD * N / (v * k * np.abs(D)),
                       -np.abs(N) / np.where(scale_N > 0, scale_N, 1.0))
        ratio = np.where(r * xn > 0, np.abs(D) / (r * xn), np.inf)
    slack = np.where(agree, np.maximum(raw, 0.0), np.minimum(raw, -TIE))
    return {"agree": agree, "in_regime": in_regime, "slack": np.where(in_regime, slack, np.nan),
            "ratio": ratio, "N": N, "D": D, "exact": unsure, "r": r}


def output_signs(net, W, X) -> np.ndarray:
    """Exact ``sign(N_W(x))`` for the points ``X (n, d)`` (floats where certain, else exact)."""
    W, X = np.asarray(W, dtype=np.float64), np.atleast_2d(np.asarray(X, dtype=np.float64))
    N = net.forward(W, X)
    signs = np.sign(N)
    unsure = np.flatnonzero(np.abs(N) <= THRESH * net.v * (np.abs(X) @ np.abs(W).T).sum(axis=1))
    if unsure.size:
        exact = _Exact(net, W, 0.0)
        for i in unsure:
            signs[i] = _sign(exact.point(X[i])[0])
    return signs
