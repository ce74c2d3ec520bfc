"""Claim ``appD.1`` (proofs_check/claims/appD_1.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np

import linteach as lt
from proofs_check.claims import appD_1
from proofs_check.engine.context import verdict_of
from proofs_check.kit import geometry
from claim_support import fresh_context, passes, record_bands


def test_appd1_passes_and_catches_its_control():
    assert passes("appD.1").verdict == "PASS"


def test_appD1_certificates_fail_on_leaky_nets():
    ctx = fresh_context(appD_1)
    appD_1._run(ctx, alpha=(0.05, 0.95), count=3)
    assert verdict_of(ctx) == "FAIL"
    assert all(ctx.worst[c].slack < 0 for c in appD_1.CLAUSES)


def test_appD1_witness_signs_for_relu():
    w, u = np.array([1.0, 0.5]), np.array([-0.3, 1.0])
    net = lt.Net(k=1, alpha=0.0, v=1.0)
    N = net.forward(geometry.clustered_copies(w, u, 1), appD_1.witness_points(w, u))
    assert N[0] < 0 and N[1] == 0 and N[2] > 0


# -- the statement's constants ---------------------------------------------------------------
def test_the_exact_decision_and_the_sampled_violations_use_the_claims_band(monkeypatch):
    from proofs_check.claims import appD_1
    from proofs_check.engine.contract import Case

    seen = record_bands(monkeypatch, appD_1)
    rows = appD_1.evaluate_cases(([Case("random", 2)], None))  # ReLU: the claim itself
    assert appD_1.BAND == 0.0 and seen and all(c == appD_1.BAND for _, c in seen)
    assert {kind for kind, _ in seen} == {"sampled", "exact"} and rows
