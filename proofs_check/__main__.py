"""``python -m proofs_check`` (or ``proofs_check``): run the claim checks, write the report.

Exit status 0 iff every claim was checked, PASSed, and had its negative control caught;
1 otherwise (FAIL, ERROR, a missed control, a claim not checked yet; for ``--compare``: the
reports differ); 2 for a usage error (checked before anything runs); 130 when interrupted
(the previous report is left as it was; ``--resume`` continues).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

from . import compare, pages, report, usage
from .engine import executor as executors
from .engine import registry, runner, selftest
from .engine.checkpoint import Checkpoint
from .engine.contract import Case
from .engine.context import BUDGET_SCALE
from .progress import Progress

#: where ``--replay`` without ``--family`` looks for the recorded cases by default
DEFAULT_JSON = Path("docs/claims.json")
PROG = "proofs_check"


def _version() -> str:
    import linteach

    return f"{PROG} (linteach {linteach.__version__})"


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every OS
        return os.cpu_count() or 1


def _one_line(text: str, width: int = 72) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def claim_table(checks, load) -> list:
    """``(id, evidence, slack unit, one-line statement)`` of every claim in ``checks``."""
    rows = []
    for claim_id in checks:
        module = load(claim_id)
        if module is None:
            rows.append((claim_id, "—", "—", "not checked yet"))
            continue
        claim = module.CLAIM
        units = sorted({claim.unit(c) for c in claim.clause_names} - {""})
        rows.append((claim_id, claim.evidence or "—", "; ".join(units) or "—",
                     _one_line(claim.statement)))
    return rows


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Shows an option's default where it has one (not for flags and unset options)."""

    def _get_help_string(self, action):
        text = action.help or ""
        unset = action.default is None or action.default is False \
            or action.default == argparse.SUPPRESS
        if not unset and "default" not in text:
            text += " (default: %(default)s)"
        return text


def _parser(epilog: str | None = None):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.replace("``", ""),
                                epilog=epilog, formatter_class=_Formatter)
    p.add_argument("--version", action="version", version=_version())
    p.add_argument("--list", action="store_true",
                   help="list the claims with their evidence strength and slack unit, then exit")
    p.add_argument("--only", nargs="+", metavar="ID", help="check only these claims")
    p.add_argument("--cases", type=int, default=None,
                   help=f"cases per family, overriding the budget (at most {usage.MAX_CASES})")
    p.add_argument("--seed", type=int, default=0, help="root seed, in [0, 2**64 - 1]")
    p.add_argument("--budget", choices=list(BUDGET_SCALE), default="standard",
                   help="how many cases: quick (0.2x), standard, thorough (5x)")
    p.add_argument("--json", metavar="PATH", help="write claims.json here")
    p.add_argument("--out", metavar="PATH", help="write claims.md here")
    p.add_argument("--pages", metavar="DIR", help="update the generated section (and slack "
                   "plot) of each reviewer page DIR/<id>.md from the report")
    p.add_argument("--from", dest="source", metavar="PATH", help="run nothing: render "
                   "--out and --pages from this existing claims.json")
    p.add_argument("--replay", metavar="ID", help="rerun one recorded case of claim ID (with "
                   "--seed S; --family F unless claims.json records the seed for one family)")
    p.add_argument("--family", help="the case family to replay")
    p.add_argument("--workers", type=int, default=_cpus(),
                   help="local worker processes, BLAS pinned to 1 thread each; 0 runs "
                        "everything in this process (default: the usable CPUs, here "
                        "%(default)s)")
    p.add_argument("--dask", metavar="ADDRESS", help="send batches to this Dask scheduler "
                   "(e.g. tcp://127.0.0.1:8786; needs the dask extra)")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run with the same seed, budget and cases")
    p.add_argument("--state", metavar="DIR", default=".proofs_check_state",
                   help="checkpoint directory")
    p.add_argument("--no-checkpoint", action="store_true", help="write no checkpoints")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"),
                   help="compare two claims.json semantically (verdicts, evidence, controls, "
                        f"slacks to a relative {compare.RTOL:g}, content hashes); print "
                        "'reproduced' or each difference; exit 0 / 1 (2: not a report)")
    p.add_argument("--selftest", action="store_true",
                   help="run the runner's synthetic self-test claims instead of the paper's")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p


