"""Theorem 5.1 (``thm5.1``): outside the band ``|(w̄ − ū)·x| < 2r‖x‖`` the net is linear in sign.

Cases are random nets with a controlled cluster radius (:func:`linteach.generators.
clustered_weights`) and points drawn uniformly, on the band edge, just inside and just
outside it (:func:`linteach.generators.band_points`), plus the extremal construction of
docs/math.md §5.  Signs are decided exactly (:mod:`proofs_check.kit.signs`).

Each case is then decided exactly (:mod:`proofs_check.kit.certified`): certified at the
theorem's band 2 and, strictly, just above the sharp constant c_k(α) of its width
(docs/claims/thm5.1.md), each certificate re-checked in rationals.  A case carries
``proved`` evidence when certified, ``observed`` when only its sampled points were checked.

The band, the net draw and the slacks are shared with ``appK``
(:mod:`proofs_check.kit.linear_regime`).
"""
from __future__ import annotations

import numpy as np

from linteach.certify import sharp_constant as width_sharp

from ..engine.contract import ENGINE, Case, Claim, Clause
from ..engine.context import Context, verdict_of
from ..kit.linear_regime import NET_SPEC, draw_net, draw_points, extremal_net, sharp
from ..kit.audit import audit_cases
from ..kit.certified import certify_nets, sharp_ratio
from ..kit.cstar_report import measure_cstar, measure_evidence
from ..kit.sharp_report import enlarged_control, sharp_section
from ..kit.signs import sign_agreement

__all__ = ["CLAIM", "FAMILIES", "BAND", "STRICT", "ATTAINED", "check", "draw_points",
           "extremal_net", "evaluate_cases"]

# -- the statement's constants, in one place (tests show the check evaluates at them) ----
#: Theorem 5.1's band: |(w̄ − ū)·x| ≥ BAND·r‖x‖
BAND = 2.0
#: the strict form at the sharp constant: certified at c_k(α)·(1 + STRICT)
STRICT = 1e-9
#: c*(W)/c_k(α) on the certified random/loose cases: an exact witness's lower end on the
#: first CSTAR_CASES[budget][0] of each family, the bracket closed to CSTAR_RTOL (a
#: certificate at lo·(1 + CSTAR_RTOL), norm-QP branch and bound; a planar net's c*(W)
#: exactly) on the first CSTAR_CASES[budget][1] (at standard every certified one, about a
#: second of CPU each)
CSTAR_RTOL = 1e-2
CSTAR_CASES = {"quick": (2, 0), "standard": (15, 15), "thorough": (10**9, 20)}
#: norm-QP branch-and-bound nodes per side of one bracket (over it the bracket stays open)
CSTAR_NODES = {"quick": 150, "standard": 150, "thorough": 1500}
#: widest net certified per budget (wider ones keep their sampled evidence, ``observed``:
#: the exact re-check of a k = 200 certificate takes seconds)
CERTIFY_MAX_K = {"quick": 12, "standard": 200, "thorough": 200}

CLAUSE = "sign_agreement_in_linear_regime"
SHARP_CLAUSE = "sign_agreement_above_sharp_constant"
ATTAINED = "sharp_constant_attained"
CLAIM = Claim(
    id="thm5.1",
    statement="sign(N_W(x)) = sign((w̄ − ū)·x) for every x with |(w̄ − ū)·x| ≥ 2r‖x‖",
    reference="Theorem 5.1 (docs/math.md §5)",
    hypotheses="any W; 0 < α < 1; v > 0; r = max deviation of a neuron from its type's mean",
    cases="random nets (k 2–10, d 2–10, α in (0, 1), v ≠ 1, r/‖w̄ − ū‖ from 1e-6 to 0.5); "
          "tight (r down to 1e-16 relative, exact arithmetic), loose, many-neuron (k ≤ 200) "
          "and k = 1 families; points uniform, on the band edge, 1e-9 inside and outside it, "
          "and deep in the regime; the extremal construction of docs/math.md §5 at c ∈ [c*, 2]",
    control="ReLU (α = 0) nets must show violations; the constant shrunk to 0.9·(1−α)/(1+α) "
            "must show violations on the extremal construction; 1.1·c_k(α) pinned as if "
            "attained must find no witness",
    clauses=(Clause(CLAUSE, "s·N/(v·k·|D|) on the band |D| ≥ 2r‖x‖: min over the sampled "
                    "points and the certificate's exact lower bound (< 0: a disagreement)",
                    evidence="proved", slack_unit="fraction of v·k·|(w̄ − ū)·x|"),
             Clause(SHARP_CLAUSE, "the same at |D| ≥ c_k(α)(1 + 1e-9)·r‖x‖, c_k the sharp "
                    "constant of the net's width k", evidence="proved",
                    slack_unit="fraction of v·k·|(w̄ − ū)·x|"),
             Clause(ATTAINED, "the extremal net of width k disagrees exactly at band "
                    "(1 − 1e-9)·c_k(α), and the net built at c_k is certified at (1 + 1e-9)·c_k "
                    "(k = 2…6, kit/sharp_report.py)", evidence="proved",
                    slack_unit="1: an exact witness at (1 − 1e-9)·c_k; −1: none"),
             ENGINE))

