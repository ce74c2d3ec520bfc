"""SGD on real digit pairs at several init scales, shared by Figs. 2, 6 and 7.

The data are scikit-learn's bundled 8×8 digits (``lt.load_digit_pair``), not MNIST: 64
features instead of 784 and about 270 training images per pair instead of ~12,000.
Pair ``(a, b)`` draws from the child stream ``SeedSequence(seed, spawn_key=(a, b))``, so a
pair's run is the same whichever figure asks for it, and a run computed for one figure is
reused (in the same process) by the others.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from . import _plot

#: Settings shared by the digit figures (every one is recorded in each figure's JSON).
DIGIT_SETTINGS = dict(k=50, alpha=0.3, v=1.0, eta=0.1, scales=[1e-6, 1e-4, 1e-2, 1.0],
                      test_fraction=0.25)
_CACHE: dict = {}
_RUN_KEYS = ("k", "alpha", "v", "eta", "scales", "test_fraction", "n_epochs", "n_records")


def _measure(net, tr, te):
    def measure(W):
        return {"loss": net.loss(W, tr.X, tr.y),
                "train_accuracy": _plot.accuracy(net, W, tr.X, tr.y),
                "test_accuracy": _plot.accuracy(net, W, te.X, te.y),
                "r": lt.cluster_radius(W), "relative_r": lt.relative_cluster_radius(W),
                "max_angle_deg": np.degrees(lt.max_within_type_angle(W)),
                "outside_train": lt.fraction_outside_linear_regime(W, tr.X),
                "outside_test": lt.fraction_outside_linear_regime(W, te.X)}
    return measure


def pair_run(a: int, b: int, *, seed: int, settings: dict, progress) -> dict:
    """Arrays ``(n_records + 1, n_scales)`` of one digit pair, plus ``epoch`` and sizes.

    Row 0 is the initial state; the others follow log-spaced SGD updates, and ``epoch``
    is the update count divided by the training-set size.
    """
    key = (a, b, seed) + tuple(repr(settings[k]) for k in _RUN_KEYS)
    if key in _CACHE:
        progress(f"digits {a} vs {b}: reusing the run computed earlier in this process")
        return _CACHE[key]
    split_rng, init_rng, sgd_rng = np.random.default_rng(
        np.random.SeedSequence(seed, spawn_key=(a, b))).spawn(3)
    tr, te = lt.load_digit_pair(a, b, test_fraction=settings["test_fraction"], rng=split_rng)
    net = lt.Net(k=settings["k"], alpha=settings["alpha"], v=settings["v"])
    scales = np.asarray(settings["scales"], dtype=float)
    W0 = net.init(tr.d, scale=1.0, rng=init_rng, batch=len(scales)) * scales[:, None, None]
    # log-spaced records: the clustering happens within the first epoch, the drift later
    at = _plot.log_schedule(settings["n_epochs"] * tr.n, settings["n_records"])
    progress(f"digits {a} vs {b}: SGD on {tr.n} train / {te.n} test images, "
             f"{len(scales)} init scales, {settings['n_epochs']} epochs")
    _, rec = _plot.sgd_recorded(net, W0, tr, eta=settings["eta"],
                                n_epochs=settings["n_epochs"], rng=sgd_rng,
                                at=at, measure=_measure(net, tr, te))
    out = {"pair": [a, b], "n_train": tr.n, "n_test": te.n,
           "epoch": np.concatenate([[0.0], at / tr.n]), **rec}
    _CACHE[key] = out
    return out


def drift_sweep(a: int, b: int, *, seed: int, settings: dict, progress) -> dict:
    """How often the linear regime is lost again on pair ``(a, b)``: a seed sweep.

    ``settings["sweep_seeds"]`` independent runs at init ``settings["sweep_scale"]``, each
    with its own train/test split, init and SGD order (children of the pair's stream that
    :func:`pair_run` does not use, so its runs are unchanged), trained together as one
    batched SGD call.  Returns per-run curves of the training fraction outside the regime
    and the counts ``docs/figures.md`` quotes: runs that *entered* the regime (fraction
    ≤ ``sweep_enter`` at some record), that *ended outside* (final fraction >
    ``sweep_lost``), and that did both (entered, then lost it again).
    """
    pair_rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(a, b)))
    sweep_rng = pair_rng.spawn(4)[3]  # children 0-2 are pair_run's split, init and SGD order
    R = settings["sweep_seeds"]
    splits, inits, orders = [], [], []
    net = lt.Net(k=settings["k"], alpha=settings["alpha"], v=settings["v"])
    for run_rng in sweep_rng.spawn(R):
        split_rng, init_rng, sgd_rng = run_rng.spawn(3)
        splits.append(lt.load_digit_pair(a, b, test_fraction=settings["test_fraction"],
                                         rng=split_rng))
        inits.append(net.init(splits[-1][0].d, scale=settings["sweep_scale"], rng=init_rng))
        orders.append(sgd_rng)
    train, test = lt.stack([s[0] for s in splits]), lt.stack([s[1] for s in splits])
    at = _plot.log_schedule(settings["n_epochs"] * train.n, settings["n_records"])
    progress(f"digits {a} vs {b}: seed sweep, {R} runs (split, init, SGD order each) at init "
             f"{settings['sweep_scale']:g}, {settings['n_epochs']} epochs, batched")

    def measure(W):
        return {"outside_train": np.array([lt.fraction_outside_linear_regime(W[i], train.X[i])
                                           for i in range(R)]),
                "outside_test": np.array([lt.fraction_outside_linear_regime(W[i], test.X[i])
                                          for i in range(R)]),
                "train_accuracy": np.array([_plot.accuracy(net, W[i], train.X[i], train.y[i])
                                            for i in range(R)])}

    _, rec = _plot.sgd_recorded(net, np.stack(inits), train, eta=settings["eta"],
                                n_epochs=settings["n_epochs"], rng=orders, at=at,
                                measure=measure)
    curve = rec["outside_train"][1:]  # row 0 is the initial state (no clusters yet)
    best, final = curve.min(axis=0), curve[-1]
    entered = best <= settings["sweep_enter"]
    ended_outside = final > settings["sweep_lost"]
    return {"pair": [a, b], "runs": R, "scale": settings["sweep_scale"],
            "n_train": train.n, "n_test": test.n,
            "epoch": np.concatenate([[0.0], at / train.n]), **rec,
            "best_outside_train": best, "final_outside_train": final,
            "final_outside_test": rec["outside_test"][-1],
            "final_train_accuracy": rec["train_accuracy"][-1],
            "entered": int(entered.sum()), "ended_outside": int(ended_outside.sum()),
            "lost_again": int((entered & ended_outside).sum())}


def sizes(small_pairs, full_pairs) -> dict:
    """``SIZES`` of a digit figure: a few tiny SGD epochs, or the full 200."""
    return {"small": dict(DIGIT_SETTINGS, k=3, scales=[1e-6, 1.0], pairs=small_pairs,
                          n_epochs=2, n_records=5),
            "full": dict(DIGIT_SETTINGS, pairs=full_pairs, n_epochs=200, n_records=60)}


def compute_pairs(*, seed, settings, progress, keep=None):
    """``compute`` of a digit figure: the runs of ``settings["pairs"]`` (only ``keep`` keys)."""
    runs = [pair_run(a, b, seed=seed, settings=settings, progress=progress)
            for a, b in settings["pairs"]]
    summary = {f"{a}_vs_{b}": final_summary(run, settings["scales"])
               for (a, b), run in zip(settings["pairs"], runs)}
    if keep is not None:
        runs = [{key: run[key] for key in keep} for run in runs]
    return summary, {"runs": runs}


def final_summary(run: dict, scales) -> dict:
    """The last recorded values per init scale (what docs/figures.md quotes)."""
    keys = ("loss", "train_accuracy", "test_accuracy", "relative_r", "max_angle_deg",
            "outside_train", "outside_test")
    return {f"init_{scale:g}": {key: run[key][-1, i] for key in keys}
            for i, scale in enumerate(scales)}


def plot_curves(ax, run, key, scales, *, style="-", label_suffix="", log=False):
    """One curve per init scale of ``run[key]`` against epochs (log axis; row 0, the
    initial state, is in the JSON but has no place on it)."""
    ep = _plot.arr(run["epoch"])[1:]
    values = _plot.arr(run[key])[1:]
    for i, scale in enumerate(scales):
        ax.plot(ep, values[:, i], style, color=_plot.SCALE_COLORS[i], lw=1.4,
                label=_plot.scale_label(scale) + label_suffix)
    if log:
        ax.set_yscale("log")
    ax.set_xscale("log")
    ax.set_xlabel("SGD epochs (updates / n, log scale)")


def legend_below(fig, ax, ncol=4):
    """One legend for the whole figure, below the panels (it hides no curve)."""
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=ncol, fontsize=8)
