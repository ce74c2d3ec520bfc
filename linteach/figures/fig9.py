"""Fig. 9 (App. J): antipodal Gaussians plus one positive outlier: an NAR that is not a PAR?

Panels (a)-(d) follow the paper on ``lt.make_outlier_set`` (outlier at
``0.1·μ̂ + 2·e``, ``e ⊥ μ̂``), rescaled to max norm 1, at several init scales: training
accuracy, the neurons at the end of SGD, ``max n_diff`` per type (points on which two
same-type neurons disagree; 0 for every pair and point means an NAR) and the fraction of
neurons in PAR.  Panel (e) goes beyond the paper: where does training end up (PAR, NAR
that is not a PAR, no NAR) as the outlier's angle to ``μ̂`` and the init scale vary, over
several seeds, after SGD and a normalized gradient flow.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from . import _plot

ID = "fig9"
TITLE = "Fig. 9: antipodal Gaussians plus one outlier: NAR vs PAR"
CLAIM = ("Learning can enter an NAR that is not a PAR: with one positive outlier the network "
         "reaches 100% training accuracy and max n_diff → 0 (all same-type neurons agree), "
         "while the fraction of w neurons in PAR stays below 1.")
FIGSIZE = (15.0, 8.6)
REGIMES = ("PAR", "NAR, not PAR", "no NAR")
_BASE = dict(k=50, alpha=0.3, v=1.0, eta=0.1, d=2, scales=[1e-4, 1e-2, 1e-1], show_scale=1,
             std=0.3, flow_dts=[0.01, 0.001], scan_std=0.2, scan_norm=1.5,
             scan_angles=[85.0, 95.0, 100.0, 105.0, 110.0, 120.0])
SIZES = {"small": dict(_BASE, n=10, k=3, n_epochs=2, n_records=5, flow_steps=10, scan_n=6,
                       scan_seeds=2, scan_epochs=2, scan_angles=[85.0, 120.0]),
         "full": dict(_BASE, n=100, n_epochs=300, n_records=60, flow_steps=300, scan_n=60,
                      scan_seeds=8, scan_epochs=100)}


def _measure(net, X, y):
    def measure(W):
        nw, nu = lt.max_n_diff(W, X)
        pw, pu = lt.par_fractions(W, X, y)
        return {"accuracy": _plot.accuracy(net, W, X, y), "n_diff_w": nw, "n_diff_u": nu,
                "par_w": pw, "par_u": pu}
    return measure


def _regime(W, X, y):
    """0 = PAR, 1 = NAR but not PAR, 2 = no NAR, per run."""
    nar = lt.agreement(W, X).in_nar
    return np.where(lt.in_par(W, X, y), 0, np.where(nar, 1, 2))


def _outlier_set(s, theta_deg, rng):
    """Antipodal Gaussians plus one positive point at angle ``theta`` from ``μ̂``."""
    base_rng, e_rng = rng.spawn(2)
    base = lt.make_symmetric_gaussians(s["scan_n"], s["d"], rng=base_rng, std=s["scan_std"])
    mu = base.w_star / np.linalg.norm(base.w_star)
    e = e_rng.standard_normal(s["d"])
    e -= (e @ mu) * mu
    t = np.radians(theta_deg)
    x_out = s["scan_norm"] * (np.cos(t) * mu + np.sin(t) * e / np.linalg.norm(e))
    X = np.vstack([base.X, x_out])
    return lt.Dataset(X / np.linalg.norm(X, axis=1).max(), np.append(base.y, 1.0))


def _scan(s, net, rng, progress):
    counts = np.zeros((len(s["scan_angles"]), len(s["scales"]), len(REGIMES)), dtype=int)
    skipped = 0
    for a, (theta, a_rng) in enumerate(zip(s["scan_angles"], rng.spawn(len(s["scan_angles"])))):
        sets = []
        for case_rng in a_rng.spawn(s["scan_seeds"]):
            ds = _outlier_set(s, theta, case_rng)
            try:
                lt.max_margin_teacher(ds.X, ds.y)
                sets.append(ds)
            except lt.NotSeparableError:
                skipped += 1
        data = lt.stack(sets)
        progress(f"scan: outlier at {theta:g}°, {len(sets)} data sets x {len(s['scales'])} "
                 "init scales")
        for i, (scale, run_rng) in enumerate(zip(s["scales"], a_rng.spawn(len(s["scales"])))):
            init_rng, sgd_rng = run_rng.spawn(2)
            W0 = net.init(s["d"], scale=scale, rng=init_rng, batch=len(sets))
            run = lt.sgd(net, W0, data, eta=s["eta"], n_epochs=s["scan_epochs"], rng=sgd_rng)
            flow = _plot.anneal_flow(net, run.W, data, dts=s["flow_dts"],
                                     n_steps=s["flow_steps"])
            counts[a, i] = np.bincount(_regime(flow.direction, data.X, data.y),
                                       minlength=len(REGIMES))
    return counts, skipped


def compute(*, seed, settings, progress):
    s = settings
    data_rng, init_rng, sgd_rng, scan_rng = np.random.default_rng(seed).spawn(4)
    raw = lt.make_outlier_set(s["n"], s["d"], rng=data_rng, std=s["std"])
    data = lt.Dataset(raw.X / raw.R_x, raw.y, None, raw.name)
    net = lt.Net(k=s["k"], alpha=s["alpha"], v=s["v"])
    scales = np.asarray(s["scales"])
    W0 = net.init(s["d"], scale=1.0, rng=init_rng, batch=len(scales)) * scales[:, None, None]
    at = _plot.log_schedule(s["n_epochs"] * data.n, s["n_records"])
    progress(f"SGD on {data.n} points, {len(scales)} init scales, {s['n_epochs']} epochs")
    run, rec = _plot.sgd_recorded(net, W0, data, eta=s["eta"], n_epochs=s["n_epochs"],
                                  rng=sgd_rng, at=at, measure=_measure(net, data.X, data.y))
    flow = _plot.anneal_flow(net, run.W, data, dts=s["flow_dts"], n_steps=s["flow_steps"])
    limit = _measure(net, data.X, data.y)(flow.direction)
    limit["regime"] = [REGIMES[i] for i in _regime(flow.direction, data.X, data.y)]
    counts, skipped = _scan(s, net, scan_rng, progress)
    summary = {f"init_{scale:g}": {"after_sgd": {key: rec[key][-1, i] for key in rec},
                                   "after_flow": {key: limit[key][i] for key in limit}}
               for i, scale in enumerate(scales)}
    summary["scan_counts"] = {f"{theta:g}deg_init_{scale:g}": dict(zip(REGIMES, counts[a, i]))
                              for a, theta in enumerate(s["scan_angles"])
                              for i, scale in enumerate(scales)}
    summary["scan_not_separable_skipped"] = skipped
    return summary, {"X": data.X, "y": data.y, "updates": np.concatenate([[0], at]),
                     "W_end_of_sgd": run.W, "scan_counts": counts, **rec}


def _curves(ax, d, s, keys, ylabel, percent=False):
    t = _plot.arr(d["updates"])[1:]
    for key, style in zip(keys, ("-", "--")):
        values = _plot.arr(d[key])[1:] * (100 if percent else 1)
        for i, scale in enumerate(s["scales"]):
            ax.plot(t, values[:, i], style, color=_plot.SCALE_COLORS[i], lw=1.5,
                    label=f"{_plot.scale_label(scale)}, {key.split('_')[-1]}")
    ax.set_xscale("log")
    ax.set_xlabel("SGD updates (log scale)")
    ax.set_ylabel(ylabel)


def draw(payload, fig):
    s, d = payload["settings"], payload["data"]
    grid = fig.add_gridspec(2, 3)
    ax_a, ax_b = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
    ax_c, ax_d = fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])
    ax_e = fig.add_subplot(grid[:, 2])
    _curves(ax_a, d, s, ["accuracy"], "training accuracy", percent=True)
    ax_a.set_title("(a) training accuracy (%)", fontsize=10)
    ax_a.legend(fontsize=7)
    X, y = _plot.arr(d["X"]), _plot.arr(d["y"])
    show = s["show_scale"]
    W = _plot.arr(d["W_end_of_sgd"])[show][:, :2]
    _plot.scatter_data(ax_b, X, y, s=10)
    ax_b.annotate("outlier", X[-1, :2], xytext=(8, 8), textcoords="offset points", fontsize=8)
    _plot.neuron_arrows(ax_b, W / np.linalg.norm(W, axis=1).max())
    _plot.square_axes(ax_b, 1.1, "x₁ (neurons scaled by the largest)")
    ax_b.legend(fontsize=7, loc="upper right")
    ax_b.set_title(f"(b) neurons after SGD, {_plot.scale_label(s['scales'][show])}",
                   fontsize=10)
    _curves(ax_c, d, s, ["n_diff_w", "n_diff_u"], "max n_diff (points, symlog axis)")
    # symlog: linear on [0, 1], logarithmic above, so n_diff = 1 (no NAR) stands apart from 0
    ax_c.set_yscale("symlog", linthresh=1.0, linscale=1.0)
    top = max(2.0, float(np.nanmax([_plot.arr(d[key]).max() for key in ("n_diff_w",
                                                                         "n_diff_u")])))
    ax_c.set_ylim(-0.15, top * 1.6)
    ticks = [t for t in (0, 1, 2, 5, 10, 20, 50, 100, 200, 500) if t <= top * 1.6]
    ax_c.set_yticks(ticks, [f"{t:g}" for t in ticks])
    ax_c.minorticks_off()
    ax_c.axhline(1.0, color="gray", lw=0.8, ls=":", zorder=0)
    ax_c.axhline(0.0, color="gray", lw=0.8, zorder=0)
    ax_c.text(0.99, 0.93, "1 = no NAR: two same-type neurons\ndisagree on one point",
              transform=ax_c.get_yaxis_transform(), ha="right", va="top", fontsize=7,
              color="dimgray")
    ax_c.text(0.99, 0.1, "0 = an NAR", transform=ax_c.get_yaxis_transform(), ha="right",
              va="bottom", fontsize=7, color="dimgray")
    ax_c.set_title("(c) max n_diff: solid w, dashed u; symlog axis (linear on [0, 1])",
                   fontsize=10)
    _curves(ax_d, d, s, ["par_w", "par_u"], "% of neurons in PAR", percent=True)
    ax_d.set_title("(d) neurons in PAR: solid w, dashed u", fontsize=10)
    counts = _plot.arr(d["scan_counts"])
    n_a, n_s = counts.shape[:2]
    xs = np.arange(n_a)[:, None] + (np.arange(n_s) - (n_s - 1) / 2) * 0.8 / n_s
    bottom = np.zeros((n_a, n_s))
    for r, (name, color) in enumerate(zip(REGIMES, ("tab:green", "tab:purple", "lightgray"))):
        ax_e.bar(xs.ravel(), counts[..., r].ravel(), width=0.75 / n_s, bottom=bottom.ravel(),
                 color=color, edgecolor="white", label=name)
        bottom += counts[..., r]
    for i, scale in enumerate(s["scales"]):
        for a in range(n_a):
            ax_e.text(xs[a, i], bottom[a, i] + 0.1, f"{scale:g}", ha="center", fontsize=6,
                      rotation=90, va="bottom")
    ax_e.set_xticks(np.arange(n_a), [f"{t:g}°" for t in s["scan_angles"]])
    ax_e.set_xlabel("outlier angle to μ̂ (bars: init scales, labelled above)")
    ax_e.set_ylabel("runs (data sets)")
    ax_e.set_ylim(0, bottom.max() * 1.25 + 0.5)
    ax_e.legend(fontsize=8, loc="upper right")
    ax_e.set_title(f"(e) regime after SGD ({s['scan_epochs']} epochs) + flow,\n"
                   f"{s['scan_seeds']} seeds per bar, n = {s['scan_n']}+1, d = {s['d']}",
                   fontsize=10)
    fig.suptitle(f"Fig. 9: {len(y) - 1} antipodal Gaussian points + 1 outlier, k = {s['k']}, "
                 f"α = {s['alpha']}, SGD η = {s['eta']}, {s['n_epochs']} epochs", fontsize=11)
