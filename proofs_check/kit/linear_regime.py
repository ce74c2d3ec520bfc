"""Theorem 5.1's shared pieces: the band, the clustered-net draw, the exact-sign slacks.

Used by ``thm5.1`` and ``appK`` (Theorem 5.1 in the bias-lifted space).  Signs are decided
exactly (:mod:`proofs_check.kit.signs`).
"""
from __future__ import annotations

import numpy as np

import linteach as lt
from linteach.generators import clustered_weights, unit_rows

from .signs import sign_agreement

__all__ = ["EDGE_OFFSET", "NET_SPEC", "sharp", "theorem51_slacks", "draw_net",
           "band_points_each"]

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


def band_points_each(W, factors, *, rng, radius=(0.1, 10.0)) -> np.ndarray:
    """One point per band factor ``c`` of ``factors``: the same points, from the same draws
    of ``rng``, as ``[band_points(W, 1, c=c, rng=rng) for c in factors]`` stacked, without
    re-deriving the net's means, radius and basis per point (the sampled pass's hot spot).

    ``W`` is a valid ``(2k, d)`` net with ``d ≥ 2`` and every ``c·r ≤ ‖w̄ − ū‖`` (the
    caller's factors are capped there).
    """
    W = np.asarray(W, dtype=np.float64)
    w_bar, u_bar = lt.neuron_means(W)
    delta = w_bar - u_bar
    gap = float(np.linalg.norm(delta))
    r = float(lt.cluster_radius(W))
    u = delta / gap
    Q = np.linalg.qr(np.column_stack([u, np.eye(W.shape[-1])]), mode="complete")[0]
    lo, hi = np.log(radius[0]), np.log(radius[1])
    out = np.empty((len(factors), W.shape[-1]))
    for i, c in enumerate(factors):
        cos = float(c) * r / gap
        if not cos <= 1.0:
            raise ValueError(f"band factor {c!r} times r exceeds ‖w̄ − ū‖ = {gap:g}")
        E = unit_rows(rng.standard_normal((1, W.shape[-1] - 1))) @ Q[:, 1:].T
        side = np.where(rng.random(1) < 0.5, -1.0, 1.0)
        length = np.exp(rng.uniform(lo, hi, 1))
        out[i] = (length[:, None] * (side[:, None] * cos * u + np.sqrt(1.0 - cos**2) * E))[0]
    return out
