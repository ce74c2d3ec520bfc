"""Fig. 2: real digit pairs (0 vs 1, 3 vs 5): r over training and the points outside the regime.

Theorem 5.1's linear regime is ``|(w̄ − ū)·x| ≥ 2r‖x‖``; a point outside it is one where
the theorem does not certify that the network agrees with the linear classifier
``sign((w̄ − ū)·x)``.  Runs and data: :mod:`linteach.figures._digits`.
"""
from __future__ import annotations

from . import _digits

ID = "fig2"
TITLE = "Fig. 2: cluster radius r and points outside the linear regime on digit pairs"
CLAIM = ("On real digit pairs (0,1) and (3,5), for small initialization the fraction of "
         "train and test points outside Theorem 5.1's linear regime converges to zero: the "
         "learned classifier is effectively linear on the data.")
FIGSIZE = (11.0, 8.0)
SIZES = _digits.sizes([[0, 1]], [[0, 1], [3, 5]])


def compute(*, seed, settings, progress):
    return _digits.compute_pairs(seed=seed, settings=settings, progress=progress)


def draw(payload, fig):
    s, runs = payload["settings"], payload["data"]["runs"]
    axes = fig.subplots(len(runs), 2, squeeze=False)
    for row, run in zip(axes, runs):
        a, b = run["pair"]
        _digits.plot_curves(row[0], run, "r", s["scales"], log=True)
        row[0].set_ylabel("cluster radius r")
        row[0].set_title(f"digits {a} vs {b}: r = max distance of a neuron to its type's mean",
                         fontsize=10)
        _digits.plot_curves(row[1], run, "outside_train", s["scales"], label_suffix=" (train)")
        _digits.plot_curves(row[1], run, "outside_test", s["scales"], style="--",
                            label_suffix=" (test)")
        row[1].set_ylabel("fraction outside linear regime")
        row[1].set_ylim(-0.03, 1.03)
        row[1].set_title(f"digits {a} vs {b}: |(w̄−ū)·x| < 2r‖x‖ ({run['n_train']} train, "
                         f"{run['n_test']} test)", fontsize=10)
    _digits.legend_below(fig, axes[0, 1])
    fig.suptitle(f"Fig. 2 on scikit-learn's 8×8 digits (not MNIST): k = {s['k']}, "
                 f"α = {s['alpha']}, SGD η = {s['eta']}, {s['n_epochs']} epochs")
