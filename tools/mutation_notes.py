"""What the mutation report says about single mutants: the equivalent ones (with the reason),
the ones killed by a test or check written for them, and why the claims miss what they miss.
Read by ``tools/mutate.py report``; keyed by (target, function, operator, line[, occurrence]).
"""

#: mutants judged equivalent by reading them (target, function, operator, line) -> reason;
#: each was checked by hand: no input can tell the mutant from the original
EQUIVALENT: dict = {
    ("metrics-radius-regime", "linear_regime", "core/NumberReplacer", 103):
        "equivalent: `[..., 0]` → `[..., -1]` indexes an axis of length 1 (the matrix-vector "
        "product's column), so both pick the same element",
}
_M_GUARD = ("equivalent: the message's `np.log(M) if M > 0 else np.inf` runs only when M is "
            "not finite; the inputs are checked finite and positive, so M is +inf there "
            "(never NaN or negative) and every variant of the condition yields inf")
EQUIVALENT.update({("bounds", "sgd_update_bound", op, 119): _M_GUARD for op in (
    "core/ReplaceComparisonOperator_Gt_NotEq", "core/ReplaceComparisonOperator_Gt_Lt",
    "core/ReplaceComparisonOperator_Gt_LtE", "core/ReplaceComparisonOperator_Gt_GtE",
    "core/ReplaceComparisonOperator_Gt_Eq",
    "core/NumberReplacer", "core/AddNot")})
EQUIVALENT[("bounds", "sgd_update_bound", "core/ReplaceComparisonOperator_Eq_LtE", 98)] = (
    "equivalent: `alpha == 0.0` → `alpha <= 0.0` right after check_alpha, which rejects "
    "alpha < 0")
EQUIVALENT[("verdict", "audit", "core/NumberReplacer", 192)] = (
    "equivalent: the value put in place of a non-finite reference in the allowance never "
    "matters: there the error is 0 (equal infinities) or inf (anything else), so the ratio "
    "is 0 or inf whatever the allowance")
EQUIVALENT[("verdict", "audit", "core/ReplaceComparisonOperator_Eq_LtE", 194)] = (
    "equivalent: `err == 0` → `err <= 0`; err is an absolute value, 0 or inf, never negative")
EQUIVALENT[("verdict", "audit", "core/NumberReplacer", 205)] = (
    "equivalent: 1e300 ± 1 is 1e300 in float64 (the floor put under an infinite slack)")
EQUIVALENT[("verdict", "record", "core/ReplaceComparisonOperator_Eq_LtE", 156)] = (
    "equivalent: `arr.size == 0` → `arr.size <= 0`; an array size is never negative")
EQUIVALENT[("loss-core", "_log_ell", "core/ReplaceComparisonOperator_Gt_GtE", 105)] = (
    "equivalent: `q > 30` → `q >= 30` changes the branch only at q = 30.0 exactly, where the "
    "series −q − e^{−q}/2 and log(log(1 + e^{−q})) round to the same float64 (both are the "
    "correctly rounded value, checked against 50 digits in test_log_ell_is_correctly_rounded_"
    "on_both_sides_of_the_series_switch, which includes q = 30)")
EQUIVALENT[("loss-core", "_log_ell", "core/NumberReplacer", 106)] = (
    "equivalent: the value put in place of a far margin in the near branch is discarded by the "
    "final `np.where`; any small number (0, ±1) keeps that unused branch finite and warning-"
    "free")
EQUIVALENT[("loss-core", "_logsumexp", "core/NumberReplacer", 133)] = (
    "equivalent: `m[..., 0]` → `m[..., -1]` indexes the keepdims axis of length 1, so both "
    "pick the same element")
_LAST_AXIS = ("equivalent: `losses` and `q` are always (runs, n) here (the runs are flattened "
              "before the loop), so axis 1 and axis −1 are the same axis")
EQUIVALENT.update({("train-sgd-trace", "epoch_row", op, line): _LAST_AXIS
                   for op in ("core/ReplaceUnaryOperator_USub_UAdd",
                              "core/ReplaceUnaryOperator_Delete_USub") for line in (106, 107)})
EQUIVALENT[("train-sgd", "_sgd_loop", "core/ReplaceUnaryOperator_USub_UAdd", 159)] = (
    "equivalent: the mistakes are summed over `.reshape(R, n)`, a 2-D array, whose axis 1 is "
    "its axis −1")
