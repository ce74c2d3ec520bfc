"""Input validation and exact power-of-two normalisation for :mod:`linteach.certify`."""
from __future__ import annotations

import numpy as np

from .._check import check_alpha, check_array, check_real

__all__ = ["check_net", "swap_types"]


def check_net(W, alpha, c):
    """``(2**e · W, α, c, e)``: W validated, scaled exactly so its largest |entry| is in [½, 1).

    Signs, r and the band are invariant under ``W → s·W`` (s > 0), and a power of two is
    exact, so ``W`` and ``s·W`` get the same answer wherever both are representable.  A
    ``W`` whose entries span more than float64's normal range is a clear error.
    """
    W = check_array("W", W, min_ndim=2)
    if W.ndim != 2 or W.shape[0] % 2:
        raise ValueError(f"`W` must have shape (2k, d) with k >= 1, got {W.shape}")
    alpha = check_alpha(alpha)
    c = check_real("c", c, ge=0.0)
    top = float(np.abs(W).max())
    if top == 0.0:
        return W.copy(), alpha, c, 0
    exp = -int(np.frexp(top)[1])  # 2**exp · W has max |entry| in [0.5, 1)
    scaled = np.ldexp(W, exp)
    tiny = (W != 0) & (np.abs(scaled) < np.finfo(np.float64).tiny)
    if np.any(tiny):
        raise ValueError("`W` spans more than float64's range: after scaling its largest entry "
                         f"to 1, {int(tiny.sum())} nonzero entries are subnormal (smallest "
                         f"|entry| {np.abs(W[W != 0]).min():.3g}, largest {top:.3g})")
    return scaled, alpha, c, exp


def swap_types(W):
    """``W`` with its w and u rows exchanged: side −1 of the band is side +1 of this net."""
    k = W.shape[0] // 2
    return np.concatenate([W[k:], W[:k]])
