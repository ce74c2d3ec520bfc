"""The mutants of ``tools/mutate.py``'s campaigns that a test or check written for them kills
(keyed like :mod:`mutation_notes`: (target, function, operator, line[, occurrence])), with
the test or check that does.  Read through :mod:`mutation_notes`.
"""

_LOG_ELL_ULPS = ("log ℓ correctly rounded past the series switch (test_log_ell_is_correctly_"
                 "rounded_on_both_sides_of_the_series_switch): the series term's sign or factor "
                 "is 10–24 ulps off, inside every claim's tolerance")
#: survivors killed by a test or check written for them (target, function, operator, line)
KILLED_BY: dict = {
    **{("runner-verdict", "run_one", f"core/ReplaceBinaryOperator_Sub_{op}", 139):
       "the check's own wall time (test_run_one_reports_the_check_s_own_wall_time)"
       for op in ("Add", "Mul", "Div")},
    ("runner-verdict", "run_one", "core/NumberReplacer", 124):
        "BLAS pinned to one thread (test_run_one_pins_blas_to_one_thread_while_the_check_runs)",
    ("runner-verdict", "run_one", "core/ReplaceBinaryOperator_Mul_Div", 89):
        "keyword-only options (test_run_one_options_are_keyword_only)",
    ("runner-verdict", "run_one", "core/AddNot", 136):
        "a raising check is ERROR when run_one runs alone, without a cancel event (test_run_"
        "one_alone_turns_a_raising_check_into_error_with_its_rerun_command)",
    ("runner-verdict", "_result", "core/AddNot", 64):
        "`--cases` in the rerun command only when set (test_run_one_alone_turns_a_raising_"
        "check_into_error_with_its_rerun_command)",
    ("runner-verdict", "_result", "core/ReplaceComparisonOperator_Eq_LtE", 61):
        "the rerun command is for ERROR only: 'ASSUMPTION-NOT-MET' < 'ERROR' as strings (test_"
        "an_assumption_not_met_result_has_no_rerun_command_and_five_examples)",
    ("runner-verdict", "_result", "core/NumberReplacer", 84):
        "five examples of each reason (test_an_assumption_not_met_result_has_no_rerun_"
        "command_and_five_examples)",
    ("loss-core", "_log_ell", "core/ReplaceBinaryOperator_Sub_Add", 108): _LOG_ELL_ULPS,
    ("loss-core", "_log_ell", "core/NumberReplacer", 108): _LOG_ELL_ULPS,
    ("loss-core", "mean_loss", "core/NumberReplacer", 138):
        "the mean runs over the last axis of stacked runs, and a scalar is refused naming `q` "
        "(test_mean_loss_reduces_over_the_last_axis_of_stacked_runs, test_mean_loss_of_a_"
        "scalar_is_refused_naming_q_and_the_rule): every claim's loss is of one run",
    ("verdict", "record", "core/ReplaceBinaryOperator_Mul_Div", 140):
        "keyword-only knobs (test_record_and_negative_control_knobs_are_keyword_only)",
    ("verdict", "negative_control", "core/ReplaceBinaryOperator_Mul_Div", 236):
        "keyword-only knobs (test_record_and_negative_control_knobs_are_keyword_only)",
    ("bounds-formulas", "_direct", "core/ReplaceBinaryOperator_Mul_Div", 132):
        "R_x² → 1/R_x² in b is invisible on data with R_x = 1 (every thm4.1 set is scaled to "
        "max ‖x‖ = 1); killed at R_x = 1.3 (test_t_exact_and_m_are_rounded_up_never_down)",
    ("verdict", "audit", "core/ReplaceComparisonOperator_NotEq_Lt", 185):
        "shapes must match (test_audit_shapes_must_match_even_when_the_values_broadcast_equal)",
    ("verdict", "audit", "core/ReplaceComparisonOperator_NotEq_Gt", 185):
        "shapes must match (test_audit_shapes_must_match_even_when_the_values_broadcast_equal)",
    ("verdict", "audit", "core/ReplaceUnaryOperator_USub_UAdd", 186):
        "shapes must match (test_audit_shapes_must_match_even_when_the_values_broadcast_equal)",
    ("verdict", "audit", "core/ReplaceUnaryOperator_USub_Not", 205):
        "a disagreement is recorded as a violated clause (test_audit_shapes_must_match_...)",
    ("verdict", "audit", "core/AddNot", 202):
        "the message gives the element's values (test_engine_problem_names_the_first_...)",
    ("verdict", "audit", "core/AddNot", 203):
        "the message gives the element's values (test_engine_problem_names_the_first_...)",
    ("verdict", "audit", "core/NumberReplacer", 197):
        "empty arrays agree with slack 1 (test_audit_of_empty_arrays_agrees_with_slack_one)",
    ("verdict", "audit", "core/NumberReplacer", 190):
        "exact agreement has slack 1 (tests/test_audit.py::test_audit_nan_agrees_with_nan_...)",
    ("verdict", "engine_problem", "core/NumberReplacer", 281):
        "the first disagreement is named (test_engine_problem_names_the_first_disagreement_...)",
    ("verdict", "record", "core/ReplaceComparisonOperator_Lt_LtE", 169):
        "ties keep the first worst case (test_an_equal_later_slack_keeps_the_first_worst_case)",
    ("verdict", "record", "core/ReplaceComparisonOperator_Eq_Lt", 156):
        "an empty slack records nothing (test_an_empty_slack_records_nothing)",
    ("verdict", "record", "core/NumberReplacer", 156):
        "an empty slack records nothing (test_an_empty_slack_records_nothing)",
    ("verdict", "record", "core/ReplaceComparisonOperator_Lt_Eq", 165):
        "a held evaluation is no violation (test_a_positive_slack_is_no_violation)",
    ("verdict", "record", "core/ReplaceComparisonOperator_Lt_GtE", 165):
        "a held evaluation is no violation (test_a_positive_slack_is_no_violation)",
    ("bounds", "sgd_update_bound", "core/ReplaceBinaryOperator_Add_Sub", 117):
        "M rounded up, never down (test_t_exact_and_m_are_rounded_up_never_down; and the "
        "engine audit's 'M not below its exact value')",
    ("bounds", "sgd_update_bound", "core/ReplaceBinaryOperator_Mul_Div", 117):
        "M rounded up, never down (test_t_exact_and_m_are_rounded_up_never_down; and the "
        "engine audit's 'M not below its exact value')",
    ("bounds", "sgd_update_bound", "core/NumberReplacer", 101):
        "`eta` ≤ 0 rejected (test_sgd_update_bound_rejects_each_out_of_range_argument)",
    ("bounds", "sgd_update_bound", "core/NumberReplacer", 100):
        "`k` = 0 rejected (test_sgd_update_bound_rejects_each_out_of_range_argument)",
    ("bounds", "sgd_update_bound", "core/NumberReplacer", 102):
        "`v` ≤ 0 rejected (test_sgd_update_bound_rejects_each_out_of_range_argument)",
    ("bounds", "sgd_update_bound", "core/ReplaceBinaryOperator_Add_Sub", 116):
        "T_exact rounded up, never down (test_t_exact_and_m_are_rounded_up_never_down; and "
        "now the engine audit's 'T_exact not below its exact value')",
    ("bounds", "sgd_update_bound", "core/ReplaceBinaryOperator_Mul_Div", 116):
        "T_exact rounded up, never down (test_t_exact_and_m_are_rounded_up_never_down; and "
        "now the engine audit's 'T_exact not below its exact value')",
    ("verdict", "record", "core/ReplaceComparisonOperator_Lt_NotEq", 165):
        "a held evaluation is no violation (test_a_positive_slack_is_no_violation)",
    **{("verdict", "record", f"core/ReplaceBinaryOperator_Add_{op}", 166):
       "evidence counts count (test_evidence_counts_count_every_evaluation)"
       for op in ("Sub", "Mul", "Div")},
    ("verdict", "record", "core/NumberReplacer", 166):
        "evidence counts count (test_evidence_counts_count_every_evaluation)",
    ("verdict", "audit", "core/AddNot", 196):
        "the disagreement names the element (tests/test_audit.py::"
        "test_audit_disagreement_names_quantity_case_and_both_values)",
    ("verdict", "audit", "core/NumberReplacer", 194):
        "exact agreement has slack 1 (tests/test_audit.py::test_zero_allowance_means_exact_"
        "equality, test_audit_nan_agrees_with_nan_and_inf_with_inf)",
    ("verdict", "audit", "core/ReplaceComparisonOperator_Lt_NotEq", 198):
        "an agreeing audit is no disagreement (tests/test_audit.py::"
        "test_audit_agreement_within_allowance_records_nonnegative_slack)",
    ("metrics-radius-regime", "linear_regime", "core/ReplaceBinaryOperator_Mul_Div", 92):
        "`c` must stay keyword-only (tests/test_mutation_kills.py::"
        "test_linear_regime_constant_is_keyword_only)",
    ("metrics-radius-regime", "linear_regime", "core/ReplaceUnaryOperator_USub_UAdd", 101):
        "per-row scaling on stacked data (test_linear_regime_on_stacked_data_equals_each_run_"
        "alone); on 2-D X, axis 1 is axis -1",
    ("metrics-radius-regime", "linear_regime", "core/ReplaceUnaryOperator_Delete_USub", 101):
        "per-row scaling on stacked data (test_linear_regime_on_stacked_data_equals_each_run_"
        "alone); on 2-D X, axis 1 is axis -1",
    ("metrics-radius-regime", "linear_regime", "core/NumberReplacer", 99):
        "the rule c ≥ 0 at the boundary (test_linear_regime_accepts_every_c_from_zero, "
        "test_linear_regime_rejects_a_negative_c)",
    ("train-flow", "_euler_loop", "core/ReplaceBinaryOperator_Mul_Add", 190):
        "the trace's log time at every recorded gd/Euler step (engine audit 'plain Euler trace "
        "continuous time, every step'; the audit read only the final log_time)",
    ("train-flow", "_log_logmean", "core/ReplaceBinaryOperator_Mul_Pow", 275):
        "a step's time on the logarithmic mean's series branch (engine audit 'recorded "
        "continuous time = Σ step times (tiny turn)': a turn of 1e-12 per step)",
    ("train-flow", "_normalized_loop", "core/ReplaceComparisonOperator_Lt_LtE", 297):
        "the callback's W is None exactly when Run.W is, from ‖W‖ = e^700 on (test_normalized_"
        "flow_callback_w_is_none_exactly_when_run_w_is)",
    ("train-sgd", "_sgd_loop", "core/NumberReplacer", 104):
        "runs on stacked data sets, one per run (tests/test_batched.py::test_sgd_batched_"
        "equals_looped_with_per_run_permutations, put in the target's tests after the "
        "campaign): `X.shape[-3:]` is `X.shape[-2:]` for one data set (n, d)",
    ("train-sgd", "_sgd_loop", "core/NumberReplacer", 121):
        "the trace's rows are numbered by epoch from 0, the initial state (engine audit 'SGD "
        "trace epoch numbers'; test_sgd_trace_rows_are_numbered_by_epoch_from_the_initial_"
        "state): the claims read rows by position",
    ("train-sgd", "_sgd_loop", "core/NumberReplacer", 126):
        "the callback's update count t = 1, 2, … (engine audit 'SGD update count t of the "
        "callback')",
    **{("train-sgd", "_sgd_loop", f"core/ReplaceComparisonOperator_GtE_{op}", 151):
       "ε0-mistakes counted per update (engine audit 'SGD ε0-mistakes per epoch', ε0 = ℓ(0) "
       "against the replay's margins): the claims count them from the filed epochs"
       for op in ("Eq", "NotEq", "Lt", "Gt", "LtE")},
    **{("train-sgd", "_sgd_loop", f"core/ReplaceBinaryOperator_Sub_{op}", 157):
       "a filed epoch's t0 (engine audit 'SGD epoch filing: epoch and t0'): no claim reads t0"
       for op in ("Add", "Mul", "Div")},
    ("kernels", "grad_over_loss", "core/ReplaceBinaryOperator_Mul_Pow", 149):
        "a normalized step with every loss weight below e^-300 (test_normalized_step_with_"
        "every_loss_weight_below_e_minus_300): a misclassified point at ‖W‖ = e^400, which no "
        "claim's separable data reach",
    ("kernels", "Fused.sgd_update", "core/ReplaceBinaryOperator_Mul_Div", 225):
        "the kernel protocol's options are keyword-only (test_kernel_sgd_update_options_are_"
        "keyword_only)",
    ("kernels", "Fused.sgd_update", "core/ReplaceUnaryOperator_Delete_USub", 241):
        "batched SGD equals looped where every pre-activation is subnormal (test_batched_sgd_"
        "equals_looped_where_pre_activations_underflow): no claim's weights get near 1e-160",
    ("kernels", "grad_over_loss", "core/ReplaceComparisonOperator_Lt_Eq", 146):
        "the rescaled weights where they would underflow: a misclassified point with v = 1e200 "
        "at ‖W‖ = e^300, weights below e^-745 (test_normalized_step_with_every_loss_weight_"
        "below_e_minus_300[1e+200-300.0]; before the γ̃ fix such a flow raised at its first "
        "trace row)",
    ("kernels", "Fused.forward", "core/ReplaceUnaryOperator_USub_Not", 199):
        "signs exact where underflow flips the computed pre-activation (test_signs_are_exact_"
        "where_underflow_flips_the_computed_pre_activation[loss_and_grad]: d = 64, w·x = "
        "−5·2^-1074 computed +20·2^-1074): no claim's weights come near 1e-162",
    ("kernels", "Fused.sgd_update", "core/ReplaceUnaryOperator_Delete_Not", 232):
        "signs exact where underflow flips the computed pre-activation (test_signs_are_exact_"
        "where_underflow_flips_the_computed_pre_activation[sgd])",
    **{("kernels", "Fused.sgd_update", op, line):
       "the one-run update path (2-D W) against run 0 of the batch, bit for bit (engine audit "
       "'SGD run 0 alone (2-D W) = run 0 of the batch'): every claim's SGD trains a batch"
       for op, line in (("core/ReplaceBinaryOperator_Mul_Pow", 234),
                        ("core/ReplaceComparisonOperator_Gt_NotEq", 232),
                        ("core/NumberReplacer", 233))},
    **{("kernels", "Fused.backward", op, 216):
       "∇L of a one-point data set (engine audit 'first SGD update = −η ∇L of the one-point "
       "set'): no claim's data set has one point" for op in (
           "core/ReplaceBinaryOperator_Mul_Add", "core/NumberReplacer")},
    ("kernels", "Fused.sgd_update", "core/ReplaceUnaryOperator_USub_Not", 241):
        "batched SGD equals looped where every pre-activation is subnormal (test_batched_sgd_"
        "equals_looped_where_pre_activations_underflow)",
    ("qp-certify", "_certify", "core/AddNot", 73):
        "a solver answer polish cannot improve is kept only once it passes the re-check "
        "(test_solve_qp_accepts_a_checked_answer_that_polish_cannot_improve: 30 copies of "
        "θ ≥ 1, more active rows than polish tries; Clarabel's answer fails the distance "
        "test there, OSQP's passes): the QPs of odd-part and thm6.1 are all polished",
    ("qp-certify", "_certify", "core/NumberReplacer", 73, 14):
        "the kept multipliers are the solver's clipped at 0 (test_solve_qp_accepts_a_checked_"
        "answer_that_polish_cannot_improve: stationarity θ = Gᵀμ)",
    **{("kkt", "_report", op, 133):
       "each residual of qp_kkt_report is its documented formula (test_qp_kkt_report_"
       "residuals_are_the_documented_formulas): the claims' answers are near-exact KKT pairs, "
       "feasible, where the feasibility residual's scaling is invisible"
       for op in ("core/ReplaceBinaryOperator_Div_Mul", "core/ReplaceBinaryOperator_Div_Add",
                  "core/ReplaceBinaryOperator_Div_Sub", "core/ReplaceBinaryOperator_Mul_Add",
                  "core/ReplaceBinaryOperator_Mul_Sub", "core/ReplaceBinaryOperator_Mul_Div",
                  "core/NumberReplacer")},
    ("kkt", "kkt_certificate", "core/NumberReplacer", 271):
        "stationarity and complementarity of kkt_certificate are the documented formulas at a "
        "W that is not a KKT direction (test_kkt_certificate_residuals_are_the_documented_"
        "formulas; and the flow audit's '(P) certificate' findings): thm6.1 reads only the "
        "largest residual, loosely",
    **{("kkt", "kkt_certificate", op, line):
       "the flow audit re-derives (P)'s certificate from its λ at the late direction (engine "
       "audit '(P) certificate: …'): thm6.1's KKT clause passed it (see the notes)"
       for op, line in (("core/ReplaceBinaryOperator_Sub_Add", 248),
                        ("core/ReplaceBinaryOperator_Mul_Div", 258),
                        ("core/ReplaceBinaryOperator_Div_Sub", 271))},
    **{("kkt", "_report", op, 134):
       "dual feasibility is its documented formula (test_qp_kkt_report_residuals_are_the_"
       "documented_formulas, at a negative multiplier): the claims' multipliers are ≥ 0"
       for op in ("core/ReplaceBinaryOperator_Div_Mul", "core/ReplaceBinaryOperator_Div_Add",
                  "core/ReplaceBinaryOperator_Div_Sub", "core/ReplaceBinaryOperator_Mul_Div",
                  "core/ReplaceBinaryOperator_Mul_Add", "core/ReplaceBinaryOperator_Mul_Sub",
                  "core/NumberReplacer")},
    ("kkt", "kkt_certificate", "core/NumberReplacer", 204):
        "the default v = 1 (test_kkt_certificate_residuals_are_the_documented_formulas calls "
        "it without v): every claim passes its own v",
    **{("kkt", "_report", op, 136):
       "complementarity is its documented formula (test_qp_kkt_report_residuals_are_the_"
       "documented_formulas, at ‖θ‖ ≠ 1): the claims' answers have complementarity ~0"
       for op in ("core/NumberReplacer", "core/ReplaceBinaryOperator_Div_Mul",
                  "core/ReplaceBinaryOperator_Div_Add", "core/ReplaceBinaryOperator_Div_Sub")},
    ("loss-scaled", "scaled_loss_terms", "core/ReplaceComparisonOperator_Gt_GtE", 209):
        "the split form only past a smallest margin of 30 (test_scaled_loss_terms_split_form_"
        "only_past_a_smallest_margin_of_30): at exactly 30 both forms agree to rounding, but "
        "lead must be 0 there",
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 202):
        "a scalar q̂ is refused naming `q_hat` (test_scaled_loss_terms_refuses_a_scalar_"
        "naming_q_hat)",
    ("loss-scaled", "scaled_loss_terms", "core/ReplaceBinaryOperator_Sub_Div", 224):
        "a batch mixing a far and a near run equals each run alone (test_scaled_loss_terms_"
        "and_log_sum_loss_of_stacked_runs_equal_each_run_alone)",
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 216):
        "a far run's split form exact to the ulp (test_scaled_loss_terms_far_run_split_form_"
        "is_exact_to_the_ulp): the e^{−q}/2 terms are ~1e-13 absolute",
    ("loss-scaled", "_logsumexp_inf", "core/ReplaceTrueWithFalse", 121):
        "stacked rows with infinite maxima, row by row (test_logsumexp_of_stacked_rows_with_"
        "infinite_maxima_is_row_by_row)",
    **{("kernels", "frobenius", op, 166):
       "a batch's norms taken per run (engine audit 'SGD run 0 alone (2-D W) = run 0 of the "
       "batch'; the mutant takes one norm over all runs, which a single run cannot show)"
       for op in ("core/ReplaceUnaryOperator_USub_Not", "core/NumberReplacer")},
}

