"""c*(W) of a net in the plane (d = 2), exactly: one piecewise-linear function per side.

In the plane the slice ``D = g·x = 1`` (``g = w̄ − ū``) is a line, ``x(s) = g/G + s·p`` with
``p = (−g₂, g₁) ⊥ g`` and ``G = ‖g‖²``, so ``‖x(s)‖² = 1/G + s²G``.  Every pre-activation
``a·x(s) = a·g/G + s·(a·p)`` is affine in ``s``, so ``N(x(s))/v`` is continuous and piecewise
linear, with its kinks at the neurons' zeros.  On side +1 the smallest disagreeing point
(``N ≤ 0``: a tie is a disagreement, docs/math.md §5) is the ``s`` of least ``|s|`` with
``N ≤ 0``, found by walking the kinks outwards from ``s = 0`` in both directions; on a piece
the root is the chord's, exact since the piece is linear.  Side −1 is side +1 of the net
with its types swapped.  ``c*(W)² = max over the sides of 1/(r²‖x(s*)‖²)`` (0 if ``N > 0`` on
both lines: no disagreement off ``D = 0``).

Everything is a rational function of the entries of ``W`` and ``α``: run on
:class:`fractions.Fraction` (``exact=True``) the result ``c*(W)²`` is exact, and its point
``x(s*)`` ties at ``N = 0`` exactly.  Run on floats it is the same walk, cheap enough to be
the objective of a search over nets (:mod:`linteach.certify.adversary`).  A net with
``d > 2`` has no such line walk (the slice is a hyperplane): :func:`linteach.certify.c_star`
brackets it.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
import numpy as np

from .exact import ExactNet
from .inputs import check_net

__all__ = ["PlaneCStar", "plane_c_star"]


@dataclass(frozen=True)
class PlaneCStar:
    """``c = c*(W)``; ``c2`` its square (a Fraction when exact); ``side`` (±1, 0 when c = 0)
    the side that attains it; ``x`` (exact mode, c > 0) a float64 point of that side whose
    disagreement is confirmed in rationals, at a band ratio within about 1e-9 below ``c``
    (the exact optimum ties at N = 0 and need not be a float, see ``_witness``; None if no
    float64 point near it disagrees)."""

    c: float
    c2: object
    x: np.ndarray | None
    side: int


def _walk(w, u, alpha, g):
    """Least ``|s|`` with ``N(x(s)) ≤ 0`` on the line ``x(s) = g/G + s·p`` (None: N > 0 on it).

    ``w``, ``u``: the two types' rows as pairs of numbers (floats or Fractions alike)."""
    G = g[0] * g[0] + g[1] * g[1]
    p = (-g[1], g[0])
    lines = [((a[0] * g[0] + a[1] * g[1]) / G, a[0] * p[0] + a[1] * p[1], sign)
             for rows, sign in ((w, 1), (u, -1)) for a in rows]

    def N(s):
        total = 0
        for b, m, sign in lines:
            z = b + s * m
            total += sign * (z if z > 0 else alpha * z)
        return total

    f0 = N(0)
    if f0 <= 0:
        return 0
    best = None
    for direction in (1, -1):  # s = direction·t, t ≥ 0
        kinks = sorted({-b / m * direction for b, m, _ in lines if m != 0})
        prev, f_prev, root = 0, f0, None
        for t in [t for t in kinks if t > 0]:
            if best is not None and prev >= best:  # this piece starts past the best root
                break
            f_t = N(direction * t)
            if f_t <= 0:
                root = prev + f_prev * (t - prev) / (f_prev - f_t)
                break
            prev, f_prev = t, f_t
        else:  # past the last kink N is linear in t
            slope = N(direction * (prev + 1)) - f_prev
            if slope < 0:
                root = prev + f_prev / -slope
        if root is not None and (best is None or root < best):
            best, best_dir = root, direction
    return None if best is None else best * best_dir


def plane_c_star(W, alpha, *, exact: bool = False, witness: bool = True) -> PlaneCStar:
    """``c*(W)`` of a net ``W (2k, 2)``: exactly (``exact=True``: rationals) or in floats.

    ``W`` is scaled by a power of two first (exact; c*(W) is scale invariant), so ``W`` and
    ``s·W`` get the same answer across the float range.  In floats the answer carries
    rounding: where N is nearly 0 along a long stretch of the line, a net whose exact c*(W)
    is 0 can get a tiny positive value (about 1e-12 of ``‖w̄ − ū‖/r``); decide with
    ``exact=True``.  ``witness=False`` skips the exact mode's float64 witness point (``x`` is
    then None): a search that only needs ``c2`` decided.  Needs ``r > 0`` (with ``r = 0`` the
    band is every x and no constant plays a role).
    """
    Ws, alpha, _, exp = check_net(W, alpha, 1.0)
    if Ws.shape[1] != 2:
        raise ValueError(f"`W` must have d = 2 columns for the line walk, got {Ws.shape[1]} "
                         "(use linteach.certify.c_star)")
    k = Ws.shape[0] // 2
    if exact:
        net = ExactNet(Ws, alpha)
        rows, a, r2 = net.w + net.u, net.alpha, net.r2
    else:
        rows = [tuple(float(t) for t in row) for row in Ws]
        a = float(alpha)
        means = [np.mean(Ws[:k], 0), np.mean(Ws[k:], 0)]
        r2 = float(max(np.max(np.sum((Ws[:k] - means[0]) ** 2, 1)),
                       np.max(np.sum((Ws[k:] - means[1]) ** 2, 1))))
    if r2 == 0:
        raise ValueError("`W` has r = 0: the band is every x, so no constant c plays a role")
    best = (0, None, 0)
    for side in (1, -1):
        w, u = (rows[:k], rows[k:]) if side > 0 else (rows[k:], rows[:k])
        g = [sum(col) / k for col in zip(*w)]
        g = [gw - gu for gw, gu in zip(g, [sum(col) / k for col in zip(*u)])]
        G = g[0] * g[0] + g[1] * g[1]
        if G == 0:
            raise ValueError("`W` has w̄ = ū: D ≡ 0, so no x is in any band")
        s = _walk(w, u, a, g)
        if s is None:
            continue
        c2 = 1 / (r2 * (1 / G + s * s * G))
        if c2 > best[0]:
            best = (c2, (g, G, s), side)
    c2, line, side = best
    x = _witness(net, *line) if exact and witness and line is not None else None
    return PlaneCStar(c=float(np.sqrt(float(c2))), c2=c2 if exact else float(c2), x=x,
                      side=side)


def _witness(net, g, G, s):
    """A float64 point that disagrees exactly (N ≤ 0 on D's side), near ``x(s)``: first
    ``x(s)`` scaled to a largest |coordinate| of 1 (exact when the other coordinate is then
    a float: a tie N = 0 survives), then ``x(s)`` moved outwards along the line by a relative
    1e-12, …, 1e-6 (in either direction at s = 0).  None if none does (the optimum is an
    isolated tie that no float64 point reaches)."""
    def point(st):
        return [g[0] / G - st * g[1], g[1] / G + st * g[0]]
    top = max(abs(t) for t in point(s))
    tries = [[t / top for t in point(s)]]
    for t in (1e-12, 1e-10, 1e-8, 1e-6):
        for direction in ((1, -1) if s == 0 else (1 if s > 0 else -1,)):
            tries.append(point(s * (1 + Fraction(t)) + direction * Fraction(t) / G))
    for x in tries:
        x = np.array([float(t) for t in x])
        if net.witness(x, 0.0)["disagree"]:
            return x
    return None