#: shrink factor of the second negative control (strictly below the sharp constant)
SHRINK = 0.9
#: the third control pins ENLARGE·c_k(α) as if it were attained (it is not: above c_k every
#: net is certified), at α = ENLARGE_ALPHA for every width of the pins
ENLARGE, ENLARGE_ALPHA = 1.1, 0.3
#: cases per family in each negative control (ReLU's zero cone needs exact arithmetic: slow)
CONTROL_CASES = 10
#: cases per ctx.map item (cases are cheap; this amortises the per-item overhead)
CHUNK = 8

#: families: ranges drawn from the case seed; ``points`` = (uniform, edge, inside, outside, deep)
FAMILIES = {
    "random": dict(NET_SPEC, count=60),
    "tight": dict(NET_SPEC, count=6, rel_r=(1e-16, 1e-9), center=(1.0, 1e3), points=(10, 20, 5, 5, 5)),
    "loose": dict(NET_SPEC, count=15, rel_r=(0.3, 0.49)),
    "many": dict(NET_SPEC, count=6, k=(50, 200)),
    "k1": dict(NET_SPEC, count=15, k=(1, 1), points=(200, 20, 5, 5, 0)),
    "extremal": dict(count=15, alpha=(0.01, 0.99), d=(2, 10)),
}


def _evaluate(case: Case, family: str, alpha, c_factor, cstar=False,
              max_k=CERTIFY_MAX_K["standard"]):
    spec = FAMILIES[family]
    rng = case.rng
    if family == "extremal":
        a = float(rng.uniform(*spec["alpha"])) if alpha is None else alpha
        d = int(rng.integers(spec["d"][0], spec["d"][1] + 1))
        c = BAND if c_factor is None else c_factor * sharp(a)
        grid = np.concatenate([[sharp(a), 2.0], rng.uniform(sharp(a), 2.0, 4),
                               rng.uniform(2.0, 10.0, 2)])
        if c_factor is not None:  # the shrunk control: points between c and the sharp constant
            grid = np.linspace(c, sharp(a), 8, endpoint=False)
        r = float(np.exp(rng.uniform(np.log(1e-3), np.log(10.0))))
        built = [extremal_net(a, r, g, d=d, rng=rng) for g in grid]
        infos = [sign_agreement(net, W, x, c=c) for net, W, x in built]
        net = built[0][0]
        keys = ("slack", "in_regime", "agree", "ratio", "exact", "N", "D")
        info = {key: np.concatenate([i[key] for i in infos]) for key in keys}
    else:
        net, W = draw_net(rng, spec, alpha=alpha)
        c = BAND if c_factor is None else c_factor * sharp(net.alpha)
        points = draw_points(rng, W, spec["points"], c=BAND)
        info = sign_agreement(net, W, points, c=c)
    reg = info["in_regime"]
    out = {"family": family, "seed": case.seed, "alpha": net.alpha, "k": net.k,
           "c": c, "regime_points": int(reg.sum()), "points": int(len(reg)),
           "exact": int(info["exact"].sum()),
           "violation_ratios": info["ratio"][~info["agree"]].tolist()}
    if reg.any():
        slack = info["slack"][reg]
        j = int(np.argmin(slack))
        out.update(min_slack=float(slack[j]), slack=slack,
                   worst={key: float(info[key][reg][j]) for key in ("N", "D", "ratio")})
    sharp_band = _sharp_band(net.alpha, c, net.k)
    sampled = {CLAUSE: out.get("slack")}
    if sharp_band is not None:  # the same points judged at the strict sharp band
        X = np.concatenate([x for *_, x in built]) if family == "extremal" else points
        nets_w = [W for _, W, x in built for _ in x] if family == "extremal" else None
        sampled[SHARP_CLAUSE] = _sampled_at(net, W if nets_w is None else nets_w, X,
                                            sharp_band)
    out["sampled_sharp"] = sampled.get(SHARP_CLAUSE)
    # the shrunk control's nets are built at c_g ∈ [c, c_2): decide the clearest first
    nets = [W for _, W, _ in built][::-1 if c_factor else 1] if family == "extremal" else [W]
    why = f"k = {net.k} > {max_k}: certified only at the thorough budget"
    out["certified"] = _certify(nets, net.alpha, c, net.k, sampled=sampled) \
        if net.k <= max_k else {
        clause: {"status": "undecided", "band": None, "slack": None, "ratio": None,
                 "reason": why} for clause in (CLAUSE, SHARP_CLAUSE)}
    sharp_proved = out["certified"].get(SHARP_CLAUSE, {}).get("status") == "proved"
    if cstar and family in ("random", "loose") and sharp_proved:  # over the certified cases
        nodes = cstar[1] if isinstance(cstar, tuple) else None  # ("close", node budget)
        out["cstar"] = sharp_ratio(W, net.alpha, width_sharp(net.k, net.alpha), rtol=CSTAR_RTOL,
                                   close=nodes is not None, max_nodes=nodes or 1,
                                   rng=case.seed)
    return out


