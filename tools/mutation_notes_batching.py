"""The survivors of the campaigns over issue 16's batching (kernels-per-run: one net, step
and ε0 per run; kernels-relu; runs-per-run; check-items; check-sgd-batches;
check-sgd-items; assumption4-blocks: the block Assumption 4 programs; check-eq6-refine and
check-margin-flows: eq6's step refinement): kill reasons (the tests in ``tests/test_sgd_per_run.py``,
``tests/test_batched_items.py`` and ``tests/test_batched_claims.py``) and equivalence
reasons, keyed like :mod:`mutation_notes`: (target, function, operator, line[, occurrence]);
merged into :data:`mutation_notes_population.KILLED_BY_POPULATION` and
:data:`mutation_notes_population.EQUIVALENT_POPULATION`.
"""

_FINER_SPANS = ("equivalent: a span starts at every run whose net is not the previous one by "
                "identity (or at every run): finer spans of one net each run Fused on fewer "
                "runs, and a run's bits do not depend on its batch-mates, so backward returns "
                "the same bits; r ≥ 0 always, so r <= 0 is r == 0")
_LENGTH_ONE = ("equivalent: the axis indexed has length 1 (a column per run), so index −1 "
               "is index 0")
_ALPHA_RANGE = ("equivalent: α ∈ [0, 1) (Net checks it), so α != 0, α > −1 and α ≥ 0 select "
                "the α-mix where α > 0 selects it, or also for α = 0, where α·lin + (1 − α)·N "
                "is N + (±0) = N bit for bit: N is never −0.0 (each w neuron adds +0 or a "
                "positive term) and lin is finite under the trainers' float guard")
_ONE_WIDTH = ("equivalent: every net of a PerRun has one width k (per_run_nets refuses "
              "others), so the last net's k is the first's")

_RUN_AXES_MESSAGE = ("the clash of run axes names W0's and the data's run axes exactly: "
                     "(3,) and (2,), now with X's and y's apart (test_bad_input: 'run axes "
                     "clash'; the message has since named y too, so the stored diff of this "
                     "line no longer applies: the same mutants of the new line are killed)")
_DATA_TUPLE = ("data must be exactly a 2-tuple: a 3-tuple, a 1-tuple and a list are refused "
               "with the documented message (test_bad_input: 'data a 3-tuple', 'data a "
               "1-tuple', 'data a list')")

KILLED_BY: dict = {
    **{("runs-per-run", "setup", op, 187, occ): _RUN_AXES_MESSAGE for op, occ in (
        ("core/ReplaceUnaryOperator_USub_UAdd", 6), ("core/ReplaceUnaryOperator_USub_Not", 6),
        ("core/ReplaceUnaryOperator_Delete_USub", 6), ("core/NumberReplacer", 58),
        ("core/NumberReplacer", 59))},
    **{("runs-per-run", "setup", op, 174, occ): _DATA_TUPLE for op, occ in (
        ("core/ReplaceComparisonOperator_Eq_LtE", 2), ("core/ReplaceComparisonOperator_Eq_GtE", 2),
        ("core/ReplaceAndWithOr", 0))},
    **{("runs-per-run", "setup", op, 185, occ):
       "X's and y's own run axes enter the broadcast: X's clashing with W0's while y is "
       "shared, and y's while X is shared, are refused (test_bad_input: 'run axes of X "
       "clash, y shared', 'run axes of y clash, X shared')" for op, occ in (
           ("core/ReplaceUnaryOperator_USub_Not", 4), ("core/ReplaceUnaryOperator_USub_Not", 5),
           ("core/NumberReplacer", 57))},
    ("check-sgd-batches", "train_configurations", "core/ReplaceBinaryOperator_Sub_Add", 213, 6):
        "a configuration trains to its cap, not past it (test_a_case_trains_and_reports_the_"
        "objects_its_seed_rebuilds: epochs ≤ the cap of 15, not a multiple of 4)",
    **{("check-sgd-batches", "train_configurations", op, line, occ):
       "a cap of zero or less trains nothing (W0 back, 0 epochs), and the cap is keyword-only "
       "(test_thm41_a_cap_of_zero_or_less_trains_nothing_and_the_cap_is_keyword_only)"
       for op, line, occ in (("core/ReplaceComparisonOperator_Gt_NotEq", 218, 1),
                             ("core/ReplaceComparisonOperator_Gt_GtE", 218, 1),
                             ("core/NumberReplacer", 218, 143),
                             ("core/ReplaceBinaryOperator_Mul_Div", 199, 30))},
    ("check-sgd-batches", "train_configuration", "core/ReplaceBinaryOperator_Mul_Div", 184, 29):
        "one configuration's step, targets and cap are keyword-only too "
        "(test_thm41_a_cap_of_zero_or_less_trains_nothing_and_the_cap_is_keyword_only)",
    ("check-sgd-items", "_build", "core/NumberReplacer", 116, 200):
        "an item without offset lifts App. K's data at 0.5, not elsewhere "
        "(test_thm41_item_defaults_are_the_documented_ones)",
    ("check-sgd-items", "run_sgd_cases", "core/NumberReplacer", 159, 217):
        "an item without epoch_scale trains to the family's own cap "
        "(test_thm41_item_defaults_are_the_documented_ones)",
    ("check-items", "(file)", "core/ReplaceComparisonOperator_NotEq_Lt", 34, 0):
        "a worker returning more results than its part has cases is an error "
        "(test_map_cases_splits_in_order_and_checks_the_counts)",
    **{("check-items", "(file)", op, 29, occ):
       "an item of one case is allowed (test_map_cases_splits_in_order_and_checks_the_counts)"
       for op, occ in (("core/ReplaceComparisonOperator_Lt_LtE", 0), ("core/NumberReplacer", 4))},
    ("runs-per-run", "per_run_real", "core/ReplaceComparisonOperator_NotEq_Gt", 143, 0):
        "an array eta of shape (1,) for two runs is refused, not broadcast "
        "(test_bad_input: 'one eta for two runs as an array')",
    ("kernels-per-run", "(file)", "core/NumberReplacer", 25, 0):
        "a PerRun of one run has no second net (test_per_run_spans_cover_every_run[pattern0])",
    ("kernels-per-run", "(file)", "core/ReplaceFalseWithTrue", 29, 0):
        "the per-run second layer is read-only (test_per_run_kernel_is_fused_per_span)",
}

