"""``python tools/mutate.py run TARGET --refresh``: bring a stored campaign up to today's
code by judging only the mutants it does not already hold.

Every mutant cosmic-ray makes of today's file has a diff; where that diff's hunk (the
mutated line, its replacement and three lines of context each side, without the line
numbers) is the hunk of a mutant the stored campaign judged, the stored verdict is carried
over at today's line, occurrence and function: the same mutation of the same code, judged
by the same judge.  Every other mutant (new code, code whose context changed, or mutants a
stopped campaign never reached) is judged as in a full campaign; stored mutants that no
longer exist are dropped.  The campaign records how many verdicts were carried and how many
judged (``refreshed``), and the report says so.  A campaign that judged a random sample is
refused (what it left out cannot be told from new code: rerun it whole).
"""
from __future__ import annotations

import json
from datetime import date
from pathlib import Path

#: the output of a mutant whose verdict the refresh carries from the stored campaign
CARRIED = "verdict carried from the stored campaign"


def hunk_key(diff: str) -> str:
    """A mutant's diff without its headers and line numbers: the same text for the same
    mutation of the same code, wherever it stands in the file."""
    lines = diff.splitlines()
    at = next((i for i, ln in enumerate(lines) if ln.startswith("@@")), None)
    if at is None:
        raise ValueError(f"a mutant's diff has no hunk header: {diff[:200]!r}")
    return "\n".join(ln if ln else " " for ln in lines[at + 1:])


def today_diff(file: Path, relative: str, mutation) -> str | None:
    """The diff cosmic-ray would record for this mutant of today's ``file`` (None: the
    operator does not apply there)."""
    import difflib

    import cosmic_ray.plugins
    from cosmic_ray.mutating import mutate_code

    source = file.read_text()
    operator = cosmic_ray.plugins.get_operator(mutation.operator_name)
    mutated = mutate_code(source, operator(**getattr(mutation, "operator_args", {})),
                          mutation.occurrence)
    if mutated is None:
        return None
    return "\n".join(["--- mutation diff ---", *difflib.unified_diff(
        source.split("\n"), mutated.split("\n"), fromfile="a/" + relative,
        tofile="b/" + relative, lineterm="")])


def stored_campaign(path: Path) -> dict:
    """The stored campaign a refresh starts from (an error when there is none or it sampled)."""
    if not path.exists():
        raise SystemExit(f"--refresh: no stored campaign {path}; run the target whole first")
    res = json.loads(path.read_text())
    if res.get("sampled_out"):
        raise SystemExit(f"--refresh: {res['target']} judged a random sample (its "
                         f"{res['sampled_out']} left out cannot be told from new code): "
                         "rerun it whole, with --sample if need be")
    return res


def carry(session: Path, work: Path, stored: dict, function_of) -> list[dict]:
    """Mark every pending mutant of ``session`` that ``stored`` already judged as done
    (SKIPPED, output :data:`CARRIED`) and return the carried rows at today's place;
    ``function_of(line)`` names the target function holding a line."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    by_key = {}
    for r in stored["mutants"]:
        by_key.setdefault((r["operator"], hunk_key(r["diff"])), r)
    carried = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            m = item.mutations[0]
            diff = today_diff(work / stored["file"], stored["file"], m)
            old = None if diff is None else by_key.pop((m.operator_name, hunk_key(diff)), None)
            if old is None:
                continue
            db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                  output=CARRIED))
            line = m.start_pos[0]
            carried.append({**old, "occurrence": m.occurrence, "line": line,
                            "function": function_of(line), "diff": diff})
    return carried


def merged(stored: dict, fresh: dict, carried: list[dict]) -> dict:
    """The refreshed campaign: the fresh judgements and the carried ones, in line order."""
    rows = sorted(fresh["mutants"] + carried, key=lambda r: (r["line"], r["operator"],
                                                             r["occurrence"]))
    kept = {k: stored[k] for k in ("first_campaign", "rechecked_with") if k in stored}
    return {**fresh, **kept, "mutants": rows,
            "refreshed": {"date": date.today().isoformat(), "carried": len(carried),
                          "judged": len(fresh["mutants"]),
                          "dropped": len(stored["mutants"]) - len(carried)}}
