"""Rows C4: every claim check's cases per second per worker, at the standard and thorough sizes.

Each row is one whole check run in one process (one worker: ``ctx.map`` runs its items
there, in order) with the check's own batching, via ``python -m proofs_check.throughput
--no-old`` in a subprocess (the library never imports the checks); cases/s is the cases the
check drew over its seconds, so a check's fixed part (its negative controls, its
constructions) is paid by its cases.  Per budget of ``--claims-budgets``:

* ``standard``: every claim at the budget's own counts (exactly the cases ``make verify``
  draws), reported without a target;
* ``thorough``: every claim at the thorough sizes (more steps and epochs, every case
  audited) with :data:`THOROUGH_CASES` cases per family, reported without a target (a
  few cases share the fixed part, so these rates are understated); and the claims whose
  thorough-budget rate per worker the issue that asked for batched campaigns recorded
  (:data:`FILED`, on the same kind of shared 2-core machine) twice more:

  - at the thorough budget's own counts, the basis of the filed rate: these rows carry
    the target, :data:`TARGET_FACTOR` times the filed rate;
  - at :data:`CAMPAIGN_CASES` cases per family, from which a campaign's marginal rate
    follows: the extra cases over the extra seconds against the budget's own counts (the
    fixed part cancels), what each further case of a 10⁴–10⁶-case campaign costs; reported
    beside the target, not judged (the filed rate was not a marginal one).
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
#: cases per family of the every-claim thorough rows (None would be the budget's counts)
THOROUGH_CASES = 4
#: cases per family of the campaign rows of the filed claims: their items are full (256
#: runs) from here on, so a further case costs what it costs in a large campaign
CAMPAIGN_CASES = 64
#: the budgets of rows C4 and the cases per family of their every-claim rows
BUDGET_CASES = {"standard": None, "thorough": THOROUGH_CASES}


def _where(budget, cases) -> str:
    return f"{budget} budget" if cases is None else f"{budget} sizes, {int(cases)} per family"


def _measure(budget, cases, claims, timeout):
    """The throughput tool's measurements (a list of dicts), or its error text (a str)."""
    size = [] if cases is None else ["--cases", str(int(cases))]
    with tempfile.TemporaryDirectory() as tmp:  # run elsewhere: never read the current folder
        proc = subprocess.run([sys.executable, "-m", "proofs_check.throughput", "--claims",
                               ",".join(claims) if claims else "all", "--budget", budget,
                               "--no-old", *size], cwd=tmp,
                              capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        return proc.stderr.strip()[-400:]
    return [m for m in json.loads(proc.stdout.strip().splitlines()[-1]) if not m.get("missing")]


def _row(claim, where, rate, detail, *, target=None):
    return {"id": f"C4 {claim} ({where})",
            "title": f"{claim} cases/s per worker, one whole check in one process",
            "value": rate, "unit": " cases/s",
            "target": "–" if target is None else f">= {target:g} cases/s",
            "met": None if target is None or rate is None else rate >= target,
            "detail": detail}


def _ceiling(now):
    naive = now.get("naive_seconds")
    return now["cases"] / naive if naive else None


def _engine_ceiling(now):
    """Cases over the seconds outside linteach's trainers: the rate were the trainers free,
    so no speedup of the trainers alone reaches a target above it (None: not measured)."""
    trainers = now.get("trainer_seconds")
    if trainers is None:
        return None
    rest = now["seconds"] - trainers
    return now["cases"] / rest if rest > 0 else None


def _failed(where, text):
    return [{"id": f"C4 every claim ({where})", "title": "claim throughput", "value": None,
             "unit": " cases/s", "target": "–", "met": None, "missing": text}]


def every_claim(*, budget: str, cases=None, claims=None, timeout: float = 7200.0,
                judged: bool = False) -> list:
    """Rows C4 of ``budget``: per claim (``claims``, default every registered one) the cases
    drawn, the seconds and cases/s per worker, one whole check in one process (``cases`` per
    family; None: the budget's counts).  With ``judged`` a filed claim's row carries its
    target (5× its filed thorough rate)."""
    if budget not in BUDGET_CASES:
        raise ValueError(f"`budget` must be one of {sorted(BUDGET_CASES)}, got {budget!r}")
    where = _where(budget, cases)
    found = _measure(budget, cases, claims, timeout)
    if isinstance(found, str):
        return _failed(where, found)
    load = [round(x, 2) for x in os.getloadavg()]
    rows = []
    for m in found:
        now, filed = m["now"], FILED.get(m["claim"]) if budget == "thorough" else None
        rows.append(_row(m["claim"], where, now["cases_per_s"], {
            "cases": now["cases"], "seconds": now["seconds"],
            # the engine audit's naive reference implementations: a speedup of the engine
            # and of the checks cannot remove them, so cases over them bounds the rate
            "naive reference seconds": now.get("naive_seconds"),
            "cases/s if only the naive references cost": _ceiling(now),
            # linteach's trainers less their hooks into the check: what an engine speedup
            # could remove at most
            "trainer seconds": now.get("trainer_seconds"),
            "cases/s if the trainers took no time": _engine_ceiling(now),
            "load average at the end": load,
            "verdict": now["verdict"], "cases per map item": m["chunk"],
            "filed cases/s": filed,
            "now / filed": None if filed is None else now["cases_per_s"] / filed},
            target=TARGET_FACTOR * filed if judged and filed is not None else None))
    return rows


def marginal(own: dict, big: dict) -> dict:
    """The campaign row of one claim from its row at the budget's counts (``own``) and at
    :data:`CAMPAIGN_CASES` per family (``big``): extra cases over extra seconds."""
    a, b = own["detail"], big["detail"]
    extra, seconds = b["cases"] - a["cases"], b["seconds"] - a["seconds"]
    claim = own["id"].split()[1]
    rate = extra / seconds if extra > 0 and seconds > 0 else None
    filed = a.get("filed cases/s")
    return _row(claim, f"thorough sizes, marginal from the budget's counts to "
                       f"{CAMPAIGN_CASES} per family", rate, {
                    "cases": extra, "seconds": seconds,
                    "load average at the end": b.get("load average at the end"),
                    "filed cases/s": filed,
                    "now / filed": None if filed is None or rate is None else rate / filed,
                    "verdict": [a.get("verdict"), b.get("verdict")]})


def budget_rows(budget: str, *, timeout: float = 7200.0) -> list:
    """Every row C4 of ``budget`` (the module docstring says which)."""
    rows = every_claim(budget=budget, cases=BUDGET_CASES[budget], timeout=timeout)
    if budget != "thorough":
        return rows
    own = every_claim(budget=budget, claims=tuple(FILED), timeout=timeout, judged=True)
    big = every_claim(budget=budget, cases=CAMPAIGN_CASES, claims=tuple(FILED),
                      timeout=timeout)
    rows += own + big
    pairs = {r["id"].split()[1]: r for r in own if r.get("detail")}
    for r in big:
        if r.get("detail") and r["id"].split()[1] in pairs:
            rows.append(marginal(pairs[r["id"].split()[1]], r))
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
           "'naive s' is the time in the engine audit's deliberately naive reference "
           "implementations, which no speedup of the engine removes; 'ceiling' is the cases "
           "over it, the rate were everything else free. 'trainer s' is the time in "
           "linteach's trainers (sgd, gd, gradient_flow) less the checks' hooks they call "
           "back; 'no-trainer' is the cases over the rest, the rate were the trainers free: "
           "a target above it is out of reach of any speedup of the trainers alone.", "",
           "| claim (sizes) | cases | seconds | cases/s per worker | naive s | ceiling | "
           "trainer s | no-trainer | filed (thorough) | now / filed | target | met |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        d = r.get("detail", {})
        met = "–" if r["met"] is None else "met" if r["met"] else "missed"
        out.append(f"| {r['id'][3:]} | {cell(d.get('cases'))} | {cell(d.get('seconds'))} | "
                   f"{cell(r['value'])} | {cell(d.get('naive reference seconds'))} | "
                   f"{cell(d.get('cases/s if only the naive references cost'))} | "
                   f"{cell(d.get('trainer seconds'))} | "
                   f"{cell(d.get('cases/s if the trainers took no time'))} | "
                   f"{cell(d.get('filed cases/s'))} | "
                   f"{cell(d.get('now / filed'))} | {r['target']} | {met} |")
    return out + [""]
