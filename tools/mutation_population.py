"""The population pass of ``tools/mutate.py`` (``run --population``): every mutant of a target
that its verify-first campaign left out of the random sample (or did not reach before it
was stopped), judged the cheap way round, by cosmic-ray as any campaign: the target's fast
tests first (``pytest -x``), then, for the few the tests let through, the target's claims at
the quick budget (``tools/mutation_judge.sh --tests-first``).

Results land in ``<out>/population/<target>.json`` (same rows as a campaign's), apart from
the verify-first campaign's, so the report keeps the verify share of the random sample (an
estimate, with its sample size) and counts the survivors over the whole population.
"""
from __future__ import annotations

import difflib
import os
import signal
import subprocess
from collections import defaultdict
from pathlib import Path

#: the output of a mutant skipped by the population pass: the verify-first campaign judged it
IN_SAMPLE = "judged by the verify-first campaign"


def changed_lines(diff: str):
    """The removed and the added lines of a one-mutant diff, stripped (a mutant's identity
    that survives lines moving elsewhere in the file)."""
    lines = diff.splitlines()
    minus = tuple(ln[1:].strip() for ln in lines if ln.startswith("-") and not ln.startswith("---"))
    plus = tuple(ln[1:].strip() for ln in lines if ln.startswith("+") and not ln.startswith("+++"))
    return minus, plus


def _mutant_key(source: str, item):
    """(operator, removed lines, added lines) of a pending cosmic-ray work item, by applying
    it with cosmic-ray's own mutator to the source text."""
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.plugins import get_operator

    m = item.mutations[0]
    operator = get_operator(m.operator_name)(**(getattr(m, "operator_args", None) or {}))
    mutated = mutate_code(source, operator, m.occurrence)
    if mutated is None:
        return None
    diff = "\n".join(difflib.unified_diff(source.split("\n"), mutated.split("\n"), "a", "b",
                                          lineterm="", n=0))
    return (m.operator_name, *changed_lines(diff))


def skip_sampled(session: Path, source: Path, judged: list) -> int:
    """Mark as skipped the pending mutants of ``session`` that the verify-first campaign
    already judged (``judged``: its rows), matched by operator and changed text, the nearest
    line first.  Returns how many were matched; every row must match one."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    text = source.read_text()
    wanted = defaultdict(list)
    for r in judged:
        wanted[(r["operator"], *changed_lines(r["diff"]))].append(r["line"])
    matched = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        candidates = defaultdict(list)
        for item in list(db.pending_work_items):
            key = _mutant_key(text, item)
            if key in wanted:
                candidates[key].append(item)
        for key, lines in wanted.items():
            pool = candidates.get(key, [])
            for line in lines:
                if not pool:
                    break
                best = min(pool, key=lambda it: abs(it.mutations[0].start_pos[0] - line))
                pool.remove(best)
                db.set_result(best.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                      output=IN_SAMPLE))
                matched += 1
    if matched != len(judged):
        print(f"[population] {len(judged) - matched} judged mutants match no mutant of "
              f"today's {source.name} (their code changed): the pass judges today's instead",
              flush=True)
    return matched


def exec_until(cmd, *, cwd, env, seconds) -> bool:
    """Run ``cosmic-ray exec`` for at most ``seconds``; on time, stop it with its judges (a
    process group of its own) and return False: the finished mutants are in the session."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, start_new_session=True)
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a judge that ignores SIGTERM
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        return False
    finally:
        stop_strays(cwd)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    return True


def stop_strays(work, grace: float = 10.0) -> int:
    """Stop every process still running inside ``work`` (its working directory there) and
    return how many there were.

    A judge whose shell is killed (cosmic-ray's per-mutant timeout, or the campaign's stop)
    can leave its ``proofs_check`` or pytest running, reparented and out of every process
    group we know; it would share the machine with whatever runs next (a benchmark, say).
    Every judge runs in the scratch copy, so its directory finds it: SIGTERM, then SIGKILL
    after ``grace`` seconds.
    """
    import psutil  # the mutate extra

    root = os.path.realpath(work)
    strays = []
    for p in psutil.process_iter():
        try:
            where = p.cwd()
        except (psutil.Error, OSError):  # gone, or not ours to read
            continue
        if p.pid != os.getpid() and (where == root or where.startswith(root + os.sep)):
            strays.append(p)
    for p in strays:
        try:
            p.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(strays, timeout=grace)
    for p in alive:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=grace)
    if strays:
        print(f"[mutate] stopped {len(strays)} process(es) left running in {root}", flush=True)
    return len(strays)


