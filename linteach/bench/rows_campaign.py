"""Rows C: what a verification campaign costs — per step, per run, per case.

* **C1 (flow families)**: the late-phase flow step of each claim family's own sizes, per
  run, at R = 1, 16, 64, 256 runs per call, against the two matmuls one run cannot avoid and
  against one small NumPy call (the interpreter floor); the batched/sequential ratio
  ``t(R=1) / (t(R)/R)`` at each R, all timed interleaved in one run.
* **C2 (SGD update, thm4.1 sizes)**: the same for one SGD update, plus the cost of a
  per-update Python callback that only files the iterate (the price of auditing updates in
  a callback) and of the trainer filing each epoch's updates itself (``on_epoch``, how the
  Thm 4.1 audit runs).
* **C3 (claims)**: cases per second per worker of each claim check, its whole check run in
  one process at a budget's sizes with :data:`CAMPAIGN_CASES` cases per family (a
  campaign: the standard budget itself draws only a few cases per family, too few for
  batching to show), with its batching and with the grouping it had before (side by side,
  same process), via ``python -m proofs_check.throughput`` in a subprocess (the library
  never imports the checks).  Its two reports must agree exactly.

Sizes below are the claim families' (``proofs_check/claims/*.py``, ``kit/sgd_configs.py``).
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile

import numpy as np

import linteach as lt

from . import rows_claims, rows_executors
from .timing import compare, ratio

#: (n, d, k, α) of each flow family as its check draws it
FLOW_FAMILIES = {"thm6.1 symmetric": (30, 4, 8, 0.3), "thm6.2": (40, 5, 10, 0.1),
                 "eq6": (30, 4, 5, 0.3), "appJ": (30, 2, 4, 0.3)}
#: a typical thm4.1 small-n configuration (n, d, k, α)
SGD_FAMILY = (34, 5, 3, 0.5)
RUNS = (1, 16, 64, 256)
#: targets: the per-run step at 256 runs per call within this multiple of the two-matmul
#: floor, and the batched/sequential ratio at 256 runs at least this
FLOOR_TARGET = 3.0
RATIO_TARGET = 10.0
#: per-worker cases/s of a claim check against its old grouping (issue 16)
SPEEDUP_TARGET = 5.0
SPEEDUP_CLAIMS = ("thm4.1", "eq6", "thm6.1", "thm6.2", "lem6.1", "appJ")
CLAIMS = SPEEDUP_CLAIMS + ("appK",)
#: steps per timed call (amortises the per-call setup and the two records)
FLOW_STEPS = 100
#: cases per family of rows C3 (``--cases`` of ``proofs_check.throughput``)
CAMPAIGN_CASES = 32


def _row(row_id, title, *, value, target_op, target, unit="×", **extra):
    met = None if value is None else (value <= target if target_op == "<=" else value >= target)
    return {"id": row_id, "title": title, "value": value, "unit": unit,
            "target": f"{target_op} {target:g}{unit}", "met": met, **extra}


def _stacked(n, d, k, alpha, R, seed):
    rng = np.random.default_rng(seed)
    net = lt.Net(k=k, alpha=alpha)
    data = lt.stack([lt.make_symmetric_gaussians(n, d, rng=r) for r in rng.spawn(R)])
    return net, data.X, data.y, net.init(d, scale=0.3, rng=rng, batch=R)


def _floors(n, d, k, seed, *, per_example=False):
    """The two products one run's step cannot avoid (``X Wᵀ`` and ``Gᵀ X`` for a full-batch
    step; ``W x`` and the outer product ``c xᵀ`` for one SGD update) and one small NumPy call."""
    rng = np.random.default_rng(seed)
    a, b, c = np.ones(4), np.ones(4), np.empty(4)
    if per_example:
        W, x, coef = rng.standard_normal((2 * k, d)), rng.standard_normal(d), np.ones(2 * k)
        products = lambda: (W @ x, np.multiply.outer(coef, x))  # noqa: E731
    else:
        X, WT, G = (rng.standard_normal(s) for s in ((n, d), (d, 2 * k), (n, 2 * k)))
        products = lambda: (X @ WT, G.T @ X)  # noqa: E731
    return {"two matmuls": products, "one NumPy call": lambda: np.add(a, b, out=c)}


def _per_run_rows(prefix, title, timings, per_call, floor_keys):
    """Rows from ``timings`` of contenders ``R=<r>`` (seconds per call of ``per_call`` steps)."""
    per_step = {r: timings[f"R={r}"]["median"] / per_call / r for r in RUNS}
    floor = timings["two matmuls"]["median"]
    call = timings["one NumPy call"]["median"]
    # ratios: medians of per-repeat ratios (the same repeat saw the same load)
    batched = {r: r * ratio(timings, "R=1", f"R={r}") for r in RUNS}
    over_floor = ratio(timings, "R=256", "two matmuls") / (per_call * 256)
    detail = {"µs per step per run": {f"R={r}": 1e6 * per_step[r] for r in RUNS},
              "batched/sequential": {f"R={r}": batched[r] for r in RUNS},
              "µs two-matmul floor (one run)": 1e6 * floor,
              "µs one small NumPy call": 1e6 * call,
              "one run's step / one NumPy call": per_step[1] / call}
    return [_row(f"{prefix} ratio", f"{title}: batched/sequential per-run time at R=256",
                 value=batched[256], target_op=">=", target=RATIO_TARGET,
                 detail=detail),
            _row(f"{prefix} floor", f"{title}: per-run step at R=256 / two-matmul floor",
                 value=over_floor, target_op="<=", target=FLOOR_TARGET,
                 detail={"R=1 step / floor": per_step[1] / floor})]


def flow_steps(*, repeats: int, seed: int = 3) -> list:
    """Rows C1: the normalized-flow step per run vs R and the floors, per flow family."""
    rows = []
    for name, (n, d, k, alpha) in FLOW_FAMILIES.items():
        net, X, y, W0 = _stacked(n, d, k, alpha, max(RUNS), seed)
        contenders = {f"R={r}": (lambda r=r: lt.gradient_flow(
            net, W0[:r], (X[:r], y[:r]), dt=0.01, n_steps=FLOW_STEPS, normalized=True,
            record=2)) for r in RUNS}
        contenders.update(_floors(n, d, k, seed))
        t = compare(contenders, repeats=repeats)
        rows += _per_run_rows(f"C1 {name} (n={n}, d={d}, k={k})", f"flow step, {name}", t,
                              FLOW_STEPS, None)
    return rows


def sgd_updates(*, repeats: int, seed: int = 4) -> list:
    """Rows C2: one SGD update per run vs R, and a filing callback's cost at R = 4."""
    n, d, k, alpha = SGD_FAMILY
    net, X, y, W0 = _stacked(n, d, k, alpha, max(RUNS), seed)
    contenders = {f"R={r}": (lambda r=r: lt.sgd(net, W0[:r], (X[:r], y[:r]), eta=0.1,
                                               n_epochs=1, rng=np.random.default_rng(seed),
                                               eps0=0.1)) for r in RUNS}
    buf = np.empty((n + 1, 4, 2 * k, d))

    def filing(t, W, info):  # the least a per-update audit callback does
        buf[t % (n + 1)] = W

    contenders["R=4 plain"] = lambda: lt.sgd(net, W0[:4], (X[:4], y[:4]), eta=0.1, n_epochs=1,
                                             rng=np.random.default_rng(seed), eps0=0.1)
    contenders["R=4 callback"] = lambda: lt.sgd(net, W0[:4], (X[:4], y[:4]), eta=0.1,
                                                n_epochs=1, rng=np.random.default_rng(seed),
                                                eps0=0.1, callback=filing)
    contenders["R=4 on_epoch"] = lambda: lt.sgd(net, W0[:4], (X[:4], y[:4]), eta=0.1,
                                                n_epochs=1, rng=np.random.default_rng(seed),
                                                eps0=0.1, on_epoch=lambda updates: None)
    # thm4.1's groups: 64 configurations of one shape, each its own α, v, η and 4 runs, as
    # one batch with per-run nets (lt.sgd([...], eta=array)) or one call per configuration
    rng = np.random.default_rng(seed + 1)
    nets = [lt.Net(k=k, alpha=float(a), v=float(v)) for a, v in
            zip(rng.uniform(0.1, 0.9, 64), np.exp(rng.uniform(-1.0, 1.0, 64)))]
    etas = np.exp(rng.uniform(np.log(0.05), 0.0, 64))
    per_run_nets = [net_c for net_c in nets for _ in range(4)]
    contenders["64 configs, one batch"] = lambda: lt.sgd(
        per_run_nets, W0, (X, y), eta=np.repeat(etas, 4), n_epochs=1,
        rng=np.random.default_rng(seed), eps0=0.1)
    contenders["64 configs, one call each"] = lambda: [lt.sgd(
        nets[c], W0[4 * c:4 * c + 4], (X[4 * c:4 * c + 4], y[4 * c:4 * c + 4]), eta=etas[c],
        n_epochs=1, rng=np.random.default_rng(seed), eps0=0.1) for c in range(64)]
    contenders.update(_floors(n, d, k, seed, per_example=True))
    t = compare(contenders, repeats=repeats)
    rows = _per_run_rows(f"C2 thm4.1 SGD (n={n}, d={d}, k={k})", "SGD update, thm4.1", t, n,
                         None)
    rows.append(_row("C2 per-run nets", "SGD, 256 runs: one net, step and ε0 per run (64 "
                     "configurations) / one shared net", value=ratio(
                         t, "64 configs, one batch", "R=256"), target_op="<=", target=1.2,
                     detail={"note": "the PerRun kernel's cost over Fused"}))
    rows.append(_row("C2 grouped configs", "SGD, 64 configurations of one shape (4 runs "
                     "each): one call each / one batch", value=ratio(
                         t, "64 configs, one call each", "64 configs, one batch"),
                     target_op=">=", target=SPEEDUP_TARGET,
                     detail={"note": "what thm4.1's shape groups gain once a campaign fills "
                                     "them (at 32 cases per family they rarely form: C3)"}))
    cb = ratio(t, "R=4 callback", "R=4 plain")
    rows.append(_row("C2 callback", "SGD, 4 runs: with a per-update filing callback / plain",
                     value=cb, target_op="<=", target=1.2,
                     detail={"note": "what any per-update callback costs before it audits "
                                     "anything"}))
    rows.append(_row("C2 on_epoch", "SGD, 4 runs: the trainer filing every update for "
                     "on_epoch / plain", value=ratio(t, "R=4 on_epoch", "R=4 plain"),
                     target_op="<=", target=1.2,
                     detail={"note": "how the Thm 4.1 audit receives its updates "
                                     "(lt.sgd(..., on_epoch=...)); plain counts ε0-mistakes "
                                     "per update, on_epoch per epoch"}))
    return rows


