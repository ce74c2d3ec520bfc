"""Theorem 5.1's band decided exactly per net, for ``thm5.1``, ``cor6.1`` and ``appD.1``.

:func:`certify_band` runs :func:`linteach.certify.decide` and re-checks what it returns
*independently of the search that found it*: a certificate by
:func:`linteach.certify.recheck` (interval validity, the branch tree's cover and every
leaf's Lagrangian bound, all in rationals), a witness by re-evaluating ``N`` and ``D`` at it
in :class:`fractions.Fraction` here (a second implementation, straight from Eq. 1).

Slack (≥ 0 holds), in the units of the sampled clause ``s·N/(v·k·|D|)``:

* certified: the certificate's exact lower bound of ``N/v`` on the slice ``D = ±1`` over
  ``k`` (for an r = 0 net σ(z + D) − σ(z) ≥ αD gives α; an empty band is vacuous: 1);
* witness: ``s·N/(v·k·|D|)`` at the witness, exactly (< 0, or −TIE for a tie N = 0).

``status`` is ``"proved"``, ``"witness"`` (a disagreement, also exact) or ``"undecided"``
(budget or float resolution: the case keeps its sampled evidence only, with the reason).
A solver status other than optimal or infeasible is not "undecided": the
:class:`linteach.SolverError` naming it propagates, and the claim is an ERROR.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from linteach.certify import (CertificateError, Undecided, c_star, decide, plane_c_star,
                              recheck, witness_bound)

from .signs import TIE

__all__ = ["certify_band", "certify_nets", "witness_slack", "sharp_ratio"]

#: branch-and-bound nodes per side of one decision (cases over it stay "observed")
MAX_NODES = 400
#: norm-QP nodes per side of one c*(W) bracket (over it the bracket stays open, and says so)
CSTAR_NODES = 300
#: relative width of a planar net's exact bracket (c*(W)² is exact; its float square root
#: and the division by c_k(α) are within a few ulps)
PLANE_ROUNDING = 1e-14


def witness_slack(W, alpha, x) -> float:
    """``s·N/(k·|D|)`` (v = 1) at ``x``, from Eq. 1 in Fractions; −TIE for N = 0 ≠ D."""
    k = W.shape[0] // 2
    rows = [[Fraction(float(a)) for a in row] for row in W]
    xf = [Fraction(float(a)) for a in x]
    a = Fraction(float(alpha))
    pre = [sum(p * q for p, q in zip(row, xf)) for row in rows]
    sig = [z if z > 0 else a * z for z in pre]
    N = sum(sig[:k]) - sum(sig[k:])
    D = sum(sum(col[:k]) / k * s - sum(col[k:]) / k * s
            for col, s in zip(zip(*rows), xf))
    if D == 0:
        return -TIE if N != 0 else 0.0
    value = float(N / (k * abs(D))) * (1 if D > 0 else -1)
    return min(value, -TIE) if (N > 0) != (D > 0) or N == 0 else value


def certify_band(W, alpha, c, *, max_nodes: int = MAX_NODES) -> dict:
    """Decide the band at ``c`` and re-check the answer (see the module docstring)."""
    W = np.asarray(W, dtype=np.float64)
    k = W.shape[0] // 2
    try:  # a SolverError (HiGHS neither optimal nor infeasible) propagates: an ERROR
        got = decide(W, alpha=alpha, c=c, max_nodes=max_nodes)
    except Undecided as exc:
        return {"status": "undecided", "reason": str(exc)}
    if not got.holds:
        slack = witness_slack(W, alpha, got.witness)
        if slack >= 0:  # the second evaluation disagrees with the first: a defect, loudly
            raise RuntimeError(f"witness {got.witness.tolist()} does not disagree when "
                               "re-evaluated from Eq. 1")
        return {"status": "witness", "slack": slack, "ratio": got.witness_info["ratio"],
                "x": got.witness.tolist()}
    try:
        summary = recheck(W, alpha, c, got.certificate)
    except CertificateError as exc:
        return {"status": "undecided", "reason": f"certificate failed its re-check: {exc}"}
    bounds = [s.get("min_bound") for s in summary.values()]
    kinds = {s["kind"] for s in summary.values()}
    if "clustered" in kinds:
        slack = float(alpha)
    elif all(b is None for b in bounds):
        slack = 1.0
    else:
        slack = min(b for b in bounds if b is not None) / k
    return {"status": "proved", "slack": slack, "kinds": sorted(kinds),
            "leaves": sum(s.get("leaves", 0) for s in summary.values()),
            "nodes": got.stats["nodes"]}


def sharp_ratio(W, alpha, ck, *, rtol: float, close: bool = True,
                max_nodes: int = CSTAR_NODES, rng=0) -> dict:
    """``c*(W)/c_k(α)`` bracketed on a net whose band ``c_k(α)(1 + strict)`` is certified.

    ``lo`` comes from an exact witness (:func:`linteach.certify.witness_bound`: sampling and
    a pattern-QP local search), 0 if none was found.  With ``close`` the bracket is closed by
    :func:`linteach.certify.c_star` (norm-QP branch and bound, ``max_nodes`` per side):
    ``hi`` is its certified upper end, re-checked here in rationals, and the witness at
    ``lo`` is replayed here from Eq. 1 in Fractions (its disagreement and its band).
    ``closed`` when ``hi ≤ lo·(1 + rtol)``; otherwise ``reason`` says why not.  Without
    ``close`` (or when it stays open) the case's own sharp-band certificate still bounds
    c*(W)/c_k(α) by 1 + strict.
    """
    lo, x = witness_bound(W, alpha=alpha, rng=rng)
    out = {"lo": lo / ck, "hi": None, "closed": False, "attempted": bool(close),
           "reason": None, "notes": [], "decides": 0}
    if not close:
        return out
    got = c_star(W, alpha=alpha, rtol=rtol, max_nodes=max_nodes, rng=rng, start=(lo, x))
    out.update(notes=list(got.notes), decides=got.decides)
    if got.lo > lo:
        if not _replays(W, alpha, got.witness, got.lo):  # a defect, loudly
            raise RuntimeError(f"c_star's witness {got.witness.tolist()} does not disagree "
                               f"at band {got.lo!r} when re-evaluated from Eq. 1")
        out["lo"] = got.lo / ck
    if got.certificate is not None and np.isfinite(got.hi):
        try:
            recheck(W, alpha, got.hi, got.certificate)
            out["hi"] = got.hi / ck
        except CertificateError as exc:
            out["notes"].append(f"the bracket's certificate failed its re-check: {exc}")
    if out["hi"] is not None and out["hi"] < out["lo"]:  # a witness above a certified band
        raise RuntimeError(f"c*(W) bracket inverted: exact witness at {out['lo']!r}·c_k above "
                           f"the re-checked certificate at {out['hi']!r}·c_k")
    out["closed"] = out["hi"] is not None and out["lo"] > 0 and \
        out["hi"] <= out["lo"] * (1 + rtol) * (1 + 1e-12)
    if W.shape[1] == 2:
        _plane(W, alpha, ck, out)
    if not out["closed"]:
        out["reason"] = _open_reason(out)
    return out


def _plane(W, alpha, ck, out) -> None:
    """A planar net's c*(W), exactly (:func:`linteach.certify.plane_c_star` in rationals),
    closes its bracket to float rounding, 0 included; it must lie in the bracket that
    :func:`linteach.certify.c_star` certified independently, and its point (a tie, N = 0) is
    replayed from Eq. 1 here."""
    got = plane_c_star(W, alpha, exact=True)
    c = float(np.sqrt(float(got.c2))) / ck
    hi = c * (1 + PLANE_ROUNDING)
    lo = 0.0
    if got.x is not None:  # the witness's own band ratio, replayed from Eq. 1 here
        k = W.shape[0] // 2
        Ws = np.ldexp(W, -int(np.frexp(np.abs(W).max())[1]))  # exact: no square overflows
        r = np.sqrt(max(np.max(np.sum((Ws[:k] - Ws[:k].mean(0)) ** 2, 1)),
                        np.max(np.sum((Ws[k:] - Ws[k:].mean(0)) ** 2, 1))))
        g = Ws[:k].mean(0) - Ws[k:].mean(0)
        lo = abs(float(g @ got.x)) / (r * float(np.linalg.norm(got.x))) * (1 - 1e-9) / ck
        if not _replays(W, alpha, got.x, lo * ck):  # a defect, loudly
            raise RuntimeError(f"the planar witness {got.x.tolist()} does not disagree at "
                               f"band {lo * ck!r} when re-evaluated from Eq. 1")
    if hi < out["lo"] or (out["hi"] is not None and c * (1 - PLANE_ROUNDING) > out["hi"]):
        raise RuntimeError(f"the exact planar c*(W)/c_k = {c!r} lies outside the certified "
                           f"bracket [{out['lo']!r}, {out['hi']!r}]")
    out.update(lo=max(lo, out["lo"]), hi=hi, closed=hi <= max(lo, out["lo"]) * (1 + 1e-6)
               or c == 0, exact=True, reason=None)


def _replays(W, alpha, x, band) -> bool:
    """``x`` disagrees in sign and lies in the band ``band`` (Eq. 1 in Fractions)."""
    if witness_slack(W, alpha, x) >= 0:
        return False
    k = W.shape[0] // 2
    rows = [[Fraction(float(a)) for a in row] for row in W]
    xf = [Fraction(float(a)) for a in x]
    means = [[sum(col) / k for col in zip(*part)] for part in (rows[:k], rows[k:])]
    D = sum((p - q) * t for p, q, t in zip(*means, xf))
    r2 = max(sum((p - q) ** 2 for p, q in zip(row, mean))
             for part, mean in ((rows[:k], means[0]), (rows[k:], means[1])) for row in part)
    return D * D >= Fraction(float(band)) ** 2 * r2 * sum(t * t for t in xf)


def _open_reason(out) -> str:
    """Why a bracket stayed open, without the case's numbers (cases are grouped by it)."""
    text = " ".join(out["notes"])
    if out["lo"] == 0 and out["hi"] is not None:
        return "no disagreement found: only the upper end is certified"
    if "max_nodes" in text:
        return "norm branch and bound exceeded its node budget"
    if "float resolution" in text or "neither" in text:
        return "a norm-QP leaf at the float resolution (a slice ρ·max|W| too wide)"
    if "re-check" in text:
        return "the bracket's certificate failed its re-check"
    return text or "no certificate at lo·(1 + rtol)"


