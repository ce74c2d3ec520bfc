"""Fig. 1: 2-D separable data; small init gives a near-linear boundary, large init does not.

The discs of docs/math.md §8 (radius 0.2 at ±(0.5, 0)), inputs lifted with a bias coordinate
(App. K): without a bias a 2-D network is positively homogeneous in ``x`` too, so every
boundary is a union of rays from the origin and "non-linear" could only mean a kink there.
One base draw of ``W0`` is scaled to each init scale, so the runs differ in scale only.
"""
from __future__ import annotations

import numpy as np
from matplotlib.patches import Patch

import linteach as lt

from . import _plot

ID = "fig1"
TITLE = "Fig. 1: small vs large initialization on 2-D separable data"
CLAIM = ("With a small initialization SGD learns a (near-)linear decision boundary and the "
         "neurons form two clusters (w and u), although highly non-linear zero-loss "
         "solutions exist; a large initialization learns a non-linear boundary.")
FIGSIZE = (10.0, 9.0)
_BASE = dict(k=50, alpha=0.3, v=1.0, eta=0.1, scales=[1e-6, 3.0], radius=0.2,
             center=[0.5, 0.0], bias=True, lim=1.2)
SIZES = {"small": dict(_BASE, n=10, k=4, n_epochs=3, grid=41),
         "full": dict(_BASE, n=40, n_epochs=300, grid=241)}


def _lift(P, bias):
    return lt.augment_bias(P) if bias else P


def _grid_values(net, W, s):
    """Network output, Thm 5.1 regime mask and linear prediction on the plotting grid."""
    xx, yy, P = _plot.grid(s["lim"], s["grid"])
    G = _lift(P, s["bias"])
    w_bar, u_bar = lt.neuron_means(W)
    return (xx, yy, net.forward(W, G).reshape(xx.shape),
            lt.linear_regime(W, G).reshape(xx.shape), (G @ (w_bar - u_bar)).reshape(xx.shape))


def compute(*, seed, settings, progress):
    s = settings
    data_rng, init_rng, sgd_rng = np.random.default_rng(seed).spawn(3)
    base = lt.make_blobs_2d(s["n"], rng=data_rng, radius=s["radius"], center=s["center"])
    data = lt.augment_bias(base) if s["bias"] else base
    net = lt.Net(k=s["k"], alpha=s["alpha"], v=s["v"])
    scales = np.asarray(s["scales"])
    W0 = net.init(data.d, scale=1.0, rng=init_rng, batch=len(scales)) * scales[:, None, None]
    progress(f"SGD, {len(scales)} init scales, {s['n_epochs']} epochs on {data.n} points")
    run = lt.sgd(net, W0, data, eta=s["eta"], n_epochs=s["n_epochs"], rng=sgd_rng)
    runs = []
    for i, scale in enumerate(scales):
        W = run.W[i]
        _, _, N, lin, pred = _grid_values(net, W, s)
        runs.append({"scale": scale, "W": W, "loss": run.trace["loss"][-1, i],
                     "train_accuracy": _plot.accuracy(net, W, data.X, data.y),
                     "r": lt.cluster_radius(W), "relative_r": lt.relative_cluster_radius(W),
                     "max_angle_deg": np.degrees(lt.max_within_type_angle(W)),
                     "grid_fraction_outside_regime": 1.0 - lin.mean(),
                     "grid_sign_disagreement": _plot.sign_disagreement(N, pred)})
    summary = {f"init_{r['scale']:g}": {key: r[key] for key in r if key != "W"} for r in runs}
    return summary, {"X": base.X, "y": base.y, "n_points": data.n, "runs": runs}


def draw(payload, fig):
    s, d = payload["settings"], payload["data"]
    net = lt.Net(k=s["k"], alpha=s["alpha"], v=s["v"])
    X, y = _plot.arr(d["X"]), _plot.arr(d["y"])
    axes = fig.subplots(2, len(d["runs"]), squeeze=False)
    for col, run in enumerate(d["runs"]):
        W = _plot.arr(run["W"])
        xx, yy, N, lin, _ = _grid_values(net, W, s)
        ax = axes[0, col]
        ax.contourf(xx, yy, np.sign(N), levels=[-2, 0, 2], colors=["#f6d5d5", "#d5e1f6"])
        ax.contourf(xx, yy, (~lin).astype(float), levels=[0.5, 1.5], colors="none",
                    hatches=["..."])
        ax.contour(xx, yy, N, levels=[0], colors="black", linewidths=1.5)
        _plot.scatter_data(ax, X, y)
        ax.plot([], [], color="black", label="boundary N = 0")
        handles, labels = ax.get_legend_handles_labels()
        handles += [Patch(facecolor="#d5e1f6", label="N > 0"),
                    Patch(facecolor="#f6d5d5", label="N < 0"),
                    Patch(facecolor="white", edgecolor="black", hatch="...",
                          label="outside Thm 5.1's linear regime")]
        ax.set_title(f"{_plot.scale_label(run['scale'])}: r/‖w̄−ū‖ = {run['relative_r']:.3g}, "
                     f"loss {run['loss']:.2g}", fontsize=10)
        _plot.square_axes(ax, s["lim"])
        ax.legend(handles=handles, loc="lower left", fontsize=7, framealpha=0.95, ncol=2)
        ax = axes[1, col]
        planar = W[:, :2]
        _plot.neuron_arrows(ax, planar / np.linalg.norm(planar, axis=1).max())
        _plot.square_axes(ax, 1.1, "weight on x₁ (scaled by the largest neuron)",
                          "weight on x₂")
        ax.set_title(f"neurons, max angle within a type {run['max_angle_deg']:.3g}°",
                     fontsize=10)
        ax.legend(loc="lower left", fontsize=8)
    fig.suptitle(f"Fig. 1: {d['n_points']} points, k = {s['k']}, α = {s['alpha']}, "
                 f"η = {s['eta']}, {s['n_epochs']} SGD epochs, bias coordinate (App. K)")
