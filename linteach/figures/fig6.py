"""Fig. 6: more digit pairs: the fraction of points outside Theorem 5.1's linear regime.

Same runs as Fig. 2 (:mod:`linteach.figures._digits`) on six further pairs, plus a seed
sweep beyond the paper: on 3 vs 8 (where seed 0 loses the regime again) how often does that
happen over independent splits, inits and SGD orders?
"""
from __future__ import annotations

import numpy as np

from . import _digits, _plot

ID = "fig6"
TITLE = "Fig. 6: points outside the linear regime on more digit pairs"
CLAIM = ("The entrance into the linear regime seen for (0,1) and (3,5) is robust across "
         "digit pairs: at convergence the vast majority of train and test points lie in it.")
FIGSIZE = (13.0, 10.5)
#: the seed sweep: runs per pair, their init, and the two thresholds of its counts
_SWEEP = dict(sweep_scale=1e-6, sweep_enter=0.1, sweep_lost=0.5)
_BASE = _digits.sizes([[1, 7]], [[1, 7], [2, 3], [4, 9], [5, 8], [7, 9], [3, 8]])
SIZES = {"small": dict(_BASE["small"], **_SWEEP, sweep_pairs=[[3, 8]], sweep_seeds=3),
         "full": dict(_BASE["full"], **_SWEEP, sweep_pairs=[[3, 8], [7, 9]], sweep_seeds=12)}


def compute(*, seed, settings, progress):
    summary, data = _digits.compute_pairs(seed=seed, settings=settings, progress=progress)
    sweeps = [_digits.drift_sweep(a, b, seed=seed, settings=settings, progress=progress)
              for a, b in settings["sweep_pairs"]]
    summary["seed_sweep"] = {
        f"{sw['pair'][0]}_vs_{sw['pair'][1]}": {
            "runs": sw["runs"], "init": sw["scale"], "entered": sw["entered"],
            "ended_outside": sw["ended_outside"], "lost_again": sw["lost_again"],
            "fraction_lost_again": sw["lost_again"] / sw["runs"],
            "median_final_outside_train": float(np.median(sw["final_outside_train"])),
            "median_final_outside_test": float(np.median(sw["final_outside_test"])),
            "min_final_train_accuracy": float(np.min(sw["final_train_accuracy"]))}
        for sw in sweeps}
    return summary, {**data, "sweeps": sweeps}


def _sweep_panel(ax, sw, s):
    ep = _plot.arr(sw["epoch"])[1:]
    curves = _plot.arr(sw["outside_train"])[1:]
    for i in range(curves.shape[1]):
        ax.plot(ep, curves[:, i], "-", color="tab:blue", lw=0.9, alpha=0.55,
                label="one run (train)" if i == 0 else None)
    ax.plot(ep, np.median(curves, axis=1), "-", color="black", lw=2.0, label="median of runs")
    ax.axhline(s["sweep_enter"], color="tab:green", ls=":", lw=1.2,
               label=f"entered: ≤ {s['sweep_enter']:.0%} outside")
    ax.axhline(s["sweep_lost"], color="tab:red", ls="--", lw=1.2,
               label=f"ended outside: > {s['sweep_lost']:.0%}")
    ax.set_xscale("log")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("SGD epochs (updates / n, log scale)")
    ax.set_ylabel("fraction outside (train)")
    a, b = sw["pair"]
    ax.set_title(f"seed sweep, digits {a} vs {b}, init {sw['scale']:g}: lost again in "
                 f"{sw['lost_again']} of {sw['runs']} runs\n(entered {sw['entered']}, "
                 f"ended outside {sw['ended_outside']}; {sw['n_train']} train images each)",
                 fontsize=9)
    ax.legend(fontsize=7, loc="upper center", ncol=2, framealpha=0.9)


def draw(payload, fig):
    s, runs = payload["settings"], payload["data"]["runs"]
    sweeps = payload["data"]["sweeps"]
    cols = min(3, len(runs))
    rows = int(np.ceil(len(runs) / cols))
    grid = fig.add_gridspec(rows + 1, cols)
    axes = [fig.add_subplot(grid[i // cols, i % cols]) for i in range(len(runs))]
    for ax, run in zip(axes, runs):
        a, b = run["pair"]
        _digits.plot_curves(ax, run, "outside_train", s["scales"], label_suffix=" (train)")
        _digits.plot_curves(ax, run, "outside_test", s["scales"], style="--",
                            label_suffix=" (test)")
        ax.set_ylim(-0.03, 1.03)
        ax.set_ylabel("fraction outside linear regime")
        ax.set_title(f"digits {a} vs {b} ({run['n_train']} train, {run['n_test']} test)",
                     fontsize=10)
    bottom = grid[rows, :].subgridspec(1, max(len(sweeps), 1))
    for j, sw in enumerate(sweeps):
        _sweep_panel(fig.add_subplot(bottom[0, j]), sw, s)
    _digits.legend_below(fig, axes[0])
    fig.suptitle(f"Fig. 6 on scikit-learn's 8×8 digits: solid = train, dashed = test; "
                 f"k = {s['k']}, α = {s['alpha']}, η = {s['eta']}; bottom: "
                 f"{s['sweep_seeds']} independent runs per pair (split, init, SGD order)")
