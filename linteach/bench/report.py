"""``docs/bench.md``: the table, the machine, and what each figure means and what limits it."""
from __future__ import annotations

import json

EXPLAIN = {
    "C": """**Rows C — campaign costs** (`linteach/bench/rows_campaign.py`, also written into
`docs/scale.md`).  C1/C2: one flow step / one SGD update per run at R = 1, 16, 64, 256 runs
per call against the two products one run cannot avoid and one small NumPy call; C3: each
claim check's cases per second in one worker process, with its batching and with its old
grouping, side by side (their reports must be identical); C4 (`rows_claims.py`): every
claim check's cases per second in one worker process at the standard budget and at the
thorough sizes (4 cases per family, no target); the claims whose rate was filed before
batching also at the thorough budget's own counts (judged against 5× that rate) and at 64
cases per family, whose marginal rate (extra cases over extra seconds) is shown unjudged.""",
    "1": """**Row 1 — full-batch `loss_and_grad` vs its two-matmul floor.**  Any implementation
must form the pre-activations `Z = X Wᵀ` and the gradient `Gᵀ X`; the floor times exactly
those two BLAS calls (with a random `G`).  linteach adds one in-place `relu` pass over `Z`, one
matrix-vector product for the output, one in-place comparison that turns `relu(Z)` into the
slope mask, and O(nd) work (σ = αz + (1−α)relu(z), so `Z a = X(Wᵀa)` needs no pass over `Z`;
the backward is `a ⊙ (α 1ᵀ(cX) + (1−α) mᵀ(cX))`).  What remains above 1× is those two and a
half passes over the n×2k array: memory bandwidth, which on this shared VM is a few GB/s.
"unfused formula / floor" is the direct formula (`slope` twice, `Z·slope`, `coef·slope·a`)
measured in the same repeats.""",
    "2": """**Row 2 — per-sample SGD.**  Batch size 1 is Python-loop bound: each update is a
handful of tiny array operations, each costing ~1 µs of interpreter and ufunc dispatch no
matter how small.  linteach's single-run path makes about 9 NumPy calls per update (one
gemv, a comparison and a `where` for a_j σ'(z_j), one dot, `g`, one scale, one outer product,
one in-place add), the straightforward version (separate w/u, `np.where` for σ and σ', Eq. 3
as written) about 25, and torch autograd builds and walks a graph per sample (tens of µs).
At d=50, k=100 the outer product and the add (2k·d = 10⁴ weights) start to cost as much as
the calls, for both, so the advantage shrinks with the size of the net.  Every baseline is first
checked to reach linteach's weights (relative 1e-9) from the same start and permutations.""",
    "3": """**Row 3 — batched runs vs sequential runs.**  R runs advance in one array program
(per-run BLAS calls, so each run rounds exactly as alone: `tests/test_batched.py` asserts
bit equality).  The speed-up is R·t(1 run)/t(R runs): batching removes the per-update
interpreter cost, which dominates one small run, but not the per-run memory traffic.  For SGD
a 256-run update still reads and writes all 256×2k×d weights (an outer product and an add,
~0.8 MB each) every step; on this machine that traffic, not Python, sets the ceiling.  For
the full-batch trainers one run is already vectorised over the n points, so the ceiling is
(overhead + work)/work of a single run: a few-fold at n=100, d=10, k=20.""",
    "4": """**Row 4 — a full-batch gradient step vs torch autograd (CPU, float64).**  The same
net, loss and step through `torch.nn.functional.leaky_relu` (derivative α at 0, like
linteach) and `softplus`; the baseline is checked to reach the same weights.  torch pays
graph construction and its own per-op dispatch; linteach's fused pass count is row 1's.""",
    "5": """**Row 5 — `make verify` end to end.**  The standard-budget `proofs_check` run,
exactly as `make verify` starts it (its worker processes pin BLAS to one thread each), with
each claim's own seconds from its `claims.json`.  It reports the claims that exist when the
benchmark runs; a claim not written yet is listed as not checked, not timed.  A full
benchmark also runs `--budget thorough` the same way (`rows_verify.py`), against the
campaign-speed issue's two targets for it: at most 10 minutes of wall time, and at least 10×
the cases the thorough budget drew when that issue was filed, i.e. a thorough/standard case
ratio of at least 10 × 5 (the thorough budget then drew 5× the standard cases per family)
over the claims both runs checked.  A thorough run still going after 25 minutes is stopped
and reported as missed.""",
    "env": """**Environment rows.**  Each setting is read at process start, so it is measured in
child processes started alternately with and without it (`linteach/bench/probe.py`): the ratio is
time(with)/time(without), median over rounds (< 1 means the setting helps).  *malloc*: glibc
returns freed blocks above its mmap threshold to the OS, so the next large temporary
page-faults again (the page-fault columns); raising `MALLOC_MMAP_THRESHOLD_` (to glibc's
64-bit maximum, 32 MiB) and `MALLOC_TRIM_THRESHOLD_` keeps them in the heap.  Blocks above
32 MiB are always mapped afresh, which is why the trainers reuse one buffer per step.
*threads*: OpenBLAS's second thread competes with the other engineers' processes on this
2-core machine; measured both ways so the effect on a quiet machine can be compared.""",
}


