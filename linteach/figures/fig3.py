"""Fig. 3: the decision boundary is linear although the output function is not.

Two Gaussian clusters in 2-D that are *not* antipodal (positives around angle ``theta_pos``,
negatives around ``theta_neg``), so the trained ``ū`` is not ``−w̄``.  For a clustered net
``N(x) ≈ vk(σ(w̄·x) − σ(ū·x))``: piecewise linear with kinks on the lines ``w̄·x = 0`` and
``ū·x = 0``, but (Thm 5.1 with r ≈ 0) its zero set is the line ``(w̄ − ū)·x = 0``.  If
``ū = −w̄`` exactly, ``N = vk(1+α) w̄·x`` would be linear, hence the asymmetric data.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from . import _plot

ID = "fig3"
TITLE = "Fig. 3: linear decision boundary, non-linear output function"
CLAIM = ("Theorem 5.1 makes the decision boundary of a clustered network linear; it does "
         "not make the network's output a linear function of the input.")
FIGSIZE = (12.0, 5.2)
_BASE = dict(k=50, alpha=0.3, v=1.0, eta=0.1, scale=1e-6, theta_pos=20.0, theta_neg=275.0,
             radius=0.7, std=0.1, lim=1.0)
SIZES = {"small": dict(_BASE, n=8, k=3, n_epochs=3, grid=41, n_angles=73),
         "full": dict(_BASE, n=40, n_epochs=300, grid=241, n_angles=721)}


def _unit(deg):
    t = np.radians(deg)
    return np.array([np.cos(t), np.sin(t)])


def make_data(n, s, rng):
    """``n/2`` points around each of the two cluster centres, separable through the origin."""
    half = n // 2
    centres = [s["radius"] * _unit(s["theta_pos"]), s["radius"] * _unit(s["theta_neg"])]
    X = np.vstack([c + s["std"] * rng.standard_normal((half, 2)) for c in centres])
    y = np.repeat([1.0, -1.0], half)
    lt.max_margin_teacher(X, y)  # raises NotSeparableError if the draw is not separable
    return lt.Dataset(X, y, None, "asymmetric clusters")


def compute(*, seed, settings, progress):
    s = settings
    net, data, run = _plot.sgd_small_init(seed, s, make_data, progress)
    W = run.W
    theta = np.linspace(0.0, 360.0, s["n_angles"])
    circle = np.column_stack([np.cos(np.radians(theta)), np.sin(np.radians(theta))])
    w_bar, u_bar = lt.neuron_means(W)
    out, lin = net.forward(W, circle), circle @ (w_bar - u_bar)
    # best linear fit of N on the circle: how far from linear the output is
    fit = (out @ lin) / (lin @ lin)
    summary = {"loss": run.trace["loss"][-1], "relative_r": lt.relative_cluster_radius(W),
               "angle_w_bar_u_bar_deg": np.degrees(np.arccos(
                   w_bar @ u_bar / np.linalg.norm(w_bar) / np.linalg.norm(u_bar))),
               "circle_sign_disagreement": _plot.sign_disagreement(out, lin),
               "circle_relative_misfit_of_best_linear": np.linalg.norm(out - fit * lin)
               / np.linalg.norm(out)}
    return summary, {"X": data.X, "y": data.y, "W": W, "theta_deg": theta,
                     "output_on_circle": out, "linear_on_circle": lin, "linear_fit_coef": fit}


def draw(payload, fig):
    s, d = payload["settings"], payload["data"]
    net = lt.Net(k=s["k"], alpha=s["alpha"], v=s["v"])
    W = _plot.arr(d["W"])
    X, y = _plot.arr(d["X"]), _plot.arr(d["y"])
    w_bar, u_bar = lt.neuron_means(W)
    xx, yy, P = _plot.grid(s["lim"], s["grid"])
    N = net.forward(W, P).reshape(xx.shape)
    ax1, ax2 = fig.subplots(1, 2)
    bound = np.abs(N).max()
    cs = ax1.contourf(xx, yy, N, levels=np.linspace(-bound, bound, 25), cmap="RdBu")
    ax1.contour(xx, yy, N, levels=np.linspace(-bound, bound, 25), colors="gray",
                linewidths=0.4)
    ax1.contour(xx, yy, N, levels=[0], colors="black", linewidths=2.0)
    t = np.linspace(-2, 2, 2)
    for vec, style, name in ((w_bar, "--", "kink w̄·x = 0"), (u_bar, ":", "kink ū·x = 0")):
        perp = np.array([-vec[1], vec[0]]) / np.linalg.norm(vec)
        ax1.plot(t * perp[0], t * perp[1], style, color="dimgray", lw=1.2, label=name)
    ax1.plot([], [], color="black", lw=2, label="boundary N = 0")
    _plot.scatter_data(ax1, X, y, s=16)
    _plot.square_axes(ax1, s["lim"])
    ax1.legend(fontsize=7, loc="upper left", framealpha=0.9)
    ax1.set_title("output N(x): bent level sets, straight zero set", fontsize=10)
    fig.colorbar(cs, ax=ax1, label="N(x)", shrink=0.85, format="%.0f")
    theta = _plot.arr(d["theta_deg"])
    ax2.plot(theta, _plot.arr(d["output_on_circle"]), color="black", lw=1.8,
             label="N(x) on the unit circle")
    ax2.plot(theta, d["linear_fit_coef"] * _plot.arr(d["linear_on_circle"]), "--",
             color="tab:green", lw=1.4, label="best multiple of (w̄−ū)·x")
    ax2.axhline(0, color="gray", lw=0.7)
    ax2.set_xlabel("angle of x = (cos θ, sin θ) in degrees")
    ax2.set_ylabel("output")
    ax2.set_xlim(0, 360)
    ax2.set_xticks(np.arange(0, 361, 45))
    ax2.legend(fontsize=8)
    sm = payload["summary"]
    ax2.set_title(f"same zeros, different shape (relative misfit "
                  f"{sm['circle_relative_misfit_of_best_linear']:.2f})", fontsize=10)
    fig.suptitle(f"Fig. 3: k = {s['k']}, α = {s['alpha']}, init {s['scale']:g}, "
                 f"SGD η = {s['eta']}, {s['n_epochs']} epochs; r/‖w̄−ū‖ = "
                 f"{sm['relative_r']:.3g}, angle(w̄, ū) = {sm['angle_w_bar_u_bar_deg']:.0f}°")
