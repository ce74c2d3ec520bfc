"""Shared plumbing of the figure modules: canvases, JSON, grids, recorders, progress.

Matplotlib is used through ``matplotlib.figure.Figure`` and the Agg canvas directly, never
through ``pyplot``: no backend is switched, no window can open, and no global state of a
user's session changes.  Colours follow the paper's Fig. 9: w neurons black, u neurons orange.
"""
from __future__ import annotations

import json
import os
import warnings
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import linteach as lt

W_COLOR, U_COLOR = "black", "tab:orange"
POS_COLOR, NEG_COLOR = "tab:blue", "tab:red"
#: Colours of the init scales (Figs 2, 6, 7, 8), smallest first.
SCALE_COLORS = ("tab:blue", "tab:green", "tab:orange", "tab:red", "tab:purple", "tab:brown")
#: PNG resolution per size; the smoke-test size renders coarser (rasterising is its main cost)
DPI = {"small": 50, "full": 110}


def new_figure(width: float, height: float) -> Figure:
    """A figure with constrained layout and an Agg canvas (nothing is displayed)."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def jsonable(obj):
    """Nested numpy values as plain JSON; non-finite floats become ``None`` (read back as NaN)."""
    if isinstance(obj, dict):
        return {str(key): jsonable(val) for key, val in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(val) for val in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if np.isfinite(obj) else None
    return obj


def arr(values) -> np.ndarray:
    """A JSON list (``None`` for non-finite entries) back as a float array."""
    return np.array(values, dtype=np.float64)


#: mode of the written files (mkstemp's default 0600 would hide them from other users)
FILE_MODE = 0o644


def write_atomic(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` through a temporary file in the same folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def save(fig: Figure, data: dict, png: Path, js: Path, *, dpi: int) -> None:
    """Write the PNG and the JSON of the plotted numbers (both atomically)."""
    text = json.dumps(jsonable(data), indent=1, allow_nan=False, sort_keys=False)
    write_atomic(js, (text + "\n").encode())
    fd, tmp = tempfile.mkstemp(dir=png.parent, prefix=f".{png.name}.", suffix=".png")
    os.close(fd)
    try:
        # fixed metadata: the same seed gives the same bytes
        fig.savefig(tmp, dpi=dpi, metadata={"Software": None})
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, png)
    except BaseException:
        os.unlink(tmp)
        raise


class Progress:
    """Prints ``[id] message (elapsed s)`` to stderr (or hands it to ``emit``); silent when
    ``quiet``."""

    def __init__(self, fig_id: str, *, quiet: bool = False, emit=None):
        self.fig_id, self.quiet, self.start = fig_id, quiet, time.perf_counter()
        self.emit = emit if emit is not None else (
            lambda line: print(line, file=sys.stderr, flush=True))

    def __call__(self, message: str) -> None:
        if not self.quiet:
            self.emit(f"[{self.fig_id}] {message} ({time.perf_counter() - self.start:.0f} s)")


def grid(lim: float, m: int):
    """An ``m × m`` grid on ``[-lim, lim]²``: ``(xx, yy, points (m², 2))``."""
    g = np.linspace(-lim, lim, m)
    xx, yy = np.meshgrid(g, g)
    return xx, yy, np.column_stack([xx.ravel(), yy.ravel()])


def log_schedule(total: int, count: int) -> np.ndarray:
    """About ``count`` log-spaced integers in ``[1, total]`` (always including both ends)."""
    steps = np.geomspace(1, max(total, 1), count).round().astype(np.int64)
    return np.unique(np.concatenate([[1], steps, [total]]))


def sgd_recorded(net, W0, data, *, eta, n_epochs, rng, at, measure):
    """SGD (``lt.sgd``) recording ``measure(W)`` after each update listed in ``at``.

    ``measure`` returns a dict of per-run arrays; the result maps each key to an array of
    shape ``(len(at) + 1, *batch)``, row 0 being the initial state.
    """
    at = set(int(t) for t in at)
    rows = [measure(np.array(W0))]

    def callback(t, W, info):
        if t in at:
            rows.append(measure(np.array(W)))

    run = lt.sgd(net, W0, data, eta=eta, n_epochs=n_epochs, rng=rng, callback=callback)
    return run, {key: np.array([row[key] for row in rows]) for key in rows[0]}


def sgd_small_init(seed, s, make_data, progress):
    """Data ``make_data(n, s, rng)``, then SGD from init scale ``s["scale"]``.

    The seed's three children draw the data, the init and the SGD order.  Returns
    ``(net, data, run)``.
    """
    data_rng, init_rng, sgd_rng = np.random.default_rng(seed).spawn(3)
    data = make_data(s["n"], s, data_rng)
    net = lt.Net(k=s["k"], alpha=s["alpha"], v=s["v"])
    W0 = net.init(data.d, scale=s["scale"], rng=init_rng)
    progress(f"SGD, {s['n_epochs']} epochs on {data.n} points")
    return net, data, lt.sgd(net, W0, data, eta=s["eta"], n_epochs=s["n_epochs"], rng=sgd_rng)


def square_axes(ax, lim, xlabel="x₁", ylabel="x₂"):
    """Equal-aspect ``[-lim, lim]²`` axes with their labels."""
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)


def anneal_flow(net, W, data, *, dts, n_steps):
    """Normalized gradient flow with a decreasing turn per step, one chunk per ``dt``.

    A constant relative turn ``dt`` leaves the direction oscillating at an amplitude of order
    ``dt`` (measured: the Eq. 8 match stalls at 0.2° for dt = 0.01); shrinking ``dt`` chunk by
    chunk removes that discretisation error.  Returns the last ``lt.Run``.
    """
    run = None
    for dt in dts:
        run = lt.gradient_flow(net, W, data, dt=dt, n_steps=n_steps, normalized=True, record=2)
        if run.W is None:  # ‖W‖ left float64: the direction is what matters from here
            W = run.direction
            break
        W = run.W
    return run


def accuracy(net, W, X, y):
    """Fraction of points with ``sign N_W(x) = y`` (a zero output counts as wrong)."""
    return (np.sign(net.forward(W, X)) == y).mean(axis=-1)


#: points with |lin| below this fraction of max |lin| count as on the line lin = 0 (round-off)
ON_LINE_RTOL = 1e-9


def sign_disagreement(out, lin) -> float:
    """Fraction of points with ``sign(out) ≠ sign(lin)``, off the line ``lin = 0``.

    Grid points that lie exactly on the linear boundary have ``out`` and ``lin`` equal to 0
    up to round-off, so their signs are noise; they are left out.
    """
    out, lin = np.asarray(out), np.asarray(lin)
    off_line = np.abs(lin) > ON_LINE_RTOL * np.abs(lin).max()
    return float(np.mean((np.sign(out) != np.sign(lin)) & off_line))


def scale_label(scale: float) -> str:
    """``init 1e-6``, ``init 0.01``, ``init 3``."""
    text = f"{scale:.0e}".replace("e-0", "e-") if scale < 1e-3 else f"{scale:g}"
    return f"init {text}"


def neuron_arrows(ax, W, *, scale=1.0, lw=0.8, alpha=0.6, label=True):
    """Draw every neuron ``W (2k, 2)`` from the origin: w black, u orange."""
    k = W.shape[0] // 2
    for rows, color, name in ((W[:k], W_COLOR, "w neurons"), (W[k:], U_COLOR, "u neurons")):
        for j, (a, b) in enumerate(rows * scale):
            ax.annotate("", xy=(a, b), xytext=(0, 0),
                        arrowprops=dict(arrowstyle="->", color=color, lw=lw, alpha=alpha))
        if label:
            ax.plot([], [], color=color, label=name)


def scatter_data(ax, X, y, *, s=14):
    ax.scatter(*X[y > 0, :2].T, s=s, color=POS_COLOR, edgecolor="white", linewidth=0.4,
               label="y = +1", zorder=3)
    ax.scatter(*X[y < 0, :2].T, s=s, color=NEG_COLOR, marker="s", edgecolor="white",
               linewidth=0.4, label="y = −1", zorder=3)


def fit_slope(x, y) -> float:
    """Least-squares slope of ``log y`` against ``log x`` over the finite positive pairs."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    if ok.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(x[ok]), np.log(y[ok]), 1)[0])


def nan_stat(fn, a, axis=-1) -> np.ndarray:
    """``fn`` in {np.nanmedian, np.nanmin, np.nanmax} over ``axis``; NaN where all are NaN."""
    with warnings.catch_warnings():
        # an all-NaN cell (every run censored) is expected and stays NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(np.asarray(a, dtype=np.float64), axis=axis)


def fmt(x, spec=".2f") -> str:
    """``x`` formatted, or ``n/a`` for a missing (``None``/NaN) value."""
    return "n/a" if x is None or not np.isfinite(x) else format(x, spec)
