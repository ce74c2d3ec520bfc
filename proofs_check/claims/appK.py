"""App. K (``appK``): first-layer biases by lifting ``x ↦ (x, 1)``; Theorems 4.1 and 5.1 again.

The lifted net is still 1-homogeneous, so the theorems apply in the lifted space
(docs/math.md §1, derived): Theorem 4.1 with ``R_x → max‖(x, 1)‖``, ``w* → (w*, b*)`` (the
max-margin teacher of the lifted points) and ``R_0`` of the lifted weights; Theorem 5.1 with
``‖x‖ → ‖(x, 1)‖``, so the linear regime and the boundary are affine in x.

* Theorem 4.1: the ``thm4.1`` machinery (:func:`proofs_check.sgd_configs.run_sgd_case` with
  ``augment=True``: each separable set is shifted off the origin by 0.5 and lifted) and its
  five clauses (:func:`proofs_check.kit.thm4_report.record_sgd_result`).
* Theorem 5.1: random clustered nets in ``d + 1`` dimensions (the last column is the bias)
  and points of the form ``(x, 1)``: band-edge, just inside / outside and uniform points
  rescaled to last coordinate 1 (positive rescaling preserves both signs and the regime).
"""
from __future__ import annotations


import numpy as np

import linteach as lt

from ..kit import linear_regime, sgd_configs
from ..kit.audit import audit_cases
from ..kit.items import map_cases
from ..kit.thm4_report import measure_looseness, record_sgd_result
from ..engine.contract import ENGINE, Case, Claim, Clause
from ..engine.context import Context, verdict_of

__all__ = ["CLAIM", "CHUNK", "check", "lifted_points", "evaluate_thm51"]

THM51 = "thm5.1_sign_agreement_lifted"
CLAUSES = sgd_configs.CLAUSES + (THM51,)
#: what each clause's slack measures (the report's "slack unit")
SLACK_UNITS = dict(sgd_configs.SLACK_UNITS, **{THM51: "fraction of v·k·|(w̄ − ū)·(x, 1)|"})
CLAIM = Claim(
    id="appK",
    statement="with a first-layer bias (inputs lifted to (x, 1)), Theorem 4.1 holds with the "
              "lifted R_x, w* = (w*, b*) and R_0, and Theorem 5.1 holds for the lifted net: "
              "outside the band |(w̄−ū)·(x, 1)| < 2r‖(x, 1)‖ the sign is that of an affine "
              "function of x",
    reference="App. K, Theorems 4.1 and 5.1 (docs/math.md §1, §3, §5; slip 8)",
    hypotheses="Theorem 4.1: lifted data separable through the origin (affinely separable x); "
               "Theorem 5.1: any lifted net",
    cases="thm4.1 families small-n (3) and large-init (1) with augment=True (shift 0.5, lifted; "
          "the max-margin teacher recomputed in the lifted space); 20 clustered nets from "
          "thm5.1's random family in d + 1 dims with 200 lifted points each",
    control="u-update sign flipped in SGD on lifted data must FAIL the per-step invariants; "
            "ReLU (α = 0) lifted nets must FAIL the sign agreement",
    clauses=tuple(Clause(c, slack_unit=SLACK_UNITS[c]) for c in CLAUSES) + (ENGINE,))

#: Theorem 5.1's band constant, which the lifted nets are held to (docs/math.md §5)
BAND = 2.0
#: per-family counts of the thm4.1 part (each case trains 4 inits with an SGD audit)
SGD_FAMILIES = {"small-n": 3, "large-init": 1}
#: offset of the data from the origin before lifting (separable only with a bias, mostly)
OFFSET = 0.5
#: cases of the thm4.1 part per ``ctx.map`` item (one shape, four runs each: as ``thm4.1``)
CHUNK = sgd_configs.RUNS_PER_BATCH // 4
#: cases of the Theorem 5.1 part per ``ctx.map`` item
THM51_CHUNK = 32
THM51_CASES = 20
#: lifted points per net: (uniform, band edge, just inside, just outside)
POINTS = (80, 60, 30, 30)
CONTROL_NETS = 10


def lifted_points(rng: np.random.Generator, W, counts=POINTS) -> np.ndarray:
    """Points ``(x, 1)`` for the lifted net ``W (2k, d+1)``, dense near its band edge."""
    n_uni, n_edge, n_in, n_out = counts
    d = W.shape[-1] - 1
    X = [lt.augment_bias(rng.standard_normal((n_uni, d)) * rng.uniform(0.1, 5.0, (n_uni, 1)))]
    for n, c in ((n_edge, BAND), (n_in, BAND * (1 + linear_regime.EDGE_OFFSET)),
                 (n_out, BAND * (1 - linear_regime.EDGE_OFFSET))):
        try:
            P = lt.generators.band_points(W, 2 * n, c=c, rng=rng)
        except ValueError:  # the band edge has no direction (c·r > ‖w̄ − ū‖)
            continue
        P = P[P[:, -1] > 1e-9 * np.linalg.norm(P, axis=-1)][:n]
        X.append(P / P[:, -1:])  # positive rescaling: N's sign, D's sign, the regime: all kept
    X = np.vstack(X)
    X[:, -1] = 1.0  # exactly (x, 1)
    return X


