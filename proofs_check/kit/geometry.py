"""Small geometric constructions shared by claim checks (clustered nets, near-plane points,
unit rows)."""
from __future__ import annotations

import numpy as np

__all__ = ["OFFSETS", "clustered_copies", "near_plane_points", "unit_rows"]

#: relative distances of the near-plane points (0: on the plane up to rounding)
OFFSETS = (1e-3, 1e-8, 1e-12, 1e-15, 0.0)


def clustered_copies(w, u, k: int) -> np.ndarray:
    """``W (2k, d)``: k copies of ``w`` then k copies of ``u`` (perfectly clustered, r = 0)."""
    return np.concatenate([np.repeat(np.atleast_2d(w), k, 0), np.repeat(np.atleast_2d(u), k, 0)])


def near_plane_points(normal, n_per_offset: int, *, rng) -> np.ndarray:
    """Points at each relative distance in :data:`OFFSETS` from the plane ``normal·x = 0``."""
    d = len(normal)
    nh = normal / np.linalg.norm(normal)
    out = []
    for t in OFFSETS:
        P = rng.standard_normal((n_per_offset, d))
        P -= (P @ nh)[:, None] * nh
        side = np.where(rng.random(n_per_offset) < 0.5, -1.0, 1.0)
        out.append(P + (side * t * np.linalg.norm(P, axis=1))[:, None] * nh)
    return np.concatenate(out)


def unit_rows(X) -> np.ndarray:
    """Each point scaled to unit norm: Assumption 4 depends only on the rays through the points
    (``z·x`` and ``z·cx`` have one sign for ``c > 0``), and the LPs are well conditioned."""
    return X / np.linalg.norm(X, axis=-1, keepdims=True)
