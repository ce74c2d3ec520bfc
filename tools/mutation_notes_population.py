"""What the report says about the survivors of the population pass
(``tools/mutation_population.py``) and the last survivors of the verify-first campaigns:
kill reasons (the test written for each; merged into :data:`mutation_killed.KILLED_BY`) and
equivalence reasons (merged into :data:`mutation_notes.EQUIVALENT`); keyed like
:mod:`mutation_notes`: (target, function, operator, line[, occurrence]).
"""

_BATCHED_SIGNS = ("the batched SGD update decides σ' by the exact sign where underflow "
                  "flips the computed one (test_batched_sgd_signs_are_exact_where_underflow_"
                  "flips_the_computed_pre_activation, d = 64 ≫ 2k): the mutant trusts the "
                  "computed sign (its underflow bound from 2k, or no recheck); the claims' "
                  "weights never come near the underflow range")
_SERIES = ("a step's time on the logarithmic mean's series branch to 1e-12 against the "
           "reference integrator (test_normalized_flow_time_of_steps_on_the_logarithmic_mean_s_"
           "series_branch): a wrong sign or factor of the series term −g/2 moves a step's log "
           "time by ~g < 1e-8, below the flow audit's tolerance")
PRIVATE_SIGNATURE = ("equivalent: `*` → `/` in the signature of a private function: its one "
                     "caller passes every argument after the marker by keyword, which a "
                     "positional-only marker allows as well, so no call can tell them apart")

