"""Fig. 4: two Gaussians symmetric about the origin: learned network vs Eq. 8's prediction.

Positives ~ ``N(μ, s²I)`` and negatives ~ ``N(−μ, s²I)``, drawn independently (so the set
is only *approximately* symmetric; ``lt.make_symmetric_gaussians`` pairs points exactly,
and then Eq. 8 reduces to the linear SVM with ``u = −w``, which would not tell the two
predictions apart).  Training: SGD from a small init, then loss-normalized gradient flow
with a shrinking turn per step (:func:`linteach.figures._plot.anneal_flow`) to reach the
limit direction that Theorem 6.2 speaks of.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from . import _plot

ID = "fig4"
TITLE = "Fig. 4: learned boundary and weights vs the Eq. 8 (PAR) prediction"
CLAIM = ("When learning enters the PAR, gradient flow converges to a perfectly clustered "
         "network whose (w, u) direction solves Eq. 8; on two Gaussians the predicted "
         "boundary and weights agree with the learned ones.")
FIGSIZE = (12.0, 5.6)
_BASE = dict(k=50, alpha=0.3, v=1.0, eta=0.1, scale=1e-6, mean=[1.0, 0.4], std=0.35,
             margin=0.1, flow_dts=[0.01, 0.003, 0.001, 0.0003], lim=1.1)
SIZES = {"small": dict(_BASE, n=12, k=3, n_epochs=3, flow_steps=20),
         "full": dict(_BASE, n=100, n_epochs=100, flow_steps=500)}


def make_data(n, s, rng):
    """``n/2`` independent draws per class, truncated to ``±μ̂·x ≥ margin``, max norm 1."""
    mu = np.asarray(s["mean"], dtype=float)
    mu_hat = mu / np.linalg.norm(mu)
    parts = []
    for sign in (1.0, -1.0):
        pts = np.empty((0, 2))
        while len(pts) < n // 2:  # acceptance ≥ 1/2: the margin is below the mean's
            Z = sign * mu + s["std"] * rng.standard_normal((n, 2))
            pts = np.vstack([pts, Z[sign * (Z @ mu_hat) >= s["margin"]]])
        parts.append(pts[: n // 2])
    X = np.vstack(parts)
    X /= np.linalg.norm(X, axis=1).max()
    return lt.Dataset(X, np.repeat([1.0, -1.0], n // 2), None, "two Gaussians")


def _unit(v):
    return v / np.linalg.norm(v)


def compute(*, seed, settings, progress):
    s = settings
    net, data, sgd = _plot.sgd_small_init(seed, s, make_data, progress)
    progress(f"normalized gradient flow, dt = {s['flow_dts']} x {s['flow_steps']} steps")
    flow = _plot.anneal_flow(net, sgd.W, data, dts=s["flow_dts"], n_steps=s["flow_steps"])
    W = flow.direction
    w8, u8 = lt.convex.solve_eq8(data.X, data.y, s["alpha"])
    w_svm = lt.max_margin_teacher(data.X, data.y)
    a4 = lt.convex.assumption4_lp(data.X, data.y)
    w_bar, u_bar = lt.neuron_means(W)
    theta, theta8 = _unit(np.r_[w_bar, u_bar]), _unit(np.r_[w8, u8])
    angle = lambda p, q: np.degrees(np.arccos(np.clip(_unit(p) @ _unit(q), -1, 1)))
    summary = {"sgd_final_loss": sgd.trace["loss"][-1],
               "flow_normalized_margin": flow.trace["normalized_margin"][-1],
               "relative_r": lt.relative_cluster_radius(W), "in_par": lt.in_par(W, data.X,
                                                                                data.y),
               "cos_learned_vs_eq8": theta @ theta8,
               "boundary_angle_learned_vs_eq8_deg": angle(w_bar - u_bar, w8 - u8),
               "boundary_angle_eq8_vs_svm_deg": angle(w8 - u8, w_svm),
               "boundary_angle_learned_vs_svm_deg": angle(w_bar - u_bar, w_svm),
               "assumption4_holds": a4.holds}
    return summary, {"X": data.X, "y": data.y, "W_direction": W, "w_eq8": w8, "u_eq8": u8,
                     "w_svm": w_svm}


def _line(ax, normal, lim, style, color, label, lw=1.6):
    perp = _unit(np.array([-normal[1], normal[0]])) * 2 * lim
    ax.plot([-perp[0], perp[0]], [-perp[1], perp[1]], style, color=color, lw=lw, label=label)


def draw(payload, fig):
    s, d, sm = payload["settings"], payload["data"], payload["summary"]
    X, y, W = _plot.arr(d["X"]), _plot.arr(d["y"]), _plot.arr(d["W_direction"])
    w8, u8, w_svm = _plot.arr(d["w_eq8"]), _plot.arr(d["u_eq8"]), _plot.arr(d["w_svm"])
    w_bar, u_bar = lt.neuron_means(W)
    ax1, ax2 = fig.subplots(1, 2)
    lim = s["lim"]
    _plot.scatter_data(ax1, X, y)
    # the learned line is wide and pale underneath, so Eq. 8's dashes stay visible on top
    _line(ax1, w_bar - u_bar, lim, "-", "0.55", "learned: N = 0 (wide, grey)", lw=5.0)
    _line(ax1, w8 - u8, lim, "--", "tab:green", "Eq. 8: (w − u)·x = 0")
    _line(ax1, w_svm, lim, ":", "tab:purple", "linear SVM (no bias)", lw=2.0)
    _plot.square_axes(ax1, lim)
    ax1.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3)
    ax1.set_title(f"(a) boundary: learned vs Eq. 8 {sm['boundary_angle_learned_vs_eq8_deg']:.2g}°,"
                  f" Eq. 8 vs SVM {sm['boundary_angle_eq8_vs_svm_deg']:.2g}°", fontsize=10)
    # a perfectly clustered W has ‖W‖² = k(‖w‖² + ‖u‖²): rescale neurons to θ = (w, u)/‖θ‖
    k = W.shape[0] // 2
    _plot.neuron_arrows(ax2, W * np.sqrt(k), lw=0.6, alpha=0.5)
    theta8 = np.linalg.norm(np.r_[w8, u8])
    for vec in (w8, u8):
        ax2.plot(*(vec / theta8), "o", ms=13, mfc="none", mec="tab:green", mew=2)
    ax2.plot([], [], "o", ms=8, mfc="none", mec="tab:green", mew=2,
             label="Eq. 8 prediction (w, u)/‖(w, u)‖")
    _plot.square_axes(ax2, 1.0, "weight on x₁ (neuron · √k / ‖W‖)", "weight on x₂")
    ax2.legend(fontsize=8, loc="lower left")
    ax2.set_title(f"(b) neurons vs Eq. 8: cos(θ, θ₈) = 1 − "
                  f"{1 - sm['cos_learned_vs_eq8']:.1e}", fontsize=10)
    fig.suptitle(f"Fig. 4: {len(y)} points, k = {s['k']}, α = {s['alpha']}, init {s['scale']:g},"
                 f" SGD η = {s['eta']} × {s['n_epochs']} epochs, then normalized flow; "
                 f"in PAR: {sm['in_par']}, Assumption 4 LP: {sm['assumption4_holds']}",
                 fontsize=10)
