"""proofs_check: one module per claim of the paper, a runner, and the claims report.

``python -m proofs_check`` runs every check.  Layout: :mod:`proofs_check.engine` (the claim
contract, registry, runner, executors, checkpoints), :mod:`proofs_check.kit` (helpers shared
by claims), :mod:`proofs_check.claims` (one module per claim), :mod:`proofs_check.report`.
"""
from .engine.context import Context
from .engine.contract import Case, CheckResult, Claim, Clause, digest
from .engine.registry import CHECKS

__all__ = ["CHECKS", "Case", "CheckResult", "Claim", "Clause", "Context", "digest"]
