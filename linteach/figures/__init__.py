"""The paper's figures, recomputed by linteach: one PNG and one JSON of the plotted numbers each.

Every figure is a module of this package with the same small contract:

* ``ID``, ``TITLE`` and ``CLAIM`` (the paper's claim the figure speaks to);
* ``SIZES = {"small": {...}, "full": {...}}``: every knob of the computation;
* ``FIGSIZE``: width and height in inches;
* ``compute(*, seed, settings, progress) -> (summary, data)``: the numbers, JSON-ready,
  deterministic for ``seed`` (seeds become generators only there, one ``rng.spawn`` child
  per consumer); ``summary`` holds the few numbers ``docs/figures.md`` quotes;
* ``draw(data, fig)``: the picture, from the JSON alone (so a JSON file redraws its PNG).

``render`` wraps the payload as ``{"id", "title", "claim", "seed", "size", "settings",
"summary", "data"}`` and writes ``<out>/<id>.png`` and ``<out>/<id>.json``.  Matplotlib is
imported here only (``import linteach`` does not load this package).
"""
from __future__ import annotations

import importlib
import json
import os
from pathlib import Path

from . import _plot

#: figure id -> module name; the order of ``render_all``.
FIGURES = {
    "fig1": "fig1", "fig2": "fig2", "fig3": "fig3", "fig4": "fig4", "fig5": "fig5",
    "fig6": "fig6", "fig7": "fig7", "fig8": "fig8", "fig9": "fig9",
    "thm4.1": "thm41", "thm5.1": "thm51",
}
SIZE_NAMES = ("small", "full")
#: every figure's JSON has these top-level keys
TOP_KEYS = ("id", "title", "claim", "seed", "size", "settings", "summary", "data")

__all__ = ["FIGURES", "SIZE_NAMES", "TOP_KEYS", "check_out", "figure_ids", "module",
           "normalize_id", "redraw", "render", "render_all"]


def figure_ids() -> list[str]:
    return list(FIGURES)


def normalize_id(fig_id) -> str:
    """Accept ``fig1``, ``1``, ``Fig1``, ``thm4.1``, ``thm41``; raise a clear error otherwise."""
    if not isinstance(fig_id, str):
        raise TypeError(f"`fig_id` must be a str, got {type(fig_id).__name__}")
    key = fig_id.strip().lower()
    if key.isdigit():
        key = f"fig{key}"
    aliases = {mod: fid for fid, mod in FIGURES.items()}
    key = aliases.get(key, key)
    if key not in FIGURES:
        raise ValueError(f"`fig_id` must be one of {figure_ids()} (or a figure number), "
                         f"got {fig_id!r}")
    return key


def module(fig_id):
    """The module that computes and draws ``fig_id``."""
    return importlib.import_module(f".{FIGURES[normalize_id(fig_id)]}", __name__)


def check_out(out) -> Path:
    """``out`` as a Path to a folder that exists or can be made; a clear error otherwise.

    Checked before any computing, so a bad ``--out`` costs nothing: a path under a file, a
    file in place of the folder, or a folder that cannot be written.
    """
    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"`out` must be a str or a path, got {type(out).__name__}")
    out = Path(out)
    if str(out) == "":
        raise ValueError("`out` must name a folder, got ''")
    probe = out
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        where = "is a file" if probe == out else f"is under {str(probe)!r}, which is a file"
        raise ValueError(f"`out` must be a folder, got {str(out)!r}: it {where}")
    if probe.exists() and not os.access(probe, os.W_OK | os.X_OK):
        raise ValueError(f"`out` must be writable, got {str(out)!r}: "
                         f"{str(probe)!r} cannot be written")
    return out


def _settings(mod, size: str) -> dict:
    if size not in SIZE_NAMES:
        raise ValueError(f"`size` must be one of {SIZE_NAMES}, got {size!r}")
    return dict(mod.SIZES[size])


def render(fig_id, out, *, seed: int = 0, size: str = "full", quiet: bool = False,
           emit=None):
    """Compute one figure and write ``<out>/<id>.png`` and ``<out>/<id>.json``.

    Parameters
    ----------
    fig_id : str
        A key of :data:`FIGURES` (or its number, e.g. ``"4"``).
    out : str or Path
        Output folder (created if needed).
    seed : int
        Root seed; the figure is a deterministic function of it.
    size : {"small", "full"}
        ``"small"`` is the smoke-test size (seconds); ``"full"`` is what ``make figures`` runs.
    quiet : bool
        Suppress progress lines on stderr.
    emit : callable, optional
        Receives each progress line instead of stderr (the CLI's progress bar).

    Returns
    -------
    (png, json) : tuple of Path
    """
    fid = normalize_id(fig_id)
    from .._check import check_int

    seed = check_int("seed", seed, ge=0)
    out = check_out(out)
    mod = module(fid)
    settings = _settings(mod, size)
    progress = _plot.Progress(fid, quiet=quiet, emit=emit)
    progress(f"computing ({size})")
    summary, data = mod.compute(seed=seed, settings=settings, progress=progress)
    payload = {"id": fid, "title": mod.TITLE, "claim": mod.CLAIM, "seed": seed, "size": size,
               "settings": settings, "summary": summary, "data": data}
    out.mkdir(parents=True, exist_ok=True)
    png, js = out / f"{fid}.png", out / f"{fid}.json"
    payload = json.loads(json.dumps(_plot.jsonable(payload)))  # draw exactly what is saved
    fig = _plot.new_figure(*mod.FIGSIZE)
    mod.draw(payload, fig)
    _plot.save(fig, payload, png, js, dpi=_plot.DPI[size])
    progress(f"wrote {png} and {js.name}")
    return png, js


def redraw(json_path, png_path=None) -> Path:
    """Redraw a figure's PNG from its JSON alone (default: beside the JSON)."""
    js = Path(json_path)
    payload = json.loads(js.read_text())
    mod = module(payload["id"])
    png = Path(png_path) if png_path is not None else js.with_suffix(".png")
    fig = _plot.new_figure(*mod.FIGSIZE)
    mod.draw(payload, fig)
    fig.savefig(png, dpi=_plot.DPI[payload["size"]], metadata={"Software": None})
    return png


def render_all(out, *, seed: int = 0, size: str = "full", quiet: bool = False, ids=None):
    """Render every figure (or ``ids``) in :data:`FIGURES` order; returns the written paths."""
    return [render(fid, out, seed=seed, size=size, quiet=quiet)
            for fid in (ids if ids is not None else figure_ids())]
