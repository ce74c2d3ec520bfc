"""Claim ``frei2023`` (proofs_check/claims/frei2023.py): rank ≤ 2 with its Weyl certificate,
the pattern program, the boundary and the one-step rank."""
import numpy as np
import pytest

import linteach as lt
from proofs_check.claims import frei2023
from proofs_check.kit import followup
from claim_support import passes


@pytest.mark.slow
@pytest.mark.claim_rerun
def test_frei2023_passes_and_catches_its_controls():
    result = passes("frei2023")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(frei2023.CLAIM.clause_names)  # with any engine clause


def _result(**changes):
    r = {"rank_ratio": np.array([1e-6]), "disagree": np.array([0.0]), "band": np.array([1e-6]),
         "srank_one_step": np.array([1.2]), "srank_init": np.array([8.0]),
         "pattern_cos": np.array([0.99999])}
    return {**r, **changes}


def test_slacks_hold_on_a_pass_and_flag_each_planted_violation():
    assert all(np.min(s) >= 0 for s in frei2023.slacks(_result()).values())
    bad = {"limit_rank_at_most_2": _result(rank_ratio=np.array([0.3])),
           "boundary_sampled": _result(disagree=np.array([0.01])),
           "boundary_linear": _result(band=np.array([0.01])),
           "one_step_reduces_rank": _result(srank_one_step=np.array([2.5])),
           "limit_is_pattern_max_margin": _result(pattern_cos=np.array([0.99]))}
    for clause, r in bad.items():
        assert np.min(frei2023.slacks(r)[clause]) < 0, clause
    # a small init rank cannot be "halved": the factor clause bites
    assert np.min(frei2023.slacks(_result(srank_init=np.array([2.0])))
                  ["one_step_reduces_rank"]) < 0
    assert "limit_is_pattern_max_margin" not in frei2023.slacks(
        _result(pattern_cos=np.array([np.nan])))


def test_slacks_are_evaluated_at_the_module_constants(monkeypatch):
    monkeypatch.setattr(frei2023, "RANK_TOL", 1e-7)
    assert frei2023.slacks(_result())["limit_rank_at_most_2"].min() < 0


def test_weyl_certificate_bounds_the_third_singular_value():
    rng = np.random.default_rng(0)
    k = 5
    w, u = rng.standard_normal(8), rng.standard_normal(8)
    W = np.concatenate([np.tile(w, (k, 1)), np.tile(u, (k, 1))])
    W = W + 1e-3 * rng.standard_normal(W.shape)
    s = np.linalg.svd(W, compute_uv=False)
    assert s[2] <= np.sqrt(2 * k) * lt.cluster_radius(W)
    assert followup.rank_ratio(W) == pytest.approx(s[2] / s[0])


def test_slacks_are_each_measurement_over_its_tolerance():
    """Each clause's slack is 1 − (measurement over its tolerance), the one-step clause the
    smaller of its two bounds' (each binding in turn)."""
    exact = _result(rank_ratio=np.array([0.0]), disagree=np.array([0.0]), band=np.array([0.0]),
                    pattern_cos=np.array([1.0]))
    cases = [("limit_rank_at_most_2", {"rank_ratio": np.array([0.5 * frei2023.RANK_TOL])}, 0.5),
             ("boundary_linear", {"band": np.array([0.25 * frei2023.BAND_TOL])}, 0.75),
             ("boundary_sampled", {"disagree": np.array([0.5 * frei2023.BOUNDARY_TOL])}, 0.5),
             ("limit_is_pattern_max_margin",
              {"pattern_cos": np.array([1 - 0.25 * frei2023.COS_TOL])}, 0.75),
             # srank(W_1) = 1.5 against the bound 2 and half of srank(W_0) = 8, then 2
             ("one_step_reduces_rank", {"srank_one_step": np.array([1.5])}, 1 - 1.5 / 2.0),
             ("one_step_reduces_rank",
              {"srank_one_step": np.array([1.5]), "srank_init": np.array([4.0])},
              1 - 1.5 / (frei2023.ONE_STEP_FACTOR * 4.0))]
    for clause, changes, want in cases:
        out = frei2023.slacks({**exact, **changes})
        np.testing.assert_allclose(out[clause], [want], atol=1e-9, err_msg=clause)
        for other in set(out) - {clause, "one_step_reduces_rank"}:
            np.testing.assert_allclose(out[other], [1.0], atol=1e-9, err_msg=other)
    # the pattern clause is left out when any run has no NAR, not only when all have none
    assert "limit_is_pattern_max_margin" not in frei2023.slacks(
        _result(pattern_cos=np.array([1.0, np.nan])))
