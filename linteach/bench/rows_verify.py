"""Rows 5: whole ``proofs_check`` runs end to end — ``make verify``'s standard-budget run and,
in a full benchmark, the ``--budget thorough`` run of every claim, seconds per claim.

Each runs exactly the command ``make verify`` runs, at its budget (checkpoints go to a
temporary directory and the report to temporary files, and it runs in a temporary folder,
so neither the working tree nor the current folder is touched or read) and reads the
per-claim timings and case counts from its ``--json`` output: whatever claims exist when the
benchmark runs.  The thorough run has two targets (the campaign-speed issue's): at most
:data:`THOROUGH_TARGET_SECONDS` of wall time, and at least :data:`CASES_FACTOR` times the
cases the thorough budget drew when that issue was filed.  Then the thorough budget drew
:data:`FILED_THOROUGH_SCALE` times the standard budget's cases per family, so the second
target is a thorough/standard case ratio of at least ``CASES_FACTOR * FILED_THOROUGH_SCALE``
over the claims both runs checked on the tree being measured.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 180.0
THOROUGH_TARGET_SECONDS = 600.0
#: the thorough budget's cases per family over the standard budget's when the campaign-speed
#: issue was filed (``BUDGET_SCALE["thorough"]`` then), and the factor that issue asked for
FILED_THOROUGH_SCALE = 5.0
CASES_FACTOR = 10.0
#: a thorough run still going after this many seconds is stopped and reported as missed
THOROUGH_TIMEOUT = 2.5 * THOROUGH_TARGET_SECONDS


def run_budget(budget: str, seed: int, timeout: float) -> dict:
    """One whole run: wall seconds, per-claim rows, and how it ended."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "claims.json"
        cmd = [sys.executable, "-m", "proofs_check", "--budget", budget, "--seed", str(seed),
               "--json", str(report), "--out", str(Path(tmp) / "claims.md"),
               "--state", str(Path(tmp) / "state")]
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"wall": None, "claims": [], "not_checked": [], "exit_status": None,
                    "command": " ".join(cmd[1:]),
                    "tail": [f"stopped: still running after {timeout:g} s"]}
        wall = time.perf_counter() - start
        doc = json.loads(report.read_text()) if report.exists() else {}
    return {"wall": wall, "claims": [{"id": c["id"], "verdict": c["verdict"],
                                      "seconds": c["seconds"], "cases": c.get("cases")}
                                     for c in doc.get("claims", [])],
            "not_checked": doc.get("not_checked", []), "exit_status": proc.returncode,
            "command": " ".join(cmd[1:]),
            "tail": proc.stdout.strip().splitlines()[-3:] + proc.stderr.strip().splitlines()[-3:]}


def _time_row(run: dict, *, rid: str, title: str, target: float) -> dict:
    wall = run["wall"]
    return {"id": rid, "title": title, "value": wall, "unit": " s",
            "target": f"<= {target:g} s", "met": wall is not None and wall <= target,
            **{k: run[k] for k in ("claims", "not_checked", "exit_status", "command", "tail")}}


def make_verify(*, seed: int = 0, timeout: float = 3600.0) -> dict:
    """Row 5: ``make verify``'s standard-budget run."""
    return _time_row(run_budget("standard", seed, timeout),
                     rid="5 (make verify, standard budget)",
                     title="end-to-end proofs_check --budget standard, wall seconds on this "
                           "machine", target=TARGET_SECONDS)


def case_ratio(thorough_claims: list, standard_claims: list) -> tuple:
    """``(thorough cases, standard cases, per-claim ratios)`` over the claims both runs drew
    cases for."""
    std = {c["id"]: c["cases"] for c in standard_claims if c.get("cases")}
    both = [(c["id"], c["cases"], std[c["id"]]) for c in thorough_claims
            if c.get("cases") and c["id"] in std]
    return (sum(t for _, t, _ in both), sum(s for _, _, s in both),
            {cid: t / s for cid, t, s in both})


def thorough_rows(standard: dict | None, *, seed: int = 0,
                  timeout: float = THOROUGH_TIMEOUT) -> list:
    """Rows 5 of the thorough run: its wall time, and its cases against ``standard`` (row 5
    of the same benchmark; None when that was skipped, and the ratio is not measured)."""
    run = run_budget("thorough", seed, timeout)
    rows = [_time_row(run, rid="5 (proofs_check --budget thorough, every claim)",
                      title="end-to-end proofs_check --budget thorough, wall seconds on this "
                            "machine", target=THOROUGH_TARGET_SECONDS)]
    target = CASES_FACTOR * FILED_THOROUGH_SCALE
    thorough, std, per_claim = case_ratio(run["claims"], (standard or {}).get("claims", []))
    ratio = thorough / std if std else None
    rows.append({"id": "5 (thorough cases over standard)",
                 "title": "cases the thorough run drew over the standard run's, same claims",
                 "value": ratio, "unit": "×", "target": f">= {target:g}×",
                 "met": None if ratio is None else ratio >= target,
                 "detail": {"thorough cases": thorough, "standard cases": std,
                            "per claim": per_claim,
                            "filed thorough/standard scale": FILED_THOROUGH_SCALE}})
    return rows