def _epilog() -> str:
    rows = claim_table(registry.CHECKS, registry.load)
    lines = ["claims (id, evidence strength, statement):"]
    lines += [f"  {cid:8s} {ev:9s} {text}" for cid, ev, _, text in rows]
    lines += ["", "examples:", f"  {PROG} --budget quick --only thm5.1",
              f"  {PROG} --json build/claims.json --out build/claims.md",
              f"  {PROG} --compare docs/claims.json build/claims.json"]
    return "\n".join(lines)


def _list(checks, load) -> int:
    rows = [("claim", "evidence", "slack unit", "statement")] + claim_table(checks, load)
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        print("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3])
    return 0


def _fmt_result(claim_id, result, suffix=""):
    if result is None:
        return f"{claim_id:10s} {'NOT CHECKED YET':20s}"
    slack = "—" if result.worst_slack is None else f"{result.worst_slack:.3g}"
    ctl = {True: "caught", False: "MISSED", None: "none"}[result.negative_control_caught]
    return (f"{claim_id:10s} {result.verdict:20s} {result.cases:8d} {slack:>12s} {ctl:>8s} "
            f"{result.seconds:8.1f}{suffix}")


def _err(text: str) -> None:
    print(text, file=sys.stderr)


def _recorded(path: Path, claim_id: str, seed: int):
    """``(family, ledger, families)`` of case ``seed`` of ``claim_id`` as recorded in ``path``.

    ``family`` is ``None`` when it cannot be told (then ``ledger`` is the reason).
    """
    if not path.exists():
        return None, f"no --family given and no {path} to look the seed up in", []
    doc = report.load(path)  # ReportError: not a report
    claim = next((c for c in doc["claims"] if c["id"] == claim_id), None)
    if claim is None:
        return None, f"{path} has no results for {claim_id}", []
    known = sorted(claim.get("families") or {})
    families = {w["family"] for w in claim["clauses"].values() if w["seed"] == seed}
    families |= {key.rsplit("/", 1)[0] for key in claim["ledger"]
                 if key.rsplit("/", 1)[-1] == str(seed)}
    if len(families) != 1:
        found = f"families {sorted(families)}" if families else "no case"
        return None, f"{path} records {found} with seed {seed} for {claim_id}; pass --family", known
    return families.pop(), claim["ledger"], known


def _replay(args, load) -> int:
    family, ledger, known = args.family, {}, []
    path = Path(args.json or DEFAULT_JSON)
    try:
        if family is None:
            family, ledger, known = _recorded(path, args.replay, args.seed)
            if family is None:
                _err(f"--replay: {ledger}")
                return 2
        elif path.exists():
            doc = report.load(path)
            claim = next((c for c in doc["claims"] if c["id"] == args.replay), None)
            known = sorted((claim or {}).get("families") or {})
            ledger = (claim or {}).get("ledger", {})
    except report.ReportError as exc:
        _err(f"--replay: {exc}")
        return 2
    if known and family not in known:
        _err(f"--replay: claim {args.replay} draws no case of family {family!r}; its "
             f"families in {path}: {', '.join(known)}")
        return 2
    result = runner.run_one(args.replay, seed=0, budget=args.budget,
                            replay=Case(family, args.seed), load=load)
    if result is None:
        _err(f"{args.replay}: no check written yet")
        return 2
    counts = result.counts
    untouched = not result.clauses and not counts.get("assumption_not_met") and \
        not counts.get("inconclusive")
    # an ERROR only because the control then saw no case is not a crash of the replayed case
    if untouched and (result.verdict != "ERROR"
                      or (result.error or "").startswith("the negative control")):
        hint = f"; its families in {path}: {', '.join(known)}" if known else ""
        _err(f"--replay: claim {args.replay} draws no case of family {family!r}{hint}")
        return 2
    print(f"{result.id} replay {family}/{args.seed}: verdict {result.verdict}")
    for name, w in result.clauses.items():
        print(f"  {name:32s} slack {w['worst_slack']:+.6g}  {json.dumps(w['detail'])}")
    key = f"{family}/{args.seed}"
    if key in ledger and key in result.ledger:
        same = ledger[key] == result.ledger[key]
        print(f"  content hashes {'match' if same else 'DIFFER FROM'} the recorded ledger")
    if result.error:
        print(result.error)
    return 0 if result.verdict == "PASS" else 1


def _compare(a, b) -> int:
    try:
        outcome = compare.compare_files(a, b)
    except report.ReportError as exc:
        _err(f"--compare: {exc}")
        return 2
    for line in outcome.lines(a, b):
        print(line)
    return 0 if outcome.reproduced else 1


def _executor_for(args):
    if args.dask is not None:
        return executors.dask_executor(args.dask)
    if args.workers >= 1:
        return executors.local_pool(args.workers)
    return contextlib.nullcontext(None)


def _interrupted(exc, checkpoint, argv) -> int:
    _err("\ninterrupted: no report written (the previous one is intact)")
    for result in getattr(exc, "finished", ()):
        _err(f"  finished: {result.id} {result.verdict}")
    for claim_id in getattr(exc, "unfinished", ()):
        done = checkpoint.batches_done(claim_id) if checkpoint else 0
        _err(f"  unfinished: {claim_id} ({done} batches checkpointed)")
    if checkpoint is not None:
        again = " ".join(a for a in argv if a != "--resume")
        _err(f"continue with: {PROG} {again} --resume".replace("  ", " "))
    return 130


def _sigterm(signum, frame):
    raise KeyboardInterrupt  # a batch scheduler's SIGTERM stops as cleanly as Ctrl-C


def _write_outputs(doc, args) -> int:
    try:
        if args.json:
            report.atomic_write(args.json, report.dumps(doc))
        if args.out:
            report.atomic_write(args.out, report.to_markdown(doc))
        if args.pages:
            for line in pages.update_pages(doc, args.pages):
                _err(f"proofs_check: {line}")
    except OSError as exc:
        _err(f"cannot write the report: {exc}")
        return 2
    return 0


def _checkpoint_news(checkpoint, say) -> None:
    if checkpoint is None:
        return
    if checkpoint.rejected:
        say(f"{len(checkpoint.rejected)} checkpoint file(s) rejected and recomputed:")
        for path, reason in checkpoint.rejected[:10]:
            say(f"  {path}: {reason}")
    for problem in checkpoint.problems:
        say(problem)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    help_wanted = any(a in ("-h", "--help") for a in argv)
    try:
        args = _parser(_epilog() if help_wanted else None).parse_args(argv)
    except SystemExit as exc:  # --help, --version, or argparse's usage error (exit 2)
        return int(exc.code or 0)
    try:
        return _main(args, argv)
    except KeyboardInterrupt as exc:
        return _interrupted(exc, None, argv)


def _main(args, argv) -> int:
    checks, load = ((selftest.CHECKS, selftest.load) if args.selftest
                    else (registry.CHECKS, registry.load))
    if args.list:
        return _list(checks, load)
    problem = usage.option_problem(args, list(checks)) or usage.dask_problem(args.dask)
    if problem:
        _err(problem)
        return 2
    if args.compare:
        return _compare(*args.compare)
    if args.replay:
        return _replay(args, load)
    if args.only:
        args.only, repeated = usage.dedupe(args.only)
        if repeated:
            _err(f"--only: {', '.join(repeated)} given more than once; each runs once")
    if args.source is not None:
        return _render(args)
    problem = usage.path_problem(args)
    if problem:
        _err(problem)
        return 2
    return _run(args, argv, checks, load)


def _render(args) -> int:
    if args.json:
        _err("--from renders an existing report: drop --json (the report is the source)")
        return 2
    args.no_checkpoint = True
    problem = usage.path_problem(args)
    if problem:
        _err(problem)
        return 2
    try:
        doc = report.load(args.source)
    except report.ReportError as exc:
        _err(f"--from: {exc}")
        return 2
    return _write_outputs(doc, args)


def _run(args, argv, checks, load) -> int:
    ids = args.only or list(selftest.DEFAULT if args.selftest else checks)
    prog = Progress(ids, enabled=not args.quiet)
    prog.note(f"{len(ids)} claim(s), budget {args.budget}, seed {args.seed}: loading the "
              "numeric libraries" + ("" if args.no_checkpoint else
                                     " and the checkpoint configuration"))
    checkpoint = None
    if not args.no_checkpoint:
        config = {"seed": args.seed, "budget": args.budget, "cases": args.cases,
                  "selftest": args.selftest}
        try:
            checkpoint = Checkpoint(args.state, config, resume=args.resume)
        except OSError as exc:
            prog.close()
            _err(f"--state: cannot use {args.state} for checkpoints: {exc} "
                 "(choose another --state, or run with --no-checkpoint)")
            return 2
        if args.resume and not checkpoint.resumed:
            _err("--resume: no checkpoint of this seed, budget, cases, code and numeric "
                 "environment; starting fresh")
    resumed = []

    def out(line):
        if prog.bar is not None:
            prog.bar.write(line, file=sys.stdout)
        else:
            print(line, flush=True)

    def progress(stage, claim_id, result):
        if stage == "start":
            prog.start(claim_id)
            return
        if stage == "checkpoint":
            resumed.append(claim_id)
        prog.done(claim_id, "NOT CHECKED YET" if result is None else result.verdict,
                  from_checkpoint=stage == "checkpoint")
        out(_fmt_result(claim_id, result, "  (from checkpoint)" if stage == "checkpoint"
                        else ""))

    start = time.perf_counter()
    previous = signal.signal(signal.SIGTERM, _sigterm)
    try:
        with _executor_for(args) as executor:
            where = executors.describe(executor)
            out(f"{PROG}: budget {args.budget}, seed {args.seed}, {len(ids)} claims, {where}")
            out(f"{'claim':10s} {'verdict':20s} {'cases':>8s} {'worst slack':>12s} "
                f"{'control':>8s} {'seconds':>8s}")
            at_once = len(ids) if args.dask is not None else max(1, args.workers)
            results, missing = runner.run_all(
                ids, seed=args.seed, budget=args.budget, cases=args.cases, progress=progress,
                executor=executor, checkpoint=checkpoint,
                concurrency=at_once if executor is not None else 1, load=load)
    except runner.Interrupted as exc:
        prog.close()
        return _interrupted(exc, checkpoint, argv)
    except executors.ExecutorError as exc:
        prog.close()
        _err(str(exc))
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous)
        prog.close()
    seconds = time.perf_counter() - start
    _checkpoint_news(checkpoint, _err)
    run = {"executor": where, "seconds": seconds, "resumed_claims": resumed}
    doc = report.to_json(results, missing, seed=args.seed, budget=args.budget,
                         cases=args.cases, run=run)
    written = _write_outputs(doc, args)
    if written:
        return written
    if checkpoint is not None:
        checkpoint.clear()  # complete: the report now holds everything the checkpoint did
    if missing:
        print(f"not checked yet: {', '.join(missing)}")
    bad = [r for r in results if not r.ok]
    for r in bad:
        why = r.verdict if r.verdict != "PASS" else "negative control not caught"
        print(f"{r.id}: {why}" + (f"; reproduce: {r.reproduce}" if r.reproduce else ""))
        if r.error:
            print("  " + r.error.replace("\n", "\n  "))
    ok = not missing and not bad and bool(results)
    print(f"{'all claims held' if ok else 'NOT all claims held'} "
          f"({len(results)} checked, {seconds:.1f} s)")
    return 0 if ok else 1


#: seconds an interrupted run may spend in the interpreter's exit handlers
EXIT_GRACE = 5.0


def cli() -> None:
    """The ``proofs_check`` console script: :func:`main`, and an exit that cannot hang.

    After an interruption the interpreter's exit handlers join the process pool's manager
    thread; if that thread is blocked on a worker terminated mid-write the join would hang
    the exit for good, so a daemon timer ends the process after :data:`EXIT_GRACE` seconds
    (every file was written atomically: cutting the exit short loses nothing).
    """
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    if code == 130:
        def force_exit():
            time.sleep(EXIT_GRACE)
            os._exit(code)

        threading.Thread(target=force_exit, daemon=True, name="exit-guard").start()
    sys.exit(code)


if __name__ == "__main__":
    cli()
