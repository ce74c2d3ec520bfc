"""``claims.json`` (machine) and ``claims.md`` (human), written atomically.

``claims.json`` is a reproducible ledger: for the same seed, budget and code it is
byte-identical between runs (sequential, on a process pool or on a Dask cluster) except
for :data:`TIMING_FIELDS` and the ``run`` section (how it ran: executor, resumed or not).
Its ``manifest`` lists package versions, the platform and BLAS build, the budget, the seeds
(root seed and cases per family) and, per claim, the SHA-256 of its ledger of per-case
content hashes (dataset, initial W, final W).  Non-finite floats are written as the strings
``"inf"``, ``"-inf"``, ``"nan"`` so the file is strict JSON.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import sys
import tempfile
from pathlib import Path

#: keys that measure time: the only per-claim fields allowed to differ between reruns
TIMING_FIELDS = ("seconds",)
#: top-level section describing how the run went (executor, workers, resumed, seconds)
RUN_SECTION = "run"


def versions() -> dict:
    """Versions of Python and every package that computes a number in the report."""
    import numpy
    import scipy

    out = {"python": sys.version.split()[0], "numpy": numpy.__version__,
           "scipy": scipy.__version__, "platform": platform.platform()}
    for name in ("cvxpy", "clarabel", "hypothesis", "threadpoolctl"):
        try:
            out[name] = __import__(name).__version__
        except Exception:  # optional at report time
            out[name] = None
    import linteach

    out["linteach"] = linteach.__version__
    return out


def blas() -> list:
    """The BLAS libraries loaded (kernel architecture included: it decides the last bits)."""
    import importlib

    from threadpoolctl import threadpool_info

    # Load every numeric library a check may use, so the list does not depend on which
    # ones this process happened to import (workers may have imported them instead).
    for name in ("scipy.linalg", "cvxpy"):
        try:
            importlib.import_module(name)
        except ImportError:  # cvxpy is required, but the report must not be what fails
            pass
    keep = ("internal_api", "version", "architecture", "threading_layer")
    # BLAS only: OpenMP runtimes come and go with whatever else a process imported
    libs = [{"library": Path(lib["filepath"]).name, **{k: lib.get(k) for k in keep}}
            for lib in threadpool_info() if lib.get("user_api") == "blas"]
    return sorted(libs, key=lambda lib: lib["library"])  # load order varies between runs


def platform_info() -> dict:
    uname = platform.uname()
    return {"system": uname.system, "release": uname.release, "machine": uname.machine,
            "python_implementation": platform.python_implementation(), "blas": blas()}


def atomic_write(path, text) -> None:
    """Write ``text`` (str or bytes) to ``path`` via a temporary file and ``os.replace``.

    A reader, or a run killed at any moment, sees the old file or the new one, never half.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _ledger_hash(ledger: dict) -> str:
    blob = json.dumps(ledger, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()


def manifest(results, *, seed, budget, cases=None) -> dict:
    """What a reviewer needs to rerun the report and check it reproduced."""
    from ._checkpoint import code_fingerprint

    return {"versions": versions(), "platform": platform_info(), "code": code_fingerprint(),
            "budget": budget, "seed": seed, "cases_per_family": cases,
            "claims": {r.id: {"cases": r.cases, "families": r.families,
                              "ledger_cases": len(r.ledger),
                              "ledger_sha256": _ledger_hash(r.ledger)} for r in results}}


def to_json(results, missing, *, seed, budget, cases=None, run=None) -> dict:
    """The ``claims.json`` document; ``run`` describes how it ran (not reproducible)."""
    man = manifest(results, seed=seed, budget=budget, cases=cases)
    return {"claims": [r.to_dict() for r in results], "not_checked": list(missing),
            "seed": seed, "budget": budget, "versions": man["versions"],
            "all_ok": bool(results) and not missing and all(r.ok for r in results),
            "manifest": man, RUN_SECTION: dict(run or {})}


def _strict(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(v) for v in value]
    return value


def dumps(doc: dict) -> str:
    """``claims.json`` text: strict JSON, fixed key order, one trailing newline."""
    return json.dumps(_strict(doc), indent=2, allow_nan=False) + "\n"


def differences(a: str, b: str) -> list:
    """Lines where two ``claims.json`` texts differ, timing fields and run section aside.

    Empty when the reports agree byte for byte on everything a rerun must reproduce.
    """
    heads = [text.partition(f'\n  "{RUN_SECTION}": {{')[0].splitlines() for text in (a, b)]
    if len(heads[0]) != len(heads[1]):
        return [(f"{len(heads[0])} lines", f"{len(heads[1])} lines")]
    timing = tuple(f'"{name}": ' for name in TIMING_FIELDS)
    return [(x, y) for x, y in zip(*heads)
            if x != y and not (x.strip().startswith(timing) and y.strip().startswith(timing))]


def reproducible(doc: dict) -> dict:
    """``doc`` without :data:`TIMING_FIELDS` and the run section: what reruns must agree on."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in TIMING_FIELDS}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip({k: v for k, v in doc.items() if k != RUN_SECTION})


def _fmt(x, digits=3):
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.{digits}g}"
    return str(x)


def to_markdown(doc: dict) -> str:
    lines = ["# Claims report", "",
             f"Generated by `python -m proofs_check` (budget `{doc['budget']}`, seed "
             f"`{doc['seed']}`). Slack ≥ 0 means a clause held; each row names the case that came "
             "closest to breaking it. Per-claim pages: `docs/claims/<id>.md`.", "",
             "| claim | verdict | cases | worst slack | control caught | seconds |",
             "|---|---|---|---|---|---|"]
    for c in doc["claims"]:
        lines.append(f"| `{c['id']}` | **{c['verdict']}** | {c['cases']} | "
                     f"{_fmt(c['worst_slack'])} | {_fmt(c['negative_control_caught'])} | "
                     f"{c['seconds']:.1f} |")
    for cid in doc["not_checked"]:
        lines.append(f"| `{cid}` | **NOT CHECKED YET** | — | — | — | — |")
    for c in doc["claims"]:
        lines += ["", f"## `{c['id']}` — {c['reference']}", "", c["statement"], "",
                  f"Verdict: **{c['verdict']}**."]
        if c.get("error"):
            lines += ["", "```", c["error"], "```"]
        if c["clauses"]:
            lines += ["", "| clause | worst slack | evaluated | violations | worst case |",
                      "|---|---|---|---|---|"]
            for name, w in c["clauses"].items():
                lines.append(f"| {name} | {_fmt(w['worst_slack'])} | {w['evaluated']} | "
                             f"{w['violations']} | `{w['family']}` seed {w['seed']} |")
        if c.get("reproduce"):
            what = "the error" if c["verdict"] == "ERROR" else "the worst case"
            lines += ["", f"Reproduce {what}: `{c['reproduce']}`"]
        counts = c.get("counts", {})
        if counts.get("assumption_not_met") or counts.get("inconclusive"):
            lines.append(f"\nCases whose hypotheses failed: {counts.get('assumption_not_met', 0)}; "
                         f"inconclusive: {counts.get('inconclusive', 0)}.")
        if c.get("negative_control"):
            nc = c["negative_control"]
            lines.append(f"\nNegative control ({'caught' if nc['caught'] else '**NOT caught**'}): "
                         f"{nc['description']}")
        if c.get("measurements"):
            lines += ["", "Measured:", ""]
            lines += [f"- `{k}`: {_fmt(v, 4) if not isinstance(v, (list, dict)) else json.dumps(v)}"
                      for k, v in c["measurements"].items()]
        if c["notes"]:
            lines += ["", "Notes:", ""] + [f"- {n}" for n in c["notes"]]
    v = doc["versions"]
    lines += ["", "---", "", "Versions: " + ", ".join(f"{k} {val}" for k, val in v.items())]
    man = doc.get("manifest")
    if man:
        blas_libs = "; ".join(f"{b['internal_api']} {b['version']} ({b['architecture']})"
                              for b in man["platform"]["blas"])
        lines += ["", f"Code fingerprint `{man['code']}`; BLAS: {blas_libs}.", "",
                  "| claim | cases | families | ledger SHA-256 |", "|---|---|---|---|"]
        lines += [f"| `{cid}` | {m['cases']} | "
                  + ", ".join(f"{f} {n}" for f, n in m["families"].items())
                  + f" | `{m['ledger_sha256'][:16]}` |" for cid, m in man["claims"].items()]
    return "\n".join(lines + [""])
