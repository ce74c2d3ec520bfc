"""Run claim checks and turn each into a :class:`CheckResult` (never stopping at a failure)."""
from __future__ import annotations

import time
import traceback

from . import registry
from .result import Case, CheckResult, Context, verdict_of


def run_one(claim_id: str, *, seed: int, budget: str, cases: int | None = None,
            replay: Case | None = None) -> CheckResult | None:
    """Run one check; ``None`` if its module does not exist yet.  Exceptions become ERROR."""
    module = registry.load(claim_id)
    if module is None:
        return None
    claim = module.CLAIM
    ctx = Context(claim, seed=seed, budget=budget, cases=cases, replay=replay)
    start = time.perf_counter()
    error = None
    try:
        module.check(ctx)
        verdict = verdict_of(ctx)
    except Exception as exc:  # a check that raises is an ERROR verdict, the others still run
        verdict = "ERROR"
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        error = "".join(tb[-3:]).strip()
    seconds = time.perf_counter() - start
    worst = min(ctx.worst.values(), key=lambda w: w.slack, default=None)
    reproduce = None
    if worst is not None:
        reproduce = (f"python -m proofs_check --replay {claim.id} --family {worst.family} "
                     f"--seed {worst.seed}")
    return CheckResult(
        id=claim.id, statement=claim.statement, reference=claim.reference, verdict=verdict,
        cases=ctx.counts["cases"], worst_slack=None if worst is None else worst.slack,
        worst_seed=None if worst is None else worst.seed,
        negative_control_caught=None if ctx.control is None else ctx.control["caught"],
        notes=ctx.notes, seconds=seconds,
        clauses={name: {"worst_slack": w.slack, "family": w.family, "seed": w.seed,
                        "evaluated": w.evaluated, "violations": w.violations, "detail": w.detail}
                 for name, w in ctx.worst.items()},
        worst_family=None if worst is None else worst.family, reproduce=reproduce,
        measurements=ctx.measurements, negative_control=ctx.control,
        counts={**ctx.counts, **{f"{k}_examples": v[:5] for k, v in ctx.reasons.items()}},
        error=error, ledger=ctx.ledger_entries)


def run_all(ids, *, seed: int, budget: str, cases: int | None = None, progress=None):
    """Run the checks in ``ids`` in paper order; returns (results, ids not checked yet)."""
    results, missing = [], []
    for claim_id in ids:
        if progress:
            progress("start", claim_id, None)
        result = run_one(claim_id, seed=seed, budget=budget, cases=cases)
        if result is None:
            missing.append(claim_id)
        else:
            results.append(result)
        if progress:
            progress("done", claim_id, result)
    return results, missing
