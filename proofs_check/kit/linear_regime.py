"""Theorem 5.1's shared pieces: the band, the clustered-net draw, the exact-sign slacks.

Used by ``thm5.1`` and ``appK`` (Theorem 5.1 in the bias-lifted space).  Signs are decided
exactly (:mod:`proofs_check.kit.signs`).
"""
from __future__ import annotations

import numpy as np

import linteach as lt
from linteach.generators import clustered_weights

from .signs import sign_agreement

__all__ = ["EDGE_OFFSET", "NET_SPEC", "sharp", "theorem51_slacks", "draw_net"]

#: band offsets for the "just inside / just outside" points
EDGE_OFFSET = 1e-9
#: the clustered-net draw: ranges drawn from the case seed; ``points`` = (uniform, edge,
#: inside, outside, deep)
NET_SPEC = dict(k=(2, 10), d=(2, 10), alpha=(0.01, 0.99), v=(0.2, 5.0), rel_r=(1e-6, 0.49),
             center=(0.0, 3.0), points=(200, 100, 50, 50, 100))

def sharp(alpha: float) -> float:
    """The sharp constant ``(1 − α)/(1 + α)`` (docs/math.md §5)."""
    return (1.0 - alpha) / (1.0 + alpha)


def theorem51_slacks(net, W, X, *, c: float = 2.0):
    """Normalised slacks of Theorem 5.1 on the points of ``X`` in the regime ``|D| ≥ c·r‖x‖``.

    Returns ``(slack, info)``: ``slack`` over the regime points (≥ 0 iff the exact signs
    agree; see :mod:`proofs_check.kit.signs`), ``info`` the full :func:`sign_agreement` dict.
    """
    info = sign_agreement(net, W, X, c=c)
    return info["slack"][info["in_regime"]], info


def draw_net(rng, spec, *, alpha=None):
    """``(net, W)`` of a clustered family from ``rng`` (``alpha`` overrides the draw)."""
    k = int(rng.integers(spec["k"][0], spec["k"][1] + 1))
    d = int(rng.integers(spec["d"][0], spec["d"][1] + 1))
    a = float(rng.uniform(*spec["alpha"]))
    v = float(np.exp(rng.uniform(*np.log(spec["v"]))))
    rel_r = 0.0 if k == 1 else float(np.exp(rng.uniform(*np.log(spec["rel_r"]))))
    gap = float(np.exp(rng.uniform(np.log(0.1), np.log(10.0))))
    center = float(rng.uniform(*spec["center"])) * gap
    W = clustered_weights(k, d, r=rel_r * gap, gap=gap, center_norm=center, rng=rng)
    return lt.Net(k=k, alpha=a if alpha is None else alpha, v=v), W
