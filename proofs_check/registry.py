"""The claims in paper order, and the module that checks each.

A module that does not exist yet is reported as "not checked" by the runner, never as a
pass.
"""
from __future__ import annotations

import importlib

#: claim id -> module name inside proofs_check, in the paper's order
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
}


def load(claim_id: str):
    """The check module of ``claim_id``, or ``None`` if that check is not written yet."""
    if claim_id not in CHECKS:
        raise ValueError(f"unknown claim id {claim_id!r}; known: {', '.join(CHECKS)}")
    name = f"proofs_check.{CHECKS[claim_id]}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise
