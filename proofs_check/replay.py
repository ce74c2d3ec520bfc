"""``proofs_check --replay ID --seed S [--family F]``: rerun one recorded case of a claim.

Without ``--family`` the family is looked up in the report (``--json PATH``, default
``docs/claims.json``); a family the claim does not draw, a seed the report does not record
for one family, or a file that is not a report is a message and exit 2, never a traceback.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from . import report
from .engine import runner
from .engine.contract import Case

__all__ = ["DEFAULT_JSON", "replay"]

#: where ``--replay`` without ``--family`` looks for the recorded cases by default
DEFAULT_JSON = Path("docs/claims.json")


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


def replay(args, load) -> int:
    """Run the replay `args` asks for; the exit status."""
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


