"""Run claim checks and turn each into a :class:`CheckResult` (never stopping at a failure).

A check's ``ctx.map`` batches go to an optional ``concurrent.futures`` executor (a local
process pool, a Dask cluster); with one, several claims also run at once, each in a thread
of this process that only orchestrates.  Results do not depend on either: batch results
return in item order and each claim has its own :class:`Context`, so the report is the same
as a sequential run's.  BLAS is pinned to one thread here too for the duration (worker
processes are pinned by :mod:`proofs_check.engine.executor`), so no floating-point reduction is
split differently between modes.

With a checkpoint (:class:`proofs_check.engine.checkpoint.Checkpoint`) every finished claim and
batch is stored as it finishes; a resumed run reuses them.  Ctrl-C raises
:class:`Interrupted`, which says what finished.
"""
from __future__ import annotations

import queue
import threading
import time
import traceback
from pathlib import Path

from threadpoolctl import threadpool_limits

from . import registry
from .checkpoint import MISSING
from .mapper import Cancelled, Mapper
from .contract import Case, CheckResult
from .context import Context, control_problem, engine_problem, verdict_of
from .distribution import slack_distribution

#: innermost stack frames kept in an ERROR's traceback summary
TRACEBACK_FRAMES = 4


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run: ``finished`` results (paper order) and the ids left unfinished."""

    def __init__(self, finished, unfinished):
        super().__init__("interrupted")
        self.finished, self.unfinished = list(finished), list(unfinished)


def traceback_summary(exc: BaseException) -> str:
    """``Type: message`` and the innermost frames, a worker's included, as short text."""
    frames = traceback.extract_tb(exc.__traceback__)[-TRACEBACK_FRAMES:]
    lines = [f"{type(exc).__name__}: {exc}"]
    lines += [f"  at {Path(f.filename).parent.name}/{Path(f.filename).name}:{f.lineno} "
              f"in {f.name}: {(f.line or '').strip()}" for f in frames]
    remote = exc.__cause__
    if remote is not None and type(remote).__name__ == "_RemoteTraceback":
        # a process pool re-raises the worker's exception here; its frames are text
        body = [ln for ln in str(remote).strip().strip('"').splitlines() if ln.strip()]
        lines += ["  in the worker:"] + [f"  {ln}" for ln in body[-2 * TRACEBACK_FRAMES - 1:]]
    return "\n".join(lines)


def _result(claim, ctx: Context, verdict: str, seconds: float, error) -> CheckResult:
    worst = min(ctx.worst.values(), key=lambda w: w.slack, default=None)
    reproduce = None
    if verdict == "ERROR":  # the crash need not belong to the worst case: rerun the claim
        reproduce = (f".venv/bin/proofs_check --only {claim.id} --seed {ctx.seed} "
                     f"--budget {ctx.budget} --workers 0"
                     + ("" if ctx.cases_override is None else f" --cases {ctx.cases_override}"))
    elif worst is not None:
        reproduce = (f".venv/bin/proofs_check --replay {claim.id} --family {worst.family} "
                     f"--seed {worst.seed}")
    return CheckResult(
        id=claim.id, statement=claim.statement, reference=claim.reference, verdict=verdict,
        cases=ctx.counts["cases"], worst_slack=None if worst is None else worst.slack,
        worst_seed=None if worst is None else worst.seed,
        negative_control_caught=None if ctx.control is None else ctx.control["caught"],
        notes=ctx.notes, seconds=seconds,
        clauses={name: {"worst_slack": w.slack, "family": w.family, "seed": w.seed,
                        "evaluated": w.evaluated, "violations": w.violations,
                        "evidence": w.strength, "evidence_counts": dict(w.evidence),
                        "detail": w.detail, "slack_unit": claim.unit(name),
                        "distribution": slack_distribution(w.values)}
                 for name, w in ctx.worst.items()},
        worst_family=None if worst is None else worst.family, reproduce=reproduce,
        measurements=ctx.measurements, negative_control=ctx.control,
        counts={**ctx.counts, "evaluated": len(ctx.recorded),
                **{f"{k}_cases": len(v) for k, v in ctx.declared.items()},
                **{f"{k}_examples": v[:5] for k, v in ctx.reasons.items()}},
        error=error, ledger=ctx.ledger_entries, families=dict(ctx.family_counts),
        evidence=ctx.evidence)