def _sharp_band(alpha, c, k):
    """The strict sharp band c_k(α)(1 + STRICT), or None (ReLU, whose c_k is ∞; controls)."""
    if alpha > 0 and c == BAND:
        return width_sharp(k, alpha) * (1 + STRICT) if k > 1 else STRICT
    return None


def _sampled_at(net, W, X, band):
    """The sampled points' slacks in the band ``band`` (``W``: one net, or one per point)."""
    if isinstance(W, list):
        got = [sign_agreement(net, Wi, X[i:i + 1], c=band) for i, Wi in enumerate(W)]
        slack = np.concatenate([g["slack"][g["in_regime"]] for g in got])
    else:
        got = sign_agreement(net, W, X, c=band)
        slack = got["slack"][got["in_regime"]]
    return slack if slack.size else None


def _certify(nets, alpha, c, k, *, sampled=None) -> dict:
    """Exact decisions for every net of a case at the band ``c`` and the strict sharp band
    (:func:`proofs_check.kit.certified.certify_nets`)."""
    return certify_nets(nets, alpha, c, _sharp_band(alpha, c, k), sampled=sampled,
                        clauses=(CLAUSE, SHARP_CLAUSE))


def evaluate_cases(item) -> list:
    """``ctx.map`` worker: ``item = (cases, family, alpha override, constant factor, c*
    flags)``; a case whose flag is set also brackets its net's own sharp constant."""
    cases, family, alpha, c_factor, flags = item
    return [_evaluate(case, family, alpha, c_factor, flag, max_k)
            for case, (flag, max_k) in zip(cases, flags)]


def _run(ctx, families, *, alpha=None, c_factor=None, count=None):
    results = []
    for family in families:
        cases = ctx.cases(ctx.n(count or FAMILIES[family]["count"]), family)
        n_cstar = CSTAR_CASES[ctx.budget] if alpha is None and c_factor is None else (0, 0)
        flags = [(("close", CSTAR_NODES[ctx.budget]) if i < n_cstar[1] else i < n_cstar[0],
                  CERTIFY_MAX_K[ctx.budget])
                 for i in range(len(cases))]
        chunks = [(cases[i:i + CHUNK], flags[i:i + CHUNK]) for i in range(0, len(cases), CHUNK)]
        items = [(ch, family, alpha, c_factor, fl) for ch, fl in chunks]
        for (chunk, _), outs in zip(chunks, ctx.map(evaluate_cases, items)):
            for case, out in zip(chunk, outs):
                _record(ctx, case, out)
                results.append(out)
    return results


