"""NumPy generators of the objects the claims quantify over (plain NumPy, ``rng`` required).

:func:`clustered_weights` (Theorem 5.1's clustered nets), :func:`band_points` (points at a
chosen band), :func:`nar_weights` and :func:`par_weights` (weights inside a chosen NAR/PAR,
docs/math.md §6-§7).  ``rng`` accepts whatever ``np.random.default_rng`` accepts.

This module does not import hypothesis: ``proofs_check`` draws its cases with it, and the
hypothesis strategies of :mod:`linteach.strategies` are thin wrappers around it (they draw
sizes and a seed, then call a generator here).
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

from ._check import check_array, check_int, check_real, check_rng, check_W, check_X
from .data import Dataset
from .metrics import cluster_radius, neuron_means

__all__ = ["clustered_weights", "band_points", "nar_weights", "par_weights", "unit_rows"]


def unit_rows(v):
    """``v`` scaled to unit norm along its last axis."""
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def clustered_weights(k: int, d: int, *, r: float, rng: np.random.Generator, gap: float = 1.0,
                      center_norm: float = 1.0) -> np.ndarray:
    """Weights ``W (2k, d)`` with cluster radius ``r`` and ``‖w̄ − ū‖ = gap`` (Theorem 5.1).

    ``w̄, ū = m ± (gap/2)·ê`` with ``‖m‖ = center_norm``; each type's deviations are drawn,
    centred (they sum to 0, so the means stay put) and scaled so the largest is ``r``.
    A large ``center_norm/gap`` puts the net where float64 rounding matters: ``r`` and the
    gap are realised up to the rounding of the means, ~1e-16·(center_norm + gap).  ``k = 1``
    forces ``r = 0``.
    """
    k, d = check_int("k", k, ge=1), check_int("d", d, ge=1)
    r = check_real("r", r, ge=0.0)
    gap = check_real("gap", gap, ge=0.0)
    center_norm = check_real("center_norm", center_norm, ge=0.0)
    rng = check_rng(rng)
    if k == 1 and r > 0:
        raise ValueError(f"`r` must be 0 when k = 1 (one neuron per type), got {r!r}")
    m = center_norm * unit_rows(rng.standard_normal(d))
    e = unit_rows(rng.standard_normal(d))
    dev = rng.standard_normal((2, k, d))
    dev -= dev.mean(axis=1, keepdims=True)
    big = np.linalg.norm(dev, axis=-1).max()
    dev *= r / big if big > 0 else 0.0
    means = np.stack([m + 0.5 * gap * e, m - 0.5 * gap * e])
    return (means[:, None, :] + dev).reshape(2 * k, d)


def band_points(W, n: int, *, c: float = 2.0, rng: np.random.Generator,
                radius=(0.1, 10.0)) -> np.ndarray:
    """``n`` points with ``|(w̄ − ū)·x| = c·r‖x‖`` exactly in real arithmetic (up to rounding).

    ``c = 2`` is Theorem 5.1's band edge; ``c = 2(1 ± δ)`` just inside / outside the linear
    regime.  Norms are log-uniform in ``radius``, both sides of the hyperplane.  Raises
    ``ValueError`` when ``c·r > ‖w̄ − ū‖`` (no such direction exists).
    """
    W = check_array("W", W, min_ndim=2)
    if W.ndim != 2:
        raise ValueError(f"`W` must be 2-D (2k, d), got shape {W.shape}")
    W = check_W(W, k=max(1, W.shape[-2] // 2))
    n = check_int("n", n, ge=1)
    c = check_real("c", c, ge=0.0)
    rng = check_rng(rng)
    lo, hi = (check_real("radius", x, gt=0.0) for x in radius)
    w_bar, u_bar = neuron_means(W)
    delta = w_bar - u_bar
    gap = float(np.linalg.norm(delta))
    cos = c * float(cluster_radius(W)) / gap if gap > 0 else np.inf
    if not cos <= 1.0:
        raise ValueError(f"`c` times the cluster radius of `W` exceeds ‖w̄ − ū‖ = {gap:g} "
                         f"(c·r = {c * cluster_radius(W):g}): no point has |(w̄ − ū)·x| = c·r‖x‖")
    if W.shape[-1] == 1 and cos < 1.0:
        raise ValueError(f"in d = 1 every point has |(w̄ − ū)·x| = ‖w̄ − ū‖‖x‖, so c·r must "
                         f"equal ‖w̄ − ū‖ = {gap:g}, got c·r = {c * cluster_radius(W):g}")
    u = delta / gap
    # an orthonormal basis of u's complement (complete QR), so the perpendicular part never
    # degenerates, whatever the draw
    Q = np.linalg.qr(np.column_stack([u, np.eye(W.shape[-1])]), mode="complete")[0]
    E = unit_rows(rng.standard_normal((n, W.shape[-1] - 1))) @ Q[:, 1:].T if W.shape[-1] > 1 \
        else np.zeros((n, 1))
    side = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    length = np.exp(rng.uniform(np.log(lo), np.log(hi), n))
    return length[:, None] * (side[:, None] * cos * u + np.sqrt(1.0 - cos**2) * E)


def _direction(X, side):
    """A unit ``z`` with ``side_i·z·x_i > 0`` for all i (an LP), or ``ValueError``."""
    A = -(side[:, None] * X)
    res = linprog(np.zeros(X.shape[1]), A_ub=A, b_ub=-np.ones(len(side)),
                  bounds=(None, None), method="highs")
    if res.status != 0:
        raise ValueError("the chosen sides are not realised by any halfspace through the origin")
    return unit_rows(res.x)


def nar_weights(X, side_w, side_u, *, k: int, rng: np.random.Generator,
                spread: float = 0.5, scale=(0.1, 10.0)) -> np.ndarray:
    """Weights ``W (2k, d)`` inside the NAR with the chosen sides (docs/math.md §6).

    ``side_w[i] = +1`` asks every w neuron to have ``ŵ·x_i > 0`` (``c^w_i = 1``), ``-1`` to
    have ``ŵ·x_i < 0`` (``c^w_i = α``); likewise ``side_u``.  Each neuron is a unit direction
    realising the sides (an LP) plus a perturbation of norm ≤ ``spread·β_z/R_x`` (so no
    sign flips), times a log-uniform positive scale.  ``ValueError`` if a side vector is
    not realisable by a halfspace through the origin.
    """
    X = check_X(X)
    k = check_int("k", k, ge=1)
    spread = check_real("spread", spread, ge=0.0, lt=1.0)
    rng = check_rng(rng)
    lo, hi = (check_real("scale", s, gt=0.0) for s in scale)
    R_x = float(np.linalg.norm(X, axis=1).max())
    rows = []
    for name, side in (("side_w", side_w), ("side_u", side_u)):
        side = check_array(name, side)
        if side.shape != (X.shape[0],) or not np.all(np.abs(side) == 1.0):
            raise ValueError(f"`{name}` must hold n = {X.shape[0]} entries in {{-1, +1}}, "
                             f"got shape {side.shape}")
        z = _direction(X, side)
        beta_z = float(np.min(side * (X @ z)))
        xi = unit_rows(rng.standard_normal((k, X.shape[1])))
        xi *= (spread * beta_z / R_x * rng.random(k))[:, None] if R_x > 0 else 0.0
        size = np.exp(rng.uniform(np.log(lo), np.log(hi), k))
        rows.append(size[:, None] * (z + xi))
    return np.concatenate(rows)


def par_weights(data: Dataset, *, k: int, rng: np.random.Generator, spread: float = 0.5,
                scale=(0.1, 10.0)) -> np.ndarray:
    """Weights in PAR (docs/math.md §7): every w neuron classifies like ``y``, every u like ``−y``."""
    if not isinstance(data, Dataset):
        raise TypeError(f"`data` must be a linteach.Dataset, got {type(data).__name__}")
    return nar_weights(data.X, data.y, -data.y, k=k, rng=rng, spread=spread, scale=scale)