def claim_throughput(*, budget: str = "standard", cases=CAMPAIGN_CASES, claims=CLAIMS,
                     timeout=7200.0) -> list:
    """Rows C3: per-worker cases/s of each claim check now vs its old grouping, at ``cases``
    per family (None: the budget's own counts)."""
    size = [] if cases is None else ["--cases", str(int(cases))]
    with tempfile.TemporaryDirectory() as tmp:  # run elsewhere: never read the current folder
        proc = subprocess.run([sys.executable, "-m", "proofs_check.throughput", "--claims",
                               ",".join(claims), "--budget", budget, *size], cwd=tmp,
                              capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        return [_row(f"C3 claims ({budget})", "claim throughput", value=None, target_op=">=",
                     target=SPEEDUP_TARGET, missing=proc.stderr.strip()[-400:])]
    rows = []
    for m in json.loads(proc.stdout.strip().splitlines()[-1]):
        if m.get("missing"):
            continue
        now, old = m["now"], m.get("old")
        # a check whose grouping did not change has no old run: today's speed is its speed
        speedup = m.get("speedup", 1.0)
        target = SPEEDUP_TARGET if m["claim"] in SPEEDUP_CLAIMS else 1.0
        where = budget if cases is None else f"{budget} sizes, {int(cases)} cases per family"
        rows.append(_row(f"C3 {m['claim']} ({where})",
                         f"{m['claim']} cases/s per worker, now / before batching",
                         value=speedup, target_op=">=", target=target,
                         detail={"cases": now["cases"], "cases/s now": now["cases_per_s"],
                                 "cases/s before": None if old is None else old["cases_per_s"],
                                 "seconds now": now["seconds"],
                                 "seconds before": None if old is None else old["seconds"],
                                 "cases per map item": m["chunk"],
                                 "same report": m.get("same_report"),
                                 "verdict": now["verdict"]}))
        if m.get("same_report") is False:  # batching changed a number: a defect, not a speed
            rows[-1]["met"] = False
    return rows


# -- docs/scale.md: the generated part ------------------------------------------------------
BEGIN = "<!-- campaign rows: generated by `linteach bench --scale-md docs/scale.md` -->"
END = "<!-- end of campaign rows -->"


def scale_section(doc: dict) -> str:
    """Markdown of the C rows of a bench document (``linteach bench --json``), with the
    verdicts of its rows 5 (whole ``proofs_check`` runs) beside theirs."""
    rows = [r for r in doc["rows"] if str(r["id"]).startswith("C")]
    whole = [r for r in doc["rows"] if str(r["id"]).startswith("5 (")]  # whole runs: rows 5
    m = doc.get("machine", {})
    out = [BEGIN, "", f"Measured on {m.get('cpus', '?')} CPUs ({m.get('cpu', '?')}), load "
           f"average at the end {' / '.join(f'{x:.1f}' for x in m.get('load_average_end', []))}; "
           "rows C3 may come from a longer run than C1/C2 (``merged``). The C1/C2 ratios "
           "are medians of per-repeat ratios timed interleaved in one process (absolute "
           "times on a shared machine are noise, ratios much less so); a C3 ratio is one "
           "whole check under each grouping in turn (minutes each, the order alternated by "
           "claim), so load that changes between the two runs moves it.", ""]
    steps = [r for r in rows if r["id"].endswith(" ratio")]
    if steps:
        out += ["| family | µs/step/run at R=1 | 16 | 64 | 256 | two-matmul floor µs | one "
                "NumPy call µs | batched/sequential at 16 / 64 / 256 | R=256 step / floor |",
                "|---|---|---|---|---|---|---|---|---|"]
        for r in steps:
            floor = next((f for f in rows if f["id"] == r["id"][:-6] + " floor"), None)
            us, bs = r["detail"]["µs per step per run"], r["detail"]["batched/sequential"]
            out.append(f"| {r['id'][3:-6]} | " + " | ".join(rows_claims.cell(us[f'R={x}']) for x in RUNS)
                       + f" | {rows_claims.cell(r['detail']['µs two-matmul floor (one run)'])} | "
                       f"{rows_claims.cell(r['detail']['µs one small NumPy call'])} | "
                       + " / ".join(rows_claims.cell(bs[f'R={x}']) for x in RUNS[1:])
                       + f" | {rows_claims.cell(floor and floor['value'])} |")
        out.append("")
    claims = [r for r in rows if r["id"].startswith("C3")]
    if claims:
        out += ["| claim (budget) | cases | cases/s per worker now | before | now / before | "
                "target | met | reports identical |", "|---|---|---|---|---|---|---|---|"]
        for r in claims:
            d = r.get("detail", {})
            out.append(f"| {r['id'][3:]} | {rows_claims.cell(d.get('cases'))} | "
                       f"{rows_claims.cell(d.get('cases/s now'))} | {rows_claims.cell(d.get('cases/s before'))} | "
                       f"{rows_claims.cell(r['value'])} | {r['target']} | "
                       f"{'met' if r['met'] else 'missed'} | {rows_claims.cell(d.get('same report'))} |")
        out.append("")
    out += rows_claims.section(rows)
    out += rows_executors.section(rows)
    out += ["| row | value | target | met |", "|---|---|---|---|"]
    out += [f"| {r['id']} | {rows_claims.cell(r['value'])}{r['unit']} | {r['target']} | {_met(r)} |"
            for r in rows + whole if r["met"] is not None or r.get("target") != "–"]
    return "\n".join(out + ["", END])


def _met(row) -> str:
    return "met" if row["met"] else "not measured" if row["met"] is None else "missed"


def write_scale(path, doc: dict) -> None:
    """Replace the generated part of ``path`` (appended if it has none) with ``doc``'s rows."""
    from pathlib import Path

    text = Path(path).read_text()
    section = scale_section(doc)
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n## Campaign throughput (generated)\n\n" + section + "\n"
    Path(path).write_text(text)


def merged(docs) -> dict:
    """Rows of several bench documents, a later document's row replacing an earlier one of the
    same id (e.g. rows C3 from a long run, C1/C2 remeasured); the last document's machine."""
    rows = {}
    for doc in docs:
        rows.update({r["id"]: r for r in doc["rows"]})
    return {"rows": list(rows.values()), "machine": docs[-1].get("machine", {})}


if __name__ == "__main__":  # python -m linteach.bench.rows_campaign BENCH_JSON... SCALE_MD
    write_scale(sys.argv[-1], merged([json.loads(open(p).read()) for p in sys.argv[1:-1]]))