def _record(ctx, case, out) -> None:
    """Per clause: ``proved`` if decided exactly (a re-checked certificate, or an exact
    disagreement), else ``observed`` from its sampled points, with the reason."""
    detail = {"alpha": out["alpha"], "k": out["k"], "c": out["c"]}
    samples = {CLAUSE: out.get("slack"), SHARP_CLAUSE: out.get("sampled_sharp")}
    for clause, cert in out["certified"].items():
        sampled = samples.get(clause)
        worst = out.get("worst", {}) if clause == CLAUSE else {}
        if cert["status"] == "undecided":
            if sampled is not None:
                ctx.record(clause, sampled, case, evidence="observed",
                           undecided=cert["reason"], **detail, **worst)
            elif clause == CLAUSE:
                ctx.inconclusive(case, "no sampled point in the regime and no certificate: "
                                 + cert["reason"])
            continue
        slack = min(([float(np.min(sampled))] if sampled is not None else []) + [cert["slack"]])
        ctx.record(clause, slack, case, evidence="proved", band=cert["band"],
                   status=cert["status"], witness_ratio=cert["ratio"], **detail)


def _control(ctx) -> None:
    verdicts, subs = {}, []
    for name, families, kwargs in (("relu", ("random", "k1"), {"alpha": 0.0}),
                                   ("shrunk", ("extremal",), {"c_factor": SHRINK})):
        sub = ctx.control_context(f"control-{name}")
        subs.append(sub)
        _run(sub, families, count=CONTROL_CASES, **kwargs)
        verdicts[name] = {"verdict": verdict_of(sub),
                          "violations": sub.worst[CLAUSE].violations if CLAUSE in sub.worst else 0}
    sub = ctx.control_context("control-enlarged", clauses=(ATTAINED,))
    subs.append(sub)
    enlarged_control(sub, attained=ATTAINED, factor=ENLARGE, alpha=ENLARGE_ALPHA)
    verdicts["enlarged"] = {"verdict": verdict_of(sub), "violations":
                            sub.worst[ATTAINED].violations if ATTAINED in sub.worst else 0}
    ctx.negative_control(all(v["verdict"] == "FAIL" for v in verdicts.values()),
                         "ReLU nets (α = 0), the regime constant shrunk to "
                         f"{SHRINK}·(1−α)/(1+α) on the extremal construction, and "
                         f"{ENLARGE}·c_k(α) pinned as if attained, must all FAIL",
                         controls=subs, **verdicts)


def check(ctx: Context) -> None:
    results = _run(ctx, list(FAMILIES))
    if results:
        _measure(ctx, results)
    sharp_section(ctx, attained=ATTAINED, sharp=SHARP_CLAUSE)
    audit_cases(ctx, ctx.drawn, audit_subject)
    _control(ctx)


def _measure(ctx, results) -> None:
    evaluated = [r for r in results if r["regime_points"]]
    ctx.measure("points", {"total": sum(r["points"] for r in results),
                           "in_regime": sum(r["regime_points"] for r in results),
                           "decided_exactly": sum(r["exact"] for r in results)})
    if evaluated:
        low = min(r["min_slack"] / r["alpha"] for r in evaluated)
        ctx.measure("min_slack_over_alpha", low)
        ctx.note(f"quantitatively, s·N ≥ α·v·k·|D| on every regime point: min s·N/(α·v·k·|D|) = "
                 f"{low:.10f} (1 up to the float rounding of N and D; the signs themselves are "
                 "exact). The bound follows from the sharp analysis and is attained where "
                 "every neuron is off")
    measure_evidence(ctx, results)
    measure_cstar(ctx, results, rtol=CSTAR_RTOL, strict=STRICT)


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s net and points, drawn as :func:`_evaluate` draws them (extremal: its first net)."""
    spec, rng = FAMILIES.get(case.family), case.rng
    if spec is None:
        return None
    if case.family != "extremal":
        net, W = draw_net(rng, spec)
        return {"net": net, "W": W, "X": draw_points(rng, W, spec["points"], c=2.0)}
    a, d = float(rng.uniform(*spec["alpha"])), int(rng.integers(spec["d"][0], spec["d"][1] + 1))
    rng.uniform(sharp(a), 2.0, 4), rng.uniform(2.0, 10.0, 2)  # the grid's draws
    net, W, X = extremal_net(a, float(np.exp(rng.uniform(np.log(1e-3), np.log(10.0)))),
                             sharp(a), d=d, rng=rng)
    return {"net": net, "W": W, "X": X}
