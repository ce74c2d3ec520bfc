"""The claims that hand ``ctx.map`` items of a fixed number of cases (``proofs_check.kit.items``)
give every case the numbers it gets alone, bit for bit, so a report does not depend on
where the item boundaries fall (``CHUNK`` of the check).

The flow and SGD families are in ``tests/test_batched_claims.py`` (whose comparison this
file reuses); here: the certificate and program families (appD.1, cor6.1, odd-part, thm5.1)
and the follow-up claims' trained batches (the antipodal, orthogonal and μ-separated flows
and GD of lyu2021, consistency, frei2023, kou2023, min2024).  The fast tests shorten the
trained runs; the slow ones run every family as the check does.
"""
import pytest

from proofs_check.claims import (appD_1, consistency, cor6_1, frei2023, kou2023, lyu2021,
                                 min2024, odd_part, thm5_1)
from proofs_check.engine.context import Context
from proofs_check.engine.registry import load
from proofs_check.kit import antipodal, items, orthogonal
from test_batched_claims import _compare

SEEDS = (21, 22)


def test_map_cases_splits_in_order_and_checks_the_counts():
    class Ctx:
        def map(self, fn, xs):
            self.items = xs
            return [fn(x) for x in xs]
    ctx = Ctx()
    got = items.map_cases(ctx, lambda it: [(c, it[1]) for c in it[0]], list(range(7)), "e",
                          chunk=3)
    assert got == [(c, "e") for c in range(7)]
    assert [len(part) for part, _ in ctx.items] == [3, 3, 1]
    with pytest.raises(RuntimeError, match="returned 1 results for 3 cases"):
        items.map_cases(ctx, lambda it: [0], list(range(3)), chunk=3)
    with pytest.raises(RuntimeError, match="returned 4 results for 3 cases"):
        items.map_cases(ctx, lambda it: [0] * 4, list(range(3)), chunk=3)
    assert items.map_cases(ctx, lambda it: list(it[0]), [5, 6], chunk=1) == [5, 6]
    assert [part for part, in ctx.items] == [[5], [6]]  # one case per item
    with pytest.raises(ValueError, match="`chunk` must be >= 1"):
        items.map_cases(ctx, lambda it: [], [], chunk=0)
    assert items.cases_per_batch(4) == items.RUNS_PER_BATCH // 4
    assert items.cases_per_batch(10 ** 6) == 1


def test_every_claim_fixes_its_item_size():
    for module in (appD_1, cor6_1, odd_part, thm5_1):
        assert isinstance(module.CHUNK, int) and module.CHUNK > 1
    assert load("appK").THM51_CHUNK > 1


def test_appD1_batched_equals_alone():
    _compare(appD_1.evaluate_cases, "random", lambda cs: (cs, None), seeds=SEEDS)


@pytest.mark.parametrize("family", ["random"] + [
    pytest.param(f, marks=pytest.mark.slow) for f in ("antiparallel", "parallel", "lattice")])
def test_cor61_batched_equals_alone(family):
    _compare(cor6_1.evaluate_cases, family, lambda cs: (cs, family, None), seeds=SEEDS)


@pytest.mark.parametrize("family", ["random"] + [
    pytest.param(f, marks=pytest.mark.slow) for f in ("trained", "exact", "antipodal")])
def test_odd_part_batched_equals_alone(family):
    _compare(odd_part.evaluate, family, lambda cs: (cs, family, None), seeds=SEEDS)


def test_thm51_batched_equals_alone():
    flags = lambda cs: [(c.seed == SEEDS[0], thm5_1.CERTIFY_MAX_K["standard"]) for c in cs]  # noqa
    _compare(thm5_1.evaluate_cases, "random", lambda cs: (cs, "random", None, None, flags(cs)),
             seeds=SEEDS)


@pytest.mark.parametrize("module, families, net, scales", [
    (lyu2021, lyu2021.FAMILIES, lyu2021.NET, lyu2021.INIT_SCALES),
    (consistency, consistency.ANTIPODAL, consistency.ANTI_NET, consistency.ANTI_SCALES)])
def test_antipodal_batch_equals_alone_short(module, families, net, scales):
    family, spec = next(iter(families.items()))
    spec = dict(spec, steps=120)
    _compare(antipodal.antipodal_cases, family, lambda cs: (cs, spec, net, scales, True),
             seeds=SEEDS)


@pytest.mark.parametrize("module", [frei2023, kou2023])
def test_orthogonal_batch_equals_alone_short(module):
    family, spec = next(iter(module.FAMILIES.items()))
    spec = dict(spec, gd_steps=20, flow_steps=60)
    _compare(orthogonal.orth_cases, family, lambda cs: (cs, spec, module.NET, module.NEEDS),
             seeds=SEEDS)


def test_min2024_batch_equals_alone():
    family, spec = next(iter(min2024.FAMILIES.items()))
    _compare(min2024.run_family, family, lambda cs: (cs, spec), seeds=SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("claim, key", [
    ("lyu2021", "FAMILIES"), ("lyu2021", "CONTROL"), ("consistency", "ANTIPODAL"),
    ("consistency", "CONTROL_ANTI")])
def test_antipodal_every_family_batched_equals_alone(claim, key):
    module = load(claim)
    net = module.NET if claim == "lyu2021" else module.ANTI_NET
    scales = module.INIT_SCALES if claim == "lyu2021" else module.ANTI_SCALES
    for family, spec in getattr(module, key).items():
        _compare(antipodal.antipodal_cases, family, lambda cs: (cs, spec, net, scales, True),
                 seeds=SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("claim", ["frei2023", "kou2023", "consistency"])
def test_orthogonal_every_family_batched_equals_alone(claim):
    module = load(claim)
    if claim == "consistency":
        families, net, needs = {**module.ORTH, **module.CONTROL_ORTH}, module.ORTH_NET, \
            ("eq8", "pattern")
    else:
        families, net, needs = {**module.FAMILIES, **module.CONTROL}, module.NET, module.NEEDS
    for family, spec in families.items():
        _compare(orthogonal.orth_cases, family, lambda cs: (cs, spec, net, needs),
                 seeds=SEEDS)


@pytest.mark.slow
def test_min2024_every_family_batched_equals_alone():
    for family, spec in {**min2024.FAMILIES, **min2024.CONTROL}.items():
        _compare(min2024.run_family, family, lambda cs: (cs, spec), seeds=SEEDS)


def test_a_context_maps_the_items_a_check_makes():
    """Through a real context: a family of more cases than ``CHUNK`` goes out as several items."""
    from proofs_check.engine import registry
    claim = registry.load("appD.1").CLAIM
    ctx = Context(claim, seed=0, budget="standard")
    sizes = []
    real = ctx.map
    ctx.map = lambda fn, xs: (sizes.extend(len(x[0]) for x in xs), real(fn, xs))[1]
    cases = ctx.cases(appD_1.CHUNK + 3, "random")
    got = items.map_cases(ctx, appD_1.evaluate_cases, cases, None, chunk=appD_1.CHUNK)
    assert sizes == [appD_1.CHUNK, 3] and len(got) == len(cases)
