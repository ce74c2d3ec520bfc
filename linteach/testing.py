"""Helpers shipped for tests and ``proofs_check``: gradient checks and kink control.

The network is piecewise linear, so finite differences are only valid where no
pre-activation ``w_j·x_i`` changes sign within the probe: :func:`kink_distance` measures
that and :func:`gradient_check` refuses to run too close to a kink.
"""
from __future__ import annotations

import numpy as np

from ._check import check_real, check_rng
from .network import Net

__all__ = ["gradient_check", "kink_distance"]

#: relative agreement the hand-written gradient must reach (SPEC §3)
GRAD_RTOL = 1e-6


def kink_distance(W, X) -> float:
    """``min_{j,i} |w_j·x_i| / (‖w_j‖ ‖x_i‖)``: how far every neuron is from its kink."""
    W, X = np.asarray(W, dtype=np.float64), np.asarray(X, dtype=np.float64)
    Z = X @ np.swapaxes(W, -1, -2)
    scale = np.linalg.norm(X, axis=-1)[..., :, None] * np.linalg.norm(W, axis=-1)[..., None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        rel = np.where(scale > 0, np.abs(Z) / scale, np.inf)
    return float(rel.min())


def gradient_check(net: Net, W, X, y, *, rng: np.random.Generator, n_directions: int = 5,
                   h: float = 1e-6) -> float:
    """Worst relative error of ``loss_and_grad`` against central differences.

    Along ``n_directions`` random unit directions ``D`` (autograd's dot-product test):
    ``(L(W + hD) − L(W − hD)) / 2h`` against ``⟨∇L, D⟩``, relative to ``‖∇L‖`` (so a
    direction nearly orthogonal to the gradient does not inflate the error).

    Raises ``ValueError`` if a probe of size ``h`` could cross a kink.
    """
    rng = check_rng(rng)
    h = check_real("h", h, gt=0.0)
    W = np.asarray(W, dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    rel_kink = kink_distance(W, X)
    x_max = np.linalg.norm(X, axis=-1).max()
    w_min = np.linalg.norm(W, axis=-1).min()
    if rel_kink * w_min * x_max <= 10 * h * x_max:
        raise ValueError(f"W is within {rel_kink:.2e} (relative) of a kink: a probe of size "
                         f"h = {h:g} could cross it; draw W away from kinks")
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
