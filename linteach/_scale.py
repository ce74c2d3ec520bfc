"""Exact rescaling and argument checks shared by the geometric measures.

``linteach.metrics`` and ``linteach.patterns`` compute angles, ratios and signs on copies of
``W`` and ``X`` rescaled by powers of two (exact: no rounding), so ``W`` and ``c·W`` give the
same answer over the whole float range; the helpers here do that rescaling and check the
arguments those measures share.
"""
from __future__ import annotations

import numpy as np

from ._check import check_array, check_X, float_guard
from .network import Net

__all__ = ["check_W", "check_net", "check_WX", "pow2", "direction", "unscale", "norm_nonzero",
           "norms", "unit_rows", "split_types"]


def check_W(W) -> np.ndarray:
    """``W`` as a float64 array of shape ``(..., 2k, d)``, or a clear error."""
    W = check_array("W", W, min_ndim=2)
    if W.shape[-2] % 2:
        raise ValueError(f"`W` must have shape (..., 2k, d) with k >= 1, got {W.shape}")
    return W


def check_net(net) -> Net:
    """``net`` if it is a :class:`linteach.Net`, else a clear error."""
    if not isinstance(net, Net):
        raise TypeError(f"`net` must be a linteach.Net, got {type(net).__name__}")
    return net


def pow2(A, axes):
    """``(A·2^-e, e)``: ``A`` scaled by a power of two so its largest entry over ``axes`` is in
    [0.5, 1).  Exact (no rounding, bar entries 2^1074 below the largest), so a quantity of
    angles or ratios computed on it equals its value on ``A`` bit for bit, at any scale."""
    top = np.abs(A).max(axis=axes, keepdims=True)
    e = np.frexp(top)[1]
    return np.ldexp(A, -e), e


def direction(W):
    """``(W·2^-e, e)`` per run (``e`` of shape ``(...)``): scale-free copy of ``W``."""
    Wd, e = pow2(W, (-2, -1))
    return Wd, e[..., 0, 0]


def unscale(value, e, what):
    """``value·2^e``, or a clear error when that leaves float64."""
    with float_guard(f"{what} of `W` overflows float64"):
        return np.ldexp(value, e)


def norm_nonzero(W):
    """``‖W‖_F`` per run (of a scaled ``W``); margins divided by it are undefined at ``W = 0``."""
    norm = np.linalg.norm(W, axis=(-2, -1))
    if np.any(norm == 0):
        raise ValueError("`W` must be nonzero: normalised margins of W = 0 are undefined")
    return norm


def check_WX(W, X):
    """``(W, X)`` checked, and sharing the input dimension ``d``."""
    W, X = check_W(W), check_X(X)
    if W.shape[-1] != X.shape[-1]:
        raise ValueError(f"`W` has input dimension {W.shape[-1]} but `X` has d = {X.shape[-1]}")
    return W, X


def norms(A, axis=-1):
    """Euclidean norms along ``axis`` without squaring entries (no overflow past 1e154)."""
    return np.hypot.reduce(A, axis=axis)


def split_types(W):
    """The w neurons and the u neurons, each ``(..., k, d)``."""
    W = check_W(W)
    k = W.shape[-2] // 2
    return W[..., :k, :], W[..., k:, :]


def unit_rows(V):
    """Rows of ``V`` divided by their norms (0 rows stay 0), each row first brought to
    [0.5, 1) by its own power of two, so no row underflows or overflows."""
    Vd = pow2(V, -1)[0]
    norms = np.linalg.norm(Vd, axis=-1, keepdims=True)
    return np.divide(Vd, norms, out=np.zeros_like(Vd), where=norms > 0)
