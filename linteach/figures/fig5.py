"""Fig. 5 (App. D.1): two-neuron networks, leaky ReLU vs ReLU, both perfectly clustered.

``k = 1``: one w neuron and one u neuron, so ``r = 0``.  With leaky ReLU (Corollary 6.1)
``sign N(x) = sign((w − u)·x)`` everywhere; with ReLU (``α = 0``) the network outputs 0 on
the cone ``{w·x ≤ 0, u·x ≤ 0}``, and whichever label 0 is given, the boundary is not a line.
The weights are fixed by hand (recorded in the JSON), not trained.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from . import _plot

ID = "fig5"
TITLE = "Fig. 5: two-neuron networks, leaky ReLU (linear boundary) vs ReLU (zero region)"
CLAIM = ("Theorem 5.1 needs the leaky ReLU: a perfectly clustered leaky-ReLU network has a "
         "linear boundary, while the same ReLU network outputs zero on a whole cone and its "
         "boundary is not linear.")
FIGSIZE = (11.0, 5.4)
_BASE = dict(w=[1.0, 0.6], u=[-0.3, 1.0], v=1.0, alphas=[0.3, 0.0], lim=1.0)
SIZES = {"small": dict(_BASE, grid=41), "full": dict(_BASE, grid=401)}
BOUNDARY_COLOR = "tab:purple"


def _values(s, alpha):
    xx, yy, P = _plot.grid(s["lim"], s["grid"])
    W = np.array([s["w"], s["u"]], dtype=float)
    N = lt.Net(k=1, alpha=alpha, v=s["v"]).forward(W, P)
    return xx, yy, W, N.reshape(xx.shape), (P @ (W[0] - W[1])).reshape(xx.shape)


def compute(*, seed, settings, progress):
    summary = {}
    for alpha in settings["alphas"]:
        _, _, _, N, lin = _values(settings, alpha)
        summary[f"alpha_{alpha:g}"] = {
            "grid_fraction_zero_output": np.mean(N == 0.0),
            "grid_fraction_sign_differs_from_linear": _plot.sign_disagreement(N, lin)}
    return summary, {"note": "weights and grid are in settings; draw() recomputes N"}


def draw(payload, fig):
    s, sm = payload["settings"], payload["summary"]
    axes = fig.subplots(1, len(s["alphas"]), squeeze=False)[0]
    for ax, alpha in zip(axes, s["alphas"]):
        xx, yy, W, N, _ = _values(s, alpha)
        sign = np.sign(N)
        ax.contourf(xx, yy, sign, levels=[-1.5, -0.5, 0.5, 1.5],
                    colors=["#f6d5d5", "#bbbbbb", "#d5e1f6"])
        # the boundary gets its own colour: black is the w neuron's (as in every figure)
        ax.contour(xx, yy, N, levels=[0], colors=BOUNDARY_COLOR, linewidths=2.4)
        ax.plot([], [], "-", color=BOUNDARY_COLOR, lw=2.4, label="boundary N = 0")
        normal = W[0] - W[1]
        t = np.array([-2.0, 2.0])
        ax.plot(-normal[1] * t, normal[0] * t, "--", color="tab:green", lw=1.6,
                label="(w − u)·x = 0 (linear prediction)")
        _plot.neuron_arrows(ax, W / np.linalg.norm(W, axis=1).max() * 0.8, lw=2.2, alpha=1.0)
        ax.fill_between([], [], color="#d5e1f6", label="N > 0")
        ax.fill_between([], [], color="#f6d5d5", label="N < 0")
        if alpha == 0.0:
            ax.fill_between([], [], color="#bbbbbb", label="N = 0 (ReLU dead cone)")
        _plot.square_axes(ax, s["lim"])
        key = f"alpha_{alpha:g}"
        name = f"leaky ReLU α = {alpha:g}" if alpha > 0 else "ReLU (α = 0)"
        ax.set_title(f"{name}: sign(N) ≠ sign((w−u)·x) on "
                     f"{100 * sm[key]['grid_fraction_sign_differs_from_linear']:.1f}% of the "
                     "square", fontsize=10)
        ax.legend(fontsize=8, loc="lower left", framealpha=0.9)
    fig.suptitle(f"Fig. 5: k = 1, w = {s['w']}, u = {s['u']}, v = {s['v']} "
                 "(perfectly clustered, r = 0)")
