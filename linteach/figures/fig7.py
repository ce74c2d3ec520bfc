"""Fig. 7: clustering over training: ``r/‖w̄ − ū‖`` and the largest angle within a type.

Same runs as Fig. 2 (:mod:`linteach.figures._digits`).  By Theorem 5.1 a point is in the
linear regime when ``|cos∠(x, w̄ − ū)| ≥ 2r/‖w̄ − ū‖``; so ``r/‖w̄ − ū‖ → 0`` leaves only
the directions nearly orthogonal to ``w̄ − ū`` uncertified.
"""
from __future__ import annotations

from . import _digits

ID = "fig7"
TITLE = "Fig. 7: clustering measures over training on digit pairs"
CLAIM = ("The neurons cluster: r/‖w̄ − ū‖ and the maximal angle between two neurons of "
         "the same type converge to zero over the epochs (so, by Theorem 5.1, the decision "
         "boundary converges to a linear one).")
FIGSIZE = (11.0, 8.0)
SIZES = _digits.sizes([[0, 1]], [[0, 1], [3, 5]])


def compute(*, seed, settings, progress):
    keep = ("pair", "n_train", "n_test", "epoch", "relative_r", "max_angle_deg")
    return _digits.compute_pairs(seed=seed, settings=settings, progress=progress, keep=keep)


def draw(payload, fig):
    s, runs = payload["settings"], payload["data"]["runs"]
    axes = fig.subplots(len(runs), 2, squeeze=False)
    for row, run in zip(axes, runs):
        a, b = run["pair"]
        _digits.plot_curves(row[0], run, "relative_r", s["scales"], log=True)
        row[0].axhline(0.5, color="gray", lw=0.8, ls=":")
        row[0].set_ylabel("r / ‖w̄ − ū‖")
        row[0].set_title(f"digits {a} vs {b}: relative cluster radius "
                         "(dotted: 0.5, above it no point is certified)", fontsize=9)
        _digits.plot_curves(row[1], run, "max_angle_deg", s["scales"])
        row[1].set_ylabel("max angle within a type (degrees)")
        row[1].set_ylim(bottom=0)
        row[1].set_title(f"digits {a} vs {b}: largest angle between two same-type neurons",
                         fontsize=9)
    _digits.legend_below(fig, axes[0, 0])
    fig.suptitle(f"Fig. 7 on scikit-learn's 8×8 digits: k = {s['k']}, α = {s['alpha']}, "
                 f"SGD η = {s['eta']}, {s['n_epochs']} epochs")
