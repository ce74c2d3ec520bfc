"""μ-separated data lead into a PAR, and keep the run there (``min2024``).

A **measured analogue** of the abstract-level claim of Min, Mallada & Vidal (ICLR 2024),
which is for ReLU nets with a small *trained* second layer; ours is leaky with a fixed ±v
second layer, so every verdict here is ``observed`` evidence about our model, not a test of
their theorem (docs/math.md §14).  Data: ``μ = min_{i,j} cos∠(y_i x_i, y_j x_j) > 0``.

Derived in our model (docs/math.md §14): each GD step raises every ``y_j w_l·x_j`` (and
lowers every ``y_j u_l·x_j``) by at least ``η v α μ ‖x_j‖ m̄ ḡ_t`` (``m̄`` the mean point norm,
``ḡ_t = min_i g(q_i)``), and raises every margin; so PAR is entered once
``Σ_t η ḡ_t > R_0/(v α μ m̄)`` (``R_0`` the largest initial neuron norm) and never left —
Theorem 6.2's trajectory hypothesis (an NAR from T_NAR on) then holds.  Clauses: the
per-step increments meet that bound; margins never decrease; the PAR entry time is within
the bound's time.  Measured: the entry time against Min et al.'s ``log n/√μ`` and against
our ``R_0/(vαμm̄)``, and whether Assumption 4 holds (μ > 0 does not imply it).  Control:
one label flipped (μ < 0): some pre-activation and some margin must fall, and PAR is never
settled in.
"""
from __future__ import annotations

import numpy as np

import linteach as lt

from ..engine.contract import ENGINE, Case, Claim, Clause, digest
from ..engine.context import Context, verdict_of
from ..kit import followup
from ..kit.audit import audit_cases
from ..kit.flow import span
from ..kit.geometry import unit_rows
from ..kit.items import cases_per_batch, map_cases, stack_runs

__all__ = ["CLAIM", "CLAUSES", "FAMILIES", "ETA", "N_STEPS", "INIT_SCALE", "INCREMENT_TOL",
           "check", "run_family", "increment_slack"]

CLAUSES = ("increment_bound", "margins_increase", "par_entry_within_bound")
CLAIM = Claim(
    id="min2024",
    statement="(measured analogue, leaky ReLU with fixed ±v, of the abstract-level claim of "
              "Min, Mallada & Vidal 2024) on μ-separated data (μ > 0) GD from small init "
              "raises every y_j w_l·x_j and −y_j u_l·x_j by ≥ η v α μ ‖x_j‖ m̄ ḡ per step, "
              "never lowers a margin, and enters PAR once Σ η ḡ > R_0/(vαμm̄), staying there",
    reference="docs/math.md §14 (the bound derived there; the source theorem is for ReLU with "
              "a trained second layer and was not confirmed: a measured analogue)",
    hypotheses="μ > 0 computed exactly on the drawn data; α > 0; init scale 1e-2; GD step "
               "0.01 (a close Euler discretisation of the flow; the bound holds for any step)",
    cases="y_i x_i within an angle a of one direction (a = 0.15, 0.35, 0.6 rad: μ ≥ cos 2a), "
          "n = 10 and 40, d = 5, k = 5, α = 0.3, 4 inits per case, 300 GD steps",
    control="the same sets with one label flipped (μ < 0; the bound's μ taken as |μ|): every "
            "clause must FAIL on every case — the flipped point's pre-activations and margin "
            "fall, and the run never settles in PAR",
    clauses=(Clause("increment_bound", "min over steps, neurons, points of Δ(±y_j w·x_j) / "
                                       "(η v α μ ‖x_j‖ m̄ ḡ_t) − 1 + INCREMENT_TOL",
                    slack_unit="relative to the bound η v α μ ‖x_j‖ m̄ ḡ"),
             Clause("margins_increase", "min over steps and points of Δq_i / max |Δq|",
                    slack_unit="fraction of max |Δq|"),
             Clause("par_entry_within_bound", "1 − T_PAR / T_bound",
                    slack_unit="fraction of T_bound"), ENGINE))

