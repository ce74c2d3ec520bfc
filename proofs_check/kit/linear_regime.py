"""Theorem 5.1's shared pieces: the band, the clustered-net draw, the exact-sign slacks.

Used by ``thm5.1`` and ``appK`` (Theorem 5.1 in the bias-lifted space).  Signs are decided
exactly (:mod:`proofs_check.kit.signs`).
"""
from __future__ import annotations

import numpy as np

import linteach as lt
from linteach.generators import band_points, clustered_weights, unit_rows

from .signs import sign_agreement

__all__ = ["EDGE_OFFSET", "NET_SPEC", "sharp", "theorem51_slacks", "draw_net",
           "band_points_each", "draw_points", "extremal_net"]

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


def draw_points(rng, W, counts, *, c=2.0):
    """Uniform, band-edge, just-inside, just-outside and deep-regime points for ``W``."""
    n_uni, n_edge, n_in, n_out, n_deep = counts
    d = W.shape[-1]
    U = rng.standard_normal((n_uni, d)) * np.exp(rng.uniform(np.log(0.1), np.log(10.0),
                                                             (n_uni, 1)))
    parts = [U]
    for n, factor in ((n_edge, c), (n_in, c * (1 + EDGE_OFFSET)), (n_out, c * (1 - EDGE_OFFSET))):
        parts.append(band_points(W, n, c=factor, rng=rng))
    gap = np.linalg.norm(np.subtract(*lt.neuron_means(W)))
    top = gap / max(float(lt.cluster_radius(W)), 1e-300) * (1 - 1e-12)  # largest reachable c
    deep = np.exp(rng.uniform(np.log(c), np.log(max(c, min(top, 1e6))), n_deep))
    parts.append(band_points_each(W, deep, rng=rng))
    return np.concatenate(parts)


def extremal_net(alpha: float, r: float, c: float, *, d: int, rng, v: float = 1.0):
    """docs/math.md §5's extremal net and point: k = 2, w's at w̄, u's at ū ± r·x̂, and x̂.

    ``w̄·x̂ = 0``, ``ū·x̂ = −c·r``; the signs disagree exactly when ``c ≤ (1−α)/(1+α)``.
    Built on coordinate axes (then a random signed permutation: no rounding), so the
    construction is exact up to the one product ``c·r``.
    """
    W = np.zeros((4, d))
    p, q = rng.standard_normal(2)
    W[0, 1] = W[1, 1] = p                          # w1 = w2 = w̄ = (0, p, …)
    W[2, 0], W[3, 0] = -c * r + r, -c * r - r      # u = ū ± r e1, ū = (−c r, q, …)
    W[2, 1] = W[3, 1] = q
    x = np.zeros(d)
    x[0] = 1.0
    perm, signs = rng.permutation(d), np.where(rng.random(d) < 0.5, -1.0, 1.0)
    return lt.Net(k=2, alpha=alpha, v=v), (W * signs)[:, perm], (x * signs)[perm][None, :]
