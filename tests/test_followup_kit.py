"""The follow-up checks' shared runners (proofs_check/kit/antipodal.py, orthogonal.py,
followup.py): a case's numbers do not depend on which other cases share its batch, and the
measured hypotheses mean what they say."""
import numpy as np
import pytest

from proofs_check.claims import min2024
from proofs_check.engine.contract import Case
from proofs_check.engine.runner import run_one
from proofs_check.kit import antipodal, followup, orthogonal


def _same(a: dict, b: dict):
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(np.asarray(a[key]), np.asarray(b[key]), err_msg=key)


def test_antipodal_batch_equals_each_case_alone():
    spec, net = dict(n=8, d=2, steps=150), dict(k=3, alpha=0.3)
    cases = [Case("f", 11), Case("f", 12)]
    both = antipodal.antipodal_cases((cases, spec, net, (1e-2, 1e-3), True))
    for case, r in zip(cases, both):
        _same(r, antipodal.antipodal_cases(([case], spec, net, (1e-2, 1e-3), True))[0])


def test_orthogonal_batch_equals_each_case_alone():
    spec = dict(kind="orthogonal", n=6, d=12, noise=0.05, scales=(1e-4, 1e-3), gd_steps=20,
                flow_steps=60)
    cases = [Case("f", 21), Case("f", 22)]
    both = orthogonal.orth_cases((cases, spec, dict(k=3, alpha=0.3), ("eq8",)))
    for case, r in zip(cases, both):
        _same(r, orthogonal.orth_cases(([case], spec, dict(k=3, alpha=0.3), ("eq8",)))[0])


def test_min2024_batch_equals_each_case_alone(monkeypatch):
    monkeypatch.setattr(min2024, "N_STEPS", 40)
    spec = dict(min2024.FAMILIES["a0.35-n10"])
    cases = [Case("f", 31), Case("f", 32)]
    for case, r in zip(cases, min2024.run_family((cases, spec))):
        _same(r, min2024.run_family(([case], spec))[0])


def test_orthogonality_constant_of_orthogonal_rows_is_infinite_and_of_a_repeat_small():
    assert followup.orthogonality_constant(np.eye(4)) == np.inf
    X = np.vstack([np.eye(3), [1.0, 0.0, 0.0]])
    assert followup.orthogonality_constant(X) == pytest.approx(1 / 4)


def test_near_orthogonal_data_reach_a_constant_that_grows_as_the_noise_falls(rng):
    noisy = followup.orthogonality_constant(followup.near_orthogonal(rng, 10, 40, noise=0.5)[0])
    clean = followup.orthogonality_constant(followup.near_orthogonal(rng, 10, 40, noise=0.01)[0])
    assert clean > noisy and clean > 1


def test_a_replay_of_one_family_skips_the_others():
    result = run_one("odd-part", seed=0, budget="quick", cases=1)
    seed = result.clauses["identity_exact"]["seed"]
    replay = run_one("odd-part", seed=0, budget="quick", replay=Case("exact", seed))
    assert replay.error is None and replay.verdict == "PASS"
    assert replay.clauses["identity_exact"]["seed"] == seed