def run_one(claim_id: str, *, seed: int, budget: str, cases: int | None = None,
            replay: Case | None = None, executor=None, checkpoint=None, cancel=None,
            load=None, batches=None) -> CheckResult | None:
    """Run one check; ``None`` if its module does not exist yet.  Exceptions become ERROR.

    Parameters
    ----------
    claim_id : str
    seed : int
        Root seed of the run.
    budget : {"quick", "standard", "thorough"}
    cases : int, optional
        Cases per family, overriding the budget.
    replay : Case, optional
        Run only this case.
    executor : concurrent.futures.Executor, optional
        Where ``ctx.map`` batches run (default: here, in order).
    checkpoint : Checkpoint, optional
        Finished batches are reused from and stored in it.
    cancel : threading.Event, optional
        Once set, the check stops at its next batch and :class:`Cancelled` is raised.
    load : callable, optional
        ``load(claim_id) -> module or None`` (default :func:`proofs_check.engine.registry.load`).
    batches : callable, optional
        ``batches(done, total)`` after each finished ``ctx.map`` batch (progress display).
    """
    module = (load or registry.load)(claim_id)
    if module is None:
        return None
    claim = module.CLAIM
    ctx = Context(claim, seed=seed, budget=budget, cases=cases, replay=replay)
    ctx.mapper = Mapper(claim.id, executor=executor, checkpoint=checkpoint, cancel=cancel,
                        on_batch=batches)
    start = time.perf_counter()
    error = None
    with threadpool_limits(limits=1):
        try:
            module.check(ctx)
            verdict = verdict_of(ctx)
            # an engine that disagrees with its definition voids the verdict; so does a
            # control that proved nothing
            problem = engine_problem(ctx) or control_problem(ctx)
            if problem is not None:
                verdict, error = "ERROR", problem
        except Cancelled:
            raise
        except Exception as exc:  # a check that raises is an ERROR verdict, the others still run
            if cancel is not None and cancel.is_set():
                raise Cancelled(claim.id) from exc
            verdict, error = "ERROR", traceback_summary(exc)
    return _result(claim, ctx, verdict, time.perf_counter() - start, error)


def run_all(ids, *, seed: int, budget: str, cases: int | None = None, progress=None,
            executor=None, checkpoint=None, concurrency: int = 1, load=None, batches=None):
    """Run the checks in ``ids``; returns (results in the order of ``ids``, ids not written yet).

    ``progress(stage, claim_id, result)`` is called with stage ``"start"``, ``"done"`` or
    ``"checkpoint"`` (a claim restored from ``checkpoint``); calls are serialised.  With
    ``concurrency > 1`` (sensible only with an ``executor``) that many claims run at once.
    ``batches(claim_id, done, total)`` is called as a claim's ``ctx.map`` batches finish.
    Ctrl-C raises :class:`Interrupted`.
    """
    ids = list(ids)
    lock, cancel = threading.Lock(), threading.Event()
    outcome: dict = {}

    def report(stage, claim_id, result):
        if progress:
            with lock:
                progress(stage, claim_id, result)

    def one(claim_id):
        stored = checkpoint.get_claim(claim_id) if checkpoint is not None else MISSING
        if stored is not MISSING:
            outcome[claim_id] = stored
            report("checkpoint", claim_id, stored)
            return
        report("start", claim_id, None)
        result = run_one(claim_id, seed=seed, budget=budget, cases=cases, executor=executor,
                         checkpoint=checkpoint, cancel=cancel, load=load,
                         batches=None if batches is None
                         else lambda done, total: batches(claim_id, done, total))
        if result is not None and checkpoint is not None and result.verdict != "ERROR":
            checkpoint.put_claim(result)  # an ERROR (maybe a lost worker) is retried on resume
        outcome[claim_id] = result
        report("done", claim_id, result)

    try:
        # pinned here, around every claim thread, so no thread's exit can unpin another
        with threadpool_limits(limits=1):
            if concurrency <= 1:
                for claim_id in ids:
                    one(claim_id)
            else:
                _threaded(one, ids, concurrency, outcome)
    except KeyboardInterrupt:
        cancel.set()
        done = [outcome[c] for c in ids if outcome.get(c) is not None]
        raise Interrupted(done, [c for c in ids if c not in outcome]) from None
    results = [outcome[c] for c in ids if outcome[c] is not None]
    return results, [c for c in ids if outcome[c] is None]


def _threaded(one, ids, concurrency, outcome):
    """Run ``one(claim_id)`` on ``concurrency`` daemon threads, claims taken in order.

    Daemon threads, so a Ctrl-C need not wait for a check busy outside ``ctx.map``.  An
    exception escaping ``one`` (the runner's own fault, not a check's) is re-raised here.
    """
    todo: queue.SimpleQueue = queue.SimpleQueue()
    for claim_id in ids:
        todo.put(claim_id)
    failures = []

    def worker():
        while True:
            try:
                claim_id = todo.get_nowait()
            except queue.Empty:
                return
            try:
                one(claim_id)
            except Cancelled:
                return
            except BaseException as exc:  # surfaced in the main thread below
                failures.append(exc)
                return

    threads = [threading.Thread(target=worker, daemon=True, name=f"claims-{i}")
               for i in range(min(concurrency, len(ids)))]
    for t in threads:
        t.start()
    for t in threads:
        while t.is_alive():
            t.join(0.2)  # short joins keep the main thread responsive to Ctrl-C
    if failures:
        raise failures[0]