ETA = 0.01
N_STEPS = 300
INIT_SCALE = 1e-2
RUNS = 4
#: rounding allowance of the increment bound (relative)
INCREMENT_TOL = 1e-9
NET = dict(k=5, alpha=0.3)
FAMILIES = {f"a{a}-n{n}": dict(angle=a, n=n, d=5, count=1)
            for a in (0.15, 0.35, 0.6) for n in (10, 40)}
CONTROL = {"flipped": dict(angle=0.35, n=20, d=5, count=2, flip=True)}


def increment_slack(P, X, y, g_min, net, mu) -> float:
    """``P (T, R, 2k, n)``: ``±y_j v_l·x_j`` per step (sign + for w rows, − for u rows)."""
    norms = np.linalg.norm(X, axis=-1)
    bound = ETA * net.v * net.alpha * abs(mu) * norms.mean() * norms  # (n,), times ḡ_t
    inc = np.diff(P, axis=0) / (bound * g_min[:-1, :, None, None])
    return float(inc.min() - 1.0 + INCREMENT_TOL)


def _data(rng, spec):
    X, y = followup.mu_separated(rng, spec["n"], spec["d"], angle=spec["angle"])
    if spec.get("flip"):
        y = y.copy()
        y[2] = -y[2]
    return X, y


def run_family(item) -> list:
    """``ctx.map`` worker: ``item = (cases, spec)``; every case's runs in one GD batch."""
    from linteach import convex

    cases, spec = item
    net = lt.Net(**NET)
    built = []
    for case in cases:
        data_rng, init_rng = case.rng.spawn(2)
        X, y = _data(data_rng, spec)
        built.append((X, y, net.init(spec["d"], scale=INIT_SCALE, rng=init_rng, batch=RUNS)))
    X, y, W0 = stack_runs(built)
    Ws = []
    lt.gd(net, W0, (X, y), eta=ETA, n_steps=N_STEPS,
          record="all", callback=lambda s, W, info: Ws.append(np.array(W)))
    Ws = np.stack(Ws)  # (T, runs, 2k, d)
    sign = np.repeat([1.0, -1.0], net.k)[:, None]
    out = []
    for c, (Xc, yc, W0) in enumerate(built):
        rows = slice(c * RUNS, (c + 1) * RUNS)
        W = Ws[:, rows]
        P = sign * (W @ (yc[:, None] * Xc).T)               # (T, R, 2k, n)
        q = net.margins(W, Xc, yc)                            # (T, R, n)
        g_min = lt.loss.g(q).min(axis=-1)                     # (T, R)
        mu = followup.mu_of(Xc, yc)
        norms = np.linalg.norm(Xc, axis=-1)
        R0 = np.linalg.norm(W0, axis=-1).max(axis=-1)         # (R,)
        need = R0 / (net.v * net.alpha * abs(mu) * norms.mean())
        reached = np.cumsum(ETA * g_min, axis=0) > need       # Σ_{t ≤ s} η ḡ_t
        t_bound = np.where(reached.any(0), (np.argmax(reached, 0) + 1) * ETA, np.inf)
        par = P.min(axis=(-2, -1)) > 0                        # (T, R)
        stays = np.flip(np.logical_and.accumulate(np.flip(par, 0), 0), 0)
        t_par = np.where(stays.any(0), np.argmax(stays, 0) * ETA, np.inf)
        dq = np.diff(q, axis=0)
        a4 = None  # Assumption 4 (reported, not a clause); undecided if the LP fails
        if not spec.get("flip"):
            try:
                a4 = bool(convex.assumption4_lp(unit_rows(Xc), yc).holds)
            except lt.SolverError:
                pass
        out.append({"mu": mu, "n": len(yc), "increment": increment_slack(P, Xc, yc, g_min, net,
                                                                          mu),
                    "margins": float(dq.min() / np.abs(dq).max()), "t_par": t_par,
                    "t_bound": t_bound, "R0": R0, "m_bar": float(norms.mean()),
                    "a4": a4, "data": digest(Xc)})
    return out


