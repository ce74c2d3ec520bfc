"""The survivors of the population pass over the targets loss-scaled and bounds-formulas: kill
reasons (the test written for each, in ``tests/test_mutation_kills_formulas.py``) and
equivalence reasons, keyed like :mod:`mutation_notes`: (target, function, operator, line[,
occurrence]); merged into :data:`mutation_notes_population.KILLED_BY_POPULATION` and
:data:`mutation_notes_population.EQUIVALENT_POPULATION`.
"""

_MISCLASSIFIED = ("a run whose margins all exceed 30 in size, one of them misclassified, is "
                  "near: lead = 0, rest = log L_sum and the weights g_i/L_sum against mpmath "
                  "(test_scaled_loss_terms_of_a_run_with_a_misclassified_margin_past_30, "
                  "q̂ = (−½, ½)): ")
_KEYWORD_ONLY = ("`checked` is keyword-only and the data may be passed by name (test_scaled_"
                 "loss_terms_and_log_sum_loss_scaled_take_checked_by_keyword_only): `*` → `/` "
                 "makes the data positional-only and `checked` positional; every caller passes "
                 "the data by position and `checked` by name")

#: survivors killed by a test written for them -> the test, and why the claims miss it
KILLED_BY: dict = {
    ("loss-scaled", "logsumexp", "core/NumberReplacer", 118, 23):
        "a scalar and an empty last axis are refused naming `a` and the rule (test_logsumexp_"
        "refuses_a_scalar_and_an_empty_last_axis_naming_a): `min_ndim=0` lets both through to "
        "an AttributeError, IndexError or numpy's zero-size error; the claims call logsumexp "
        "on non-empty rows only",
    ("loss-scaled", "logsumexp", "core/NumberReplacer", 118, 22):
        "a scalar is refused as having fewer than 1 axis (test_logsumexp_refuses_a_scalar_"
        "and_an_empty_last_axis_naming_a): `min_ndim=2` states the rule wrong (and refuses "
        "a single row); the claims call logsumexp on 2-D input only",
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 233, 78):
        "a 3-D batch of near runs only gives each run its own lead = 0 (test_scaled_loss_"
        "terms_of_a_3d_batch_equal_each_run_alone): `shape[:-2]` drops one batch axis too, "
        "which a 1-D or 2-D batch cannot show (both give shape ())",
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 233, 79):
        "a 3-D batch of near runs only gives each run its own lead = 0 (test_scaled_loss_"
        "terms_of_a_3d_batch_equal_each_run_alone): `shape[:-0]` is shape[:0], one scalar 0 "
        "for the whole batch, which every use of lead broadcasts to the same values, so only "
        "its shape shows it",
    ("loss-scaled", "scaled_loss_terms", "core/ReplaceUnaryOperator_USub_Not", 233, 23):
        "a 3-D batch of near runs only gives each run its own lead = 0 (test_scaled_loss_"
        "terms_of_a_3d_batch_equal_each_run_alone): `shape[:not 1]` is shape[:0], one scalar "
        "0 for the whole batch, which every use of lead (log_sum_loss_scaled, smoothed_"
        "margin_scaled) broadcasts to the same values, so only its shape shows it",
    ("loss-scaled", "log_sum_loss_scaled", "core/ReplaceUnaryOperator_Delete_Not", 242, 4):
        "the checks are on by default (test_log_sum_loss_scaled_checks_its_arguments_by_"
        "default): the mutant runs them only when told not to; the claims pass valid terms "
        "only, on which the checks change nothing",
    **{("loss-scaled", "_logsumexp_inf", op, 128, 9):
       "log-sum-exp reduces the last axis of a 3-D array with ±inf entries, row by row "
       "against mpmath (test_logsumexp_of_a_3d_array_with_infinite_entries_reduces_the_last_"
       "axis): `axis=1` is the last axis of 2-D input only, the only kind the claims (and "
       "the earlier stacked-rows test) pass"
       for op in ("core/ReplaceUnaryOperator_USub_UAdd", "core/ReplaceUnaryOperator_Delete_USub")},
    ("loss-scaled", "scaled_loss_terms", "core/ReplaceBinaryOperator_Mul_Div", 178, 3):
        _KEYWORD_ONLY,
    ("loss-scaled", "log_sum_loss_scaled", "core/ReplaceBinaryOperator_Mul_Div", 239, 6):
        _KEYWORD_ONLY,
    ("loss-scaled", "log_sum_loss_scaled", "core/ReplaceTrueWithFalse", 239, 7):
        "the checks are on by default: a NaN, log ‖W‖ = +inf and a negative lead are refused "
        "naming the argument, rule and value (test_log_sum_loss_scaled_checks_its_arguments_"
        "by_default): the claims pass valid terms only, on which the checks change nothing",
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 219, 69):
        _MISCLASSIFIED + "at ‖W‖ = 100 `q_min > −1` takes the run for far and returns "
        "lead = −½; the claims' runs turn far only with every margin positive",
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 230, 76):
        _MISCLASSIFIED + "at ‖W‖ = e^50 `q̂ < 1` takes log ℓ = log |q| for the correctly "
        "classified margin too (whose ℓ is e^{−q}), doubling L_sum; no claim's margin gets "
        "past e^40",
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 230, 77):
        _MISCLASSIFIED + "at ‖W‖ = e^800 `q̂ < −1` forms log ℓ of a misclassified "
        "q̂ ∈ [−1, 0) from its margin capped at e^700 (700 instead of log |q| ≈ 799.3); "
        "below the cap log ℓ(q) = log |q| to rounding, so only a margin past e^700 shows it, "
        "and no claim's margin gets past e^40",
    **{("loss-scaled", "_lsl_scaled", op, 249, occ):
       _MISCLASSIFIED + "log_sum_loss_scaled gives rest back for the lead = 0 run at "
       "‖W‖ = e^800, where the mutant (`lead >= 0` or `lead > −1`) forms e^{log ‖W‖}·0 = "
       "inf·0 = NaN; the claims' near runs have ‖W‖ far below e^709"
       for op, occ in (("core/ReplaceComparisonOperator_Gt_GtE", 4),
                       ("core/NumberReplacer", 89))},
    **{("loss-scaled", "_log_expm1_exp", "core/NumberReplacer", 164, occ):
       "below the switch the series log x + x/2 is correctly rounded, against mpmath on a "
       "grid in [−21, −20) (test_log_expm1_exp_of_tiny_x_is_correctly_rounded): −x/2 or 3x/2 "
       "is off by x ≈ 1e-9 on a value of −20, below every claim's tolerance"
       for occ in (52, 53)},
    ("loss-scaled", "log_sum_loss", "core/NumberReplacer", 145, 47):
        "a scalar margin is refused naming `q` and the rule (test_log_sum_loss_refuses_a_"
        "scalar_and_an_empty_last_axis_naming_q): `min_ndim=0` lets it through to an "
        "AttributeError; the claims pass rows of margins only",
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceComparisonOperator_Lt_Eq", 161, 1):
        "the series is taken below the switch, correctly rounded against mpmath, also where "
        "e^{log x} underflows (log x = −800, −1e4, −inf; test_log_expm1_exp_of_tiny_x_is_"
        "correctly_rounded): `log_x == −20` sends them through log(−expm1(−x)) + x, which "
        "gives −inf with a division-by-zero warning there and is off by an ulp just below "
        "−20, values of log x the claims never pass it",
    ("loss-scaled", "log_sum_loss_scaled", "core/AddNot", 242, 19):
        "the checks are on by default (test_log_sum_loss_scaled_checks_its_arguments_by_"
        "default): `if not not checked` skips them exactly when they are asked for; the "
        "claims pass valid terms only",
    ("loss-scaled", "smoothed_margin_scaled", "core/NumberReplacer", 260, 97):
        "γ̃ of a far run keeps the −L_sum/2 term of −log(e^{L_sum} − 1) (test_smoothed_margin_"
        "past_the_far_switch_keeps_the_half_loss_term, against mpmath): −0.5 for 0.5 moves γ̃ "
        "by L_sum/‖W‖ ≤ n·e^{−30}/‖W‖, far below the claims' tolerances",
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceComparisonOperator_Gt_GtE", 158, 0):
        "log x = log(largest float) itself is accepted, its value x against mpmath (test_log_"
        "expm1_exp_accepts_log_x_up_to_float64_s_range): `>=` refuses it; no claim's loss "
        "gets near e^{e^709}",
    ("loss-scaled", "_log_expm1_exp", "core/NumberReplacer", 161, 48):
        "below the switch the series log x + x/2 is correctly rounded, against mpmath on a "
        "grid in [−21, −20) (test_log_expm1_exp_of_tiny_x_is_correctly_rounded): the switch "
        "at −21 takes log(−expm1(−x)) + x there, off by one ulp at half the grid's points",
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceBinaryOperator_Add_Sub", 164, 3):
        "below the switch the series log x + x/2 is correctly rounded, against mpmath on a "
        "grid in [−21, −20) (test_log_expm1_exp_of_tiny_x_is_correctly_rounded): log x − x/2 "
        "is off by x ≈ 1e-9 on a value of −20, below every claim's tolerance",
    ("loss-scaled", "scaled_loss_terms", "core/ReplaceFalseWithTrue", 210, 0):
        "a NaN in q̂ is found through each run's minimum after log ‖W‖ is checked (test_"
        "scaled_loss_terms_checks_log_norm_before_looking_for_nan_in_q_hat): `nan_check=True` "
        "makes an extra pass over the margins for it, first, which shows only as the error "
        "named when both arguments are bad (the same ValueError otherwise); the claims pass "
        "valid margins only",
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceComparisonOperator_Gt_Eq", 158, 0):
        "log x past 709.78 is refused naming `log_x`, the rule and the value (test_log_expm1_"
        "exp_refuses_log_x_past_float64_s_range, at 710, 800 in an array and inf): `==` lets "
        "them overflow to inf; the claims' losses never get near e^{e^709}",
    ("loss-scaled", "smoothed_margin_scaled", "core/ReplaceBinaryOperator_Add_Sub", 262, 6):
        "γ̃ of a far run is −(log L_sum + L_sum/2)/‖W‖ with the plus sign (test_smoothed_"
        "margin_past_the_far_switch_keeps_the_half_loss_term, against mpmath): `rest − "
        "half_l` moves γ̃ by L_sum/‖W‖ ≤ n·e^{−30}/‖W‖, far below the claims' tolerances",
    ("loss-scaled", "smoothed_margin_scaled", "core/NumberReplacer", 260, 96):
        "γ̃ of a far run keeps the −L_sum/2 term of −log(e^{L_sum} − 1) (test_smoothed_margin_"
        "past_the_far_switch_keeps_the_half_loss_term, 300 margins just past 30 against "
        "mpmath, where the term is 3e-13 of γ̃): 1.5 for 0.5 moves γ̃ by L_sum/‖W‖ ≤ "
        "n·e^{−30}/‖W‖, far below the claims' tolerances",
}

