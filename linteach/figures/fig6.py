"""Fig. 6: more digit pairs: the fraction of points outside Theorem 5.1's linear regime.

Same runs as Fig. 2 (:mod:`linteach.figures._digits`) on six further pairs.
"""
from __future__ import annotations

import numpy as np

from . import _digits

ID = "fig6"
TITLE = "Fig. 6: points outside the linear regime on more digit pairs"
CLAIM = ("The entrance into the linear regime seen for (0,1) and (3,5) is robust across "
         "digit pairs: at convergence the vast majority of train and test points lie in it.")
FIGSIZE = (13.0, 7.5)
SIZES = _digits.sizes([[1, 7]], [[1, 7], [2, 3], [4, 9], [5, 8], [7, 9], [3, 8]])


def compute(*, seed, settings, progress):
    return _digits.compute_pairs(seed=seed, settings=settings, progress=progress)


def draw(payload, fig):
    s, runs = payload["settings"], payload["data"]["runs"]
    cols = min(3, len(runs))
    axes = np.atleast_2d(fig.subplots(int(np.ceil(len(runs) / cols)), cols, squeeze=False))
    for ax, run in zip(axes.ravel(), runs):
        a, b = run["pair"]
        _digits.plot_curves(ax, run, "outside_train", s["scales"], label_suffix=" (train)")
        _digits.plot_curves(ax, run, "outside_test", s["scales"], style="--",
                            label_suffix=" (test)")
        ax.set_ylim(-0.03, 1.03)
        ax.set_ylabel("fraction outside linear regime")
        ax.set_title(f"digits {a} vs {b} ({run['n_train']} train, {run['n_test']} test)",
                     fontsize=10)
    for ax in axes.ravel()[len(runs):]:
        ax.set_axis_off()
    _digits.legend_below(fig, axes.ravel()[0])
    fig.suptitle(f"Fig. 6 on scikit-learn's 8×8 digits: solid = train, dashed = test; "
                 f"k = {s['k']}, α = {s['alpha']}, η = {s['eta']}")
