"""Rows C5: cases per second per worker under each executor, and the cost of dispatching.

Two workloads (the self-test's GD claim and ``thm4.1`` at a few cases per family) run in
this process, in local process pools of one and two workers and on a two-worker Dask
``LocalCluster``, via ``python -m proofs_check.executor_throughput`` in a subprocess (the
library never imports the checks).  Reported, not judged: on a machine whose cores other
work shares, a second worker may add nothing, and only the one-worker rows say what a
cluster's worker does.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile

from .rows_claims import cell


def executor_rows(*, timeout: float = 3600.0) -> list:
    """Rows C5 (see the module docstring); one ``missing`` row if the measurement failed."""
    with tempfile.TemporaryDirectory() as tmp:  # run elsewhere: never read the current folder
        proc = subprocess.run([sys.executable, "-m", "proofs_check.executor_throughput"],
                              cwd=tmp, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        return [{"id": "C5 executors", "title": "executor throughput", "value": None,
                 "unit": "", "target": "–", "met": None, "missing": proc.stderr.strip()[-400:]}]
    load = [round(x, 2) for x in os.getloadavg()]
    rows = []
    for entry in json.loads(proc.stdout.strip().splitlines()[-1]):
        where = f"{entry['executor']}, {entry['workers']} worker" + \
            ("s" if entry["workers"] > 1 else "")
        if entry.get("missing"):
            rows.append({"id": f"C5 {where}", "title": "not measured", "value": None,
                         "unit": "", "target": "–", "met": None, "missing": entry["missing"]})
            continue
        for w in entry["workloads"]:
            rows.append({"id": f"C5 {where}: {w['claim']}",
                         "title": f"{w['claim']} cases/s per worker under {where}",
                         "value": statistics.median(w["cases_per_s_per_worker"]),
                         "unit": " cases/s", "target": "–", "met": None,
                         "detail": {"cases": w["cases"], "seconds": w["seconds"],
                                    "verdict": w["verdict"], "load average at the end": load}})
        if "dispatch_ms" in entry:
            rows.append({"id": f"C5 {where}: dispatch", "title": f"ms to dispatch one trivial "
                         f"item under {where}", "value": entry["dispatch_ms"], "unit": " ms",
                         "target": "–", "met": None})
    return rows


def section(rows) -> list:
    """Markdown lines of the C5 rows of a bench document (for ``docs/scale.md``)."""
    rows = [r for r in rows if str(r["id"]).startswith("C5 ")]
    if not rows:
        return []
    table: dict = {}
    for r in rows:
        where, _, what = r["id"][3:].partition(": ")
        table.setdefault(where, {})[what or "missing"] = r
    claims = sorted({what for cols in table.values() for what in cols} - {"dispatch", "missing"})
    out = ["| executor | " + " | ".join(f"{c}: cases/s per worker (seconds per run)"
                                       for c in claims) + " | dispatch ms per item |",
           "|---|" + "---|" * (len(claims) + 1)]
    for where, cols in table.items():
        cells = []
        for c in claims:
            r = cols.get(c)
            cells.append("–" if r is None or r["value"] is None else f"{cell(r['value'])} (" + " / ".join(
                f"{s:.1f}" for s in r["detail"]["seconds"]) + ")")
        dispatch = cols.get("dispatch")
        note = cols.get("missing")
        cells.append(cell(dispatch and dispatch["value"]) if note is None else
                     f"not measured: {note['missing'][:80]}")
        out.append(f"| {where} | " + " | ".join(cells) + " |")
    loads = [r["detail"]["load average at the end"] for r in rows if r.get("detail")]
    if loads:
        out += ["", "Load average (1, 5, 15 min) at the end of rows C5: "
                + " / ".join(f"{x:.1f}" for x in loads[-1]) + "."]
    return out + [""]
