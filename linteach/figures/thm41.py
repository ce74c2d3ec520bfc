"""Beyond the paper: Theorem 4.1's update bound against measured SGD, over an (n, ε) grid.

Measured quantity (the theorem's own): ``n·N_e``, the SGD updates spent in the *leading*
mistake epochs, i.e. before the first epoch in which no step had loss ``≥ ε0`` before its
update (``ε0 = ε/(1 + 2v²R_x²ηkn)``, docs/math.md §3).  Theorem 4.1 says ``n·N_e ≤ T_exact``
and the paper's closed form ``M(n, ε) ≥ T_exact`` grows like ``n⁴/ε²``.  Constants come
from :func:`linteach.bounds.sgd_update_bound` with each data set's own ``R_x``, its
max-margin ``‖w*‖`` and the initial ``R_0``.  Runs stopped at ``max_epochs`` without a
mistake-free epoch are censored (counted, not plotted).
"""
from __future__ import annotations

import numpy as np

import linteach as lt
from linteach.bounds import sgd_update_bound

from . import _plot

ID = "thm4.1"
TITLE = "Theorem 4.1: measured SGD updates to ε-loss vs the bound, over (n, ε)"
CLAIM = ("SGD on linearly separable data reaches loss ε: the updates spent in leading "
         "mistake epochs are at most T_exact ≤ M(n, ε) = O(n⁴/ε²), for any width and "
         "initialization scale.")
FIGSIZE = (12.5, 6.6)
_BASE = dict(k=10, alpha=0.3, v=1.0, eta=0.1, d=5, margin=0.2, scale=1e-3)
SIZES = {"small": dict(_BASE, ns=[4, 8], eps=[2.0, 1.0], seeds=2, max_epochs=30, chunk=10),
         "full": dict(_BASE, ns=[10, 20, 40, 80], eps=[1.0, 0.5, 0.25, 0.125], seeds=4,
                      max_epochs=6000, chunk=250)}
_STATS = ("measured", "T_exact", "M")


def _eps0(s, n, R_x, eps):
    return eps / (1.0 + 2.0 * s["v"] ** 2 * R_x**2 * s["eta"] * s["k"] * n)


def _leading_mistake_epochs(s, net, data, W0, eps0_min, rng, progress):
    """Per-epoch max pre-update loss ``(n_epochs, runs)``; stops once every run has an epoch
    below ``eps0_min`` (the strictest threshold of the grid) or at ``max_epochs``."""
    n, epoch_max, current = data.n, [], np.zeros(W0.shape[0])

    def callback(t, W, info):
        current[:] = np.maximum(current, info["loss_before"])
        if t % n == 0:
            epoch_max.append(current.copy())
            current[:] = 0.0

    W = W0
    while len(epoch_max) < s["max_epochs"]:
        run = lt.sgd(net, W, data, eta=s["eta"], n_epochs=s["chunk"], rng=rng,
                     callback=callback)
        W = run.W
        done = (np.array(epoch_max) < eps0_min).any(axis=0)
        progress(f"n = {n}: {len(epoch_max)} epochs, {done.sum()}/{len(done)} runs done")
        if done.all():
            break
    return np.array(epoch_max)


def compute(*, seed, settings, progress):
    s = settings
    net = lt.Net(k=s["k"], alpha=s["alpha"], v=s["v"])
    shape = (len(s["ns"]), len(s["eps"]), s["seeds"])
    out = {key: np.full(shape, np.nan) for key in _STATS}
    for i, (n, n_rng) in enumerate(zip(s["ns"], np.random.default_rng(seed).spawn(len(s["ns"])))):
        data_rng, init_rng, sgd_rng = n_rng.spawn(3)
        data = lt.stack([lt.make_separable(n, s["d"], margin=s["margin"], rng=r)
                         for r in data_rng.spawn(s["seeds"])])
        W0 = net.init(s["d"], scale=s["scale"], rng=init_rng, batch=s["seeds"])
        R_x = data.R_x
        R_0 = np.linalg.norm(W0, axis=-1).max(axis=-1)
        w_norm = [np.linalg.norm(lt.max_margin_teacher(X, y)) for X, y in zip(data.X, data.y)]
        eps0 = np.array([[_eps0(s, n, rx, e) for rx in R_x] for e in s["eps"]])
        maxloss = _leading_mistake_epochs(s, net, data, W0, eps0.min(), sgd_rng, progress)
        for j, eps in enumerate(s["eps"]):
            free = maxloss < eps0[j]  # (epochs, runs): mistake-free epochs
            n_e = np.where(free.any(axis=0), free.argmax(axis=0), np.nan)
            out["measured"][i, j] = n * n_e
            for r in range(s["seeds"]):
                bd = sgd_update_bound(n, eps, R_x=R_x[r], R_0=R_0[r], alpha=s["alpha"],
                                      k=s["k"], eta=s["eta"], v=s["v"], w_star_norm=w_norm[r])
                out["T_exact"][i, j, r], out["M"][i, j, r] = bd.T_exact, bd.M
    med = {key: _plot.nan_stat(np.nanmedian, val) for key, val in out.items()}
    ratio = out["measured"] / out["T_exact"]
    ns, inv_eps = np.asarray(s["ns"], float), 1.0 / np.asarray(s["eps"], float)
    summary = {"censored_runs": int(np.isnan(out["measured"]).sum()),
               "max_measured_over_T_exact": np.nanmax(ratio) if np.isfinite(ratio).any()
               else None,
               "bound_violations": int(np.sum(out["measured"] > out["T_exact"]))}
    for key in _STATS:
        summary[f"slope_n_{key}"] = {f"eps_{e:g}": _plot.fit_slope(ns, med[key][:, j])
                                     for j, e in enumerate(s["eps"])}
        summary[f"slope_inv_eps_{key}"] = {f"n_{n}": _plot.fit_slope(inv_eps, med[key][i])
                                           for i, n in enumerate(s["ns"])}
    return summary, {**out, "median": med}