#: survivors killed by a test written for them -> the test, and why the claims miss it
KILLED_BY_POPULATION: dict = {
    ("kkt", "kkt_certificate", "core/NumberReplacer", 265, 111):
        "the NNLS cap is the documented 50n iterations for n points, and reaching it is a "
        "SolverError (test_kkt_certificate_allows_nnls_50_iterations_per_point, which watches "
        "the call): 49n differs from 50n only on a problem needing between the two, which no "
        "claim's has (scipy's own default is 3n)",
    ("qp-certify", "_certify", "core/NumberReplacer", 73, 15):
        "the multipliers kept from a solver's answer are its own clipped at 0 (test_solve_qp_"
        "clips_the_kept_solver_multipliers_at_zero): SCS returns multipliers of −1e-16 on "
        "inactive rows, inside the re-check's dual-feasibility tolerance; the claims' QPs are "
        "all polished, so the kept answer is seen by tests only",
    ("train-flow", "_log_logmean", "core/ReplaceUnaryOperator_Delete_USub", 275): _SERIES,
    ("train-flow", "_log_logmean", "core/NumberReplacer", 275, 92): _SERIES,
    ("train-flow", "_log_logmean", "core/NumberReplacer", 275, 93): _SERIES,
    ("train-flow", "_log_logmean", "core/ReplaceUnaryOperator_USub_UAdd", 275): _SERIES,
    ("train-flow", "_normalized_loop", "core/NumberReplacer", 304, 111):
        "a normalized flow at a stationary point (∇L = 0 exactly) stays there silently "
        "(test_normalized_flow_at_a_stationary_point_stays_there_and_takes_no_time): the "
        "mutant divides the zero ∇L/L by 0",
    **{("train-sgd", "_sgd_loop", "core/ReplaceComparisonOperator_GtE_Gt", line):
       "an example whose loss before the update is exactly ε0 is an ε0-mistake (test_sgd_"
       "counts_a_loss_of_exactly_eps0_as_a_mistake, ε0 = ℓ(0) = log 2 at a start orthogonal "
       "to the point): the claims' losses never sit exactly on ε0" for line in (151, 159)},
    ("verdict", "audit", "core/ReplaceBinaryOperator_Mul_Div", 179):
        "audit's tolerances are keyword-only (test_audit_tolerances_are_keyword_only): every "
        "check passes them by keyword",
    ("train-sgd", "_sgd_loop", "core/ReplaceFalseWithTrue", 108):
        "the callback's W is read-only, as sgd documents (test_sgd_callback_weights_are_read_"
        "only): no claim's callback writes to it",
    **{("kernels", "Fused.sgd_update", op, line): _BATCHED_SIGNS for op, line in (
        ("core/ReplaceUnaryOperator_Delete_USub", 230),
        ("core/ReplaceUnaryOperator_Delete_Not", 241), ("core/AddNot", 241))},
    ("kernels", "Fused.sgd_update", "core/ReplaceUnaryOperator_USub_UAdd", 230): _BATCHED_SIGNS,
    ("kernels", "grad_over_loss", "core/NumberReplacer", 146, 49):
        "each run of a batch is rescaled by its own largest log weight (test_batched_"
        "normalized_step_rescales_only_the_run_whose_loss_weights_are_all_tiny): `max(axis=0)` "
        "takes it over the runs instead; the claims' flows never reach weights below e^-300",
    ("kernels", "grad_over_loss", "core/ReplaceBinaryOperator_Add_Sub", 156):
        "log ‖∇L/L‖ is corrected for the rescaling of tiny weights (test_normalized_flow_time_"
        "where_every_loss_weight_is_below_e_minus_300: a step's time against the per-example "
        "‖∇L‖): only the direction of a step was checked there, and no claim's flow gets there",
    ("kernels", "Fused.backward", "core/ReplaceUnaryOperator_USub_Not", 216, 22):
        "a batch of one run equals the run alone (test_a_batch_of_one_run_equals_the_run_"
        "alone): `cX.shape[0]` is then 1 and sends n points down the one-point branch; the "
        "claims' batches have several runs",
    ("kernels", "Fused.forward", "core/ReplaceUnaryOperator_Delete_USub", 200, 21):
        "the full-batch forward pass decides σ' by the exact sign where underflow flips the "
        "computed one, in a batch of runs too (test_batched_gd_signs_are_exact_where_"
        "underflow_flips_the_computed_pre_activation, d = 64 ≫ 2k): `W.shape[1]` is 2k there, "
        "an underflow bound too small; the claims' weights never come near the underflow range",
    ("kernels", "Fused.forward", "core/ReplaceUnaryOperator_USub_UAdd", 200, 21):
        "the full-batch forward pass decides σ' by the exact sign where underflow flips the "
        "computed one, in a batch of runs too (test_batched_gd_signs_are_exact_where_"
        "underflow_flips_the_computed_pre_activation, d = 64 ≫ 2k): `W.shape[+1]` is 2k there",
    **{("kernels", "Fused.backward", "core/NumberReplacer", 216, occ):
       "a gd step on n = 2 points in d = 1 is the per-example gradient (test_gd_step_on_two_"
       "points_in_one_dimension_is_the_per_example_gradient): the mutant sends them down the "
       "one-point branch, which broadcasts silently when 2k = n; every claim has more points "
       "and dimensions" for occ in (91, 92)},
    ("kernels", "Fused.sgd_update", "core/ReplaceTrueWithFalse", 226):
        "the kernel's SGD update rechecks underflowed signs by default (test_kernel_sgd_"
        "update_checks_underflowed_signs_by_default): the trainer always passes `checked`",
    **{("kernels", "Fused.sgd_update", "core/ReplaceComparisonOperator_Gt_GtE", line):
       "σ'(0) = α at an exact kink, in the one-run update and in a batch of runs (test_sgd_at_"
       "an_exact_kink_takes_slope_alpha): the claims' pre-activations are never exactly 0"
       for line in (233, 241)},
    ("train-flow", "_normalized_loop", "core/ReplaceComparisonOperator_Lt_NotEq", 298):
        "the callback's W is None past e^MAX_LOG_NORM too, where e^log‖W‖ is still finite "
        "(test_normalized_flow_callback_w_is_none_exactly_when_run_w_is, at 705): no claim's "
        "flow goes past ‖W‖ = e^700 with a callback",
    ("train-flow", "_normalized_loop", "core/ReplaceUnaryOperator_USub_Not", 280):
        "`X.shape[-2]` → `X.shape[0]` (`not 2`) is n for one data set but the number of "
        "runs for stacked ones: the normalized flow's time on stacked data sets equals each "
        "run's alone (tests/test_batched.py::test_full_batch_batched_equals_looped, now "
        "among the target's tests): every claim's runs share one data set",
    ("train-flow", "_normalized_loop", "core/ReplaceComparisonOperator_Gt_GtE", 302):
        "a normalized flow at a stationary point (∇L = 0 exactly) stays there silently and "
        "takes no time (test_normalized_flow_at_a_stationary_point_stays_there_and_takes_no_"
        "time): no claim starts a flow at one",
    ("train-flow", "_normalized_loop", "core/NumberReplacer", 302, 109):
        "a normalized flow at a stationary point (∇L = 0 exactly) stays there silently and "
        "takes no time (test_normalized_flow_at_a_stationary_point_stays_there_and_takes_no_"
        "time): no claim starts a flow at one",
}

