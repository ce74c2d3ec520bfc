"""Helpers shipped for tests and ``proofs_check``: gradient checks and kink control.

The network is piecewise linear, so finite differences are only valid where no
pre-activation ``w_j·x_i`` changes sign within the probe: :func:`kink_distance` measures
that and :func:`gradient_check` refuses to run too close to a kink.
"""
from __future__ import annotations

import numpy as np

from ._check import check_array, check_int, check_real, check_rng, check_X, float_guard
from .network import Net

__all__ = ["gradient_check", "kink_distance"]

#: relative agreement the hand-written gradient must reach (SPEC §3)
GRAD_RTOL = 1e-6


def kink_distance(W, X) -> float:
    """``min_{j,i} |w_j·x_i| / (‖w_j‖ ‖x_i‖)``: how far every neuron is from its kink.

    A cosine, so computed on unit rows (any scale of ``W`` and ``X``); pairs with a zero
    row are ignored (``inf`` if every pair has one).  All runs of a batched ``W`` together.
    """
    W, X = check_array("W", W, min_ndim=2), check_X(X)
    if W.shape[-1] != X.shape[-1]:
        raise ValueError(f"`W` has input dimension {W.shape[-1]} but `X` has d = {X.shape[-1]}")
    Wh, Xh = _unit_rows(W), _unit_rows(X)
    Z = np.abs(Xh @ np.swapaxes(Wh, -1, -2))
    live = (np.abs(Xh).max(axis=-1)[..., :, None] > 0) & (np.abs(Wh).max(axis=-1)[..., None, :] > 0)
    return float(np.where(live, Z, np.inf).min())


def _unit_rows(V):
    """Rows over their norms, each first scaled by its largest entry (no under/overflow)."""
    top = np.abs(V).max(axis=-1, keepdims=True)
    V = np.divide(V, top, out=np.zeros_like(V), where=top > 0)
    norms = np.linalg.norm(V, axis=-1, keepdims=True)
    return np.divide(V, norms, out=np.zeros_like(V), where=norms > 0)


def gradient_check(net: Net, W, X, y, *, rng: np.random.Generator, n_directions: int = 5,
                   h: float = 1e-6) -> float:
    """Worst relative error of ``loss_and_grad`` against central differences.

    Along ``n_directions`` random unit directions ``D`` (autograd's dot-product test):
    ``(L(W + hD) − L(W − hD)) / 2h`` against ``⟨∇L, D⟩``, relative to ``‖∇L‖`` (so a
    direction nearly orthogonal to the gradient does not inflate the error).

    Raises ``ValueError`` if a probe of size ``h`` could cross a kink.
    """
    if not isinstance(net, Net):
        raise TypeError(f"`net` must be a linteach.Net, got {type(net).__name__}")
    rng = check_rng(rng)
    h = check_real("h", h, gt=0.0)
    n_directions = check_int("n_directions", n_directions, ge=1)
    net.loss(W, X, y)  # validates W, X, y (shapes, finiteness) with the net's own messages
    W, X = check_array("W", W, min_ndim=2), check_X(X)
    rel_kink = kink_distance(W, X)
    w_min = np.hypot.reduce(W, axis=-1).min()
    if not (w_min > 0 and rel_kink * w_min > 10 * h):
        raise ValueError(f"`W` is within {rel_kink:.2e} (relative) of a kink: a probe of size "
                         f"h = {h:g} could cross it; draw W away from kinks")
    with float_guard("the gradient check overflows float64 at `W`, `X` (rescale them)"):
        return _worst_error(net, W, X, y, rng, n_directions, h)


def _worst_error(net, W, X, y, rng, n_directions, h):
    _, G = net.loss_and_grad(W, X, y)
    gnorm = max(np.linalg.norm(G), np.finfo(float).tiny)
    worst = 0.0
    for _ in range(n_directions):
        D = rng.standard_normal(W.shape)
        D /= np.linalg.norm(D)
        numeric = (net.loss(W + h * D, X, y) - net.loss(W - h * D, X, y)) / (2 * h)
        analytic = float(np.sum(G * D))
        worst = max(worst, abs(float(np.sum(numeric)) - analytic) / gnorm)
    return worst