def _panel(ax, x, med, raw, labels, slopes_meas, slopes_bound, xlabel, m_over_t):
    for c, (label, m, r, sm) in enumerate(zip(labels, med["measured"], raw, slopes_meas)):
        color = _plot.SCALE_COLORS[c % len(_plot.SCALE_COLORS)]
        lo, hi = _plot.nan_stat(np.nanmin, r), _plot.nan_stat(np.nanmax, r)
        ax.errorbar(x, m, yerr=[m - lo, hi - m], fmt="o-", color=color, ms=4, capsize=2,
                    label=f"{label}: measured, slope {_plot.fmt(sm)}")
    for c, (label, t, mm, sb) in enumerate(zip(labels, med["T_exact"], med["M"], slopes_bound)):
        color = _plot.SCALE_COLORS[c % len(_plot.SCALE_COLORS)]
        # M is drawn first, wide and pale: it lies just above T_exact (on a log axis the two
        # nearly coincide), so T_exact's dashes stay visible on top of it
        ax.plot(x, mm, "-", color=color, lw=4.0, alpha=0.25)
        ax.plot(x, t, "--", color=color, lw=1.2, label=f"{label}: T_exact, slope {_plot.fmt(sb)}")
    ax.plot([], [], "-", color="gray", lw=4.0, alpha=0.35,
            label=f"M(n, ε) (pale band), ≤ {_plot.fmt(m_over_t, '.3g')}× T_exact")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(x, [f"{v:g}" for v in x])
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel("SGD updates in leading mistake epochs")
    ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.13))


def draw(payload, fig):
    s, d, sm = payload["settings"], payload["data"], payload["summary"]
    med = {key: _plot.arr(val) for key, val in d["median"].items()}
    raw = _plot.arr(d["measured"])
    m_over_t = float(np.nanmax(_plot.arr(d["M"]) / _plot.arr(d["T_exact"])))
    ax1, ax2 = fig.subplots(1, 2)
    eps_labels = [f"ε = {e:g}" for e in s["eps"]]
    _panel(ax1, np.asarray(s["ns"], float), {k: v.T for k, v in med.items()},
           raw.transpose(1, 0, 2), eps_labels,
           [sm["slope_n_measured"][f"eps_{e:g}"] for e in s["eps"]],
           [sm["slope_n_T_exact"][f"eps_{e:g}"] for e in s["eps"]], "n (training points)",
           m_over_t)
    ax1.set_title("(a) against n: measured (points) vs the bound (dashed, pale band)",
                  fontsize=10)
    _panel(ax2, 1.0 / np.asarray(s["eps"], float), med, raw, [f"n = {n}" for n in s["ns"]],
           [sm["slope_inv_eps_measured"][f"n_{n}"] for n in s["ns"]],
           [sm["slope_inv_eps_T_exact"][f"n_{n}"] for n in s["ns"]], "1/ε", m_over_t)
    ax2.set_title("(b) against 1/ε: measured (points) vs the bound (dashed, pale band)",
                  fontsize=10)
    worst = sm["max_measured_over_T_exact"]
    fig.suptitle(f"Theorem 4.1: median of {s['seeds']} separable data sets (d = {s['d']}, "
                 f"margin {s['margin']}), whiskers min–max; k = {s['k']}, α = {s['alpha']}, "
                 f"η = {s['eta']}, init {s['scale']:g}; max measured/T_exact = "
                 f"{_plot.fmt(worst, '.1e')}, censored "
                 f"{sm['censored_runs']}", fontsize=10)
