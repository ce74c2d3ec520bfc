"""The survivors of the population passes over the targets written last (loss-checks,
network-rest, bounds-rest, metrics-margins, kkt-rest, qp-solve, convex-rest, a4-witness):
kill reasons (the test written for each, in ``tests/test_mutation_kills_checks.py`` and the
other ``tests/test_mutation_kills_*.py`` files named) and equivalence reasons, keyed like
:mod:`mutation_notes`: (target, function, operator, line[, occurrence]); merged into
:data:`mutation_notes_population.KILLED_BY_POPULATION` and
:data:`mutation_notes_population.EQUIVALENT_POPULATION`.
"""

_CLAIMS_WELL_FORMED = "; the claims only hand it float arrays of the right shape"
_DTYPE_ORDER = ("equivalent: numpy orders dtypes by safe casting (`a < b`: a casts safely to b "
                "and differs), and no dtype but {d} casts safely to {d}, so `{op}` holds for "
                "{d} alone, as `==` does")
_NDIM = ("equivalent: an array has ndim ≥ 0, and an Integral input is a 0-d array, so "
         "`arr.ndim {op} 0` is `arr.ndim == 0` wherever the rest of the condition holds")

EQUIVALENT: dict = {
    ("loss-checks", "_real", "core/ReplaceBinaryOperator_Mul_Div", 48, 0):
        "equivalent: `*` → `/` in the signature of a private function: every caller passes "
        "min_ndim and nan_check by keyword, which a positional-only marker allows as well",
    ("loss-checks", "_real", "core/ReplaceComparisonOperator_Eq_LtE", 68, 4):
        _DTYPE_ORDER.format(d="bool", op="<="),
    ("loss-checks", "_real", "core/ReplaceComparisonOperator_Eq_GtE", 65, 2):
        "equivalent: numpy orders dtypes by safe casting (`a >= b`: b casts safely to a), "
        "and object casts safely to no dtype but object, so `arr.dtype >= object` holds for "
        "object alone, as `==` does",
    ("loss-checks", "_real", "core/ReplaceComparisonOperator_Eq_LtE", 65, 3):
        _NDIM.format(op="<="),
    ("loss-checks", "_real", "core/ReplaceComparisonOperator_Eq_GtE", 65, 3):
        _NDIM.format(op=">="),
    ("loss-checks", "_real", "core/ReplaceComparisonOperator_Eq_LtE", 74, 5):
        "equivalent: a length is never negative, so `shape[-1] <= 0` is `shape[-1] == 0`",
    ("loss-checks", "_log_norm", "core/ReplaceComparisonOperator_Eq_GtE", 43, 1):
        "equivalent: no float exceeds +inf, so `log_norm >= inf` is `log_norm == inf`",
    ("loss-checks", "_real", "core/ReplaceOrWithAnd", 51, 0):
        "equivalent (a fast path lost): with `and` no scalar takes the float fast path, and "
        "the general one gives a 0-d float64 array of the same value, NaN refused the same "
        "way; every caller feeds it to numpy functions that return the same scalar for it",
    ("kkt-rest", "_polish", "core/ReplaceBinaryOperator_Mul_Add", 167, 7):
        "equivalent in practice, not in principle: NNLS (Lawson–Hanson) moves one index into "
        "its passive set per outer iteration, so it needs about as many iterations as the "
        "answer has positive multipliers, at most p = active.size, and 50 + p runs out only "
        "if more than 50 indices leave the set again.  300 random programs of polish's shape "
        "all finished within 50 + p, while p/2 failed 76 of them (recipe, seed 0: rng = "
        "np.random.default_rng(0); per program p = rng.integers(30, 200), m = "
        "rng.integers(5, 60), A = rng.standard_normal((m, p)), x = |rng.standard_normal(p)| "
        "· (rng.random(p) < 0.5), b = A x + 0.3·rng.standard_normal(m), then "
        "scipy.optimize.nnls(A, b, maxiter=50 + p), and again with maxiter=p // 2); no "
        "instance that tells 50 + p from 50p is known",
    ("kkt-rest", "_polish", "core/ReplaceComparisonOperator_Lt_NotEq", 159, 0):
        "equivalent: a size is never negative, so `0 != size <= 20m` is `0 < size <= 20m`",
    ("kkt-rest", "_check_W2k", "core/ReplaceComparisonOperator_NotEq_Gt", 283, 7):
        "equivalent: check_array(..., min_ndim=2) on the line before refuses fewer than two "
        "axes, so `W.ndim > 2` is `W.ndim != 2` here",
    ("kkt-rest", "_check_qp", "core/ReplaceComparisonOperator_NotEq_Gt", 58, 2):
        "equivalent: check_array's default min_ndim=1 refuses a 0-d θ, so `theta.ndim > 1` is "
        "`theta.ndim != 1` here",
    ("kkt-rest", "_check_qp", "core/NumberReplacer", 68, 33):
        "equivalent: θ is 1-D by the check above, so its last axis is its first",
    ("network-rest", "Net.__post_init__", "core/ReplaceFalseWithTrue", 72, 0):
        "equivalent through the public API: the read-only flag guards Net's private `_a`, "
        "which no method hands out (Net.a builds a fresh array), so nothing outside the "
        "class can write to it either way",
    ("kkt-rest", "_check_qp", "core/NumberReplacer", 69, 37):
        "equivalent: θ is 1-D by the check above, so its last axis is its first",
    ("kkt-rest", "check_Xy", "core/ReplaceComparisonOperator_NotEq_Gt", 50, 1):
        "equivalent: check_y refuses labels of fewer than one axis, so `y.ndim > 1` is "
        "`y.ndim != 1` here",
    ("kkt-rest", "_polish", "core/NumberReplacer", 167, 76):
        "equivalent in practice, as `50 + active.size` on the same line: NNLS needs about one "
        "iteration per positive multiplier, far below 50 per active row",
    ("kkt-rest", "_check_qp", "core/ReplaceComparisonOperator_NotEq_Lt", 62, 3):
        "equivalent: `G.tocsr()` on the line before raises for a sparse array of more than "
        "two axes (scipy: 'CSR must be 1D or 2D'), so past it `G.ndim < 2` is `G.ndim != 2`",
    ("network-rest", "Net._inputs", "core/ReplaceComparisonOperator_Eq_GtE", 98, 0):
        "equivalent: the per-point arrays Net's methods pass are named `y` and `coef`, and "
        "of these only `y` is ≥ \"y\", so `name >= \"y\"` is `name == \"y\"`",
    ("bounds-rest", "_range_error", "core/ReplaceComparisonOperator_Gt_GtE", 188, 3):
        "equivalent: a range error is raised only for a log outside (log tiny, log max) ≈ "
        "(−708.4, 709.8), never at log 0, so `>= 0` and `> 0` pick the same word",
    ("bounds-rest", "invariant_bounds", "core/NumberReplacer", 255, 207):
        "equivalent: an array has at least 0 axes, so min_ndim=−1 and min_ndim=0 refuse the "
        "same (nothing)",
    ("kkt-rest", "check_Xy", "core/ReplaceComparisonOperator_NotEq_Gt", 47, 0):
        "equivalent: check_X refuses fewer than two axes, so `X.ndim > 2` is `X.ndim != 2`",
    ("kkt-rest", "_check_qp", "core/ReplaceComparisonOperator_NotEq_Gt", 66, 4):
        "equivalent: check_array(..., min_ndim=2) on the line before refuses fewer than two "
        "axes, so `G.ndim > 2` is `G.ndim != 2` here",
    ("kkt-rest", "_check_qp", "core/ReplaceContinueWithBreak", 74, 0):
        "equivalent: `mu` is the last of the loop's two vectors, so leaving the loop at it "
        "(break) and going on to the end (continue) are the same",
    ("kkt-rest", "_polish", "core/NumberReplacer", 167, 77):
        "equivalent in practice, as `50 + active.size` on the same line: NNLS needs about one "
        "iteration per positive multiplier, far below 49 per active row",
    ("metrics-margins", "relative_cluster_radius", "core/ReplaceComparisonOperator_Gt_NotEq",
     72, 0):
        "equivalent: the gap is a norm, never negative, so `gap != 0` is `gap > 0`",
    **{("bounds-rest", "_log_one_minus_exp_neg", "core/NumberReplacer", 145, occ):
       "equivalent: the series log x − x/2 (next term x²/24 ≈ e^-58) and log(−expm1(−x)) "
       "(expm1 accurate to an ulp for tiny x) are both exact to rounding around log x = −30, "
       "so moving the switch to −29 or −31 changes no result by more than an ulp "
       "(test_log_one_minus_exp_neg_is_its_definition holds either way)"
       for occ in (78, 79)},
    ("bounds-rest", "_log_one_minus_exp_neg", "core/NumberReplacer", 147, 83):
        "equivalent: for log x ≥ 699, e^{−x} is below 1e-300, so 1 − e^{−x} is 1 in floats "
        "and its log 0 whether the cap is 699 or 700",
    ("bounds-rest", "_from_logs", "core/ReplaceComparisonOperator_Gt_NotEq", 155, 1):
        "equivalent: R_0 ≥ 0 is checked by sgd_update_bound, the only caller, so `R_0 != 0` "
        "is `R_0 > 0`",
    **{("bounds-rest", "_from_logs", op, 168, 2):
       "equivalent: the terms that may be −inf (R_0 = 0 drops S) are only left out to avoid "
       "no-op work; logaddexp.reduce with a −inf entry gives the same sum (logaddexp(−inf, "
       "t) = t exactly, silently), and no term is NaN or +inf (each is a finite log or −inf)"
       for op in ("core/ReplaceComparisonOperator_Gt_GtE", "core/ReplaceComparisonOperator_Gt_NotEq")},
    **{("bounds-rest", "_range_error", "core/NumberReplacer", 188, occ):
       "equivalent: a range error is raised only for a log outside (−708.4, 709.8), so a "
       "threshold of −1 or 1 in place of 0 picks the same word"
       for occ in (142, 143)},
    **{("qp-solve", "_direct", op, 112, occ):
       "equivalent with the installed clarabel: its status prints as a bare word ('Solved', "
       "no dot), so any split of it, at any count, and its first or last part are that word "
       "(kept for versions that print 'SolverStatus.Solved')"
       for op, occ in (("core/NumberReplacer", 24), ("core/NumberReplacer", 25),
                       ("core/NumberReplacer", 27), ("core/ReplaceUnaryOperator_USub_Not", 7))},
    **{("qp-solve", "_direct", op, 115, 0):
       "equivalent in effect: 'Solved' itself still reads as solved; the other statuses that "
       "the mutant reads as solved come back with θ and μ, which the KKT re-check refuses "
       "(an unconverged answer fails it) before the next route answers"
       for op in ("core/ReplaceComparisonOperator_NotEq_Lt",
                  "core/ReplaceComparisonOperator_NotEq_Gt")},
    ("qp-solve", "unit_scale", "core/ReplaceComparisonOperator_Eq_LtE", 193, 6):
        "equivalent: top is a maximum of absolute values, never negative, so `top <= 0` is "
        "`top == 0`",
    ("scale", "(file)", "core/ReplaceComparisonOperator_Eq_LtE", 58, 0):
        "equivalent: a norm is never negative, so `norm <= 0` is `norm == 0`",
    ("scale", "(file)", "core/ReplaceComparisonOperator_Gt_NotEq", 88, 0):
        "equivalent: a norm is never negative, so `norms != 0` is `norms > 0`",
    **{("scale", "(file)", "core/NumberReplacer", 46, occ):
       "equivalent: pow2's exponent keeps both reduced axes with length one, so indexing "
       "either with −1 or 0 reads the same entry"
       for occ in (13, 15)},
    ("train-wrappers", "_euler", "core/ReplaceBinaryOperator_Mul_Div", 168, 5):
        "equivalent: `*` → `/` in the signature of a private function: gd and gradient_flow, "
        "its only callers, pass every argument after the marker by keyword",
    **{("convex-rest", "_check_pattern", "core/NumberReplacer", 186, occ):
       "equivalent: the side only multiplies the rows of the sign constraints side_i·x_i·w ≥ 0 "
       "and is compared with 0 (cw, cu), so a side of ±2 in place of ±1 gives the same "
       "program and answer" for occ in (38, 40)},
    ("qp-solve", "_run", "core/ReplaceComparisonOperator_Eq_LtE", 82, 0):
        "equivalent: the cvxpy statuses ordered before 'optimal' are the infeasible ones, which "
        "solve_qp handles from problem.status before it reads the failure",
    ("qp-solve", "solve_qp", "core/ReplaceComparisonOperator_Eq_GtE", 147, 4):
        "equivalent: _direct returns 'optimal', 'infeasible' (handled just before) or one of "
        "Clarabel's capitalised words, which all sort before 'optimal'",
    ("bounds-rest", "_log_one_minus_exp_neg", "core/ReplaceComparisonOperator_Lt_LtE", 145, 0):
        "equivalent: at log x = −30 exactly both branches are exact to rounding (see the "
        "switch moved to −29 or −31)",
    ("bounds-rest", "_log_one_minus_exp_neg", "core/NumberReplacer", 147, 82):
        "equivalent: for log x ≥ 700, e^{−x} is below 1e-300, so 1 − e^{−x} is 1 in floats "
        "and its log 0 whether the cap is 700 or 701 (e^701 is finite)",
    ("bounds-rest", "potential_G", "core/NumberReplacer", 230, 186):
        "equivalent: numpy's reshape takes any negative length as the one unknown length",
    ("bounds-rest", "invariant_bounds", "core/NumberReplacer", 251, 201):
        "equivalent: an array has at least 0 axes, so min_ndim=−1 and 0 refuse the same",
    **{("bounds-rest", "_from_logs", "core/ReplaceComparisonOperator_Lt_LtE", 173 + 3 * i, occ):
       "equivalent in effect: _LOG_HUGE is log(max float) − 1e-9, a safety margin inside the "
       "range, so at value = _LOG_HUGE exactly e^value is still a finite float; accepting "
       "or refusing that one float are both right, and no argument is known to hit it"
       for i, occ in ((0, 1), (1, 3))},
    **{("qp-solve", fn, "core/ReplaceComparisonOperator_Eq_" + op, line, occ):
       "equivalent in effect: Clarabel's other statuses (MaxIterations, NumericalError, …) "
       "then read as 'infeasible'; HiGHS finds the program feasible, so the route fails "
       "as before and the next route answers; only the failure's wording changes"
       for fn, op, line, occ in (("solve_qp", "Lt", 142, 3), ("_direct", "LtE", 113, 1),
                                 ("solve_qp", "LtE", 142, 3))},
    ("qp-solve", "solve_qp", "core/ReplaceComparisonOperator_Eq_LtE", 140, 2):
        "equivalent: of the solver names (CLARABEL, OSQP, SCS) only CLARABEL sorts at or "
        "before 'CLARABEL', so `name <= \"CLARABEL\"` is `name == \"CLARABEL\"`",
    ("qp-solve", "_run", "core/NumberReplacer", 81, 15):
        "equivalent in effect: which line of a solver's warning goes into a failure's text "
        "(its first or its last) changes only the wording of a SolverError",
}

