"""``python -m proofs_check`` (or ``proofs_check``): run the claim checks, write the report.

Exit status 0 iff every claim was checked, PASSed, and had its negative control caught;
1 otherwise (FAIL, ERROR, a missed control, a claim not checked yet; for ``--compare``: the
reports differ); 2 for a usage error (checked before anything runs); 130 when interrupted
(the previous report is left as it was; ``--resume`` continues).
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time

from . import compare, listing, options, pages, replay, report, usage
from .engine import executor as executors
from .engine import registry, runner, selftest
from .engine.checkpoint import Checkpoint
from .progress import Progress

PROG = listing.PROG


def _fmt_result(claim_id, result, suffix=""):
    if result is None:
        return f"{claim_id:10s} {'NOT CHECKED YET':20s}"
    slack = "—" if result.worst_slack is None else f"{result.worst_slack:.3g}"
    ctl = {True: "caught", False: "MISSED", None: "none"}[result.negative_control_caught]
    return (f"{claim_id:10s} {result.verdict:20s} {result.cases:8d} {slack:>12s} {ctl:>8s} "
            f"{result.seconds:8.1f}{suffix}")


def _err(text: str) -> None:
    print(text, file=sys.stderr)


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
        args = options.parser(__doc__.replace("``", ""),
                              listing.epilog() if help_wanted else None).parse_args(argv)
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
        return listing.print_list(checks, load)
    problem = usage.option_problem(args, list(checks)) or usage.dask_problem(args.dask)
    if problem:
        _err(problem)
        return 2
    if args.compare:
        return _compare(*args.compare)
    if args.replay:
        return replay.replay(args, load)
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
                concurrency=at_once if executor is not None else 1, load=load,
                batches=prog.batch)
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
        # what was to be said is said (the resume line last): the exit handlers may still
        # print a stray "Exception ignored ... Bad file descriptor" while waking the pool
        # the interruption terminated, so they write to /dev/null from here on
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)

        def force_exit():
            time.sleep(EXIT_GRACE)
            os._exit(code)

        threading.Thread(target=force_exit, daemon=True, name="exit-guard").start()
    sys.exit(code)


if __name__ == "__main__":
    cli()