def _fmt(value, unit):
    if value is None:
        return "—"
    return f"{value:.3g}{unit}" if unit.strip() != "s" else f"{value:.1f} s"


def _status(row):
    if row.get("missing"):
        return row["missing"]
    if row.get("met") is None:
        return "—"
    return "**met**" if row["met"] else "**missed**"


def table(rows) -> str:
    lines = ["| row | measures | value | target | status |", "|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['id']} | {row['title']} | {_fmt(row['value'], row['unit'])} "
                     f"| {row['target']} | {_status(row)} |")
    return "\n".join(lines)


def _env_table(env_rows) -> str:
    lines = ["| setting | case | time with / without | page faults per call (without → with) |",
             "|---|---|---|---|"]
    for row in env_rows:
        if "ratio" not in row:
            lines.append(f"| {row['id']} | — | {row['note']} | — |")
            continue
        setting = ", ".join(f"`{k}={v}`" for k, v in row["setting"].items())
        for case, value in row["ratio"].items():
            last = row["last_round"][case]
            lines.append(f"| {setting} | {case} | {value:.2f}× | "
                         f"{last['base']['page_faults']:.0f} → {last['other']['page_faults']:.0f} |")
    return "\n".join(lines)


def _machine(m) -> str:
    blas = "; ".join(f"{b['internal_api']} {b['version'] or ''} {b['architecture'] or ''} "
                     f"{b['num_threads']} threads ({str(b['filepath']).rsplit('/', 1)[-1]})"
                     for b in m["blas"])
    env = ", ".join(f"{k}={v}" for k, v in m["env"].items() if v is not None) or "none set"
    return "\n".join([
        f"- CPU: {m['cpu']}, {m['cpus']} cores; load average at start "
        f"{m['load_average_start'][0]:.1f}, at end {m['load_average_end'][0]:.1f} "
        "(other engineers' jobs share these cores)",
        f"- Python {m['python']}, NumPy {m['numpy']}, SciPy {m['scipy']}, torch {m['torch']}",
        f"- BLAS: {blas}",
        f"- rows 1–4 ran with BLAS threads = {m['blas_threads_rows_1_4']} "
        f"(torch threads = {m['torch_threads']}); environment: {env}"])


def _details(row) -> list:
    if row["id"].startswith("5") and "claims" in row:
        if row["exit_status"] is None:  # stopped by its timeout: no claims.json
            return ["", f"{' '.join(row['tail'])}: `python {row['command']}`.", ""]
        lines = ["", "| claim | verdict | cases | seconds (its own wall time; claims run "
                 "concurrently, so these overlap) |",
                 "|---|---|---|---|"]
        lines += [f"| {c['id']} | {c['verdict']} | {c['cases']} | {c['seconds']:.1f} |"
                  for c in row["claims"]]
        not_checked = ", ".join(row["not_checked"]) or "none"
        return lines + ["", f"Not checked yet when measured: {not_checked}.  Exit status "
                        f"{row['exit_status']}: `python {row['command']}`.", ""]
    if row["id"].startswith("3"):
        det = row["detail"]
        lines = ["", "| runs | updates / s | speed-up vs sequential |", "|---|---|---|"]
        lines += [f"| {key} | {det['updates/s'][key]:,.0f} | "
                  f"{det['speedup'].get(key, 1.0):.2f}× |" for key in det["updates/s"]]
        return lines + [""]
    extra = {k: v for k, v in row.items() if k in ("seconds", "detail")}
    return [f"  `{json.dumps(extra, default=str)}`"]


def to_markdown(doc) -> str:
    out = ["# Benchmarks", "",
           "Generated by `make bench` (`linteach bench`); do not edit by hand.  Every "
           "ratio is measured in one process with the contenders interleaved in each repeat "
           f"(median of per-repeat ratios, {doc['repeats']} repeats), so load drifts on this "
           "shared machine hit both sides alike; absolute times are noisy, ratios much less.",
           "", "## Results", "", table(doc["rows"]), "", "## Machine", "",
           _machine(doc["machine"]), "", "## Details per row", ""]
    for row in doc["rows"]:
        out += [f"- **{row['id']}**"] + _details(row)
    out += ["", "## Environment settings", "", _env_table(doc["env_rows"]), "",
            "## What each figure means and what limits it", ""]
    out += [EXPLAIN[key] + "\n" for key in ("1", "2", "3", "4", "5", "C", "env")]
    return "\n".join(out) + "\n"