_TIMES_ONE = ("equivalent: `x * np.ones(batch)` → `x / np.ones(batch)` or `x ** np.ones(batch)`: "
              "x·1, x/1 and x¹ are all exactly x in IEEE arithmetic, −inf (the log time of "
              "step 0) included")
_INNER_GUARD = ("equivalent: the guard `np.where(gap > 0, gap, 1.0)` under the direct branch "
                "matters only where that branch is kept, gap > 1e-8, where the guard's test "
                "(`> 0`, `>= 0`, `!= 0`, `> -1`) is true whatever it is; elsewhere (gap = 0, "
                "or NaN from inf − inf) the outer `np.where` and the final `isfinite` discard "
                "the guarded value (1, 2, or 0 and its silenced 0/0)")

_POWER_OF_TWO = ("equivalent: the scale of frobenius's scaled branch is a power of two either "
                 "way (2^(e−2), 2^e or 2^(e+1) instead of 2^(e−1) near the largest entry): the "
                 "scaling is exact, sqrt(4^j·s) = 2^j·sqrt(s) exactly, and the squares that "
                 "underflow at one scale and not the other are ~2^-1000 below the largest one, "
                 "far below an ulp of the sum")

_AXIS_ORDER = ("equivalent: the pre-activations handed to `active` on the batched recheck path "
               "are read only by its own `_trusted(Z)` test (elementwise, then `all`), which "
               "fails again there: their axis order ((R, 2k, 1), (2k, R, 1) or (R, 1, 2k)) "
               "never matters (as for the campaign's line-241 mutant)")
_SCRATCH = ("equivalent: whether an SGD update forms its products in the scratch `out` "
            "(einsum) or not (broadcasting) changes no bit: each entry is one product "
            "sa_j·ex_l, the contracted axis has length 1 (tests/test_perf_equivalence.py "
            "compares both paths bit for bit)")

_TRAILING_ONE = ("equivalent: `[..., 0]` → `[..., -1]` on a trailing axis of length 1 (a "
                 "`[..., None]` column): both pick the same element")

_OR_AND = ("equivalent up to rounding: `not checked or _trusted(z)` → `not checked and "
           "_trusted(z)` rechecks the signs in the unchecked regime too; there every product is "
           "≥ 2^-900, so every computed z is 0 or a multiple of 2^-952, far from underflow, and "
           "`active` trusts it, except a z that cancels to exactly 0, whose recheck sums the "
           "same products exactly scaled (in the matmul's order: a sign at rounding level "
           "either way)")

