"""The pieces of the node relaxation in floats: σ, its chords, the vertex bound V(B).

:mod:`linteach.certify.recheck` states the same pieces again in rationals.
"""
from __future__ import annotations

import numpy as np

__all__ = ["sigma", "chord", "vertex_bound", "chord_v"]


def sigma(z, alpha):
    return np.where(z > 0, z, alpha * z)


def chord(lo, hi, alpha):
    """``(slope, intercept)`` of σ on ``[lo, hi]``: σ itself if the sign is fixed, else its chord."""
    if lo >= 0:
        return 1.0, 0.0
    if hi <= 0:
        return alpha, 0.0
    slope = (hi - alpha * lo) / (hi - lo)
    return slope, alpha * lo - slope * lo


def vertex_bound(B, e, k, alpha):
    """``V(B) = m σ(B + e) + m σ(B − e) + (k − 2m) σ(B)``, ``m = ⌊k/2⌋``: the largest
    ``Σ_j σ(B + δ_j)`` over ``|δ_j| ≤ e``, ``Σ δ_j = 0`` (a convex function peaks at a vertex;
    every vertex has ``m`` entries at +e, ``m`` at −e, and a 0 when k is odd)."""
    m = k // 2
    s = lambda z: z if z > 0 else alpha * z  # noqa: E731
    return m * s(B + e) + m * s(B - e) + (k - 2 * m) * s(B)


def chord_v(bl, bh, e, k, alpha):
    """Chord of the convex ``V`` over ``[bl, bh]``: an upper bound of ``V`` there."""
    if bh <= bl:
        return 0.0, vertex_bound(bl, e, k, alpha)
    slope = (vertex_bound(bh, e, k, alpha) - vertex_bound(bl, e, k, alpha)) / (bh - bl)
    return slope, vertex_bound(bl, e, k, alpha) - slope * bl
