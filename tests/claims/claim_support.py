"""Helpers shared by the per-claim test files: a tiny-budget run and a fresh context."""
import dataclasses

from proofs_check.engine.context import Context
from proofs_check.engine.runner import run_one


def passes(claim_id: str, **kw):
    """Run ``claim_id`` at the quick budget with one case per family; its control must be caught.

    Returns the :class:`~proofs_check.engine.contract.CheckResult` (the verdict is the
    caller's to assert: some tests shrink the families and expect a specific verdict).
    """
    result = run_one(claim_id, seed=0, budget="quick", cases=1, **kw)
    assert result.error is None, result.error
    assert result.negative_control_caught is True, result.negative_control
    return result


def fresh_context(module, name: str = "test") -> Context:
    """A context of ``module``'s claim under its own case stream (seed 1, quick budget)."""
    return Context(dataclasses.replace(module.CLAIM, id=f"{module.CLAIM.id}:{name}"), seed=1,
                   budget="quick")
