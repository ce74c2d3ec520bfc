"""The numbers of ``docs/figures.md``, generated from the figures' JSON files.

``docs/figures.md`` keeps its hand-written part (what each figure shows, its settings,
what agrees and what does not) and, per figure, a generated block between the markers
``<!-- generated: ID -->`` and ``<!-- end generated: ID -->``: every number the page quotes,
computed from ``docs/figures/ID.json`` by the function of :data:`BLOCKS`.  So no number
there can drift from the data; ``tests/test_figures_doc.py`` fails when a block is stale.

    python -m linteach.figures.doc FIGURES_DIR MARKDOWN           # rewrite the blocks
    python -m linteach.figures.doc FIGURES_DIR MARKDOWN --check   # exit 1 if one is stale
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

__all__ = ["BLOCKS", "block", "main", "stale", "update"]


def _g(x, digits=3) -> str:
    """``x`` to ``digits`` significant digits; ``n/a`` for a missing value."""
    if x is None or (isinstance(x, float) and not np.isfinite(x)):
        return "n/a"
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if 100 <= abs(x) < 1e5:  # 114°, 200 epochs, 3000: no exponent for numbers this size
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


def _pct(x) -> str:
    return "n/a" if x is None else f"{100 * float(x):.3g}%"


def _table(header, rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _inits(summary) -> list[str]:
    return [key for key in summary if key.startswith("init_")]


def _fig1(p):
    s = p["summary"]
    return _table(["init", "loss", "train accuracy", "r/‖w̄ − ū‖", "max angle in a type",
                   "square outside the regime", "square where sign N ≠ linear"],
                  [[k[5:], _g(v["loss"], 2), _pct(v["train_accuracy"]), _g(v["relative_r"]),
                    f"{_g(v['max_angle_deg'])}°", _pct(v["grid_fraction_outside_regime"]),
                    _pct(v["grid_sign_disagreement"])] for k, v in s.items()])


def _digit_rows(summary, pairs):
    rows = []
    for a, b in pairs:
        for init, v in summary[f"{a}_vs_{b}"].items():
            rows.append([f"{a} vs {b}", init[5:], f"{_g(v['outside_train'], 2)} / "
                         f"{_g(v['outside_test'], 2)}", _g(v["relative_r"], 2),
                         f"{_g(v['max_angle_deg'], 2)}°", f"{_pct(v['train_accuracy'])} / "
                         f"{_pct(v['test_accuracy'])}"])
    return _table(["pair", "init", "outside (train / test), end", "r/‖w̄ − ū‖",
                   "max angle", "accuracy (train / test)"], rows)


def _fig2(p):
    return _digit_rows(p["summary"], p["settings"]["pairs"])


def _fig3(p):
    s = p["summary"]
    return _table(["loss", "r/‖w̄ − ū‖", "angle(w̄, ū)", "unit circle: sign N ≠ linear",
                   "unit circle: misfit of the best linear multiple (relative L2)"],
                  [[_g(s["loss"], 2), _g(s["relative_r"], 2),
                    f"{_g(s['angle_w_bar_u_bar_deg'])}°", _pct(s["circle_sign_disagreement"]),
                    _pct(s["circle_relative_misfit_of_best_linear"])]])


def _fig4(p):
    s = p["summary"]
    return _table(["in PAR", "r/‖w̄ − ū‖", "1 − cos(learned, Eq. 8)",
                   "boundary angle learned vs Eq. 8", "Eq. 8 vs SVM", "learned vs SVM",
                   "Assumption 4 LP holds"],
                  [[s["in_par"], _g(s["relative_r"], 2), _g(1 - s["cos_learned_vs_eq8"], 2),
                    f"{_g(s['boundary_angle_learned_vs_eq8_deg'], 2)}°",
                    f"{_g(s['boundary_angle_eq8_vs_svm_deg'], 2)}°",
                    f"{_g(s['boundary_angle_learned_vs_svm_deg'], 2)}°",
                    s["assumption4_holds"]]])


def _fig5(p):
    return _table(["α", "square where N = 0", "square where sign N ≠ sign((w − u)·x)"],
                  [[k[6:], _pct(v["grid_fraction_zero_output"]),
                    _pct(v["grid_fraction_sign_differs_from_linear"])]
                   for k, v in p["summary"].items()])


def _fig6(p):
    s, st = p["summary"], p["settings"]
    pairs = [f"{a} vs {b}" for a, b in st["pairs"]]
    inits = list(s[f"{st['pairs'][0][0]}_vs_{st['pairs'][0][1]}"])
    grid = _table(["init"] + pairs,
                  [[init[5:]] + [f"{_g(s[f'{a}_vs_{b}'][init]['outside_train'], 2)} / "
                                 f"{_g(s[f'{a}_vs_{b}'][init]['outside_test'], 2)}"
                                 for a, b in st["pairs"]] for init in inits])
    sweep = _table(["pair", "runs", "init", f"entered (≤ {_pct(st['sweep_enter'])} outside)",
                    f"ended outside (> {_pct(st['sweep_lost'])})", "lost again (both)",
                    "median end: outside train / test", "lowest final train accuracy"],
                   [[k.replace("_vs_", " vs "), v["runs"], _g(v["init"]), v["entered"],
                     v["ended_outside"], f"**{v['lost_again']} of {v['runs']}**",
                     f"{_g(v['median_final_outside_train'], 2)} / "
                     f"{_g(v['median_final_outside_test'], 2)}",
                     _pct(v["min_final_train_accuracy"])]
                    for k, v in s["seed_sweep"].items()])
    return ("Fraction of train / test points outside the regime at the end (seed 0):\n\n"
            + grid + "\n\nSeed sweep (independent split, init and SGD order per run):\n\n"
            + sweep)


def _fig7(p):
    rows = []
    for run in p["data"]["runs"]:
        a, b = run["pair"]
        ep = np.asarray(run["epoch"], float)[1:]
        rel = np.asarray(run["relative_r"], float)[1:]
        ang = np.asarray(run["max_angle_deg"], float)[1:]
        for i, scale in enumerate(p["settings"]["scales"]):
            j = int(np.nanargmin(rel[:, i]))
            rows.append([f"{a} vs {b}", _g(scale), f"{_g(rel[j, i], 2)} at epoch {_g(ep[j], 2)}",
                         _g(rel[-1, i], 2), f"{_g(np.nanmin(ang[:, i]), 2)}°",
                         f"{_g(ang[-1, i], 2)}°"])
    return _table(["pair", "init", "lowest r/‖w̄ − ū‖", "r/‖w̄ − ū‖ at the end",
                   "lowest max angle", "max angle at the end"], rows)


def _fig8(p):
    return _table(["init", "first update with every neuron in PAR", "w in PAR (end)",
                   "u in PAR (end)", "loss (end)"],
                  [[k[5:], _g(v["first_update_all_in_par"]) if v["first_update_all_in_par"]
                    is not None else "never", _pct(v["final_par_w"]), _pct(v["final_par_u"]),
                    _g(v["final_loss"], 2)] for k, v in p["summary"].items()
                   if k.startswith("init_")])


def _fig9(p):
    s = p["summary"]
    runs = _table(["init", "regime after SGD + flow", "accuracy", "max n_diff (w / u)",
                   "in PAR (w / u)"],
                  [[k[5:], v["after_flow"]["regime"], _pct(v["after_flow"]["accuracy"]),
                    f"{v['after_flow']['n_diff_w']} / {v['after_flow']['n_diff_u']}",
                    f"{_pct(v['after_flow']['par_w'])} / {_pct(v['after_flow']['par_u'])}"]
                   for k, v in s.items() if k in _inits(s)])
    totals = {}
    for counts in s["scan_counts"].values():
        for name, c in counts.items():
            totals[name] = totals.get(name, 0) + c
    scan = _table(["scan runs"] + list(totals) + ["not separable, skipped"],
                  [[sum(totals.values())] + list(totals.values())
                   + [s["scan_not_separable_skipped"]]])
    return runs + "\n\n" + scan


def _thm41(p):
    s, d = p["summary"], p["data"]
    meas, t_exact = np.asarray(d["measured"], float), np.asarray(d["T_exact"], float)
    m = np.asarray(d["M"], float)

    def span(values):
        values = [v for v in values.values() if v is not None]
        return f"{_g(min(values))}–{_g(max(values))}"
    return _table(["max measured / T_exact", "bound violations", "censored runs",
                   "T_exact range", "measured range", "max M / T_exact",
                   "slope in n: measured / T_exact", "slope in 1/ε: measured / T_exact"],
                  [[_g(s["max_measured_over_T_exact"], 2), s["bound_violations"],
                    s["censored_runs"], f"{_g(np.nanmin(t_exact), 2)}–{_g(np.nanmax(t_exact), 2)}",
                    f"{_g(np.nanmin(meas), 2)}–{_g(np.nanmax(meas), 2)}",
                    _g(np.nanmax(m / t_exact), 3),
                    f"{span(s['slope_n_measured'])} / {span(s['slope_n_T_exact'])}",
                    f"{span(s['slope_inv_eps_measured'])} / {span(s['slope_inv_eps_T_exact'])}"]])


def _thm51(p):
    s, d = p["summary"], p["data"]
    alphas, sharp = np.asarray(d["alphas"], float), np.asarray(d["sharp"], float)
    found = np.asarray(d["climbed"], float).max(axis=1)
    rows = [[_g(a, 2), _g(c), _g(f), f"{_g(100 * (1 - f / c), 2)}%", _g(2 * (1 + a) / (1 - a), 2)]
            for a, c, f in zip(alphas, sharp, found)]
    head = (f"Largest found / sharp over all α: {_g(s['max_found_over_sharp'], 4)} (smallest "
            f"{_g(s['min_found_over_sharp'], 4)}); sharp constant exceeded: "
            f"{s['sharp_constant_exceeded']}; paper's constant 2 exceeded: "
            f"{s['paper_constant_2_exceeded']}.\n\n")
    return head + _table(["α", "sharp (1 − α)/(1 + α)", "best found (k = 2)",
                          "short of sharp by", "looseness of 2: 2(1 + α)/(1 − α)"], rows)


#: figure id -> the Markdown of its numbers (from the figure's JSON payload)
BLOCKS = {"fig1": _fig1, "fig2": _fig2, "fig3": _fig3, "fig4": _fig4, "fig5": _fig5,
          "fig6": _fig6, "fig7": _fig7, "fig8": _fig8, "fig9": _fig9, "thm4.1": _thm41,
          "thm5.1": _thm51}


def block(fig_id: str, figures_dir) -> str:
    """The generated Markdown block of ``fig_id`` (markers included)."""
    payload = json.loads((Path(figures_dir) / f"{fig_id}.json").read_text())
    body = BLOCKS[fig_id](payload)
    return (f"<!-- generated: {fig_id} (from docs/figures/{fig_id}.json by make figures; "
            f"do not edit) -->\n{body}\n<!-- end generated: {fig_id} -->")


def _pattern(fig_id):
    fid = re.escape(fig_id)
    return re.compile(rf"<!-- generated: {fid} .*?<!-- end generated: {fid} -->", re.S)


def _render(text: str, figures_dir) -> tuple[str, list[str]]:
    missing = []
    for fig_id in BLOCKS:
        pat = _pattern(fig_id)
        if not pat.search(text):
            missing.append(fig_id)
            continue
        new = block(fig_id, figures_dir)
        text = pat.sub(lambda _m, new=new: new, text)
    return text, missing


def stale(markdown, figures_dir) -> list[str]:
    """Ids whose block in ``markdown`` differs from what the JSON gives (or is missing)."""
    text = Path(markdown).read_text()
    fresh, missing = _render(text, figures_dir)
    out = list(missing)
    for fig_id in BLOCKS:
        if fig_id in missing:
            continue
        if _pattern(fig_id).search(text).group(0) != _pattern(fig_id).search(fresh).group(0):
            out.append(fig_id)
    return out


def update(markdown, figures_dir) -> list[str]:
    """Rewrite every generated block of ``markdown``; returns the ids with no block."""
    path = Path(markdown)
    text, missing = _render(path.read_text(), figures_dir)
    path.write_text(text)
    return missing


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m linteach.figures.doc",
                                description=__doc__.split("\n")[0])
    p.add_argument("figures_dir")
    p.add_argument("markdown")
    p.add_argument("--check", action="store_true", help="only report stale blocks (exit 1)")
    args = p.parse_args(argv)
    if args.check:
        bad = stale(args.markdown, args.figures_dir)
        print(f"{args.markdown}: " + (f"stale or missing blocks: {', '.join(bad)}" if bad
                                      else "every generated block is up to date"))
        return 1 if bad else 0
    missing = update(args.markdown, args.figures_dir)
    print(f"{args.markdown}: generated blocks rewritten from {args.figures_dir}"
          + (f"; no block for {', '.join(missing)}" if missing else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
