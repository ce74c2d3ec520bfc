"""proofs_check: one module per claim of the paper, a runner, and the claims report.

``python -m proofs_check`` runs every check; see ``proofs_check.result`` for the contract a
check module follows and ``proofs_check.registry`` for the claims in paper order.
"""
from .registry import CHECKS
from .result import Case, CheckResult, Claim, Context, digest

__all__ = ["CHECKS", "Case", "CheckResult", "Claim", "Context", "digest"]
