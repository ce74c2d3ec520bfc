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

__all__ = ["certify_band", "witness_slack", "sharp_ratio", "measure_evidence", "measure_cstar"]

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
        r = np.sqrt(max(np.max(np.sum((W[:k] - W[:k].mean(0)) ** 2, 1)),
                        np.max(np.sum((W[k:] - W[k:].mean(0)) ** 2, 1))))
        g = W[:k].mean(0) - W[k:].mean(0)
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


def measure_evidence(ctx, results) -> None:
    """Counts of proved, witnessed and sampled-only cases per clause, the latter grouped by
    their reason (each reason lists its cases as ``family/seed``)."""
    counts = {}
    for r in results:
        for clause, cert in r["certified"].items():
            c = counts.setdefault(clause, {"proved": 0, "witness": 0, "sampled_only": 0,
                                           "reasons": {}})
            key = {"proved": "proved", "witness": "witness"}.get(cert["status"], "sampled_only")
            c[key] += 1
            if key == "sampled_only":
                why = _reason_kind(cert["reason"])
                c["reasons"].setdefault(why, []).append(f"{r['family']}/{r['seed']}")
    ctx.measure("certified_cases", counts)
    for clause, c in counts.items():
        why = "; ".join(f"{len(v)} {k}" for k, v in c["reasons"].items())
        ctx.note(f"{clause}: {c['proved']} cases certified exactly (certificates re-checked in "
                 f"rationals), {c['witness']} with an exact disagreement, {c['sampled_only']} "
                 "sampled only (evidence observed)" + (f": {why}" if why else ""))


def _reason_kind(reason: str) -> str:
    """A reason without its case-specific numbers (cases are grouped by it)."""
    if "exceeds" in reason and "float64" in reason:
        return ("r/‖w̄ − ū‖ so small that the slice's pre-activations span more than a float64 "
                "LP resolves")
    if reason.startswith("k = "):
        return "k > the budget's widest certified net (certified at the thorough budget)"
    if "max_nodes" in reason:
        return "branch-and-bound node budget exceeded"
    return reason


def measure_cstar(ctx, results, *, rtol, strict) -> None:
    """c*(W)/c_k(α) over the certified cases that bracketed it.

    Every such case carries a re-checked certificate at ``c_k(α)(1 + strict)``, so its
    ``c*(W)/c_k(α) ≤ 1 + strict``.  The distribution (``closed_min``/``median``/``max``) is
    of the **closed** brackets only (``lo`` an exact witness, ``hi ≤ lo(1 + rtol)`` a
    re-checked certificate); ``open`` lists every attempted bracket that stayed open with
    its reason; ``lower_ends`` summarises the cases whose bracket was not attempted at the
    budget (a witness's lower end only).  ``brackets`` keeps every case for the figure.
    """
    rows = [(r["cstar"], r) for r in results if "cstar" in r]
    if not rows:
        return
    name = lambda r: f"{r['family']}/{r['seed']}"  # noqa: E731
    closed = [(c, r) for c, r in rows if c.get("closed")]
    tried = [(c, r) for c, r in rows if c.get("attempted")]
    rest = [c["lo"] for c, r in rows if not c.get("attempted")]
    m = {"cases": len(rows), "rtol": rtol, "attempted": len(tried), "closed": len(closed),
         "closed_exactly": sum(bool(c.get("exact")) for c, _ in closed),
         "upper_end_every_case": 1 + strict,
         "open": [{"case": name(r), "lo": c["lo"], "hi": c["hi"], "reason": c["reason"]}
                  for c, r in tried if not c.get("closed")]}
    if closed:
        lo = np.array([c["lo"] for c, _ in closed])
        j = int(np.argmax(lo))
        m.update(closed_min=float(lo.min()), closed_median=float(np.median(lo)),
                 closed_max=float(lo[j]), seed_of_max=name(closed[j][1]),
                 k_of_max=closed[j][1]["k"], max_closed_hi=max(c["hi"] for c, _ in closed))
    if rest:
        m["lower_ends"] = {"cases": len(rest), "min": float(np.min(rest)),
                           "median": float(np.median(rest)), "max": float(np.max(rest)),
                           "no_witness": int(sum(v == 0 for v in rest))}
    m["brackets"] = [{"case": name(r), "k": r["k"], "alpha": r["alpha"], "lo": c["lo"],
                      "hi": c["hi"] if c["hi"] is not None else 1 + strict,
                      "closed": bool(c.get("closed"))} for c, r in rows]
    ctx.measure("cstar_over_ck", m)
    reasons = {}
    for o in m["open"]:
        reasons.setdefault(o["reason"], []).append(o["case"])
    note = (f"each net's own sharp constant c*(W) (the largest band holding an exact "
            f"disagreement), over c_k(α) of its width, on {len(rows)} certified random/loose "
            f"nets: every one is ≤ 1 + {strict:g} (its certificate at the sharp band). "
            f"Brackets attempted on {len(tried)} of them (the first cases of each family, "
            f"CSTAR_CASES at the budget), closed to {rtol:g} relative on {len(closed)}"
            + (f" ({m['closed_exactly']} of them planar, d = 2: c*(W)² exactly in rationals, "
               "inside the certified bracket)" if m["closed_exactly"] else ""))
    if closed:
        note += (f": c*(W)/c_k(α) min {m['closed_min']:.3g}, median {m['closed_median']:.3g}, "
                 f"max {m['closed_max']:.4g} ({m['seed_of_max']}, k = {m['k_of_max']}), the "
                 f"largest certified upper end {m['max_closed_hi']:.4f}"
                 + (" (above 1: the sharp constant FAILS on a net)"
                    if m["max_closed_hi"] > 1 + 2 * strict else ""))
    if reasons:
        note += "; open: " + "; ".join(f"{len(v)} {k} ({', '.join(v)})"
                                        for k, v in reasons.items())
    if rest:
        lo_ = m["lower_ends"]
        note += (f". The other {lo_['cases']} have a witness's lower end only: min "
                 f"{lo_['min']:.3g}, median {lo_['median']:.3g}, max {lo_['max']:.4g} "
                 f"({lo_['no_witness']} without a disagreement found)")
    ctx.note(note)
