"""Claim ``consistency`` (proofs_check/claims/consistency.py): the cross-paper clauses."""
import numpy as np
import pytest

from proofs_check.claims import consistency
from claim_support import passes


@pytest.mark.slow
@pytest.mark.claim_rerun
def test_consistency_passes_and_catches_its_control():
    result = passes("consistency")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(consistency.CLAIM.clause_names)  # with any engine clause


def _anti(**changes):
    r = {"gamma_star": 1.0, "eq8_cos_svm": 1.0, "eq8_cos_u": 1.0, "eq8_gamma": 1.0,
         "limit_cos_eq8": np.array([1 - 1e-5]), "gamma": np.array([0.995])}
    return {**r, **changes}


def _orth(**changes):
    r = {"in_par": np.array([True]), "eq8_cos": np.array([1 - 1e-5]),
         "rank_ratio": np.array([1e-6]), "type_srank_end": np.array([1.0]),
         "srank_end": np.array([1.27]), "srank_eq8": 1.27, "eq8_dual_ratio": 0.25,
         "rho_end": np.array([1.03]), "rho_gd": np.array([1.2]),
         "pattern_cos": np.array([1 - 1e-5])}
    return {**r, **changes}


def test_antipodal_slacks_flag_each_disagreement():
    assert all(np.min(s) >= 0 for s in consistency.antipodal_slacks(_anti()).values())
    assert consistency.antipodal_slacks(_anti(eq8_cos_svm=0.99))["eq8_is_lifted_svm"] < 0
    assert consistency.antipodal_slacks(_anti(eq8_gamma=1.01))["eq8_is_lifted_svm"] < 0
    bad = consistency.antipodal_slacks(_anti(gamma=np.array([0.9])))
    assert bad["limit_is_eq8_and_global_max"].min() < 0


def test_orthogonal_slacks_flag_each_disagreement():
    assert all(np.min(s) >= 0 for s in consistency.orthogonal_slacks(_orth()).values())
    cases = {"orth_limit_is_eq8_par": _orth(in_par=np.array([False])),
             "orth_ranks_agree": _orth(srank_end=np.array([1.0])),
             "orth_margins_agree": _orth(eq8_dual_ratio=0.0)}  # duals say "unequal", ρ → 1
    for clause, r in cases.items():
        assert np.min(consistency.orthogonal_slacks(r)[clause]) < 0, clause
    no_nar = consistency.orthogonal_slacks(_orth(pattern_cos=np.array([np.nan])))
    assert no_nar["orth_margins_agree"] < 0
