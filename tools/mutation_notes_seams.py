"""The survivors of the last population passes (kernels-rest: the seam between the trainers
and the network; patterns: the agreement patterns), of the sampled campaign over
certify-recheck (the exact re-check of Theorem 5.1's certificates) and the qp-solve mutants
killed last:
kill reasons (the tests in ``tests/test_mutation_kills_kernels.py``,
``tests/test_mutation_kills_patterns.py``, ``tests/test_mutation_kills_certify.py`` and
``tests/test_mutation_kills_qp.py``) and
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
    **{("patterns", "agreement", op, 72):
       "a neuron of norm ≤ VANISHING·‖W‖ has no direction, at the threshold itself and at "
       "half of it, and counts at twice it (test_a_neuron_of_norm_at_most_vanishing_times_"
       "the_net_s_norm_has_no_direction)"
       for op in ("core/ReplaceBinaryOperator_Mul_Div", "core/ReplaceBinaryOperator_Mul_Pow",
                  "core/ReplaceComparisonOperator_Gt_GtE")},
    **{("patterns", "agreement", op, 68, occ):
       "batched runs of very different ‖W‖ each use their own norm for the threshold "
       "(test_the_vanishing_threshold_is_each_run_s_own)"
       for op, occ in (("core/ReplaceUnaryOperator_USub_Not", 4), ("core/NumberReplacer", 22))},
    ("patterns", "par_margins", "core/ReplaceBinaryOperator_Mul_Div", 91, 1):
        "the margins are y times the unit neurons' products, by value "
        "(test_par_margins_are_y_times_the_unit_neurons_products)",
    ("patterns", "in_par", "core/ReplaceBinaryOperator_Mul_Div", 95, 3):
        "β is keyword-only (test_in_par_holds_at_a_margin_equal_to_beta_and_takes_beta_by_"
        "keyword_only)",
    **{("patterns", "in_par", "core/ReplaceComparisonOperator_" + op, 104, occ):
       "PAR(β) for β = 0.3 and 0.5 with margins 0.6 and 1, not for β = 0.7 "
       "(test_a_positive_beta_asks_for_margins_of_at_least_beta)"
       for op, occ in (("Eq_GtE", 1), ("GtE_Eq", 0), ("GtE_NotEq", 0), ("GtE_Lt", 0),
                       ("GtE_LtE", 0))},
    ("patterns", "in_par", "core/ReplaceComparisonOperator_GtE_Gt", 104, 0):
        "a margin of exactly β is in PAR(β) (test_in_par_holds_at_a_margin_equal_to_beta_and_"
        "takes_beta_by_keyword_only)",
    ("patterns", "par_fractions", "core/ReplaceComparisonOperator_Gt_GtE", 110, 7):
        "a w neuron with a margin exactly 0 is not in PAR by itself "
        "(test_a_neuron_orthogonal_to_a_point_is_not_in_par_by_itself)",
    **{("certify-recheck", "(file)", op, line, occ):
       "on every leaf the searches accept, and for its multipliers with each row's raised "
       "in turn, the exact leaf bound equals the searches' float Lagrangian bound from their "
       "own rows (test_every_accepted_leaf_s_exact_bound_is_the_search_s_float_bound; its "
       "nets include leaves that use the vertex bound's row, a cut and norm leaves)"
       for op, line, occ in (("core/ReplaceBinaryOperator_Add_Sub", 211, 20),
                             ("core/ReplaceBinaryOperator_Mul_Div", 170, 26),
                             ("core/ReplaceBinaryOperator_Div_Add", 210, 4),
                             ("core/ReplaceBinaryOperator_Div_Sub", 222, 5),
                             ("core/ReplaceComparisonOperator_Gt_LtE", 148, 4),
                             ("core/NumberReplacer", 210, 159))},
    ("certify-recheck", "(file)", "core/ReplaceComparisonOperator_Eq_LtE", 263, 13):
        "an empty band's side renamed 'band' (sorting before 'empty-band') is refused "
        "(test_a_side_of_an_unknown_kind_is_not_read_as_an_empty_band)",
    **{("certify-recheck", "(file)", op, line, occ):
       "the summary counts every leaf once and the norm leaves apart (test_the_summary_counts_"
       "the_tree_s_leaves_and_its_norm_leaves_apart)"
       for op, line, occ in (("core/ReplaceComparisonOperator_Eq_Gt", 302, 16),
                             ("core/NumberReplacer", 293, 192))},
    ("certify-recheck", "(file)", "core/ReplaceComparisonOperator_Lt_Eq", 69, 0):
        "a negative deviation radius is refused whatever its square "
        "(test_a_negative_deviation_radius_is_refused_whatever_its_square)",
    ("certify-recheck", "(file)", "core/NumberReplacer", 48, 1):
        "an upper end below the centre is invalid even when its distance squares past the "
        "half-width (test_an_upper_end_is_valid_when_it_is_at_least_the_centre_plus_the_half_"
        "width)",
}

_DEVIATION_ROWS = ("equivalent: the rows 4k ≤ i < 8k (the deviation bounds) have no B "
                   "coefficient (0), so letting more or fewer of them add ls·cb to B's "
                   "reduced cost adds 0")
_BETA_NONNEGATIVE = ("equivalent: an agreement's β is a minimum of |ŵ·x| or 0, never negative, "
                     "so `β != 0` and `β > 0` agree")
_ZERO_TWICE = ("equivalent: agreement makes β zero where a type is on no side of some point "
               "twice over: the per-type minimum puts 0 at such a point, and β is then set to 0 "
               "where any side is 0; changing one of the two (the fill value, or which types "
               "the condition reads) leaves the other making β zero there")
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
    ("patterns", "agreement", "core/ReplaceComparisonOperator_Eq_LtE", 80, 0):
        "equivalent: `beta.ndim == 0` → `<= 0`; an array's ndim is never negative",
    ("patterns", "in_par", "core/ReplaceComparisonOperator_Eq_LtE", 104, 1):
        "equivalent: `beta == 0` → `beta <= 0` right after check_real(ge=0), which refuses "
        "a negative β (−0.0 equals 0 both ways)",
    ("patterns", "Agreement.in_nar", "core/ReplaceComparisonOperator_Gt_NotEq", 37, 0):
        _BETA_NONNEGATIVE,
    ("patterns", "agreement", "core/ReplaceComparisonOperator_Gt_NotEq", 80, 5):
        _BETA_NONNEGATIVE,
    ("patterns", "max_n_diff", "core/ReplaceComparisonOperator_Gt_LtE", 123, 9):
        "equivalent: `> 0` → `<= 0` replaces the sign matrix S by 1 − S exactly (the inputs "
        "are checked finite, so no NaN is neither); the disagreements S(1 − S)ᵀ + (1 − S)Sᵀ "
        "are symmetric in S ↔ 1 − S",
    ("patterns", "agreement", "core/NumberReplacer", 68, 24):
        "equivalent: numpy reads any negative entry of a new shape as the one to infer "
        "(checked on numpy 2.4), so (..., −2) is (..., −1)",
    **{("patterns", "agreement", "core/NumberReplacer", line, occ): _ZERO_TWICE
       for line, occ in ((76, 48), (76, 49), (77, 52), (77, 53), (77, 59))},
    **{("certify-recheck", "(file)", op, 191, occ): _DEVIATION_ROWS
       for op, occ in (("core/ReplaceBinaryOperator_Mul_Add", 34),
                       ("core/ReplaceBinaryOperator_Mul_Div", 34), ("core/NumberReplacer", 142))},
    ("certify-recheck", "(file)", "core/NumberReplacer", 148, 45):
        "equivalent: the slope put in place of V's chord where bh = bl multiplies B − bl in "
        "the Lagrangian (the row is P − sv·B ≤ V(bl) − sv·bl), and B's box is the one point "
        "bl there, so any slope gives the same bound",
    **{("check-thm5", "_evaluate", "core/ReplaceComparisonOperator_Eq_LtE", line, occ):
       "equivalent: `family == \"extremal\"` → `family <= \"extremal\"`; _evaluate reads "
       "FAMILIES[family] first (a KeyError for any other name), and no family of FAMILIES "
       "sorts before \"extremal\" (k1, loose, many, random, tight)"
       for line, occ in ((104, 0), (136, 1), (137, 2), (142, 3))},
    **{("check-thm5", "_record", "core/ReplaceComparisonOperator_Eq_GtE", line, occ):
       "equivalent: `clause == CLAUSE` → `clause >= CLAUSE` over the two clauses a case "
       "records, and SHARP_CLAUSE (sign_agreement_above_…) sorts before CLAUSE "
       "(sign_agreement_in_…): both conditions pick CLAUSE alone"
       for line, occ in ((214, 6), (219, 8))},
    **{("check-thm5", "_evaluate", "core/NumberReplacer", 115, occ):
       "equivalent: every net of an extremal case is extremal_net's Net(k=2, α, v=1) of the "
       "case's α, so `built[0][0]`, `built[1][0]` and `built[-1][0]` are equal nets"
       for occ in (126, 127)},
    ("check-thm6.1", "_analyse", "core/ReplaceComparisonOperator_NotEq_Lt", 155, 0):
        "equivalent: `outcome != \"ok\"` → `outcome < \"ok\"`; kit.nar.classify returns "
        "\"ok\", \"inconclusive\" or \"anm\", and both others sort before \"ok\"",
    ("check-thm6.1", "pattern_slacks", "core/NumberReplacer", 110, 82):
        "equivalent: the default v enters only the KKT residual of a direction, which does "
        "not depend on v (v scales every margin, every constraint of (P) and the residuals' "
        "references alike; checked: the same float at v = 1 and v = 2 on the test's limit)",
    ("check-nar", "record_run", "core/ReplaceComparisonOperator_NotEq_Lt", 82, 0):
        "equivalent: `outcome != \"ok\"` → `outcome < \"ok\"`; a run's outcome is \"ok\", "
        "\"inconclusive\" or \"anm\", and both others sort before \"ok\"",
    ("check-nar", "record_run", "core/ReplaceComparisonOperator_Eq_LtE", 83, 0):
        "equivalent: `outcome == \"anm\"` → `outcome <= \"anm\"` among the outcomes that "
        "reach it (\"anm\" and \"inconclusive\", which sorts after \"anm\")",
    **{("check-thm6.2", "_analyse", "core/ReplaceComparisonOperator_" + op, line, occ):
       "equivalent: classify's outcome is \"ok\", \"inconclusive\" or \"anm\", and both "
       "others sort before \"ok\": `>= \"ok\"` is `== \"ok\"` and `< \"ok\"` is "
       "`!= \"ok\"`"
       for op, line, occ in (("Eq_GtE", 137, 0), ("Eq_GtE", 139, 1), ("NotEq_Lt", 142, 1))},
    **{("check-thm6.2", fn, op, line, occ):
       "equivalent: `axis=-1` → `axis=1` or `axis=+1` on a 2-D array of points (X, X_test)"
       for fn, op, line, occ in (("boundary_slack", "core/ReplaceUnaryOperator_USub_UAdd", 102, 8),
                                 ("boundary_slack", "core/ReplaceUnaryOperator_Delete_USub", 102,
                                  8),
                                 ("_analyse", "core/ReplaceUnaryOperator_USub_UAdd", 144, 10),
                                 ("_analyse", "core/ReplaceUnaryOperator_Delete_USub", 144, 10))},
    **{("check-thm6.2", "_analyse", op, 147, occ):
       "equivalent: where γ̃ never exceeds the bound the PAR clause reads the records from "
       "max(t_margin, entry) with entry ≥ 0, so a t_margin of −1, −2, 0 (`not 1`, `−0`) is "
       "the same slice; and where it does, `gt.max() != bound` and `>= bound` pick the same "
       "branch's slice (argmax of an all-false array is 0: entry + 0)"
       for op, occ in (("core/ReplaceComparisonOperator_Gt_NotEq", 2),
                       ("core/ReplaceComparisonOperator_Gt_GtE", 2),
                       ("core/ReplaceUnaryOperator_USub_Not", 11), ("core/NumberReplacer", 84),
                       ("core/NumberReplacer", 85))},
    ("check-thm6.2", "_analyse", "core/ReplaceComparisonOperator_Gt_GtE", 147, 1):
        "equivalent in effect: the first record with γ̃ ≥ the bound instead of > it differs "
        "only where a record's γ̃ equals α·v·√k·R_x to the last bit",
    ("check-eq6", "_record", "core/ReplaceComparisonOperator_Eq_GtE", 247, 1):
        "equivalent: `entered[r] == 1` → `>= 1` on a boolean array (True is 1, False is 0)",
    **{("check-lem6.1", fn, op, line, occ): why for fn, op, line, occ, why in (
        ("check", "core/ReplaceComparisonOperator_Eq_GtE", 185, 8,
         "equivalent: a clause's violations never exceed its evaluations, so `>=` is `==`"),
        ("check", "core/ReplaceComparisonOperator_Eq_GtE", 185, 7,
         "equivalent: the control is caught only when its clause was evaluated and violated "
         "every time, and then its verdict is FAIL; the verdicts that sort after \"FAIL\" "
         "(PASS, INCONCLUSIVE) come with no violation, so `>= \"FAIL\"` picks FAIL alone "
         "there"),
        ("evaluate_cases", "core/ReplaceUnaryOperator_USub_UAdd", 138, 8,
         "equivalent: `axis=-1` → `axis=+1` on the 2-D array of points"),
        ("evaluate_cases", "core/ReplaceUnaryOperator_Delete_USub", 138, 8,
         "equivalent: `axis=-1` → `axis=1` on the 2-D array of points"),
        ("_run", "core/NumberReplacer", 149, 115,
         "equivalent: ctx.map is handed one item per family, so its result list has one "
         "entry: `[0]` and `[-1]` are the same"))},
    ("certify-recheck", "(file)", "core/ReplaceComparisonOperator_NotEq_Gt", 253, 4):
        "equivalent: `r2 != 0` → `r2 > 0`; r2 is an exact sum of squares, never negative",
}

#: the reason for a check target's mutant killed by a test written since, where the mutant
#: has no reason of its own: the tests written for the target's survivors, by what they pin
KILLED_BY_TARGET: dict = {
    "check-sgd-items": "tests/claims/test_thm4_1.py::test_a_case_trains_and_reports_the_objects_"
                       "its_seed_rebuilds: the data and inits a case trains are the audit's "
                       "rebuild from its seed (digests), and its R_0, γ, n, d, epoch cap and "
                       "an item's defaults are recomputed from their definitions",
    "check-eq6": "tests/claims/test_eq6.py recomputes a phase summary on synthetic traces from "
                 "its definitions (the late records, the least bound and rate slacks, the "
                 "companion's drop, the sample at L_sum = log 2 itself) and records a phase "
                 "run by run (bounds, rates where finite, shrink slacks, what is inconclusive); "
                 "the shrink slack of a run that left the late phase by value",
    "check-lem6.1": "tests/claims/test_lem6_1.py pins the witness test at both edges, the "
                    "measurements of the sets and of the raw-scale LP (its 1e-6 edge, any "
                    "changed verdict, the note for either kind of trouble, its worst value), "
                    "the control's caught condition and counts, a case's norm spread and the "
                    "asym-ball control's data",
    "check-thm6.2": "tests/claims/test_thm6_2.py recomputes every number the run analysis "
                    "reports (Assumption 3's bound and γ̃, 1 − cos to Eq. 8's solution for the "
                    "run, its companion and the wrong α, every clause slack; the boundary "
                    "slack point by point from its definition, on trained and on unclustered "
                    "nets, and at normals whose cosine rounds past ±1), and pins its cuts "
                    "(late, left, outside every NAR, Assumptions 4 and 3, the PAR clause's "
                    "records without Assumption 3)",
    "check-nar": "tests/claims/test_thm6_1.py records synthetic runs: an unmet assumption and "
                 "an undecided run counted, not recorded; a violated clause inconclusive while "
                 "the direction moves (the run's other clauses still recorded) and a FAIL once "
                 "it settled, at DRIFT_TOL itself; the radius clause at RADIUS_TOL itself and "
                 "at r = 0",
    "check-thm5": "tests/claims/test_thm5_1.py pins the clause records by value (an undecided "
                  "band observed from its points or else inconclusive, each sampled clause from "
                  "its own points, a proved clause's least slack, a witness as a FAIL), the "
                  "cases' construction (the extremal grid, r and d over their ranges, the shrunk "
                  "control's grid and order, a shrunk band on any family, per-point nets), "
                  "certification up to max_k inclusive and the c* bracket's settings",
    "check-thm6.1": "tests/claims/test_thm6_1.py recomputes every number the run analysis "
                    "reports from what it saw (the pattern slacks, 1 − cos of the run and its "
                    "half-step companion, r·‖W‖'s ratio, the PAR flag, the wrong pattern's "
                    "point, slack and 1 − cos) and pins its cuts (T_NAR after half the steps, "
                    "a run that left its pattern, a pattern optimum on the NAR boundary), PAR "
                    "as both types on their side, the floors of a perfectly clustered run and "
                    "its keyword-only options",
}
