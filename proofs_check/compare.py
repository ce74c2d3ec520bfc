"""Semantic comparison of two ``claims.json`` reports: did the evidence reproduce?

``python -m proofs_check --compare A B`` parses both reports (:func:`proofs_check.report.load`
refuses empty, truncated or foreign JSON) and compares what the evidence consists of:

* per claim (matched by id; a claim in only one report is a difference): verdict, evidence
  strength, negative-control outcome (every field of it), case counts (tried, evaluated,
  inconclusive, hypothesis not met, per family), per clause the worst slack, its case
  (family and seed), evaluations, violations, evidence, unit and slack distribution, the
  claim's measurements, notes, error, statement and reference;
* the content hashes: each claim's ledger of per-case hashes must have the SHA-256 its
  manifest states (checked in each report on its own) and the same SHA-256 in both;
* the run's seed, budget, cases override and the claims not checked.

**Numbers** compare to a relative tolerance of :data:`RTOL` = 1e-9, with an absolute floor
of :data:`ATOL` = 1e-15 for values that are zero up to rounding (most slacks are differences
of O(1) quantities, whose rounding is ~1e-16 absolute whatever their size).  Why 1e-9: on another
machine a different BLAS kernel or library version may sum in another order, which moves
float64 results by a few ulps (~1e-16 relative) per operation; the longest trajectories
(thousands of flow steps) can amplify that by a few orders of magnitude, still far below
1e-9, while any change of the code or the cases that matters moves slacks by far more than
1e-9 (and changes the content hashes).  Numbers inside notes compare to their printed
precision (one unit in the last printed digit); integers in text compare exactly.

**Environment** differences — versions, platform and BLAS, the code fingerprint, timings
and the ``run`` section — are listed separately and never make the comparison fail.

**Across numeric environments** (the two manifests name different BLAS kernels or numpy /
scipy versions) the bits are not expected to agree: a chaotic trajectory amplifies a
reordered sum far beyond 1e-9, and every content hash moves.  Then only what the evidence
*says* must agree — each claim's verdict, its evidence strength, whether its negative
control was caught, its statement, reference and cases tried, the run's seed and budget —
and every other difference is listed as rounding-dependent, without failing.  On the same
numeric environment everything above is compared strictly.
"""
from __future__ import annotations

import math
import re

from . import report

__all__ = ["RTOL", "ATOL", "VERDICT_FIELDS", "Comparison", "compare", "compare_files",
           "numeric_environment", "text_close"]

RTOL = 1e-9
ATOL = 1e-15
#: manifest keys that describe the environment (reported, never failing)
ENV_MANIFEST = ("versions", "platform", "code")
#: per-claim keys compared elsewhere or not at all (timing; the ledger is compared by hash)
SKIP = set(report.TIMING_FIELDS) | {"ledger"}
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


#: per-claim fields that must agree even across numeric environments
VERDICT_FIELDS = ("verdict", "evidence", "negative_control_caught", "statement", "reference",
                  "cases")


def numeric_environment(doc: dict) -> tuple:
    """What decides the bits: numpy and scipy versions, the BLAS libraries and kernels."""
    man = doc.get("manifest", {})
    versions = man.get("versions", {}) or {}
    blas = (man.get("platform", {}) or {}).get("blas", [])
    return (versions.get("numpy"), versions.get("scipy"),
            tuple(sorted((b.get("internal_api"), b.get("version"), b.get("architecture"))
                         for b in blas)))


class Comparison:
    """The outcome: ``differences`` (fail), ``environment`` and ``rounding`` (informational)."""

    def __init__(self):
        self.differences: list = []
        self.environment: list = []
        #: differences accepted because the numeric environments differ
        self.rounding: list = []

    @property
    def reproduced(self) -> bool:
        return not self.differences

    def lines(self, a: str = "A", b: str = "B", limit: int = 60) -> list:
        """What to print: the differences (the first ``limit``), then the environment."""
        out = [f"differs: {d}" for d in self.differences[:limit]]
        if len(self.differences) > limit:
            out.append(f"... and {len(self.differences) - limit} more differences")
        if self.rounding:
            out.append(f"numeric environments differ (BLAS kernel or numpy/scipy): "
                       f"{len(self.rounding)} numbers and hashes differ by rounding, "
                       "not compared; verdicts, evidence and controls agree")
            out += [f"  {r}" for r in self.rounding[:20]]
        if self.environment:
            out.append("environment (not compared; does not make the comparison fail):")
            out += [f"  {e}" for e in self.environment]
        out.append(f"{a} and {b}: " + ("reproduced" if self.reproduced else
                                       f"NOT reproduced ({len(self.differences)} differences)"))
        return out


def _close(x, y) -> bool:
    a, b = report.number(x), report.number(y)
    if a is None or b is None:
        return x == y
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=RTOL, abs_tol=ATOL)


def _same_type(x, y) -> bool:
    numeric = (report.number(x) is not None, report.number(y) is not None)
    if all(numeric):
        return True
    return type(x) is type(y)