# -- assumption4 (tests/test_mutation_kills_convex.py): HiGHS answers the claims' data never
# make suspicious, and lp_feasible's rescaling, which no claim's data stress
_A4_CERT = ("a dual certificate that keeps a ≥ 0 and the duality gap but breaks stationarity "
            "is refused (test_assumption4_refuses_a_dual_certificate_that_does_not_re_check)")
_H_ZERO = ("a zero right-hand side is feasible at θ = 0 (test_lp_feasible_with_a_zero_right_"
           "hand_side_is_feasible); the mutant takes the max of no exponents")
KILLED_BY.update({
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Gt_Eq", 111): _A4_CERT,
    ("assumption4", "_a4_slack", "core/NumberReplacer", 111, 66): _A4_CERT,
    ("assumption4", "_a4_slack", "core/ReplaceComparisonOperator_Gt_NotEq", 104):
        "a status-2 answer the feasibility LP contradicts (its z has z·x_j < 0) is a "
        "SolverError, not a violation (test_assumption4_refuses_an_infeasible_answer_its_own_"
        "feasibility_lp_contradicts)",
    ("assumption4", "_a4_slack", "core/ReplaceUnaryOperator_USub_Not", 105):
        "a strict violation has the documented slack −1 (test_assumption4_point_deep_in_the_"
        "other_cone_has_slack_minus_one); the mutant's 0 still fails, so no verdict changes",
    ("assumption4", "lp_feasible", "core/AddNot", 56): _H_ZERO,
    ("assumption4", "lp_feasible", "core/NumberReplacer", 56): _H_ZERO,
    ("assumption4", "lp_feasible", "core/ReplaceBinaryOperator_Sub_Add", 57):
        "h brought to order one when only its entries are extreme (test_lp_feasible_decides_"
        "an_interval_whose_bounds_alone_are_extreme): the claims' h is all ones",
    ("assumption4", "assumption4_lp", "core/NumberReplacer", 150):
        "a point at the origin: slack 0, no 0/0 (test_assumption4_with_the_origin_as_a_point_"
        "fails_at_it_without_warnings)",
    ("assumption4", "assumption4_lp", "core/NumberReplacer", 154):
        "the one-class message of a one-point set (test_assumption4_with_one_point_names_its_"
        "only_class): y[1] does not exist",
})
KILLED_BY[("convex", "eq8_kernel_dual", "core/ReplaceBinaryOperator_Mul_Div", 136)] = (
    "keyword-only solver (test_eq8_kernel_dual_solver_is_keyword_only): every caller passes "
    "it by keyword or not at all")

from mutation_notes_population import KILLED_BY_POPULATION  # noqa: E402

KILLED_BY.update(KILLED_BY_POPULATION)
