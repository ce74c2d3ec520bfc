"""Engine audits of the network, loss, gradient and metrics at one W (docs/math.md §1–§8)."""
from __future__ import annotations

import math

import numpy as np

import linteach as lt

from . import audit_ref as ref
from .audit_base import FD_RTOL, ROUND, finding

__all__ = ["net_findings", "fd_findings"]


def net_findings(net, W, X, y) -> list:
    a, v = net.alpha, net.v
    terms = (np.abs(X) @ np.abs(W).T).sum(axis=1) * v  # Σ_j Σ_l v|x_l w_jl|: the sum's terms
    out = [finding("forward (Eq. 1)", net.forward(W, X), ref.forward(W, X, a, v),
                   atol=ROUND * terms + 1e-300),
           finding("cluster radius r", lt.cluster_radius(W), ref.cluster_radius(W),
                   rtol=ROUND, atol=ROUND * np.abs(W).max())]
    mask, lhs, rhs = ref.band_mask(W, X)
    # decidable points: farther from the edge than the rounding of both sides (the means
    # round at ~1e-16·max|W|, so r is uncertain by that much however small it is)
    unc = 10 * ROUND * np.abs(X) @ (2 * np.abs(W).max(axis=0)) \
        + 10 * ROUND * 2 * np.abs(W).max() * np.linalg.norm(X, axis=1)
    far = np.abs(lhs - rhs) > unc + 1e-9 * np.maximum(lhs, rhs)
    out.append(finding("band mask |(w̄−ū)·x| ≥ 2r‖x‖", lt.linear_regime(W, X)[far], mask[far]))
    if np.all(np.linalg.norm(W, axis=1) > 1e-6 * np.linalg.norm(W)):
        side_w, side_u, beta = ref.agreement(W, X)
        cos = (W / np.linalg.norm(W, axis=1, keepdims=True)) @ X.T
        clear = np.all(np.abs(cos) > 1e-12 * np.linalg.norm(X, axis=1), axis=0)
        eng = lt.agreement(W[None], X)  # with a run axis: the pattern even outside an NAR
        out += [finding("agreement pattern side_w", eng.side_w[0][clear], side_w[clear]),
                finding("agreement pattern side_u", eng.side_u[0][clear], side_u[clear]),
                # β = min |ŵ·x_i| is a difference of terms |ŵ_l x_il| ≤ |x_il|: its rounding is
                # absolute, ROUND·Σ_l |x_il|, however small β itself is (a thin NAR)
                finding("NAR margin β", eng.beta[0], beta, rtol=ROUND,
                        atol=ROUND * np.abs(X).sum(axis=1).max())]
    if y is None:
        return out
    pw, pu, all_in, n_diff = ref.par(W, X, y)
    out += [finding("PAR fractions (w, u)", lt.par_fractions(W, X, y), [pw, pu], rtol=1e-15),
            finding("in PAR", lt.in_par(W, X, y), all_in),
            finding("max n_diff (w, u)", lt.max_n_diff(W, X), n_diff)]
    q = y * ref.forward(W, X, a, v)
    L, G = net.loss_and_grad(W, X, y)
    gscale = ROUND * v * np.abs(X).max()  # n terms of size ≤ v|x|/n each
    G_ref = ref.grad_mean_loss(W, X, y, a, v)
    # the readable Eq. 3 backward too: the trainers step with the fused kernel, and only the
    # negative controls call Net.backward, where a wrong gradient would still be "caught"
    coef = np.array([-yi * ref.g_loss(qi) for qi, yi in zip(q, y)]) / len(y)
    out += [finding("mean loss L (Eq. 2)", L, ref.mean_loss(q), rtol=1e-12),
            finding("∇L, per-example loop of Eq. 3", G, G_ref, atol=gscale + 1e-300),
            finding("Net.backward (Eq. 3) with dL/dN = −y g(q)/n", net.backward(W, X, coef),
                    G_ref, atol=gscale + 1e-300),
            finding("normalized margin γ̄", lt.normalized_margin(net, W, X, y),
                    ref.normalized_margin(W, X, y, a, v), rtol=1e-12)]
    lsum = math.exp(ref.log_sum_loss(q))
    if 0 < lsum < 700:
        out.append(finding("smoothed margin γ̃ (Eq. 5, summed loss)",
                           lt.smoothed_margin(net, W, X, y), ref.smoothed_margin(W, X, y, a, v),
                            rtol=1e-10, atol=1e-12))
    out += fd_findings(net, W, X, y, G)
    return out


def fd_findings(net, W, X, y, G, n_dir: int = 3) -> list:
    """Central differences of the engine's loss along random unit directions, away from kinks."""
    Z = X @ W.T
    kink = float((np.abs(Z) / np.linalg.norm(X, axis=1, keepdims=True)).min())
    if not kink > 0:
        return []
    rng = np.random.default_rng(len(X) * 7919 + W.size)  # fixed by the case's sizes
    # no pre-activation changes sign on [W − hE, W + hE] (‖E‖ = 1), and the margins move by
    # ≪ 1 (large W: the loss's curvature does not shrink with ‖W‖): truncation ~h²
    h = min(0.1 * kink, 1e-4 / (net.v * np.linalg.norm(X, axis=1).max()))
    out = []
    for _ in range(n_dir):
        E = rng.standard_normal(W.shape)
        E /= np.linalg.norm(E)
        fd = (net.loss(W + h * E, X, y) - net.loss(W - h * E, X, y)) / (2 * h)
        exact = float(np.sum(G * E))
        noise = 4 * np.finfo(float).eps * float(net.loss(W, X, y)) / h
        out.append(finding("∇L by central differences", exact, fd, rtol=FD_RTOL,
                           atol=noise + FD_RTOL * np.linalg.norm(G), evidence="probed"))
    return out
