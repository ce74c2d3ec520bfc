"""The survivors of the last population passes (kernels-rest: the seam between the trainers
and the network; patterns: the agreement patterns) and the qp-solve mutants killed last:
kill reasons (the tests in ``tests/test_mutation_kills_kernels.py``,
``tests/test_mutation_kills_patterns.py`` and ``tests/test_mutation_kills_qp.py``) and
equivalence reasons, keyed like :mod:`mutation_notes`: (target, function, operator,
line[, occurrence]); merged into :data:`mutation_notes_population.KILLED_BY_POPULATION` and
:data:`mutation_notes_population.EQUIVALENT_POPULATION`.
"""

KILLED_BY: dict = {
    ("qp-solve", "solve_qp", "core/NumberReplacer", 171):
        "with polish made to fail, the lifted program's answer through cvxpy must carry one "
        "dual per row of G and pass the KKT re-check (test_an_answer_polish_cannot_improve_"
        "passes_the_re_check_with_the_solver_s_own_duals); the test could only be written "
        "once CLARABEL ran at tolerances tight enough for an unpolished answer to pass",
    **{("kernels-rest", "_trusted", op, 68, occ):
       "the smallest normal z is trusted for d up to 2^40, and |z| = 2d·2^-1074 is not "
       "(test_trusted_keeps_every_normal_z_and_flags_every_z_within_2d_subnormals)"
       for op, occ in (("core/ReplaceBinaryOperator_Add_Mul", 0), ("core/NumberReplacer", 12),
                       ("core/NumberReplacer", 15))},
    **{("kernels-rest", "active", op, 97, 5):
       "a batched sum of d = 100 underflowed products, computed negative while the true w·x "
       "is positive, is rechecked because the test reads d, not W's other axes "
       "(test_a_batched_sum_of_underflowed_products_is_rechecked_at_its_own_length)"
       for op in ("core/ReplaceUnaryOperator_USub_UAdd", "core/ReplaceUnaryOperator_Delete_USub")},
    ("kernels-rest", "active", "core/ReplaceComparisonOperator_Gt_GtE", 99, 1):
        "an exact zero found by the recheck is the kink, inactive "
        "(test_an_exact_kink_stays_inactive_when_its_sign_is_rechecked)",
    **{("kernels-rest", "underflow_free", "core/NumberReplacer", 80, occ):
       "W's smallest nonzero entry times X's, not X's squared "
       "(test_underflow_free_means_every_product_of_nonzero_entries_is_at_least_2_to_minus_900)"
       for occ in (18, 19)},
}

_PROTOCOL_NDIM = ("equivalent: `W.ndim == 3` → `W.ndim >= 3`: the kernel protocol passes W "
                  "of shape (2k, d) or (R, 2k, d) only (the trainers are its only callers), so "
                  "ndim is 2 or 3 and both conditions agree")
_LENGTH_ONE = ("equivalent: q and g(q) are (R, 1) here (one point per run), so index −1 and "
               "index 0 of their length-1 axis are the same element")
EQUIVALENT: dict = {
    ("kernels-rest", "_trusted", "core/NumberReplacer", 68, 14):
        "equivalent in effect: 2^-(bits(d)+3) instead of 2^-(bits(d)+2) flags, besides every "
        "z within 2d subnormals of 0, at most the subnormal z up to 4d·2^-1074; those go to "
        "the exact recheck, whose sign for them is the computed one (their sign was already "
        "right).  It would stop trusting a normal z only for d ≥ 2^50, an array that does "
        "not fit in memory",
    **{("kernels-rest", "Controlled.sgd_update", "core/ReplaceComparisonOperator_Eq_GtE",
        line, occ): _PROTOCOL_NDIM for line, occ in ((287, 2), (288, 3), (293, 4))},
    ("kernels-rest", "active", "core/ReplaceComparisonOperator_Gt_GtE", 98, 0):
        "equivalent: `Z > 0` → `Z >= 0` where _trusted(Z) holds, i.e. where 2^-p·z ≠ 0 for "
        "every z: no z is 0 there, so both comparisons agree",
    ("kernels-rest", "Controlled.sgd_update", "core/NumberReplacer", 289, 154):
        "equivalent: numpy reads any negative entry of a new shape as the one to infer "
        "(np.reshape(y, (-2, 1)) is (R, 1), checked on numpy 2.4), so (−2, 1) is (−1, 1)",
    **{("kernels-rest", "Controlled.sgd_update", "core/NumberReplacer", 293, occ): _LENGTH_ONE
       for occ in (159, 161, 165, 167, 169, 171)},
}
