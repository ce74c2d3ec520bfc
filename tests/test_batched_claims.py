"""Every claim family trained as one batch equals its cases done one by one, bit for bit.

The checks hand ``ctx.map`` items of many cases (``proofs_check.kit.flow.RUNS_PER_BATCH``
runs per array program); a replayed case runs alone.  Both must give the same numbers to the
last bit, or a report would depend on how its cases were grouped.  Each test runs a few
cases of a family as one item and as one item per case and compares **every** returned
number exactly (NaN equal to NaN, nothing else tolerated).  Short runs keep the fast tests
fast; the slow variants cover every family at the check's own step counts' order, two
cases per family (two cases already make a batch: the array program of many).  A shorter
run of a family takes the first steps of its longer one, so it has no slow test of its own.
"""
import numpy as np
import pytest

import linteach as lt

from proofs_check.claims import appJ, appK, eq6, lem6_1, thm4_1, thm6_1, thm6_2
from proofs_check.engine.contract import Case
from proofs_check.kit import flow, sgd_configs

SEEDS = (11, 12)


def assert_same(a, b, where="result"):
    """``a`` and ``b`` are the same plain data, bit for bit (NaN == NaN)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{where}: keys differ"
        for key in a:
            assert_same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), f"{where}: lengths differ"
        for i, (x, z) in enumerate(zip(a, b)):
            assert_same(x, z, f"{where}[{i}]")
    elif isinstance(a, (np.ndarray, np.generic, float, int, bool)) and not isinstance(a, str):
        x, z = np.asarray(a), np.asarray(b)
        assert x.shape == z.shape and x.dtype == z.dtype, f"{where}: {x.shape}/{x.dtype} vs " \
                                                          f"{z.shape}/{z.dtype}"
        if x.dtype.kind == "f":  # compare the bits: -0.0 vs 0.0 or a NaN payload would show
            assert np.array_equal(x.view(np.uint64) if x.dtype == np.float64 else x,
                                  z.view(np.uint64) if z.dtype == np.float64 else z), where
        else:
            assert np.array_equal(x, z), where
    else:
        assert a == b, f"{where}: {a!r} vs {b!r}"


def batched_and_alone(fn, cases, make_item):
    """``fn`` on one item of all ``cases`` and on one item per case (results per case)."""
    together = fn(make_item(cases))
    alone = [fn(make_item([case]))[0] for case in cases]
    assert len(together) == len(cases)
    return together, alone


def _compare(fn, family, make_item, seeds=SEEDS):
    cases = [Case(family, s) for s in seeds]
    together, alone = batched_and_alone(fn, cases, make_item)
    for case, t, a in zip(cases, together, alone):
        assert_same(t, a, f"{family}/{case.seed}")
    return together


def test_assert_same_catches_a_one_ulp_difference():
    x = np.array([1.0, 2.0])
    with pytest.raises(AssertionError):
        assert_same({"a": [x]}, {"a": [np.nextafter(x, 3.0)]})
    with pytest.raises(AssertionError):
        assert_same({"a": 0.0}, {"a": -0.0})
    assert_same({"a": [np.nan, (1, "s")]}, {"a": [np.nan, (1, "s")]})


def test_batch_sizes_are_fixed_by_the_checks():
    for module in (eq6, thm6_1, thm6_2, appJ):
        assert module.CHUNK == flow.cases_per_batch(len(module.INIT_SCALES))
        assert module.CHUNK * len(module.INIT_SCALES) <= flow.RUNS_PER_BATCH
        assert module.CHUNK * len(module.INIT_SCALES) > flow.RUNS_PER_BATCH // 2


@pytest.mark.parametrize("family", ["small-3d"])
def test_thm61_batched_equals_alone(family):
    _compare(thm6_1.run_cases, family, lambda cs: (cs, family, 60), seeds=SEEDS[:2])


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(thm6_1.FAMILIES))
def test_thm61_every_family_batched_equals_alone(family):
    _compare(thm6_1.run_cases, family, lambda cs: (cs, family, 600))


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(thm6_2.FAMILIES))
def test_thm62_every_family_batched_equals_alone(family):
    _compare(thm6_2.run_cases, family, lambda cs: (cs, family, 600))


def test_eq6_control_batched_equals_alone():
    res = _compare(eq6.run_cases, "control-separable",
                   lambda cs: (cs, "control-separable", True, 300), seeds=SEEDS[:2])
    assert any(len(r["phases"]) > 0 for r in res)  # the control's bad steps ran


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(eq6.FAMILIES))
def test_eq6_every_family_batched_equals_alone(family):
    res = _compare(eq6.run_cases, family, lambda cs: (cs, family, False, 800))
    # the phase after the entry into the late phase (Euler) ran
    assert any(len(r["phases"]) > 1 for r in res)


@pytest.mark.slow
@pytest.mark.parametrize("families", [appJ.FAMILIES, appJ.CONTROL_FAMILIES])
def test_appJ_every_family_batched_equals_alone(families):
    family = next(iter(families))
    _compare(appJ.run_cases, family, lambda cs: (cs, family, families, 800))


@pytest.mark.parametrize("family", ["gaussians"] + [
    pytest.param(f, marks=pytest.mark.slow)
    for f in ("random-labels", "degenerate", "scales", "asym-ball", "asym-rotated")])
def test_lem61_batched_equals_alone(family):
    _compare(lem6_1.evaluate_cases, family, lambda cs: (cs, family), seeds=SEEDS[:2])


@pytest.mark.parametrize("alpha", [None, 0.0])
def test_appK_thm51_part_batched_equals_alone(alpha):
    _compare(appK.evaluate_thm51, "thm5.1-lifted", lambda cs: (cs, alpha), seeds=SEEDS[:2])


def _one_shape(spec, count, start=0):
    """The first ``count`` seeds from ``start`` whose configurations share one (n, d, k)."""
    seen = {}
    for seed in range(start, start + 100_000):
        cfg = sgd_configs.draw_configuration(Case("f", seed), spec)[0]
        group = seen.setdefault((cfg["n"], cfg["d"], cfg["k"]), [])
        group.append(seed)
        if len(group) == count:
            return group
    raise AssertionError("no shape repeated")


def _sgd_compare(spec, seeds, family, **item):
    cases = [Case(family, s) for s in seeds]
    base = dict(item)
    together = sgd_configs.run_sgd_cases({"cases": cases, "spec": spec, **base})
    alone = [sgd_configs.run_sgd_case({"case": c, "spec": spec, **base}) for c in cases]
    for case, t, a in zip(cases, together, alone):
        assert_same(t, a, f"{family}/{case.seed}")
    return together


def test_thm41_configurations_of_one_shape_batched_equal_alone():
    """Three configurations of one shape, each its own α, v and η, train as one batch; they
    finish at different epochs (a configuration leaves the batch when it is done)."""
    spec = dict(sgd_configs.FAMILIES["small-n"], n=(12, 12), d=(3, 3), k=(2,), epochs=200)
    res = _sgd_compare(spec, (1, 4, 7, 8), "small-n", epoch_scale=1.0)
    configs = [r["config"] for r in res]
    assert len({c["alpha"] for c in configs}) == len({c["eta"] for c in configs}) == 4
    assert len({c["epochs"] for c in configs}) == 4


def test_thm41_items_group_one_shape_in_draw_order():
    spec = sgd_configs.FAMILIES["small-n"]
    seeds = _one_shape(spec, 3)
    cases = [Case("small-n", s) for s in range(seeds[0], seeds[-1] + 1)]
    items = sgd_configs.sgd_items(cases, spec, chunk=2)
    shapes = [{tuple(sgd_configs.draw_configuration(c, spec)[0][key] for key in "ndk")
               for c in item["cases"]} for _, item in items]
    assert all(len(s) == 1 for s in shapes)  # one shape per item
    assert sorted(i for part, _ in items for i in part) == list(range(len(cases)))
    assert all(len(part) <= 2 and part == sorted(part) for part, _ in items)
    grouped = [part for part, item in items if seeds[0] - cases[0].seed in part]
    assert grouped[0] == [s - cases[0].seed for s in seeds[:2]]
    assert all(len(part) == 1 for part, _ in sgd_configs.sgd_items(cases, spec, corrupt=True))
    assert thm4_1.CHUNK * len(spec["R0"]) == sgd_configs.RUNS_PER_BATCH == appK.CHUNK * 4
    mapped = sgd_configs.map_sgd_cases(lambda fn, xs: [[c.seed for c in x["cases"]]
                                                       for x in xs], cases, spec, chunk=2)
    assert [case for case, _ in mapped] == cases
    assert [res for _, res in mapped] == [c.seed for c in cases]


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(sgd_configs.FAMILIES) + ["nonseparable"])
def test_thm41_every_family_batched_equals_alone(family):
    spec = sgd_configs.FAMILIES.get(family) or sgd_configs.CONTROL_FAMILIES[family]
    _sgd_compare(spec, _one_shape(spec, 2), family)


@pytest.mark.slow
def test_appK_thm41_part_batched_equals_alone():
    spec = sgd_configs.FAMILIES["small-n"]
    _sgd_compare(spec, _one_shape(spec, 2, start=500), "thm4.1-lifted-small-n",
                 augment=True, offset=appK.OFFSET)


def test_thm41_an_epoch_cap_of_one_trains_one_epoch():
    """A cap of one epoch (a short budget's scaled cap) trains that epoch, alone or batched."""
    spec = dict(sgd_configs.FAMILIES["small-n"], n=(12, 12), d=(3, 3), k=(2,), epochs=1)
    res = _sgd_compare(spec, (1, 4), "small-n", epoch_scale=1.0)
    assert [r["config"]["epochs"] for r in res] == [1, 1]
    assert all(r["config"]["max_epochs"] == 1 for r in res)


def test_thm41_item_defaults_are_the_documented_ones():
    """An item without ``epoch_scale`` trains to the family's own cap, and one without
    ``offset`` lifts App. K's data at the documented 0.5."""
    spec = dict(sgd_configs.FAMILIES["small-n"], n=(12, 12), d=(3, 3), k=(2,), epochs=3)
    case = Case("small-n", 1)
    plain = sgd_configs.run_sgd_case({"case": case, "spec": spec})
    assert plain["config"]["max_epochs"] == 3
    lifted = sgd_configs.run_sgd_case({"case": case, "spec": spec, "augment": True})
    assert_same(lifted, sgd_configs.run_sgd_case({"case": case, "spec": spec, "augment": True,
                                                  "offset": 0.5}))
    assert lifted["digests"]["data"] != sgd_configs.run_sgd_case(
        {"case": case, "spec": spec, "augment": True, "offset": 1.5})["digests"]["data"]


def test_thm41_a_cap_of_zero_or_less_trains_nothing_and_the_cap_is_keyword_only():
    """``max_epochs <= 0``: every configuration comes back untrained (its W0, 0 epochs);
    the trainers take everything after the data and inits by keyword."""
    from proofs_check.kit import sgd_cases
    ds = lt.make_separable(12, 3, margin=0.5, rng=0)
    net = lt.Net(k=2, alpha=0.3, v=1.0)
    W0 = net.init(3, scale=0.1, rng=1, batch=2)
    job = dict(net=net, X=ds.X, y=ds.y, w_star=sgd_cases.theorem_teacher(ds.X, ds.y), W0=W0,
               eta=0.1, eps=[0.3], rng=np.random.default_rng(2))
    for cap in (0, -1):
        [(_, W, epochs)] = sgd_cases.train_configurations([job], max_epochs=cap)
        assert epochs == 0 and np.array_equal(W, W0)
    [(_, _, epochs)] = sgd_cases.train_configurations([job], max_epochs=1)
    assert epochs == 1  # the job itself trains
    with pytest.raises(TypeError):
        sgd_cases.train_configurations([job], 1)
    with pytest.raises(TypeError):  # one configuration's step, targets and cap: keywords too
        sgd_cases.train_configuration(net, ds.X, ds.y, job["w_star"], W0, 0.1, [0.3], 1,
                                      job["rng"])
