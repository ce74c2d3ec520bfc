"""Fig. 8 (App. I): high-dimensional symmetric Gaussians: % of neurons in PAR over training.

A w neuron is in PAR when ``y_i w·x_i > 0`` for every training point (it classifies like
``w*``), a u neuron when ``y_i u·x_i < 0`` for every i (docs/math.md §8).  Data:
``lt.make_symmetric_gaussians`` (exact antipodal pairs), rescaled to max norm 1.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from . import _plot

ID = "fig8"
TITLE = "Fig. 8: fraction of neurons in the PAR over training (high-dimensional Gaussians)"
CLAIM = ("On two separable high-dimensional Gaussians, training enters the Perfect "
         "Agreement Regime: the percentage of w and u neurons in PAR rises to 100%.")
FIGSIZE = (11.0, 4.8)
_BASE = dict(k=50, alpha=0.3, v=1.0, eta=0.1, scales=[1e-6, 1e-3, 1e-2, 1e-1], std=0.3,
             mean_norm=1.0, margin=0.05)
SIZES = {"small": dict(_BASE, n=10, d=5, k=3, n_epochs=2, n_records=5),
         "full": dict(_BASE, n=200, d=50, n_epochs=200, n_records=60)}


def compute(*, seed, settings, progress):
    s = settings
    data_rng, init_rng, sgd_rng = np.random.default_rng(seed).spawn(3)
    raw = lt.make_symmetric_gaussians(s["n"], s["d"], rng=data_rng, std=s["std"],
                                      mean_norm=s["mean_norm"], margin=s["margin"])
    data = lt.Dataset(raw.X / raw.R_x, raw.y, None, raw.name)
    net = lt.Net(k=s["k"], alpha=s["alpha"], v=s["v"])
    scales = np.asarray(s["scales"])
    W0 = net.init(s["d"], scale=1.0, rng=init_rng, batch=len(scales)) * scales[:, None, None]
    at = _plot.log_schedule(s["n_epochs"] * data.n, s["n_records"])

    def measure(W):
        pw, pu = lt.par_fractions(W, data.X, data.y)
        return {"par_w": pw, "par_u": pu, "loss": net.loss(W, data.X, data.y)}

    progress(f"SGD on {data.n} points in d = {s['d']}, {len(scales)} init scales, "
             f"{s['n_epochs']} epochs")
    _, rec = _plot.sgd_recorded(net, W0, data, eta=s["eta"], n_epochs=s["n_epochs"],
                                rng=sgd_rng, at=at, measure=measure)
    updates = np.concatenate([[0], at])
    summary = {}
    for i, scale in enumerate(scales):
        both = (rec["par_w"][:, i] == 1) & (rec["par_u"][:, i] == 1)
        summary[f"init_{scale:g}"] = {
            "final_par_w": rec["par_w"][-1, i], "final_par_u": rec["par_u"][-1, i],
            "final_loss": rec["loss"][-1, i],
            "first_update_all_in_par": updates[np.argmax(both)] if both.any() else None}
    return summary, {"updates": updates, "n_points": data.n, **rec}


def draw(payload, fig):
    s, d = payload["settings"], payload["data"]
    t = _plot.arr(d["updates"])[1:]
    axes = fig.subplots(1, 2)
    for ax, key, name in ((axes[0], "par_w", "w"), (axes[1], "par_u", "u")):
        values = 100 * _plot.arr(d[key])[1:]
        for i, scale in enumerate(s["scales"]):
            ax.plot(t, values[:, i], color=_plot.SCALE_COLORS[i], lw=1.6,
                    label=_plot.scale_label(scale))
        ax.set_xscale("log")
        ax.set_ylim(-3, 103)
        ax.set_xlabel(f"SGD updates (log scale; one epoch = {d['n_points']})")
        ax.set_ylabel(f"% of {name} neurons in PAR")
        ax.set_title(f"{name} neurons classifying like {'w*' if name == 'w' else '−w*'}",
                     fontsize=10)
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Fig. 8: symmetric Gaussians, n = {d['n_points']}, d = {s['d']}, "
                 f"std {s['std']}; k = {s['k']}, α = {s['alpha']}, SGD η = {s['eta']}, "
                 f"{s['n_epochs']} epochs", fontsize=10)
