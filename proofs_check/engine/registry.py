"""The claims in paper order, the module that checks each, and the contract check on load.

Adding a claim: write ``proofs_check/claims/<module>.py`` (``CLAIM`` and ``check``) and add
one line here; ``docs/extending.md`` walks through it.  A module that does not exist yet is
reported as "not checked" by the runner, never as a pass.
"""
from __future__ import annotations

import importlib

from .contract import validate

#: claim id -> module name inside proofs_check.claims, in the paper's order
CHECKS = {
    "thm4.1": "thm4_1",
    "thm5.1": "thm5_1",
    "cor6.1": "cor6_1",
    "appD.1": "appD_1",
    "eq6": "eq6",
    "thm6.1": "thm6_1",
    "lem6.1": "lem6_1",
    "thm6.2": "thm6_2",
    "appJ": "appJ",
    "appK": "appK",
    "odd-part": "odd_part",
    "lyu2021": "lyu2021",
    "kou2023": "kou2023",
    "frei2023": "frei2023",
    "min2024": "min2024",
    "consistency": "consistency",
}


def load(claim_id: str):
    """The check module of ``claim_id`` (its ``CLAIM`` validated), or ``None`` if not written."""
    if claim_id not in CHECKS:
        raise ValueError(f"unknown claim id {claim_id!r}; known: {', '.join(CHECKS)}")
    name = f"proofs_check.claims.{CHECKS[claim_id]}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise
    claim = validate(getattr(module, "CLAIM", None), module)
    if claim.id != claim_id:
        raise ValueError(f"module {name} declares claim {claim.id!r}, registered as {claim_id!r}")
    return module