KEEPDIMS = ("equivalent: `X[..., 0]` → `X[..., -1]` on an array reduced with keepdims=True "
            "(or formed elementwise from one): its last axis has length 1, so both index the "
            "same element")
_PLACEHOLDER_BIG = ("equivalent: the −20.0 of `exp(where(small, −20.0, log_x))` fills in only "
                    "the points with log x < −20, whose `big` value the final np.where "
                    "discards (the series is taken there); it is there so that "
                    "log(−expm1(−x)) + x stays finite and silent where log x = −inf, which "
                    "x = e^{−21} ≈ 7.6e-10, e^{−19}, e^0 and e^{20} ≈ 4.9e8 do as well "
                    "(log(−expm1(−e^20)) = log 1 = 0): no overflow, division by zero or "
                    "invalid operation, even under np.errstate(all='raise'), so every "
                    "returned value and every warning is the same (`not 20.0` is False, "
                    "i.e. x = e^0 = 1, the same)")

_PLACEHOLDER_SERIES = ("equivalent: the −20.0 of `exp(where(small, log_x, −20.0))` fills in "
                       "only the points with log x ≥ −20, whose series value the final "
                       "np.where discards; e^{20}, e^{−19}, e^{−21} and e^0 are as finite "
                       "and silent as e^{−20} (no overflow or underflow even under "
                       "np.errstate(all='raise')), so every returned value and every warning "
                       "is the same")

