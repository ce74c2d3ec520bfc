"""Helpers shared by the per-claim test files: a tiny-budget run and a fresh context."""
import dataclasses

from proofs_check.engine.context import Context
from proofs_check.engine.runner import run_one

#: the root seed of these runs: the one the committed evidence is made with (the Makefile's
#: ``SEED ?= 0``), so a claim test runs cases of the same stream as ``make update-claims``
RUN_SEED = 0
#: the root seed of a fresh context: another stream than RUN_SEED's, so a test that draws
#: cases by hand does not just repeat the run's
CONTEXT_SEED = 1


def passes(claim_id: str, **kw):
    """Run ``claim_id`` at the quick budget with one case per family; its control must be caught.

    Returns the :class:`~proofs_check.engine.contract.CheckResult` (the verdict is the
    caller's to assert: some tests shrink the families and expect a specific verdict).
    """
    result = run_one(claim_id, seed=RUN_SEED, budget="quick", cases=1, **kw)
    assert result.error is None, result.error
    assert result.negative_control_caught is True, result.negative_control
    return result


def fresh_context(module, name: str = "test") -> Context:
    """A context of ``module``'s claim under its own case stream (CONTEXT_SEED, quick budget)."""
    return Context(dataclasses.replace(module.CLAIM, id=f"{module.CLAIM.id}:{name}"),
                   seed=CONTEXT_SEED, budget="quick")


def record_bands(monkeypatch, module) -> list:
    """Spy on ``module``'s sampled sign test and exact decision: the returned list fills with
    ``("sampled", c)`` / ``("exact", c)`` for every band ``c`` the check evaluates at."""
    seen = []
    real_signs, real_cert = module.sign_agreement, module.certify_band
    monkeypatch.setattr(module, "sign_agreement",
                        lambda *a, c, **kw: seen.append(("sampled", c)) or real_signs(*a, c=c, **kw))
    monkeypatch.setattr(module, "certify_band",
                        lambda W, alpha, c: seen.append(("exact", c)) or real_cert(W, alpha, c))
    return seen