def _thm51_case(case: Case, alpha):
    rng = case.rng
    spec = dict(linear_regime.NET_SPEC, d=(3, 11))  # W has d + 1 columns, x has d ≥ 2
    net, W = linear_regime.draw_net(rng, spec, alpha=alpha)
    X = lifted_points(rng, W)
    slack, info = linear_regime.theorem51_slacks(net, W, X, c=BAND)
    return {"slack": slack, "alpha": net.alpha, "k": net.k, "d": W.shape[-1] - 1,
            "regime_points": int(info["in_regime"].sum()), "points": len(X),
            "bias_gap": float(abs(np.subtract(*lt.neuron_means(W))[-1]))}


def evaluate_thm51(item) -> list:
    """``ctx.map`` worker: ``item = (cases, alpha override)``."""
    cases, alpha = item
    return [_thm51_case(case, alpha) for case in cases]


def _thm51(ctx: Context, count: int, alpha=None) -> None:
    cases = ctx.cases(ctx.n(count), "thm5.1-lifted")
    for case, res in zip(cases, map_cases(ctx, evaluate_thm51, cases, alpha, chunk=THM51_CHUNK)):
        if res["regime_points"]:
            ctx.record(THM51, res["slack"], case, alpha=res["alpha"], k=res["k"], d=res["d"])
        else:
            ctx.inconclusive(case, "no lifted point fell in the linear regime")


def _thm41(ctx: Context, *, corrupt: bool = False, counts=None, reported=None) -> list:
    trained = []
    for family, count in (counts or SGD_FAMILIES).items():
        spec = sgd_configs.FAMILIES[family]
        cases = ctx.cases(ctx.n(count), f"thm4.1-lifted-{family}")
        for case, res in sgd_configs.map_sgd_cases(ctx.map, cases, spec, augment=True,
                                                   corrupt=corrupt, offset=OFFSET,
                                                   budget=ctx.budget, chunk=CHUNK):
            record_sgd_result(ctx, case, res)
            if reported is not None:  # for the engine audit: what was trained and reported
                reported[case] = sgd_configs.trained_report(res)
            if "assumption_not_met" not in res:
                trained.append(res)
    return trained


def _control(ctx: Context) -> None:
    verdicts, subs = {}, []
    for name, clauses in (("corrupted-sgd", sgd_configs.INVARIANTS), ("relu", (THM51,))):
        sub = ctx.control_context(f"control-{name}", clauses=clauses)
        subs.append(sub)
        if name == "relu":
            _thm51(sub, CONTROL_NETS, alpha=0.0)
        else:
            _thm41(sub, corrupt=True, counts={"small-n": 1})
        broken = [c for c in clauses if c in sub.worst and sub.worst[c].slack < 0]
        verdicts[name] = {"verdict": verdict_of(sub), "broken": broken}
    ctx.negative_control(all(v["verdict"] == "FAIL" for v in verdicts.values()),
                         "SGD with the u-update sign flipped on lifted data must FAIL the "
                         "per-step invariants; ReLU lifted nets must FAIL sign agreement",
                         controls=subs, **verdicts)


def check(ctx: Context) -> None:
    reported = {}
    trained = _thm41(ctx, reported=reported)
    if trained:
        R_x = [r["config"]["R_x"] for r in trained]
        measure_looseness(ctx, trained)
        ctx.measure("lifted", {"R_x_range": [min(R_x), max(R_x)],
                               "teacher_norm_range": [min(r["config"]["w_star_norm"]
                                                          for r in trained),
                                                      max(r["config"]["w_star_norm"]
                                                          for r in trained)]})
        ctx.note("slip 8: App. K says the proofs 'follow exactly'; the constants must be the "
                 "lifted ones: R_x ≥ 1 always (the appended 1), w* the lifted max-margin "
                 "teacher (its norm includes the bias), R_0 of the lifted weights")
    _thm51(ctx, THM51_CASES)
    audit_cases(ctx, ctx.drawn, audit_subject, extra=reported)
    _control(ctx)


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s lifted SGD configuration, or its lifted Theorem 5.1 net and points."""
    if case.family.startswith("thm4.1-lifted-"):
        base = Case(case.family[len("thm4.1-lifted-"):], case.seed)
        return sgd_configs.audit_subject(base, augment=True, offset=OFFSET)
    rng = case.rng
    net, W = linear_regime.draw_net(rng, dict(linear_regime.NET_SPEC, d=(3, 11)))
    return {"net": net, "W": W, "X": lifted_points(rng, W)}