EQUIVALENT.update({("train-sgd", "_sgd_loop", "core/NumberReplacer", line): (
    "equivalent: `[0]` → `[-1]` in the `R == 1` branch, on `Wf`, `scratch`, `Xp`, `yp` or "
    "`ex`, each with a leading run axis of length R = 1: index −1 is index 0")
    for line in (135, 136)})
_PRIVATE_SIGNATURE = ("equivalent: `*` → `/` in the signature of a private function: its "
                      "callers pass every argument after the marker by keyword, which a "
                      "positional-only marker allows as well, so no call can tell them apart")
EQUIVALENT[("train-sgd", "_sgd_loop", "core/ReplaceBinaryOperator_Mul_Div", 101)] = \
    _PRIVATE_SIGNATURE
EQUIVALENT[("train-sgd", "_sgd_loop", "core/ReplaceComparisonOperator_Eq_LtE", 134)] = (
    "equivalent: `R == 1` → `R <= 1`; R ≥ 1 always (`sgd` refuses an empty `W`)")
EQUIVALENT[("kernels", "Fused.sgd_update", "core/AddNot", 248)] = (
    "equivalent: the two branches of the batched update, `W += sa * ex` and the einsum into "
    "the scratch, form the same single products sa_j·ex_l (the contracted axis has length 1: "
    "no sums, so no rounding order), so swapping which one runs changes no bit")
_LENGTH_ONE = ("equivalent: `[..., 0]` → `[..., -1]` on an axis of length 1 (a_col's trailing "
               "column axis): both pick the same element")
EQUIVALENT[("kernels", "Fused.sgd_update", "core/NumberReplacer", 233)] = _LENGTH_ONE
_SCRATCH = ("equivalent: whether an SGD update forms its products in the scratch `out` "
            "(einsum) or not (broadcasting) changes no bit: each entry is one product "
            "sa_j·ex_l, the contracted axis has length 1 (tests/test_perf_equivalence.py "
            "compares both paths bit for bit)")
EQUIVALENT.update({("kernels", "Fused.sgd_update", op, 227): _SCRATCH for op in (
    "core/ReplaceComparisonOperator_Lt_Eq", "core/ReplaceComparisonOperator_Lt_LtE",
    "core/ReplaceComparisonOperator_Lt_NotEq", "core/ReplaceComparisonOperator_Lt_Gt",
    "core/ReplaceComparisonOperator_Lt_GtE", "core/AddNot", "core/ReplaceAndWithOr")})
EQUIVALENT[("kernels", "grad_over_loss", "core/ReplaceComparisonOperator_Lt_LtE", 146)] = (
    "equivalent: `top < −300` → `top <= −300` differs only when the largest log weight is "
    "exactly −300.0, and there only by rounding: the weights are then e^{log w + 300} with "
    "the log norm corrected by −300 instead of e^{log w} (ratios equal to ~1 ulp; the step "
    "uses only the direction)")
EQUIVALENT[("kernels", "frobenius", "core/ReplaceComparisonOperator_LtE_Eq", 169)] = (
    "equivalent: marking a safe run unsafe sends it through the power-of-two-scaled sum, "
    "which returns the same float where the plain sum was safe (the scaling is exact, and "
    "sqrt(s·4^-e)·2^e = sqrt(s)); test_frobenius_is_the_plain_sum_of_squares_where_that_is_"
    "safe passes on the mutant")
EQUIVALENT[("kernels", "Fused.sgd_update", "core/NumberReplacer", 241, 129)] = (
    "equivalent: the pre-activations handed to `active` on the batched recheck path are read "
    "only by its own `_trusted(Z)` test (elementwise, then `all`), which fails again there: "
    "their axis order, (R, 2k, 1) or (R, 1, 2k), never matters")
_LOG_ELL_ULPS = ("log ℓ correctly rounded past the series switch (test_log_ell_is_correctly_"
                 "rounded_on_both_sides_of_the_series_switch): the series term's sign or factor "
                 "is 10–24 ulps off, inside every claim's tolerance")
