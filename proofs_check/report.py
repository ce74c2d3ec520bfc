"""``claims.json`` (machine) and ``claims.md`` (human), written atomically; reading them back.

``claims.json`` is a reproducible ledger: for the same seed, budget and code it is
byte-identical between runs (sequential, on a process pool or on a Dask cluster) except
for :data:`TIMING_FIELDS` and the ``run`` section (how it ran: executor, resumed or not).
Its ``manifest`` lists package versions, the platform and BLAS build, the budget, the seeds
(root seed and cases per family) and, per claim, the SHA-256 of its ledger of per-case
content hashes (dataset, initial W, final W).  Non-finite floats are written as the strings
``"inf"``, ``"-inf"``, ``"nan"`` so the file is strict JSON.  :func:`load` reads a report
back and refuses anything that is not one (:class:`ReportError`).
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

from .engine import io
from .engine.contract import VERDICTS
from .engine.io import atomic_write, platform_info, versions

__all__ = ["TIMING_FIELDS", "RUN_SECTION", "FEW_WITNESSES", "ReportError", "manifest",
           "to_json", "dumps", "parse", "load", "ledger_hash", "reproducible", "to_markdown",
           "atomic_write", "number", "strict", "worst_clause",
           "fewest_evaluations", "summary_rows", "unit_cell"]

#: keys that measure time: the only per-claim fields allowed to differ between reruns
TIMING_FIELDS = ("seconds",)
#: top-level section describing how the run went (executor, workers, resumed, seconds)
RUN_SECTION = "run"
#: a PASS whose least-evaluated clause has fewer evaluations than this is flagged
FEW_WITNESSES = 3


class ReportError(ValueError):
    """A file that is not a ``claims.json`` report (empty, truncated, another document)."""


def ledger_hash(ledger: dict) -> str:
    """SHA-256 of a claim's ledger of per-case content hashes (as the manifest records it)."""
    blob = json.dumps(ledger, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()


def manifest(results, *, seed, budget, cases=None) -> dict:
    """What a reviewer needs to rerun the report and check it reproduced."""
    return {"versions": versions(), "platform": platform_info(), "code": io.code_fingerprint(),
            "budget": budget, "seed": seed, "cases_per_family": cases,
            "claims": {r.id: {"cases": r.cases, "families": r.families,
                              "ledger_cases": len(r.ledger),
                              "ledger_sha256": ledger_hash(r.ledger)} for r in results}}


def to_json(results, missing, *, seed, budget, cases=None, run=None) -> dict:
    """The ``claims.json`` document; ``run`` describes how it ran (not reproducible)."""
    man = manifest(results, seed=seed, budget=budget, cases=cases)
    return {"claims": [r.to_dict() for r in results], "not_checked": list(missing),
            "seed": seed, "budget": budget, "versions": man["versions"],
            "all_ok": bool(results) and not missing and all(r.ok for r in results),
            "manifest": man, RUN_SECTION: dict(run or {})}


def strict(value):
    """``value`` with non-finite floats as the strings ``"inf"``, ``"-inf"``, ``"nan"``."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(v) for v in value]
    return value


def dumps(doc: dict) -> str:
    """``claims.json`` text: strict JSON, fixed key order, one trailing newline."""
    return json.dumps(strict(doc), indent=2, allow_nan=False) + "\n"


def number(value):
    """A report's number back as a float (``"inf"``/``"-inf"``/``"nan"`` included), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if value in ("inf", "-inf", "nan"):
        return float(value)
    return None


def _need(cond, where, what):
    if not cond:
        raise ReportError(f"{where}: {what}")


def parse(text: str, name: str = "report") -> dict:
    """The report in ``text``; :class:`ReportError` naming what is wrong if it is not one."""
    _need(text.strip(), name, "empty file, not a claims report")
    try:
        doc = json.loads(text)
    except RecursionError:
        raise ReportError(f"{name}: JSON nested too deeply to be a claims report") from None
    except ValueError as exc:
        raise ReportError(f"{name}: not valid JSON (truncated?): {exc}") from None
    _need(isinstance(doc, dict), name, f"a claims report is a JSON object, got "
                                       f"{type(doc).__name__}")
    missing = [k for k in ("claims", "not_checked", "seed", "budget", "manifest") if k not in doc]
    _need(not missing, name, f"not a claims report: no {', '.join(missing)}")
    _need(isinstance(doc["claims"], list), name, "`claims` must be a list")
    _need(isinstance(doc["manifest"], dict) and isinstance(doc["manifest"].get("claims"), dict),
          name, "`manifest.claims` must be an object")
    seen = set()
    for i, claim in enumerate(doc["claims"]):
        where = f"{name}: claims[{i}]"
        _need(isinstance(claim, dict) and isinstance(claim.get("id"), str), where,
              "each claim must be an object with a string `id`")
        _need(claim["id"] not in seen, where, f"duplicate claim id {claim['id']!r}")
        seen.add(claim["id"])
        _need(claim.get("verdict") in VERDICTS, where, f"`verdict` must be one of {VERDICTS}, "
                                                       f"got {claim.get('verdict')!r}")
        for key, kind in (("clauses", dict), ("ledger", dict), ("counts", dict),
                          ("notes", list)):
            _need(isinstance(claim.get(key), kind), where, f"`{key}` must be a "
                                                           f"{kind.__name__}")
        for cname, clause in claim["clauses"].items():
            _need(isinstance(clause, dict) and {"worst_slack", "family", "seed", "evaluated"}
                  <= set(clause), where, f"clause {cname!r} lacks its worst slack and case")
    return doc


def load(path) -> dict:
    """:func:`parse` of the file at ``path`` (unreadable files are a :class:`ReportError`)."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{path}: cannot read: {exc}") from None
    return parse(text, str(path))


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


def worst_clause(claim: dict):
    """``(name, clause)`` of the clause whose slack is the claim's worst, or ``(None, None)``."""
    best = None
    for name, w in claim.get("clauses", {}).items():
        s = number(w["worst_slack"])
        if s is not None and (best is None or s < best[0]):
            best = (s, name, w)
    return (None, None) if best is None else best[1:]


def fewest_evaluations(claim: dict):
    """The smallest number of evaluations of any clause (``None`` without clauses)."""
    counts = [w.get("evaluated", 0) for w in claim.get("clauses", {}).values()]
    return min(counts) if counts else None


#: the summary table's columns and what each counts (printed under the table)
COLUMNS = (
    ("verdict", "PASS / FAIL / INCONCLUSIVE / ASSUMPTION-NOT-MET / ERROR"),
    ("evidence", "the weakest evidence strength of the evaluated clauses: observed (random "
                 "sampling) < probed (targeted search) < proved (re-checked certificates)"),
    ("cases tried", "cases drawn by the check (negative controls not included)"),
    ("evaluated", "cases on which at least one clause was evaluated"),
    ("inconclusive", "cases with at least one run or clause the check could not decide "
                     "(e.g. a run that did not reach the regime in its step budget)"),
    ("hypothesis not met", "cases with at least one run whose data or trajectory failed the "
                           "claim's hypotheses (a case holds several runs, so one case can "
                           "count as evaluated, inconclusive and not met at once)"),
    ("worst slack", "the smallest slack over every clause and case (≥ 0: the clause held)"),
    ("slack unit", "what the worst clause's slack measures (see the claim's clause table)"),
    ("fewest evaluations", "evaluations of the least-evaluated clause; ⚠ marks a PASS "
                           f"resting on fewer than {FEW_WITNESSES}"),
    ("control", "whether the deliberately false variant (negative control) was caught"),
)


def unit_cell(unit) -> str:
    """A slack unit for a Markdown table cell ("—" if none; a "|" in it escaped)."""
    return (unit or "—").replace("|", "\\|")


def summary_rows(doc: dict) -> list:
    """The summary table of ``claims.md`` as Markdown lines (header, rows, column legend)."""
    head = [name for name, _ in COLUMNS]
    lines = ["| claim | " + " | ".join(head) + " | seconds |",
             "|---" * (len(head) + 2) + "|"]
    for c in doc["claims"]:
        counts = c.get("counts", {})
        name, w = worst_clause(c)
        few = fewest_evaluations(c)
        flag = " ⚠" if c["verdict"] == "PASS" and few is not None and few < FEW_WITNESSES else ""
        unit = unit_cell((w or {}).get("slack_unit"))
        cells = [f"**{c['verdict']}**", c.get("evidence") or "—", _fmt(c["cases"]),
                 _fmt(counts.get("evaluated")), _fmt(counts.get("inconclusive_cases")),
                 _fmt(counts.get("assumption_not_met_cases")), _fmt(number(c["worst_slack"])),
                 unit if name is None else f"{unit} (`{name}`)", f"{_fmt(few)}{flag}",
                 _fmt(c["negative_control_caught"])]
        lines.append(f"| `{c['id']}` | " + " | ".join(cells) + f" | {c['seconds']:.1f} |")
    for cid in doc["not_checked"]:
        lines.append(f"| `{cid}` | **NOT CHECKED YET** |" + " — |" * (len(head)))
    lines += ["", "Columns:", ""] + [f"- **{name}**: {text}." for name, text in COLUMNS]
    return lines


def _claim_section(c: dict) -> list:
    lines = ["", f"## `{c['id']}` — {c['reference']}", "", c["statement"], "",
             f"Verdict: **{c['verdict']}**" + (f" (evidence: {c['evidence']})."
                                               if c.get("evidence") else ".")]
    if c.get("error"):
        lines += ["", "```", c["error"], "```"]
    if c["clauses"]:
        lines += ["", "| clause | worst slack | unit | median slack | evaluated | violations "
                      "| evidence | worst case |", "|---|---|---|---|---|---|---|---|"]
        for name, w in c["clauses"].items():
            quantiles = dict((q, v) for q, v in w.get("distribution", {}).get("quantiles", []))
            lines.append(f"| {name} | {_fmt(number(w['worst_slack']))} | "
                         f"{unit_cell(w.get('slack_unit'))} | {_fmt(number(quantiles.get(0.5)))} | "
                         f"{w['evaluated']} | {w.get('violations', '—')} | "
                         f"{w.get('evidence') or '—'} | `{w['family']}` seed {w['seed']} |")
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
    return lines


def to_markdown(doc: dict) -> str:
    lines = ["# Claims report", "",
             f"Generated by `python -m proofs_check` (budget `{doc['budget']}`, seed "
             f"`{doc['seed']}`). Slack ≥ 0 means a clause held; each row names the case that came "
             "closest to breaking it. Per-claim pages: `docs/claims/<id>.md`.", ""]
    lines += summary_rows(doc)
    for c in doc["claims"]:
        lines += _claim_section(c)
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