def _values(where: str, x, y, out: list) -> None:
    """Structural comparison: dicts by key, lists by position, numbers to tolerance."""
    if isinstance(x, dict) and isinstance(y, dict):
        for key in list(x) + [k for k in y if k not in x]:
            if key not in y or key not in x:
                side = "A" if key in x else "B"
                out.append(f"{where}.{key}: only in {side}")
            else:
                _values(f"{where}.{key}", x[key], y[key], out)
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            out.append(f"{where}: {len(x)} entries vs {len(y)}")
        else:
            for i, (u, v) in enumerate(zip(x, y)):
                _values(f"{where}[{i}]", u, v, out)
    elif isinstance(x, str) and isinstance(y, str) and report.number(x) is None:
        if not text_close(x, y):
            out.append(f"{where}: {_show(x)} vs {_show(y)}")
    elif not _same_type(x, y) or not _close(x, y):
        out.append(f"{where}: {_show(x)} vs {_show(y)}")


def _show(x) -> str:
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def text_close(a: str, b: str) -> bool:
    """Equal text, or equal up to numbers that agree to their printed precision."""
    if a == b:
        return True
    ta, tb = _NUMBER.findall(a), _NUMBER.findall(b)
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b) or len(ta) != len(tb):
        return False
    for u, v in zip(ta, tb):
        if u == v:
            continue
        if not any(c in u + v for c in ".eE"):
            return False  # a count: exact
        mantissa, _, exp = u.lower().partition("e")
        decimals = len(mantissa.partition(".")[2])
        place = 10.0 ** (int(exp or 0) - decimals)
        if abs(float(u) - float(v)) > place * 1.01:  # one unit, and the float error of it
            return False
    return True


def _claim(cid: str, a: dict, b: dict, out: list) -> None:
    _values(f"{cid}", {k: v for k, v in a.items() if k not in SKIP},
            {k: v for k, v in b.items() if k not in SKIP}, out)


def _ledger(cid: str, doc: dict, side: str, out: list) -> str | None:
    """The ledger's SHA-256 if the report is consistent about it, else a difference."""
    claim = next(c for c in doc["claims"] if c["id"] == cid)
    stated = doc["manifest"]["claims"].get(cid, {}).get("ledger_sha256")
    actual = report.ledger_hash(claim["ledger"])
    if stated != actual:
        out.append(f"{cid}: report {side}'s ledger does not have the SHA-256 its manifest "
                   f"states ({str(stated)[:16]} stated, {actual[:16]} actual)")
    return stated


def compare(a: dict, b: dict) -> Comparison:
    """Compare two parsed reports (see the module docstring for what counts)."""
    result = Comparison()
    diff, env = result.differences, result.environment
    for key in ("seed", "budget", "not_checked", "all_ok"):
        if a.get(key) != b.get(key):
            diff.append(f"{key}: {_show(a.get(key))} vs {_show(b.get(key))}")
    ma, mb = a["manifest"], b["manifest"]
    cross = numeric_environment(a) != numeric_environment(b)
    if ma.get("cases_per_family") != mb.get("cases_per_family"):
        diff.append(f"cases per family: {ma.get('cases_per_family')} vs "
                    f"{mb.get('cases_per_family')}")
    ids_a, ids_b = [c["id"] for c in a["claims"]], [c["id"] for c in b["claims"]]
    for cid in ids_a:
        if cid not in ids_b:
            diff.append(f"{cid}: only in A")
    for cid in ids_b:
        if cid not in ids_a:
            diff.append(f"{cid}: only in B")
    by_b = {c["id"]: c for c in b["claims"]}
    for ca in a["claims"]:
        cid = ca["id"]
        if cid not in by_b:
            continue
        loose = result.rounding if cross else diff
        if cross:
            for key in VERDICT_FIELDS:
                if ca.get(key) != by_b[cid].get(key):
                    diff.append(f"{cid}.{key}: {_show(ca.get(key))} vs "
                                f"{_show(by_b[cid].get(key))}")
        _claim(cid, ca, by_b[cid], loose)
        ha, hb = _ledger(cid, a, "A", diff), _ledger(cid, b, "B", diff)
        if ha != hb:
            loose.append(f"{cid}: content hashes differ (ledger SHA-256 {str(ha)[:16]} vs "
                         f"{str(hb)[:16]})")
        for key in ("cases", "ledger_cases", "families"):
            x, y = ma["claims"].get(cid, {}).get(key), mb["claims"].get(cid, {}).get(key)
            if x != y:
                diff.append(f"{cid}: manifest {key} {_show(x)} vs {_show(y)}")
        if ca.get("seconds") != by_b[cid].get("seconds"):
            env.append(f"{cid} seconds: {_fmt_s(ca.get('seconds'))} vs "
                       f"{_fmt_s(by_b[cid].get('seconds'))}")
    for key in ENV_MANIFEST:
        _values(f"manifest.{key}", ma.get(key), mb.get(key), env)
    if a.get(report.RUN_SECTION) != b.get(report.RUN_SECTION):
        env.append("run section differs (executor, timing, resumed claims)")
    return result


def _fmt_s(x) -> str:
    return f"{x:.1f} s" if isinstance(x, (int, float)) else repr(x)


def compare_files(path_a, path_b) -> Comparison:
    """:func:`compare` of two files (:class:`~proofs_check.report.ReportError` if either is
    not a report)."""
    return compare(report.load(path_a), report.load(path_b))