_PLACEHOLDER_DIRECT = ("equivalent: the −30.0 of `_smoothed_from(where(lead > 0, −30.0, rest))` "
                       "fills in only the points with lead > 0, whose direct γ̃ the final "
                       "np.where discards (the split form is taken there); any moderate value "
                       "does as well: log(e^L − 1) at log L = ±30, ±29, ±31 or 0 is finite and "
                       "non-zero, so −log(e^L − 1)·e^{−log ‖W‖} makes no 0·∞ and its overflow "
                       "is ignored in that block: every returned value and every warning is "
                       "the same")

LEAD_NOT_ZERO = ("equivalent once a negative lead is refused (test_smoothed_margin_scaled_"
                 "and_log_sum_loss_scaled_refuse_a_negative_lead): with lead ≥ 0 (and never "
                 "NaN: refused too), `lead != 0` and `lead > 0` are the same test; the "
                 "unchecked path (checked=False) takes lead from scaled_loss_terms only, "
                 "whose lead is min q̂ > 0 or 0")

_SHIFT_INF_ROWS = ("equivalent once the overflow beside a +inf maximum is silenced (the fix "
                   "this mutant prompted: logsumexp([inf, 710]) warned; test_logsumexp_beside_"
                   "a_plus_inf_maximum_is_plus_inf_and_silent): the 0.0 of `where(isfinite(m), "
                   "m, 0.0)` fills in only the rows whose maximum is ±inf, whose `out` the "
                   "final np.where discards for that maximum, and in that block division by "
                   "zero, invalid operations and overflow are ignored, so a shift of ±1 "
                   "changes no returned value and no warning (underflow, which it may move by "
                   "one entry, numpy ignores unless the caller's error state asks; no caller "
                   "in the library does: its only errstate(all='raise') blocks, in bounds and "
                   "kkt, evaluate no log-sum-exp)")