KILLED_BY: dict = {
    **{("loss-checks", "_real", op, 65, occ):
       "an integer past float64 is a ValueError giving its digits, and integer and boolean "
       "margins are their float values (test_an_integer_past_float64_is_a_value_error_giving_"
       "its_digits, test_integer_and_boolean_margins_are_their_float_values)"
       + _CLAIMS_WELL_FORMED
       for op, occ in (("core/ReplaceComparisonOperator_Eq_NotEq", 2),
                       ("core/ReplaceComparisonOperator_Eq_NotEq", 3),
                       ("core/ReplaceComparisonOperator_Eq_Lt", 2),
                       ("core/ReplaceComparisonOperator_Eq_Lt", 3),
                       ("core/ReplaceComparisonOperator_Eq_LtE", 2),
                       ("core/ReplaceComparisonOperator_Eq_Gt", 2),
                       ("core/ReplaceComparisonOperator_Eq_Gt", 3),
                       ("core/AddNot", 7), ("core/ReplaceAndWithOr", 3),
                       ("core/ReplaceAndWithOr", 4), ("core/NumberReplacer", 4),
                       ("core/NumberReplacer", 5))},
    **{("loss-checks", "_real", op, line, occ):
       "object, string and complex arrays are a TypeError naming the dtype, booleans are "
       "accepted (test_arrays_of_objects_strings_and_complex_numbers_are_a_type_error, "
       "test_integer_and_boolean_margins_are_their_float_values)" + _CLAIMS_WELL_FORMED
       for op, line, occ in (("core/ReplaceComparisonOperator_Eq_NotEq", 68, 4),
                             ("core/ReplaceComparisonOperator_Eq_Lt", 68, 4),
                             ("core/ReplaceComparisonOperator_Eq_Gt", 68, 4),
                             ("core/ReplaceComparisonOperator_Eq_GtE", 68, 4),
                             ("core/ReplaceOrWithAnd", 69, 3))},
    **{("loss-checks", "_nan_free", op, 34, occ):
       "an empty array of margins passes the NaN check (test_empty_margins_give_an_empty_loss_"
       "and_nan_is_refused_in_arrays): the mutant calls .item() on it" + _CLAIMS_WELL_FORMED
       for op, occ in (("core/ReplaceComparisonOperator_Eq_Lt", 0),
                       ("core/ReplaceComparisonOperator_Eq_LtE", 0),
                       ("core/NumberReplacer", 1))},
    ("loss-checks", "_real", "core/ReplaceTrueWithFalse", 48, 0):
        "NaN in an array of margins is refused by default (test_empty_margins_give_an_empty_"
        "loss_and_nan_is_refused_in_arrays)" + _CLAIMS_WELL_FORMED,
    ("loss-checks", "_real", "core/ReplaceOrWithAnd", 58, 1):
        "a string, bytes or None is refused by its type's name (test_a_string_or_none_is_not_"
        "array_like_of_real_numbers): the mutant lets numpy make a dtype of it"
        + _CLAIMS_WELL_FORMED,
    # -- network-rest: Net's argument checks; the claims build nets and call them correctly
    ("network-rest", "Net.init", "core/ReplaceBinaryOperator_Mul_Div", 81, 0):
        "scale and rng are keyword-only (test_init_takes_scale_and_rng_by_keyword_only)"
        + _CLAIMS_WELL_FORMED,
    ("network-rest", "Net._inputs", "core/ReplaceComparisonOperator_Eq_Gt", 98, 0):
        "labels are checked as labels (test_labels_passed_with_points_are_checked_as_labels)"
        + _CLAIMS_WELL_FORMED,
    ("network-rest", "Net._inputs", "core/ReplaceUnaryOperator_USub_Not", 101, 5):
        "the per-point message counts batched X's points (test_the_per_point_message_counts_"
        "the_points_of_batched_x)" + _CLAIMS_WELL_FORMED,
    ("network-rest", "Net.__post_init__", "core/NumberReplacer", 68, 13):
        "k ≥ 1 (test_a_net_has_at_least_one_neuron_of_each_type)" + _CLAIMS_WELL_FORMED,
    ("network-rest", "Net.__post_init__", "core/NumberReplacer", 70, 15):
        "v > 0 (test_the_second_layer_magnitude_is_positive)" + _CLAIMS_WELL_FORMED,
    ("network-rest", "Net.init", "core/NumberReplacer", 83, 17):
        "d ≥ 1 (test_init_needs_at_least_one_input_dimension)" + _CLAIMS_WELL_FORMED,
    ("convex-rest", "_check_pattern", "core/ReplaceComparisonOperator_NotEq_Gt", 180, 0):
        "a shorter pattern is refused by its shape (test_a_shorter_pattern_is_refused)"
        + _CLAIMS_WELL_FORMED,
}