#: why the claims miss what they miss (the report's "What the claims miss" section)
NOTES: list = [
    "train-sgd-trace: thm4.1 and appK read only the trace's `mistakes`; they recompute every "
    "loss they check from their own monitor of the updates, so the trace's `loss`, `max_loss` "
    "and `min_margin` are seen by tests only.",
    "bounds-formulas: every thm4.1 data set is scaled to max ‖x‖ = 1, so R_x² and 1/R_x² "
    "agree on all of them; a test at R_x = 1.3 sees it.",
    "loss-core: `log_g` is called by no claim and no engine path (the trainers and the audits "
    "use `g` and `scaled_loss_terms`), so only its tests can see it.  `far = q == 30` sends "
    "margins past 30 through log(log(1 + e^{−q})), which stays accurate until ℓ underflows "
    "near q ≈ 745; where the engine uses `_log_ell` (a log-sum-exp over a run with some "
    "margin ≤ 30) a term below e^{−745} is a zero of the sum anyway, so only `log_ell` "
    "itself shows the −inf.  The series' sign and factor (10–24 ulps) are "
    "below every claim's tolerance: a test pins them against 50 digits.",
    "train-flow: no claim's flow takes a step over which ‖∇L‖ moves by less than 1e-8 "
    "(relative), so the logarithmic mean's series branch of a step's time ran only in "
    "tests until the flow audit replayed a turn of 1e-12 per step; no claim read the gd "
    "trace's log time per row (the audit read the final one only; now every row).  The "
    "callback's W at exactly log‖W‖ = 700 is seen by a test only.",
    "train-sgd: thm4.1 and appK count ε0-mistakes from the filed epochs (`on_epoch`) and "
    "read no update count t, no t0 and no epoch number, so mutants of that bookkeeping "
    "passed every claim; the SGD audit now checks them (and the per-update mistake count "
    "against the replay's margins).  Every claim's runs share one data set: runs on stacked "
    "data sets, one per run, are seen by tests/test_batched.py only.",
    "kernels: every claim's SGD trains a batch of runs, so the one-run update path of "
    "`Fused.sgd_update` (a 2-D W) ran in tests only until the SGD audit trained run 0 alone "
    "too; the claims' weights never come near the underflow range (1e-160 and below), so "
    "the row-scaled sign rechecks and frobenius's scaled branch are seen by tests only; no "
    "claim evaluates ∇L on a single point (`Fused.backward`'s one-point branch) either: the "
    "SGD audit now steps once along it.",
    "bounds: every mutant of `sgd_update_bound` that only the tests kill is an argument "
    "check (a bound of a range moved, e.g. `eta > -1`): the claims pass valid constants "
    "only, so a looser check is invisible to them by design; tests/test_bounds.py rejects "
    "each out-of-range argument.",
    "metrics-radius-regime: the net audit computes r and the band mask on one W at a time "
    "(2-D), where axis 0 of the neuron norms is axis −1 and a dropped keepdims still "
    "broadcasts, so stacked runs are seen by tests only; and it compares the band mask only "
    "at points decidably off the edge |(w̄ − ū)·x| = 2r‖x‖, so `≥` → `>` on the edge (e.g. r = 0 "
    "and x ⟂ w̄ − ū) is seen by tests only.",
    "qp-certify: the QPs of the claims that judged it (odd-part, thm6.1) are all polished to "
    "an exact KKT pair, so the fallback that keeps a solver's own answer after the re-check "
    "runs in tests only.  Open: "
    "`np.maximum(mu, 0)` → `np.maximum(mu, -1)` differs only for a solver answer with a "
    "negative multiplier that still passes the re-check (dual feasibility ≤ 1e-6) on a "
    "program polish cannot improve; no such case was constructed.",
]
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
           "core/ReplaceBinaryOperator_Mul_Add", "core/ReplaceBinaryOperator_Mul_Sub",
           "core/ReplaceBinaryOperator_Mul_Div", "core/NumberReplacer")},
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
                  "core/ReplaceBinaryOperator_Div_Sub", "core/NumberReplacer")},
    ("kkt", "kkt_certificate", "core/NumberReplacer", 271):
        "stationarity and complementarity of kkt_certificate are the documented formulas at a "
        "W that is not a KKT direction (test_kkt_certificate_residuals_are_the_documented_"
        "formulas): thm6.1 reads only the largest residual, at directions where it is tiny",
}
