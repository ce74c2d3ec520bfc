"""Shared machinery of the follow-up-paper checks (``odd-part``, ``lyu2021``, ``kou2023``,
``frei2023``, ``min2024``, ``consistency``; docs/math.md §10 onwards).

* data: :func:`antipodal`, :func:`near_orthogonal`, :func:`mu_separated`, :func:`correlated`,
  with the hypotheses' constants measured on the drawn data: :func:`orthogonality_constant`
  (``min_i ‖x_i‖² / (n max_{k≠i} |⟨x_i, x_k⟩|)``) and :func:`mu_of`
  (``min_{i,j} cos∠(y_i x_i, y_j x_j)``);
* the odd part of the network: :func:`odd_residual` (``N(x) − N(−x)`` against
  ``v k (1+α)(w̄ − ū)·x``, relative to the summed absolute terms);
* the global max margin on antipodal data: :func:`lifted_svm_margin`
  (``v (1+α) √(k/2) / ‖w_SVM‖``, an upper bound on every net's γ̄ there, attained);
* spectra: :func:`stable_rank`, :func:`rank_ratio` (``σ_3/σ_1``), :func:`type_stable_ranks`;
* :func:`margin_ratio` (``max_i q_i / min_i q_i``) and :func:`limit_run` (a batched late-phase
  flow, recorded on a log-spaced schedule).

Everything returned is plain NumPy data (``ctx.map`` workers return it).
"""
from __future__ import annotations

import numpy as np

import linteach as lt

__all__ = ["antipodal", "near_orthogonal", "gaussian_high_dim", "mu_separated", "correlated",
           "orthogonality_constant", "mu_of", "odd_residual", "lifted_svm_margin",
           "stable_rank", "rank_ratio", "type_stable_ranks", "margin_ratio", "limit_run",
           "cosine"]


# -- data ----------------------------------------------------------------------------------
def antipodal(rng, n: int, d: int, *, std: float = 0.3):
    """``(X, y)`` of antipodal Gaussians: ``(x, y) ∈ S ⇒ (−x, −y) ∈ S`` exactly."""
    ds = lt.make_symmetric_gaussians(n, d, rng=rng, std=std)
    return ds.X, ds.y


def near_orthogonal(rng, n: int, d: int, *, noise: float):
    """``n`` orthogonal directions in ``R^d`` (``d ≥ n``) with norms in [1, 2], plus Gaussian
    noise of relative size ``noise``; random labels (both present)."""
    Q = np.linalg.qr(rng.standard_normal((d, n)))[0].T
    X = Q * rng.uniform(1.0, 2.0, (n, 1)) + noise * rng.standard_normal((n, d)) / np.sqrt(d)
    return X, _labels(rng, n)


def gaussian_high_dim(rng, n: int, d: int):
    """``n`` i.i.d. ``N(0, I_d)`` points with random labels: nearly orthogonal when ``d ≫ n²``."""
    return rng.standard_normal((n, d)), _labels(rng, n)


def _labels(rng, n):
    y = rng.choice([-1.0, 1.0], n)
    y[0], y[1] = 1.0, -1.0
    return y


def mu_separated(rng, n: int, d: int, *, angle: float):
    """Points with every ``y_i x_i`` within ``angle`` (radians, < π/4) of one unit direction:
    ``min cos∠(y_i x_i, y_j x_j) ≥ cos(2·angle)``; norms in [0.5, 2], random labels."""
    e = rng.standard_normal(d)
    e /= np.linalg.norm(e)
    Z = rng.standard_normal((n, d))
    Z -= (Z @ e)[:, None] * e
    Z /= np.linalg.norm(Z, axis=1, keepdims=True)
    theta = angle * np.sqrt(rng.uniform(0.0, 1.0, (n, 1)))
    P = np.cos(theta) * e + np.sin(theta) * Z
    y = _labels(rng, n)
    return y[:, None] * P * rng.uniform(0.5, 2.0, (n, 1)), y


def correlated(rng, n: int, d: int):
    """Low-dimensional correlated data: a separable ball set through a random teacher."""
    ds = lt.make_separable(n, d, margin=0.05, rng=rng)
    return ds.X, ds.y


def orthogonality_constant(X) -> float:
    """The largest ``C`` with ``‖x_i‖² ≥ C n max_{k≠i} |⟨x_i, x_k⟩|`` for every i."""
    G = X @ X.T
    off = len(X) * np.abs(G - np.diag(np.diag(G))).max(axis=1)
    ratio = np.divide(np.diag(G), off, out=np.full(len(X), np.inf), where=off > 0)
    return float(ratio.min())