def _run(ctx: Context, families: dict) -> list:
    out = []
    for family, spec in families.items():
        cases = ctx.cases(ctx.n(spec["count"]), family)
        if not cases:
            continue
        for case, r in zip(cases, map_cases(ctx, run_family, cases, spec,
                                            chunk=cases_per_batch(RUNS))):
            ctx.ledger(case, data=r["data"])
            if r["mu"] <= 0 and not spec.get("flip"):
                ctx.assumption_not_met(case, f"μ = {r['mu']:.3g} ≤ 0")
                continue
            ctx.record("increment_bound", r["increment"], case, mu=r["mu"])
            if "margins_increase" in ctx.claim.clause_names:
                ctx.record("margins_increase", r["margins"], case, mu=r["mu"])
            if "par_entry_within_bound" in ctx.claim.clause_names:
                if np.isinf(r["t_bound"]).any():
                    ctx.inconclusive(case, "the bound's time lies beyond the horizon")
                else:
                    slack = np.where(np.isfinite(r["t_par"]), 1.0 - r["t_par"] / r["t_bound"],
                                     -1.0)  # never in PAR to stay although the bound passed
                    ctx.record("par_entry_within_bound", slack, case,
                               mu=r["mu"], t_par=float(r["t_par"].max()),
                               t_bound=float(r["t_bound"].min()))
            out.append((family, r))
    return out


def check(ctx: Context) -> None:
    results = _run(ctx, FAMILIES)
    audit_cases(ctx, ctx.drawn, audit_subject)
    done = [r for _f, r in results if np.isfinite(r["t_par"]).all()]
    if done:
        # Min et al.'s scale log n/√μ against ours, in units of R_0/(v m̄) (our time scale)
        tau = [(r["t_par"] * lt.Net(**NET).v * r["m_bar"] / r["R0"]).mean() for r in done]
        ctx.measure("entry_time_over_min_scale",
                    span(t * np.sqrt(r["mu"]) / np.log(r["n"]) for t, r in zip(tau, done)))
        ctx.measure("entry_time_over_our_bound", span(x for r in done
                                                      for x in r["t_par"] / r["t_bound"]))
        mus, taus = np.array([r["mu"] for r in done]), np.array(tau)
        if np.ptp(np.log(mus)) > 0:
            ctx.measure("entry_time_mu_exponent", float(-np.polyfit(np.log(mus), np.log(taus),
                                                                    1)[0]))
        holds = sum(r["a4"] is True for _f, r in results)
        fails = sum(r["a4"] is False for _f, r in results)
        ctx.measure("assumption4_holds", {"sets": len(results), "holds": holds, "fails": fails,
                                          "lp_error": len(results) - holds - fails})
        if fails:
            ctx.note(f"Assumption 4 fails on {fails} of {len(results)} μ-separated sets while "
                     "every run enters PAR and stays: Theorem 6.2's trajectory hypothesis "
                     "holds there, its data hypothesis does not")
    sub = ctx.control_context("control", clauses=CLAUSES)
    _run(sub, CONTROL)
    caught = verdict_of(sub) == "FAIL" and all(
        c in sub.worst and sub.worst[c].violations == sub.worst[c].evaluated for c in CLAUSES)
    ctx.negative_control(caught, "one label flipped (μ < 0): some ±y_j v_l·x_j falls, some "
                         "margin falls, and the run never settles in PAR — every clause fails "
                         "on every case", controls=sub,
                         violations={c: w.violations for c, w in sub.worst.items()},
                         evaluations={c: w.evaluated for c, w in sub.worst.items()})


# -- engine audit (proofs_check.kit.audit): this claim's objects, rebuilt from a case seed --
def audit_subject(case: Case):
    """``case``'s data and inits as :func:`run_family` draws them, and its GD step."""
    spec = FAMILIES.get(case.family)
    if spec is None:
        return None
    data_rng, init_rng = case.rng.spawn(2)
    X, y = _data(data_rng, spec)
    net = lt.Net(**NET)
    return {"net": net, "W": net.init(spec["d"], scale=INIT_SCALE, rng=init_rng, batch=RUNS),
            "X": X, "y": y, "flow": {"dt": 0.01, "euler_dt": ETA}}
