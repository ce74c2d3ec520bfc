"""The survivors of the campaigns over issue 16's batching (kernels-per-run: one net, step
and ε0 per run; kernels-relu; runs-per-run; check-items; check-sgd-batches;
check-sgd-items): kill reasons (the tests in ``tests/test_sgd_per_run.py``,
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

KILLED_BY: dict = {
    ("kernels-per-run", "(file)", "core/NumberReplacer", 25, 0):
        "a PerRun of one run has no second net (test_per_run_spans_cover_every_run[pattern0])",
    ("kernels-per-run", "(file)", "core/ReplaceFalseWithTrue", 29, 0):
        "the per-run second layer is read-only (test_per_run_kernel_is_fused_per_span)",
}

EQUIVALENT: dict = {
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