#: survivors no test can kill -> why they are equivalent
EQUIVALENT: dict = {
    # shift[..., 0], m[..., 0], q_min[..., 0] and far[..., 0]
    ("loss-scaled", "_logsumexp_inf", "core/NumberReplacer", 128, 29): KEEPDIMS,
    ("loss-scaled", "_logsumexp_inf", "core/NumberReplacer", 129, 33): KEEPDIMS,
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 228, 75): KEEPDIMS,
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 234, 81): KEEPDIMS,
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 236, 85): KEEPDIMS,
    ("loss-scaled", "_logsumexp_inf", "core/NumberReplacer", 129, 35): KEEPDIMS,
    ("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 236, 83): KEEPDIMS,
    ("loss-scaled", "smoothed_margin_scaled", "core/ReplaceComparisonOperator_Gt_NotEq", 257, 5):
        LEAD_NOT_ZERO,
    ("loss-scaled", "_lsl_scaled", "core/ReplaceComparisonOperator_Gt_NotEq", 249, 4):
        LEAD_NOT_ZERO,
    ("loss-scaled", "smoothed_margin_scaled", "core/NumberReplacer", 257, 95):
        _PLACEHOLDER_DIRECT,
    ("loss-scaled", "smoothed_margin_scaled", "core/NumberReplacer", 257, 94):
        _PLACEHOLDER_DIRECT,
    ("loss-scaled", "smoothed_margin_scaled", "core/ReplaceUnaryOperator_USub_UAdd", 257, 26):
        _PLACEHOLDER_DIRECT,
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceUnaryOperator_USub_Not", 164, 17):
        _PLACEHOLDER_SERIES,
    ("loss-scaled", "smoothed_margin_scaled", "core/ReplaceUnaryOperator_USub_Not", 257, 26):
        _PLACEHOLDER_DIRECT,
    ("loss-scaled", "smoothed_margin_scaled", "core/ReplaceComparisonOperator_Gt_NotEq", 262, 6):
        LEAD_NOT_ZERO,
    **{("loss-scaled", "_logsumexp_inf", "core/NumberReplacer", 126, occ): _SHIFT_INF_ROWS
       for occ in (26, 27)},
    ("loss-scaled", "scaled_loss_terms", "core/ReplaceComparisonOperator_Gt_GtE", 230, 3):
        "equivalent: `t > 40` → `t >= 40` adds only a misclassified margin with log |q| = t = "
        "40.0 exactly, where the margin is q = −e^{40.0} rounded and log ℓ(q) = "
        "log(logaddexp(0, e^{40.0})) = log(e^{40.0}) evaluates to 40.0 exactly, which is t",
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceUnaryOperator_Delete_USub", 162, 14):
        _PLACEHOLDER_BIG,
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceUnaryOperator_USub_Not", 162, 14):
        _PLACEHOLDER_BIG,
    ("loss-scaled", "_log_expm1_exp", "core/NumberReplacer", 162, 51): _PLACEHOLDER_BIG,
    ("loss-scaled", "_log_expm1_exp", "core/NumberReplacer", 164, 54): _PLACEHOLDER_SERIES,
    ("loss-scaled", "_log_expm1_exp", "core/NumberReplacer", 161, 49):
        "equivalent to the last bit: the switch at log x = −19 for −20 changes only "
        "log x ∈ [−20, −19), where the mutant takes the series log x + x/2, whose truncation "
        "error x²/24 < 1.3e-18 is 1/2700 of an ulp of |log x| ≥ 19 (3.6e-15), instead of "
        "log(−expm1(−x)) + x, which is within 1 ulp: they differ in the last bit only, and "
        "there the mutant's is the better value (against mpmath on 20 000 points of "
        "[−20, −19): the series is correctly rounded at 99.98 %, the other form at 52 %; "
        "the other form alone is right at 0.005 %).  A test that kills the mutant would "
        "have to assert the original's rounding at a hand-picked point, not a property of "
        "log(e^x − 1)",
    ("loss-scaled", "_log_expm1_exp", "core/NumberReplacer", 162, 50): _PLACEHOLDER_BIG,
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceUnaryOperator_USub_UAdd", 162, 14):
        _PLACEHOLDER_BIG,
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceUnaryOperator_Delete_USub", 164, 17):
        _PLACEHOLDER_SERIES,
    ("loss-scaled", "_log_expm1_exp", "core/ReplaceUnaryOperator_USub_UAdd", 164, 17):
        _PLACEHOLDER_SERIES,
    ("loss-scaled", "scaled_loss_terms", "core/ReplaceComparisonOperator_Gt_GtE", 219, 1):
        "equivalent: `q_min > 0` → `q_min >= 0` adds only runs whose smallest q̂ is 0 "
        "exactly, where log |q| = log ‖W‖ + log 0 = −inf (log ‖W‖ < inf is checked) fails the "
        "other condition `min log |q| > log 30`",
    **{("loss-scaled", "scaled_loss_terms", "core/NumberReplacer", 218, occ):
       "equivalent once the log weights no longer read the capped margins (the fix this "
       "mutant prompted: a margin q past e^700 got the log weight −e^700 − log L_sum instead "
       "of −q − log L_sum, e.g. −1.0e304 for −1.5e306 at ‖W‖ = e^705; test_scaled_loss_terms_"
       "log_weights_of_margins_near_the_end_of_float64): the cap e^699 or e^701 for e^700 "
       "now enters only e^{−|q|} and log ℓ(q) of positive margins past e^699, all of which "
       "are 0 after exponentiation in a log-sum-exp whose row maximum is ≥ log ℓ(30) "
       "(a near run has a margin ≤ 30 or a misclassified one; a far run's near value is "
       "discarded), and the log ℓ of misclassified margins past e^40 is log |q| regardless"
       for occ in (66, 67)},
    ("loss-scaled", "_log_expm1_exp", "core/NumberReplacer", 164, 55): _PLACEHOLDER_SERIES,
    ("loss-scaled", "smoothed_margin_scaled", "core/ReplaceUnaryOperator_Delete_USub", 257, 26):
        _PLACEHOLDER_DIRECT,
    ("loss-scaled", "smoothed_margin_scaled", "core/ReplaceComparisonOperator_Gt_Lt", 257, 5):
        "equivalent once a negative lead is refused (the fix this mutant prompted: read as 0, "
        "lead < 0 gave an answer contradicting log L_sum = rest − ‖W‖·lead; test_smoothed_"
        "margin_scaled_and_log_sum_loss_scaled_refuse_a_negative_lead): with lead ≥ 0 "
        "`lead < 0` is nowhere true, so the mutant forms the direct γ̃ from rest at every "
        "point; where lead = 0 so does the original, and where lead > 0 the final np.where "
        "discards it.  That direct γ̃ never raises (a log L_sum past 709.78 is replaced before "
        "log_expm1_exp) and can warn only on 0·∞ in −log(e^L − 1)·e^{−log ‖W‖}: at rest = −inf "
        "with ‖W‖ > e^745, where the original's split form (rest + L/2)·e^{−log ‖W‖} makes the "
        "same invalid-value warning at the same point, or at rest = log log 2 (where "
        "log(e^L − 1) rounds to 0) with ‖W‖ < e^{−709.78}, which no lead > 0 of "
        "scaled_loss_terms meets: a far run has every margin ‖W‖q̂ > 30 with q̂ a float, so "
        "‖W‖ > 30/1.8e308 > e^{−706}",
}
