"""Rows C4: every claim check's cases per second per worker, at the standard and thorough sizes.

Each row is one whole check run in one process (one worker: ``ctx.map`` runs its items
there, in order) with the check's own batching, via ``python -m proofs_check.throughput
--claims all --no-old`` in a subprocess (the library never imports the checks); cases/s is
the cases the check drew over its seconds, so a check's fixed part (its negative controls,
its constructions) is paid by its cases.  The standard row runs the budget's own counts
(exactly the cases ``make verify`` draws); the thorough row runs the thorough sizes (more
steps and epochs, every case audited) at :data:`THOROUGH_CASES` cases per family, which
costs minutes rather than the half hour of the thorough budget's own counts; its fixed part
is then shared by fewer cases, so the rate is, if anything, understated.

Where the issue that asked for batched campaigns recorded a claim's thorough-budget cases/s
per worker (:data:`FILED`, on the same kind of shared 2-core machine), the thorough row's
target is :data:`TARGET_FACTOR` times that; the other rows carry no target (reported, not
judged).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

#: thorough-budget cases/s per worker of each check as recorded when batched campaigns were
#: asked for (issue 16's throughput table); the thorough rows' targets are 5× these
FILED = {"thm4.1": 4.5, "thm6.1": 1.8, "eq6": 1.9}
TARGET_FACTOR = 5.0
#: cases per family of the thorough rows (None: the budget's own counts)
THOROUGH_CASES = 4
#: the budgets of rows C4 and their cases per family
BUDGET_CASES = {"standard": None, "thorough": THOROUGH_CASES}


def _where(budget, cases) -> str:
    return f"{budget} budget" if cases is None else f"{budget} sizes, {int(cases)} per family"


def every_claim(*, budget: str, cases=None, timeout: float = 7200.0) -> list:
    """Rows C4 of ``budget``: per claim, the cases drawn, the seconds and cases/s per worker,
    one whole check in one process (``cases`` per family; None: the budget's counts)."""
    if budget not in BUDGET_CASES:
        raise ValueError(f"`budget` must be one of {sorted(BUDGET_CASES)}, got {budget!r}")
    size = [] if cases is None else ["--cases", str(int(cases))]
    with tempfile.TemporaryDirectory() as tmp:  # run elsewhere: never read the current folder
        proc = subprocess.run([sys.executable, "-m", "proofs_check.throughput", "--claims",
                               "all", "--budget", budget, "--no-old", *size], cwd=tmp,
                              capture_output=True, text=True, timeout=timeout)
    where, load = _where(budget, cases), [round(x, 2) for x in os.getloadavg()]
    if proc.returncode != 0:
        return [{"id": f"C4 every claim ({where})", "title": "claim throughput", "value": None,
                 "unit": " cases/s", "target": "–", "met": None,
                 "missing": proc.stderr.strip()[-400:]}]
    rows = []
    for m in json.loads(proc.stdout.strip().splitlines()[-1]):
        if m.get("missing"):
            continue
        now = m["now"]
        filed = FILED.get(m["claim"]) if budget == "thorough" else None
        target = None if filed is None else TARGET_FACTOR * filed
        rows.append({"id": f"C4 {m['claim']} ({where})",
                     "title": f"{m['claim']} cases/s per worker, one whole check in one process",
                     "value": now["cases_per_s"], "unit": " cases/s",
                     "target": "–" if target is None else f">= {target:g} cases/s",
                     "met": None if target is None else now["cases_per_s"] >= target,
                     "detail": {"cases": now["cases"], "seconds": now["seconds"],
                                "load average at the end": load,
                                "verdict": now["verdict"], "cases per map item": m["chunk"],
                                "filed cases/s": filed,
                                "now / filed": None if filed is None
                                else now["cases_per_s"] / filed}})
    return rows


def cell(value) -> str:
    """A table cell of the campaign rows: – for no value, a float to 3 significant digits."""
    return "–" if value is None else f"{value:.3g}" if isinstance(value, float) else str(value)


def section(rows) -> list:
    """Markdown lines of the C4 rows of a bench document (for ``docs/scale.md``)."""
    rows = [r for r in rows if str(r["id"]).startswith("C4 ")]
    if not rows:
        return []

    loads = {r["id"].split("(", 1)[1].rstrip(")"): r.get("detail", {}).get(
        "load average at the end") for r in rows}
    out = ["Rows C4 ran with the 1-, 5- and 15-minute load averages at their end: "
           + "; ".join(f"{where}: {' / '.join(f'{x:.1f}' for x in load)}"
                       for where, load in loads.items() if load) + ".", "",
           "| claim (sizes) | cases | seconds | cases/s per worker | filed (thorough) | "
           "now / filed | target | met |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        d = r.get("detail", {})
        met = "–" if r["met"] is None else "met" if r["met"] else "missed"
        out.append(f"| {r['id'][3:]} | {cell(d.get('cases'))} | {cell(d.get('seconds'))} | "
                   f"{cell(r['value'])} | {cell(d.get('filed cases/s'))} | "
                   f"{cell(d.get('now / filed'))} | {r['target']} | {met} |")
    return out + [""]
