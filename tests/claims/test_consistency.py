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


def test_antipodal_slacks_are_each_term_over_its_tolerance():
    """Each term of a slack binds in turn, at γ̄* ≠ 1 and on both sides of it: the slack is the
    binding term over its tolerance (1 − cos over COS_TOL, |γ/γ* − 1| over MARGIN_TOL)."""
    s, c, m, gs = consistency.SOLVER_TOL, consistency.COS_TOL, consistency.MARGIN_TOL, 2.0

    def anti(**changes):
        return _anti(**{"gamma_star": gs, "eq8_gamma": gs, "limit_cos_eq8": np.array([1.0, 1.0]),
                        "gamma": np.array([gs, gs]), **changes})

    for changes in ({"eq8_cos_svm": 1 - 0.25 * s}, {"eq8_cos_u": 1 - 0.25 * s},
                    {"eq8_gamma": gs * (1 - 0.25 * s)}, {"eq8_gamma": gs * (1 + 0.25 * s)}):
        out = consistency.antipodal_slacks(anti(**changes))
        assert out["eq8_is_lifted_svm"] == pytest.approx(0.75, abs=1e-6), changes
        np.testing.assert_allclose(out["limit_is_eq8_and_global_max"], [1.0, 1.0])
    cases = [({"limit_cos_eq8": np.array([1 - 0.5 * c, 1.0])}, [0.5, 1.0]),
             ({"gamma": np.array([gs, gs * (1 - 0.25 * m)])}, [1.0, 0.75]),
             ({"gamma": np.array([gs * (1 + 0.25 * m), gs])}, [0.75, 1.0]),
             ({"limit_cos_eq8": np.array([1 - 0.5 * c, 1.0]),
               "gamma": np.array([gs * (1 - 0.25 * m), gs * (1 + 0.5 * m)])}, [0.5, 0.5])]
    for changes, want in cases:
        out = consistency.antipodal_slacks(anti(**changes))
        assert out["eq8_is_lifted_svm"] == pytest.approx(1.0)
        np.testing.assert_allclose(out["limit_is_eq8_and_global_max"], want, atol=1e-9)


def test_orthogonal_slacks_are_each_term_over_its_tolerance():
    c, rt, st, sm = (consistency.COS_TOL, consistency.RANK_TOL, consistency.SR_TOL,
                     consistency.SR_MATCH)
    eq8 = consistency.orthogonal_slacks(_orth(eq8_cos=np.array([1 - 0.5 * c, 1.0])))
    np.testing.assert_allclose(eq8["orth_limit_is_eq8_par"], [0.5, 1.0], atol=1e-9)
    # one run outside PAR: every run's slack is −1, however close its limit is to Eq. 8's
    out_of_par = consistency.orthogonal_slacks(_orth(in_par=np.array([True, False]),
                                                     eq8_cos=np.array([1.0, 1.0])))
    np.testing.assert_array_equal(out_of_par["orth_limit_is_eq8_par"], [-1.0, -1.0])
    exact = {"rank_ratio": np.array([0.0]), "type_srank_end": np.array([1.0]),
             "srank_end": np.array([1.0]), "srank_eq8": 1.0}
    ranks = [({"rank_ratio": np.array([0.5 * rt])}, 0.5),
             ({"type_srank_end": np.array([1 + 0.25 * st])}, 0.75),
             ({"srank_end": np.array([1.9]), "srank_eq8": 1.9}, 2 - 1.9),
             ({"srank_end": np.array([1.25 * (1 + 0.5 * sm)]), "srank_eq8": 1.25}, 0.5),
             ({"srank_end": np.array([1.25 * (1 - 0.5 * sm)]), "srank_eq8": 1.25}, 0.5)]
    for changes, want in ranks:
        out = consistency.orthogonal_slacks(_orth(**{**exact, **changes}))
        np.testing.assert_allclose(out["orth_ranks_agree"], [want], atol=1e-9)


def test_orthogonal_margins_agree_is_plus_or_minus_one(monkeypatch):
    """+1 exactly when the duals' prediction (all > DUAL_TOL) matches whether ρ fell to within
    RHO_TOL of 1 below plain GD's ρ, and the limit solves its (P) to within COS_TOL."""
    monkeypatch.setattr(consistency, "RHO_TOL", 0.125)  # exact binary fractions: the cuts
    monkeypatch.setattr(consistency, "COS_TOL", 0.125)  # below are met to the last bit
    monkeypatch.setattr(consistency, "DUAL_TOL", 0.125)

    def agree(**changes):
        changes = {"rho_gd": np.array([2.0, 2.0]), **changes}  # GD's spread stays far apart
        return consistency.orthogonal_slacks(_orth(**changes))["orth_margins_agree"]

    assert agree() == 1.0
    assert agree(rho_end=np.array([1.125]), pattern_cos=np.array([0.875])) == 1.0  # at the cuts
    assert agree(rho_end=np.array([1.25])) == -1.0  # ρ stays apart, the duals say equal
    assert agree(rho_end=np.array([1.25]), eq8_dual_ratio=0.0) == 1.0  # both say apart
    assert agree(rho_end=np.array([1.25]), eq8_dual_ratio=0.125) == 1.0  # at DUAL_TOL: zero
    assert agree(rho_end=np.array([1.03, 1.25])) == -1.0  # every run must equalize
    assert agree(rho_gd=np.array([1.03])) == -1.0  # and fall below plain GD's spread
    assert agree(rho_gd=np.array([1.02])) == -1.0
    assert agree(pattern_cos=np.array([0.75])) == -1.0  # the limit does not solve (P)
    assert agree(pattern_cos=np.array([1.0, 0.75])) == -1.0
