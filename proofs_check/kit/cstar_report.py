"""What ``thm5.1``'s exact decisions add up to, as measurements and notes: how many cases
each clause proved, witnessed or only sampled (with the reasons), and the distribution of
each net's own constant c*(W)/c_k(α) over the brackets of :func:`proofs_check.kit.certified.
sharp_ratio` (closed ones, open ones with their reasons, lower ends only)."""
from __future__ import annotations

import numpy as np

__all__ = ["measure_evidence", "measure_cstar"]


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