def certify_nets(nets, alpha, c, sharp_band, *, sampled=None, clauses) -> dict:
    """Exact decisions for every net of a case, at band ``c`` (``clauses[0]``) and at the
    strict sharp band ``sharp_band`` (``clauses[1]``; None: not decided); per clause the
    weakest status, least slack.

    The cheap sampled pass comes first: a clause whose sampled points already hold an exact
    disagreement (``sampled[clause]`` has a slack < 0; the signs there are exact) is a
    witness without a decision.  A certificate at band c' covers every band c ≥ c' (a
    smaller band), so one decision at the strict sharp band (≤ c) proves both clauses; the
    band c is decided on its own only when that one is not a certificate.
    """
    band_clause, sharp_clause = clauses
    sampled = sampled or {}
    bad = {clause: s is not None and float(np.min(s)) < 0 for clause, s in sampled.items()}
    per = {band_clause: [], sharp_clause: []}
    for clause in (band_clause, sharp_clause):
        if bad.get(clause):
            per[clause].append({"status": "witness", "slack": float(np.min(sampled[clause])),
                                "band": sharp_band if clause == sharp_clause else c,
                                "ratio": None, "source": "sampled"})
    for W in nets if not per[band_clause] else ():
        got = None
        if sharp_band is not None and not per[sharp_clause]:
            got = certify_band(W, alpha, sharp_band)
            per[sharp_clause].append(dict(got, band=sharp_band))
        if got is None or got["status"] != "proved":
            got = dict(certify_band(W, alpha, c), band=c)
        else:
            got = dict(got, band=sharp_band, covers=c)
        per[band_clause].append(got)
        if got["status"] == "witness":  # an exact disagreement: the case fails, stop here
            break
    out = {}
    for clause, got in per.items():
        if not got:
            continue
        worst = min(got, key=lambda g: ("witness", "undecided", "proved").index(g["status"]))
        slacks = [g["slack"] for g in got if g.get("slack") is not None]
        out[clause] = {"status": worst["status"], "band": worst["band"],
                       "slack": min(slacks) if slacks else None,
                       "reason": worst.get("reason"), "ratio": worst.get("ratio")}
    return out