_SHARED_EPOCHS = ("equivalent: with one configuration left, live[0] and live[-1] are the "
                  "same; the live configurations started together and step together, so "
                  "they share one epoch count")
_ITEM_DEFAULTS = ("equivalent: with four runs per case (every family's R0), "
                  "max(0 or 1 or 2, 256 // 4) is 64")

_ONE_POINT_SHORTCUT = ("equivalent: a part is never empty (range over its starts), so len == 1, "
                       "len <= 1 agree; with len < 1 or len == 0 a lone point goes through the "
                       "block path as a program of one block, whose optimum and duals are the "
                       "point's own, re-checked alike (only the sparse matrix is built for "
                       "nothing)")

EQUIVALENT: dict = {
    **{("assumption4-blocks", "_a4_slacks", op, 153, occ): _ONE_POINT_SHORTCUT for op, occ in (
        ("core/ReplaceComparisonOperator_Eq_Lt", 5), ("core/ReplaceComparisonOperator_Eq_LtE", 5),
        ("core/NumberReplacer", 63))},
    **{("check-margin-flows", "(file)", "core/ReplaceBinaryOperator_Mul_Div", line, occ):
       "equivalent: `*` → `/` makes the leading arguments positional-only; every caller "
       "passes them by position and rate_points by keyword" for line, occ in ((39, 0), (57, 2))},
    ("check-margin-flows", "(file)", "core/ReplaceComparisonOperator_Eq_LtE", 102, 0):
        "equivalent: a size is never negative, so size <= 0 is size == 0",
    ("check-margin-flows", "(file)", "core/ReplaceBreakWithContinue", 103, 0):
        "equivalent: once no run is left to refine, nothing changes at the later levels "
        "(the same slacks select no run again), so continuing does what stopping does",
    ("check-margin-flows", "(file)", "core/NumberReplacer", 85, 23):
        "equivalent: largest_drop of one run's column has one entry, so index −1 is index 0",
    ("check-eq6-refine", "refined_slack", "core/NumberReplacer", 117, 54):
        "equivalent: NumPy's reshape takes any negative length for the one it infers "
        "(reshape((2, -2)) of 6 entries is (2, 3) in NumPy 2.4), so −2 is −1",
    ("assumption4-blocks", "_a4_slacks", "core/NumberReplacer", 154, 65):
        "equivalent: the part has exactly one point there, so index −1 is index 0",
    ("assumption4-blocks", "_a4_slacks", "core/ReplaceComparisonOperator_NotEq_Gt", 164, 4):
        "equivalent: linprog's status is 0–4, never negative, so status != 0 is status > 0",
    **{("check-sgd-batches", "train_configurations", "core/NumberReplacer", line, occ):
       _SHARED_EPOCHS for line, occ in ((213, 131), (224, 141), (225, 143), (226, 145),
                                        (220, 145), (231, 155), (232, 157), (234, 163))},
    ("check-sgd-batches", "train_configurations", "core/ReplaceComparisonOperator_Eq_LtE",
     230, 3): "equivalent: the loop runs only while live is non-empty, so len(live) <= 1 is "
              "len(live) == 1",
    ("check-sgd-batches", "train_configuration", "core/NumberReplacer", 196, 135):
        "equivalent: train_configurations of one job returns one result, so index −1 is "
        "index 0",
    **{("check-sgd-batches", "train_configurations", "core/NumberReplacer", 199, occ):
       "equivalent as a check, not in bits: the default chunk (epochs per lt.sgd call, at "
       "whose ends a finished configuration stops) is a constant of the check; 3 or 5 gives "
       "another valid check. No claim or test can tell a valid granularity from another; "
       "make verify's comparison with the committed claims.json does (the thm4.1 ledger "
       "changes)" for occ in (136, 137)},
    ("check-sgd-batches", "train_configurations", "core/ReplaceComparisonOperator_Lt_NotEq",
     245, 3): "equivalent: a step never passes the cap (step = min(chunk, cap − epochs)), so "
              "epochs < cap and epochs != cap agree",
    ("check-sgd-batches", "train_configurations", "core/ReplaceComparisonOperator_Lt_NotEq",
     250, 3): "equivalent: a step never passes the cap (step = min(chunk, cap − epochs), and "
              "the live configurations share one epoch count), so epochs < cap and "
              "epochs != cap agree",
    ("check-sgd-batches", "train_configurations", "core/NumberReplacer", 233, 159):
        "equivalent: that branch runs when exactly one configuration is live, so live[−1] "
        "is live[0]",
    ("check-sgd-batches", "train_configurations", "core/ReplaceComparisonOperator_Gt_NotEq",
     211, 1): "equivalent: the cap is at least 1 (max(1, …) in run_sgd_cases; the tests pass "
              "positive caps), so cap > 0 and cap != 0 agree",
    ("check-sgd-batches", "train_configuration", "core/ReplaceBinaryOperator_Mul_Div", 177, 27):
        "equivalent: `*` → `/` makes the leading arguments positional-only; every caller "
        "passes them by position and the rest by keyword",
    ("check-sgd-batches", "train_configurations", "core/NumberReplacer", 192, 122):
        "equivalent as a check, not in bits: the default chunk (epochs per lt.sgd call, at "
        "whose ends a finished configuration stops) is a constant of the check; 5 gives "
        "another valid check. make verify's comparison with the committed claims.json "
        "catches the change of evidence",
    **{("check-sgd-items", "_result", op, 133, 2):
       "equivalent: the neuron norms are (R, 2k), so their maximum over axis 1 is over "
       "axis −1" for op in ("core/ReplaceUnaryOperator_USub_UAdd",
                            "core/ReplaceUnaryOperator_Delete_USub")},
    **{("check-sgd-batches", "train_configuration", "core/NumberReplacer", line, occ):
       "equivalent as a check: train_configuration's default chunk is used by no check "
       "(they call train_configurations, whose default is 4); 3 or 5 gives another valid "
       "granularity for the tests that call it" for line, occ in (
           (178, 118), (178, 119), (185, 132), (185, 133))},
    **{("check-sgd-items", "sgd_items", "core/NumberReplacer", 217, occ): _ITEM_DEFAULTS
       for occ in (240, 241)},
    ("check-sgd-items", "run_sgd_case", "core/NumberReplacer", 171, 219):
        "equivalent: run_sgd_cases of one case returns one result, so index −1 is index 0",
    ("check-sgd-items", "sgd_items", "core/ReplaceBinaryOperator_Mul_Div", 209, 8):
        "equivalent: `*` → `/` makes cases and spec positional-only; every caller passes them "
        "by position and the rest by keyword",
    ("runs-per-run", "per_run_real", "core/ReplaceComparisonOperator_Eq_LtE", 140, 1):
        "equivalent: an array's ndim is never negative, so ndim <= 0 is ndim == 0",
    ("runs-per-run", "per_run_nets", "core/ReplaceComparisonOperator_Gt_NotEq", 127, 0):
        "equivalent: the widths of a non-empty sequence of nets are at least one, so more "
        "than one is other than one",
    ("runs-per-run", "per_run_nets", "core/NumberReplacer", 129, 39): _ONE_WIDTH.replace(
        "so the last net's k is the first's", "so the last net validates W0 as the first "
        "does, and a sequence of one run's net is that net"),
    ("runs-per-run", "per_run_real", "core/NumberReplacer", 146, 42):
        "equivalent: NumPy (2.x) reads any negative size in reshape as the one inferred "
        "dimension, so reshape(-2) flattens as reshape(-1) does",
    **{("kernels-per-run", "(file)", op, 32, 0): _FINER_SPANS for op in (
        "core/ReplaceComparisonOperator_Eq_LtE", "core/ReplaceComparisonOperator_Eq_GtE",
        "core/ReplaceAndWithOr")},
    **{("kernels-per-run", "(file)", op, 46, occ): _ALPHA_RANGE for op, occ in (
        ("core/ReplaceComparisonOperator_Gt_NotEq", 0), ("core/ReplaceComparisonOperator_Gt_GtE", 0),
        ("core/NumberReplacer", 19))},
    ("kernels-per-run", "(file)", "core/NumberReplacer", 25, 1): _ONE_WIDTH,
    **{("kernels-per-run", "(file)", "core/NumberReplacer", line, occ): _LENGTH_ONE
       for line, occ in ((42, 13), (45, 15), (45, 17))},
}