#: survivors judged equivalent by reading them -> the reason no input tells them apart
EQUIVALENT_POPULATION: dict = {
    ("train-flow", "_normalized_loop", "core/ReplaceBinaryOperator_Mul_Div", 279):
        PRIVATE_SIGNATURE,
    ("train-flow", "_euler_loop", "core/ReplaceBinaryOperator_Mul_Div", 178):
        PRIVATE_SIGNATURE,
    **{("train-flow", "_euler_loop", op, line): _TIMES_ONE
       for op in ("core/ReplaceBinaryOperator_Mul_Div", "core/ReplaceBinaryOperator_Mul_Pow")
       for line in (190, 196)},
    **{("kernels", "frobenius", "core/NumberReplacer", 173, occ): _POWER_OF_TWO
       for occ in (70, 71)},
    ("kernels", "frobenius", "core/NumberReplacer", 173, 64): _POWER_OF_TWO,
    ("kernels", "frobenius", "core/ReplaceBinaryOperator_Sub_Add", 173): _POWER_OF_TWO,
    ("kernels", "frobenius", "core/ReplaceComparisonOperator_GtE_Eq", 170):
        "equivalent: `s >= 2^-800` → `s == 2^-800` marks every run unsafe but one with s "
        "exactly there, sending it through the power-of-two-scaled sum, which returns the same "
        "float where the plain sum was safe (the scaling is exact), as for the `<=` → `==` "
        "mutant of line 169",
    ("kernels", "frobenius", "core/NumberReplacer", 170, 63):
        "equivalent: `_SQUARES_SAFE[1]` → `[0]` marks every run unsafe but one with s exactly "
        "2^-800, sending it through the power-of-two-scaled sum, which returns the same float "
        "where the plain sum was safe (the scaling is exact), as for the `<=` → `==` mutant",
    ("kernels", "flow_state", "core/ReplaceFalseWithTrue", 135):
        "equivalent: `checked=True` only re-validates the margins and log ‖W‖ (no NaN, log ‖W‖ "
        "< inf) before the same computation; the trainers' loops, its only callers, pass "
        "margins of checked data and a finite log ‖W‖, so the check always passes",
    ("kernels", "frobenius", "core/ReplaceBinaryOperator_Sub_Mul", 173): _POWER_OF_TWO,
    ("kernels", "Fused.sgd_update", "core/NumberReplacer", 242, 128): _AXIS_ORDER,
    ("kernels", "grad_over_loss", "core/NumberReplacer", 149, 50):
        "equivalent up to rounding: where some run of a batch has every weight below e^-300, "
        "the others' weights are e^{log w − 1} instead of e^{log w} and their log norm is "
        "corrected by +1 instead of 0: the same log ‖∇L/L‖ and direction to ~1 ulp",
    ("kernels", "frobenius", "core/NumberReplacer", 175, 73): _TRAILING_ONE,
    ("kernels", "Fused.forward", "core/NumberReplacer", 206, 85): _TRAILING_ONE,
    ("kernels", "Fused.backward", "core/NumberReplacer", 217, 95):
        "equivalent: `mask[..., 0, :, None]` → `mask[..., -1, :, None]` in the one-point "
        "branch, where the points' axis has length 1: both pick the same row",
    ("kernels", "Fused.sgd_update", "core/ReplaceComparisonOperator_Lt_Gt", 228): _SCRATCH,
    ("kernels", "Fused.sgd_update", "core/ReplaceUnaryOperator_Delete_USub", 242, 30):
        _AXIS_ORDER,
    ("kernels", "Fused.sgd_update", "core/NumberReplacer", 244, 145): _TRAILING_ONE,
    ("kernels", "Fused.sgd_update", "core/NumberReplacer", 244, 143):
        "equivalent: `[:, 0, 0]` → `[:, -1, 0]` on the (R, 1, 1) product of a (1, 2k) row "
        "and a (2k, 1) column: its middle axis has length 1",
    ("kernels", "frobenius", "core/ReplaceComparisonOperator_GtE_Gt", 170):
        "equivalent: `s >= 2^-800` → `s > 2^-800` sends only s = 2^-800 exactly through the "
        "power-of-two-scaled sum, which returns the same float there (the scaling is exact)",
    ("kernels", "Fused.sgd_update", "core/ReplaceOrWithAnd", 241): _OR_AND,
    ("kernels", "Fused.sgd_update", "core/ReplaceOrWithAnd", 233): _OR_AND,
    ("kernels", "frobenius", "core/ReplaceComparisonOperator_LtE_Lt", 170):
        "equivalent: `s <= 2^800` → `s < 2^800` sends only s = 2^800 exactly through the "
        "power-of-two-scaled sum, which returns the same float there (the scaling is exact)",
    ("kernels", "Fused.sgd_update", "core/NumberReplacer", 242, 127): _AXIS_ORDER,
    ("kernels", "frobenius", "core/NumberReplacer", 170, 60):
        "equivalent: `_SQUARES_SAFE[0]` → `[1]` marks every run unsafe but one with s exactly "
        "2^800, sending it through the power-of-two-scaled sum, which returns the same float "
        "where the plain sum was safe (the scaling is exact), as for the `<=` → `==` mutant",
    ("kernels", "Fused.backward", "core/NumberReplacer", 216, 93):
        "equivalent: `n == 1` → `n == 0` never takes the one-point branch, and the matmul "
        "forms the same single products there (the branch's own comment: same bits)",
    ("kernels", "Fused.backward", "core/ReplaceComparisonOperator_Eq_LtE", 216):
        "equivalent: `n == 1` → `n <= 1`: a data set has at least one point",
    ("kernels", "Fused.sgd_update", "core/ReplaceUnaryOperator_Delete_USub", 242, 29):
        _AXIS_ORDER,
    ("kernels", "grad_over_loss", "core/NumberReplacer", 149, 51):
        "equivalent up to rounding: where some run of a batch has every weight below e^-300, "
        "the others' weights are e^{log w + 1} instead of e^{log w} and their log norm is "
        "corrected by −1 instead of 0: the same log ‖∇L/L‖ and direction to ~1 ulp (the "
        "step uses only the direction), as for the campaign's `top <= −300` mutant",
    ("kernels", "frobenius", "core/NumberReplacer", 167, 56):
        "equivalent: `reshape(... + (-1,))` → `(-2,)`: numpy takes any negative length as "
        "the one unknown dimension, so both flatten the last two axes",
    ("kernels", "Fused.sgd_update", "core/NumberReplacer", 242, 126): _AXIS_ORDER,
    ("kernels", "Fused.sgd_update", "core/AddNot", 228): _SCRATCH,
    ("kernels", "frobenius", "core/ReplaceBinaryOperator_Mul_Sub", 169):
        "equivalent: `flat * flat` → `flat - flat` makes every plain sum 0, below the safe "
        "range, so every run takes the power-of-two-scaled sum, which returns the same float "
        "where the plain sum was safe (the scaling is exact), as for the `<=` → `==` mutant",
    **{("kernels", "Fused.sgd_update", op, 242, occ): _AXIS_ORDER for op, occ in (
        ("core/ReplaceUnaryOperator_USub_Not", 29), ("core/ReplaceUnaryOperator_USub_Not", 30),
        ("core/ReplaceUnaryOperator_USub_UAdd", 29),
        ("core/ReplaceUnaryOperator_USub_UAdd", 30))},  # z's axes, not x's
    ("kernels", "Fused.sgd_update", "core/NumberReplacer", 234, 119):
        "equivalent: `a_col[1, :, 0]` → `a_col[1, :, -1]` on a_col's trailing axis of length "
        "1: both pick the same column",
    ("kernels", "Fused.sgd_update", "core/ReplaceComparisonOperator_Eq_LtE", 231):
        "equivalent: `W.ndim == 2` → `<= 2`: W is checked to have at least 2 axes",
    ("kernels", "Fused.sgd_update", "core/ReplaceComparisonOperator_Lt_NotEq", 228): _SCRATCH,
    **{("kernels", "Fused.sgd_update", op, 228): _SCRATCH for op in (
        "core/ReplaceComparisonOperator_Lt_LtE", "core/ReplaceAndWithOr")},
    ("kernels", "Fused.sgd_update", "core/NumberReplacer", 233, 111):
        "equivalent: `active(W, x[None], z[None])[0]` → `[-1]` on the leading axis of length "
        "1 that `[None]` added: both pick the same row",
    ("kernels", "frobenius", "core/NumberReplacer", 170, 61):
        "equivalent: `_SQUARES_SAFE[0]` → `[-1]` marks every run but one with s exactly at the "
        "upper bound unsafe, sending it through the power-of-two-scaled sum, which returns the "
        "same float where the plain sum was safe (the scaling is exact and sqrt(s·4^-e)·2^e = "
        "sqrt(s)), as for the `<=` → `==` mutant of line 169",
    ("kernels", "Fused.backward", "core/ReplaceComparisonOperator_Eq_Lt", 216):
        "equivalent: the one-point branch (an outer product) is skipped for the matmul, which "
        "with an inner dimension of 1 forms the same single products mask_j·c·x_l, no sums "
        "(the branch's own comment: same bits)",
    **{("metrics-radius-regime", "_means", "core/NumberReplacer", 44, occ):
       "equivalent: `_mean_rows(·)[..., 0, :]` → `[..., -1, :]`: _mean_rows keeps the rows' "
       "axis with length 1 (keepdims), so both pick the one mean row" for occ in (5, 7)},
    ("verdict", "control_problem", "core/ReplaceComparisonOperator_Eq_LtE", 277):
        "equivalent: `evaluated == 0` → `evaluated <= 0`; a count of evaluated controls is "
        "never negative",
    ("verdict", "audit", "core/NumberReplacer", 198, 48):
        "equivalent: the value put in place of a non-finite reference in the allowance never "
        "matters: there the error is 0 (equal infinities) or inf (anything else), so the "
        "ratio is 0 or inf whatever the allowance (as for the campaign's line-192 mutant)",
    ("train-sgd", "_sgd_loop", "core/ReplaceAndWithOr", 122):
        "equivalent: `eps0 is not None or on_epoch is None` only adds cases where the losses "
        "are read per update without need: with on_epoch (and no callback) the mistakes then "
        "come from the per-update `ℓ(q) ≥ ε0` instead of the filed `ℓ(q)` of the same q, the "
        "same elementwise bits; with neither eps0 nor a callback the losses are unused",
    ("train-sgd", "_sgd_loop", "core/ReplaceBinaryOperator_Mul_Div", 131):
        "equivalent: `eta * yp` → `eta / yp` with labels checked to be ±1: η·(±1) and η/(±1) "
        "are both exactly ±η",
    ("train-sgd", "_sgd_loop", "core/ReplaceUnaryOperator_Delete_USub", 159):
        "equivalent: the filed mistakes are summed over `.reshape(R, n)`, a 2-D array, whose "
        "axis 1 is its axis −1",
    ("train-flow", "_normalized_loop", "core/ReplaceComparisonOperator_Eq_GtE", 300):
        "equivalent: s runs over range(n_steps + 1), so s ≥ n_steps only at s = n_steps",
    ("train-flow", "_normalized_loop", "core/NumberReplacer", 284, 102):
        "equivalent: `range(n_steps + 1)` → `range(n_steps + 2)`: the loop breaks at "
        "s = n_steps, so the extra pass is never reached",
    ("train-flow", "_normalized_loop", "core/ReplaceComparisonOperator_Gt_NotEq", 302):
        "equivalent: ‖∇L/L‖ is a norm (frobenius), never negative, so `> 0` and `!= 0` agree; "
        "a NaN norm would need NaN weights, which float_guard stops as an invalid operation",
    ("train-flow", "_log_logmean", "core/ReplaceComparisonOperator_Gt_GtE", 274, 0):
        "equivalent up to rounding: `gap > 1e-8` → `>=` changes the branch only at gap = 1e-8 "
        "exactly, where the direct log((1 − e^{−g})/g) and the series −g/2 are both within "
        "2e-17 of the exact value (checked against 40 digits), below an ulp of the log time "
        "they are added to",
    **{("train-flow", "_log_logmean", "core/NumberReplacer", 274, occ): _INNER_GUARD
       for occ in (89, 90, 91)},
    ("train-flow", "_normalized_loop", "core/ReplaceBreakWithContinue", 301):
        "equivalent: the `break` at s == n_steps is in the last pass of `range(n_steps + 1)`, "
        "so `continue` skips the same rest of the body and ends the loop as well",
    **{("train-flow", "_log_logmean", op, 274, 1): _INNER_GUARD
       for op in ("core/ReplaceComparisonOperator_Gt_GtE",
                  "core/ReplaceComparisonOperator_Gt_NotEq")},
    ("train-flow", "_normalized_loop", "core/ReplaceFalseWithTrue", 288):
        "equivalent: `checked=True` only re-validates the loss terms and log ‖W‖ (no NaN, "
        "log ‖W‖ < inf) before the same `_lsl_scaled`; the loop's terms come from checked "
        "data through the NaN-free scaled_loss_terms and its log ‖W‖ is a finite sum of logs "
        "of finite norms, so the check always passes and the value is the same",
    ("train-flow", "_normalized_loop", "core/NumberReplacer", 304, 110):
        "equivalent: the value put in place of a zero ‖∇L/L‖ divides ∇L/L itself, which is "
        "then all zeros (its norm, frobenius, is 0 only for an all-zero array: the scaled "
        "branch's largest entry is ≥ 1/2), so 0/1 and 0/2 are both 0",
}

# the last targets' survivors, one module per group of targets
import mutation_notes_batching  # noqa: E402
import mutation_notes_checks  # noqa: E402
import mutation_notes_formulas  # noqa: E402
import mutation_notes_seams  # noqa: E402
import mutation_notes_solvers  # noqa: E402

for _part in (mutation_notes_formulas, mutation_notes_solvers, mutation_notes_checks,
              mutation_notes_seams, mutation_notes_batching):
    KILLED_BY_POPULATION.update(_part.KILLED_BY)
    EQUIVALENT_POPULATION.update(_part.EQUIVALENT)
