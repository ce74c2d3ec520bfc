"""Whether a stored campaign still describes today's code (``docs/mutation.md``'s section
"Campaigns older than their code").

A campaign stores each mutant as cosmic-ray's one-hunk diff: the mutated line with three
lines of context on each side, at the line numbers of the code the campaign judged.  A
mutant is

* ``current`` when that hunk's old side (context and removed lines) is today's file at the
  same place: the verdict was reached on today's code;
* ``moved`` when the same lines are in today's file elsewhere (code was added or
  removed above it; the verdict stands, its line number in the report is old);
* ``context`` when the mutated line is still in today's file but its context is not (a
  neighbour was rewritten: the verdict most likely stands, a recheck would tell);
* ``gone`` when the mutated line is nowhere in today's file: the verdict is about code that
  no longer exists, and the campaign must be rerun (or rechecked, which marks such mutants
  as no longer applying).

The comparison is exact text, so a change of one character counts.  What it cannot see:
code added to a target since the campaign ran that is not within three lines of a stored
mutant (its mutants were never generated).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")
STATES = ("current", "moved", "context", "gone")


def old_side(diff: str) -> tuple[int, list[str], list[str]]:
    """The first line number, the old-side lines and the removed lines of a one-hunk diff."""
    lines = diff.splitlines()
    start = next((i for i, ln in enumerate(lines) if _HUNK.match(ln)), None)
    if start is None:
        raise ValueError(f"a stored mutant's diff has no hunk header: {diff[:200]!r}")
    first, old, removed = int(_HUNK.match(lines[start])[1]), [], []
    for ln in lines[start + 1:]:
        if ln.startswith("@@"):
            break
        if ln.startswith(("-", " ")):
            old.append(ln[1:])
            removed += [ln[1:]] if ln.startswith("-") else []
        elif ln == "":  # a blank context line whose space was stripped
            old.append("")
    return first, old, removed


def state(today: list[str], diff: str) -> str:
    """One of :data:`STATES` (module docstring): one mutant's ``diff`` against ``today``,
    the lines of today's file."""
    first, old, removed = old_side(diff)
    if today[first - 1:first - 1 + len(old)] == old:
        return "current"
    starts = [i for i, ln in enumerate(today) if old and ln == old[0]
              and today[i:i + len(old)] == old]
    if starts:
        return "moved"
    return "context" if removed and all(ln in today for ln in removed) else "gone"


def campaign_states(res: dict, root: Path = ROOT) -> dict:
    """How many of campaign ``res``'s mutants are in each of :data:`STATES`."""
    path = root / res["file"]
    # split as cosmic-ray splits it: a file's final newline leaves a last, empty line
    today = path.read_text().split("\n") if path.exists() else []
    counts = dict.fromkeys(STATES, 0)
    for r in res["mutants"]:
        counts[state(today, r["diff"])] += 1
    return counts


def currency_lines(out: Path, root: Path = ROOT) -> list[str]:
    """The report's section: every campaign stored in ``out`` (``docs/mutation``, and its
    population passes) with a mutant that is not ``current``."""
    rows = []
    for path in sorted(out.glob("*.json")) + sorted(out.glob("population/*.json")):
        res = json.loads(path.read_text())
        counts = campaign_states(res, root)
        if counts["current"] < len(res["mutants"]):
            name = res["target"] + (" (population pass)" if path.parent.name == "population"
                                    else "")
            rows.append(f"- {name}, {res['file']}: of {len(res['mutants'])} mutants, "
                        f"**{counts['gone']} gone**, {counts['context']} with new context, "
                        f"{counts['moved']} moved")
    lines = ["## Campaigns older than their code", "",
             "A stored mutant is *gone* when its mutated line is nowhere in today's file (its "
             "verdict is about code that no longer exists: rerun the campaign, `make mutate "
             "MUTATE=<target> REFRESH=1` judging only the mutants not already judged on "
             "today's code), *with new context* when the line is still there but one of "
             "the three lines around it was rewritten (`python tools/mutate.py recheck "
             "<target>` rejudges it), *moved* when the same lines are today's code at another "
             "line (the verdict stands; its line number here is old).  Exact text, "
             "tools/mutation_currency.py; code added to a target away from every stored "
             "mutant is not seen.", ""]
    return lines + (rows or ["Every stored mutant is today's code at its line."]) + [""]