def mu_of(X, y) -> float:
    """``min_{i,j} cos∠(y_i x_i, y_j x_j)`` (> 0: μ-separated data)."""
    Z = y[:, None] * X / np.linalg.norm(X, axis=1, keepdims=True)
    return float((Z @ Z.T).min())


# -- the odd part ------------------------------------------------------------------------------
def odd_residual(net, W, X):
    """``(|N(x) − N(−x) − v k (1+α)(w̄ − ū)·x|, Σ of absolute terms)`` per run and point.

    The scale is ``v Σ_j (|w_j·x| + |u_j·x|)(1+α)``: floating-point rounding of either side
    is a small multiple of the unit roundoff times it.
    """
    w_bar, u_bar = lt.neuron_means(W)
    lin = net.v * net.k * (1.0 + net.alpha) * (X @ (w_bar - u_bar)[..., :, None])[..., 0]
    odd = net.forward(W, X) - net.forward(W, -X)
    scale = net.v * (1.0 + net.alpha) * np.abs(X @ np.swapaxes(W, -1, -2)).sum(axis=-1)
    return np.abs(odd - lin), scale


def lifted_svm_margin(net, w_svm) -> float:
    """``v (1+α) √(k/2) / ‖w_SVM‖``: γ̄ of k copies of ``w_SVM`` and k of ``−w_SVM``.

    On antipodal data it bounds every net's normalised margin (docs/math.md §10): the pair
    ``(x_i, −x_i)`` gives ``q_i + q_i' = v k (1+α) y_i (w̄ − ū)·x_i`` and
    ``‖W‖ ≥ √(k/2) ‖w̄ − ū‖``.
    """
    return float(net.v * (1.0 + net.alpha) * np.sqrt(net.k / 2.0) / np.linalg.norm(w_svm))


# -- spectra and margins ---------------------------------------------------------------------
def _svals(W):
    return np.linalg.svd(np.asarray(W, dtype=np.float64), compute_uv=False)


def stable_rank(W):
    """``‖W‖_F² / ‖W‖_2²`` per run (computed on the singular values: scale-free)."""
    s = _svals(W)
    s = s / s[..., :1]
    return (s * s).sum(axis=-1)


def rank_ratio(W, r: int = 2):
    """``σ_{r+1}/σ_1`` per run (0 when ``W`` has at most ``r`` singular values)."""
    s = _svals(W)
    if s.shape[-1] <= r:
        return np.zeros(s.shape[:-1])
    return s[..., r] / s[..., 0]


def type_stable_ranks(W):
    """``(stable rank of the w block, of the u block)`` per run."""
    k = W.shape[-2] // 2
    return stable_rank(W[..., :k, :]), stable_rank(W[..., k:, :])


def margin_ratio(net, W, X, y):
    """``max_i q_i / min_i q_i`` per run (``inf`` unless every point is classified)."""
    q = net.margins(W, X, y)
    low = q.min(axis=-1)
    return np.where(low > 0, q.max(axis=-1) / np.where(low > 0, low, 1.0), np.inf)


def cosine(A, B) -> float:
    """Cosine of the angle between two arrays (Frobenius)."""
    A, B = np.asarray(A, dtype=np.float64), np.asarray(B, dtype=np.float64)
    return float(np.sum(A * B) / (np.linalg.norm(A) * np.linalg.norm(B)))


def limit_run(net, W0, X, y, *, n_steps: int, dt: float = 0.01, record: int = 40) -> dict:
    """A batched late-phase flow (``gradient_flow(normalized=True)``) from ``W0 (R, 2k, d)``.

    Returns the final ``direction (R, 2k, d)`` and ``log_norm (R,)``, and per record
    (leading axis) ``steps``, ``directions``, ``log_norm`` and ``gamma_tilde``.
    """
    dirs = []
    run = lt.gradient_flow(net, W0, (X, y), dt=dt, n_steps=n_steps, normalized=True,
                           callback=lambda s, W, info: dirs.append(np.array(info["direction"])),
                           record=record)
    tr = run.trace
    return {"direction": run.direction, "log_norm": run.log_norm,
            "steps": np.asarray(tr["step"]), "directions": np.stack(dirs),
            "log_norms": tr["log_norm"], "gamma_tilde": tr["smoothed_margin"]}
