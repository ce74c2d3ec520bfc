"""What ``proofs_check --help`` and ``--list`` say about the claims."""
from __future__ import annotations

from .engine import registry

__all__ = ["PROG", "one_line", "claim_table", "epilog", "print_list"]

PROG = "proofs_check"


def one_line(text: str, width: int = 72) -> str:
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
                     one_line(claim.statement)))
    return rows


def epilog() -> str:
    """The end of `--help`: every claim (id, evidence, statement) and a few examples."""
    rows = claim_table(registry.CHECKS, registry.load)
    lines = ["claims (id, evidence strength, statement):"]
    lines += [f"  {cid:8s} {ev:9s} {text}" for cid, ev, _, text in rows]
    lines += ["", "examples:", f"  {PROG} --budget quick --only thm5.1",
              f"  {PROG} --json build/claims.json --out build/claims.md",
              f"  {PROG} --compare docs/claims.json build/claims.json"]
    return "\n".join(lines)


def print_list(checks, load) -> int:
    """``--list``: each claim with its evidence strength and slack unit."""
    rows = [("claim", "evidence", "slack unit", "statement")] + claim_table(checks, load)
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        print("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3])
    return 0