#: the recheck's note on a mutant whose line was rewritten since it was judged
NO_LONGER_APPLIES = "the mutant no longer applies (its code changed)"


def obsolete(row) -> bool:
    """Whether the recheck found ``row``'s mutant gone from today's code."""
    return row.get("recheck") == NO_LONGER_APPLIES


def population_lines(out: Path, campaign: dict, equivalent):
    """The report's section on the population pass, and its survivors: per target, the
    mutants of the population, those the verify-first sample judged, those the pass judged
    (killed by the tests, by the claims after them, incompetent, survived, equivalent) and
    those not run.  ``campaign``: target -> the verify-first campaign's results;
    ``equivalent(target, row)``: the equivalence reason or None."""
    files = sorted((out / "population").glob("*.json"))
    if not files:
        return [], []
    import json

    lines = ["## The population pass", "",
             "Every mutant a verify-first campaign left out (its random sample, or the part a "
             "stopped campaign did not reach), judged the cheap way round: the target's fast "
             "tests first, then its claims at the quick budget for the mutants the tests let "
             "through (`python tools/mutate.py run --population`).  The verify share above is "
             "the sample's estimate (the pass, tests first, cannot tell what the claims alone would "
             "kill); the survivors here are counted over the whole population.  'In the "
             "verify-first sample' counts the campaign's mutants still found in today's code.",
             "", "| target | population | in the verify-first sample | judged by the pass "
             "| killed by tests | killed by claims after the tests | other kills "
             "| killed by tests/checks added since | survived | equivalent | not run |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    survivors, total = [], defaultdict(int)
    for f in files:
        res = json.loads(f.read_text())
        t, rows = res["target"], res["mutants"]
        n = {v: sum(r["verdict"] == v for r in rows) for v in (
            "killed by tests", "killed by verify", "survived", "killed by tests (added since)",
            "killed by verify (added since)")}
        since = n["killed by tests (added since)"] + n["killed by verify (added since)"]
        eq = sum(r["verdict"] == "survived" and bool(equivalent(t, r)) for r in rows)
        gone = sum(r["verdict"] == "survived" and not equivalent(t, r) and obsolete(r)
                   for r in rows)
        sample = campaign.get(t, {})
        open_sample = sum(r["verdict"] == "survived" and not equivalent(t, r)
                          for r in sample.get("mutants", []))
        judged = len(rows)
        other = judged - sum(n.values())
        in_sample = res.get("in_sample", 0)
        whole = in_sample + judged + res.get("not_run", 0)
        lines.append(f"| {t} | {whole} | {in_sample} | {judged} "
                     f"| {n['killed by tests']} | {n['killed by verify']} | {other} | {since} "
                     f"| {n['survived'] - eq - gone}"
                     f"{f' (+{gone} that no longer apply)' if gone else ''} | {eq} "
                     f"| {res.get('not_run', 0) or ''}{' (stopped)' if res.get('not_run') else ''} |")
        for key, value in (("whole", whole), ("judged", judged + in_sample),
                           ("open", n["survived"] - eq - gone + open_sample),
                           ("gone", gone),
                           ("not_run", res.get("not_run", 0))):
            total[key] += value
        survivors += [(t, r) for r in rows
                      if r["verdict"] == "survived" or "added since" in r["verdict"]]
    done = {json.loads(f.read_text())["target"] for f in files}
    for t, res in sorted(campaign.items()):  # sampled or stopped campaigns the pass missed
        left = res.get("sampled_out", 0) + res.get("not_run", 0)
        if t not in done and left:
            lines.append(f"| {t} | {left + len(res['mutants'])} | {len(res['mutants'])} | 0 "
                         f"| | | | | | | {left} (the pass did not reach it) |")
            total["not_run"] += left
            total["whole"] += left + len(res["mutants"])
            total["judged"] += len(res["mutants"])
            total["open"] += sum(r["verdict"] == "survived" and not equivalent(t, r)
                                 for r in res["mutants"])
    lines += ["", f"Over the targets of this table ({len(files)} with a population pass): "
              f"{total['judged']} of their {total['whole']} mutants judged (sample and pass), "
              f"{total['not_run']} not run; {total['open']} open (non-equivalent) survivors "
              "among those judged (a mutant killed by a test written since is not open)"
              + (f"; {total['gone']} survivors whose line was rewritten since the pass no longer "
                 "apply (today's code of their function is judged by a target of its own)"
                 if total["gone"] else "") + ".  The "
              "targets not in this table were judged whole by their campaigns (above).", ""]
    return lines, survivors
