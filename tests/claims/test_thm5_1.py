"""Claim ``thm5.1`` (proofs_check/claims/thm5_1.py).

Its verdict, its negative control, and its machinery.
"""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, target
from hypothesis import strategies as st

import linteach as lt
from linteach.strategies import (band_edge_points, band_points, clustered_nets,
                                 clustered_weights, seeds)
from proofs_check.claims import thm5_1
from proofs_check.engine.context import verdict_of
from proofs_check.kit import linear_regime
from proofs_check.kit.signs import sign_agreement
from claim_support import fresh_context, passes


def test_thm51_passes_and_catches_its_control():
    result = passes("thm5.1")
    assert result.verdict == "PASS"
    for clause in (thm5_1.CLAUSE, thm5_1.SHARP_CLAUSE):
        assert result.clauses[clause]["evaluated"] > 0
    for clause, c in result.measurements["certified_cases"].items():
        assert c["witness"] == 0 and c["proved"] > 0, clause
        # left sampled at the quick budget: only many (k > 12), each case with its reason
        assert all(case.startswith("many/") for cases in c["reasons"].values()
                   for case in cases), c["reasons"]
        assert c["sampled_only"] == sum(len(v) for v in c["reasons"].values())
    for clause in (thm5_1.CLAUSE, thm5_1.SHARP_CLAUSE):  # a clause is as strong as its weakest case
        counts = result.clauses[clause]["evidence_counts"]
        assert counts.get("observed", 0) == result.measurements["certified_cases"][clause][
            "sampled_only"]
        assert result.clauses[clause]["evidence"] == ("observed" if counts.get("observed")
                                                      else "proved")


# -- exact signs --------------------------------------------------------------------------------
def _oracle(net, W, x, c):
    """Theorem 5.1's two signs and regime test in Fractions, straight from the definitions."""
    F = [[Fraction(float(a)) for a in row] for row in W]
    xf = [Fraction(float(a)) for a in x]
    a, k = Fraction(net.alpha), net.k
    pre = [sum(p * q for p, q in zip(row, xf)) for row in F]
    sig = [z if z > 0 else a * z for z in pre]
    N = Fraction(net.v) * (sum(sig[:k]) - sum(sig[k:]))
    w_bar = [sum(col) / k for col in zip(*F[:k])]
    u_bar = [sum(col) / k for col in zip(*F[k:])]
    D = sum((p - q) * s for p, q, s in zip(w_bar, u_bar, xf))
    r2 = max(sum((p - q) ** 2 for p, q in zip(row, bar))
             for rows, bar in ((F[:k], w_bar), (F[k:], u_bar)) for row in rows)
    inside = D * D >= Fraction(c) ** 2 * r2 * sum(s * s for s in xf)
    return (N > 0) - (N < 0), (D > 0) - (D < 0), inside


@given(clustered_nets(k=(1, 4), d=(2, 4), r=(0.0, 0.4), gap=(1.0, 2.0), center_norm=(0.0, 1e3)),
       st.data())
def test_exact_signs_match_a_fraction_oracle(net_W, data):
    net, W = net_W
    X = data.draw(band_edge_points(W, n=(1, 5), c=2.0)) if net.k > 1 else \
        np.random.default_rng(data.draw(st.integers(0, 99))).standard_normal((4, W.shape[1]))
    info = sign_agreement(net, W, X, c=2.0)
    for i, x in enumerate(X):
        sN, sD, inside = _oracle(net, W, x, 2.0)
        assert info["agree"][i] == (sN == sD)
        if info["exact"][i] or sN != sD:
            assert info["in_regime"][i] == inside


def test_relu_tie_is_a_violation():
    net = lt.Net(k=1, alpha=0.0, v=1.0)
    W = np.array([[1.0, 0.0], [0.0, 1.0]])
    info = sign_agreement(net, W, np.array([[-1.0, -2.0]]), c=0.0)  # N = 0, D = 1
    assert not info["agree"][0] and info["slack"][0] < 0


# -- Theorem 5.1: hunting for violations ---------------------------------------------------------
@given(clustered_nets(k=(1, 6), d=(2, 5), r=(0.0, 0.45), gap=(1.0, 2.0), center_norm=(0.0, 5.0)),
       st.integers(1, 10), seeds(), st.sampled_from([0.0, 1e-9]))
@example(net_W=(lt.Net(k=2, alpha=0.5, v=1.0),
                clustered_weights(2, 2, r=0.25, gap=1.0, rng=np.random.default_rng(0))),
         n=2, seed=0, offset=0.0)  # shrunk regression: a band-point draw parallel to w̄ − ū
def test_no_violation_of_theorem_51_on_the_band_edge(net_W, n, seed, offset):
    net, W = net_W
    X = band_points(W, n, c=2.0 * (1 + offset), rng=np.random.default_rng(seed))
    slack, _ = linear_regime.theorem51_slacks(net, W, X)
    if slack.size:
        target(-float(slack.min()), label="smallest Theorem 5.1 slack")
        # sign agreement, and even s·N ≥ α·v·k·|D| up to rounding (the sharp analysis)
        assert slack.min() >= 0
        assert slack.min() >= net.alpha * (1 - 1e-6)


@given(st.floats(0.01, 0.99), st.floats(0.01, 0.999), st.integers(2, 5), st.integers(0, 99))
def test_sharp_constant_is_tight_on_the_extremal_net(alpha, frac, d, seed):
    rng = np.random.default_rng(seed)
    below = thm5_1.extremal_net(alpha, 1.0, frac * linear_regime.sharp(alpha), d=d, rng=rng)
    above = thm5_1.extremal_net(alpha, 1.0, linear_regime.sharp(alpha) / frac, d=d, rng=rng)
    target(frac, label="closeness to the sharp constant")
    assert not sign_agreement(*below, c=0.0)["agree"][0]
    assert sign_agreement(*above, c=0.0)["agree"][0]


@pytest.mark.parametrize("kwargs, families", [({"alpha": 0.0}, ("random", "k1")),
                                              ({"c_factor": thm5_1.SHRINK}, ("extremal",))])
def test_theorem_51_controls_fail(kwargs, families):
    ctx = fresh_context(thm5_1)
    thm5_1._run(ctx, families, count=3, **kwargs)
    assert verdict_of(ctx) == "FAIL"


# -- the statement's constants, and evidence ----------------------------------------------------
def test_the_check_evaluates_at_the_statement_band(monkeypatch):
    """A point at (2 + 1e-9)·r‖x‖ is in the evaluated regime, one at (2 − 1e-9)·r‖x‖ is not."""
    from proofs_check.engine.contract import Case
    case = Case("random", 7)
    _net, W = linear_regime.draw_net(case.rng, thm5_1.FAMILIES["random"])
    rng = np.random.default_rng(0)
    inside = band_points(W, 1, c=thm5_1.BAND * (1 + 1e-9), rng=rng)
    outside = band_points(W, 1, c=thm5_1.BAND * (1 - 1e-9), rng=rng)
    monkeypatch.setattr(thm5_1, "draw_points", lambda *a, **kw: np.concatenate([inside, outside]))
    out = thm5_1._evaluate(case, "random", None, None)
    assert thm5_1.BAND == 2.0 and out["c"] == 2.0
    assert out["points"] == 2 and out["regime_points"] == 1
    cert = out["certified"]
    assert cert[thm5_1.CLAUSE]["status"] == "proved" and cert[thm5_1.CLAUSE]["band"] <= 2.0
    assert cert[thm5_1.SHARP_CLAUSE]["band"] == pytest.approx(
        lt.certify.sharp_constant(_net.k, _net.alpha) * (1 + thm5_1.STRICT), rel=1e-15)


def test_a_witness_makes_the_certified_clause_fail():
    """The certified path can fail: the sharp clause at a band below c_k has exact witnesses."""
    W, _ = lt.certify.extremal_net(3, 0.3, c=0.5 * lt.certify.sharp_constant(3, 0.3))
    got = thm5_1._certify([W], 0.3, 0.5 * lt.certify.sharp_constant(3, 0.3), 3)
    assert got[thm5_1.CLAUSE]["status"] == "witness" and got[thm5_1.CLAUSE]["slack"] < 0


def test_the_cstar_figure_is_drawn_from_the_measured_brackets(tmp_path):
    """The page generator draws ``thm5.1.cstar.png`` from ``cstar_over_ck`` and links it."""
    pytest.importorskip("matplotlib")
    import struct

    from proofs_check import pages
    from proofs_check.claims import thm5_1 as claim_module
    from proofs_check.kit.cstar_report import measure_cstar
    ctx = fresh_context(claim_module)
    results = [{"family": "random", "seed": s, "k": 3, "alpha": 0.3,
                "cstar": {"lo": lo, "hi": hi, "attempted": tried, "closed": closed,
                          "reason": why}} for s, (lo, hi, tried, closed, why) in
               enumerate([(0.0, None, False, False, None), (0.4, None, True, False, "budget"),
                          (0.7, 0.705, True, True, None), (0.5, 0.503, True, True, None),
                          (0.6, None, False, False, None)])]
    measure_cstar(ctx, results, rtol=1e-2, strict=thm5_1.STRICT)
    m = ctx.measurements["cstar_over_ck"]
    # the distribution is of the closed brackets only; the open one is listed with its reason
    assert (m["attempted"], m["closed"], m["closed_min"], m["closed_max"], m["seed_of_max"]) \
        == (3, 2, 0.5, 0.7, "random/2")
    assert m["open"] == [{"case": "random/1", "lo": 0.4, "hi": None, "reason": "budget"}]
    assert (m["lower_ends"]["cases"], m["lower_ends"]["no_witness"]) == (2, 1)
    assert [b["hi"] for b in m["brackets"]] == [1 + thm5_1.STRICT, 1 + thm5_1.STRICT, 0.705,
                                                0.503, 1 + thm5_1.STRICT]
    claim = {"id": "thm5.1", "measurements": ctx.measurements}
    path = tmp_path / pages.cstar_plot_name("thm5.1")
    assert pages.plot_cstar(claim, path).startswith("wrote")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24])[0] > 300
    doc = {"budget": "standard", "seed": 0, "manifest": {"claims": {}}}
    section = pages.generated_section(doc, dict(claim, verdict="PASS", cases=3, clauses={}))
    assert f"]({pages.cstar_plot_name('thm5.1')})" in section


def test_a_solver_status_other_than_optimal_or_infeasible_is_an_error(monkeypatch):
    """HiGHS returning e.g. status 4 (numerical trouble) propagates, naming the status: the
    claim becomes an ERROR, never a PASS or a quietly sampled case."""
    import types

    import linteach.certify.nodelp as nodelp
    from linteach.errors import SolverError
    monkeypatch.setattr(nodelp, "linprog", lambda *a, **kw: types.SimpleNamespace(
        status=4, message="numerical difficulties"))
    W = lt.certify.extremal_net(2, 0.3)[0] + 0.05 * np.random.default_rng(0).standard_normal((4, 2))
    with pytest.raises(SolverError, match="status 4"):
        thm5_1._certify([W], 0.3, thm5_1.BAND, 2)


def test_sharp_ratio_closes_a_bracket_and_replays_its_witness(monkeypatch):
    """The kit's bracket: closed to rtol, the upper end re-checked, the witness replayed from
    Eq. 1; a witness that does not disagree there is a defect, raised loudly."""
    from linteach.generators import clustered_weights
    from proofs_check.kit import certified
    rng = np.random.default_rng(1)
    W = clustered_weights(3, 5, r=0.4, rng=rng, center_norm=0.5)
    ck = lt.certify.sharp_constant(3, 0.5)
    got = certified.sharp_ratio(W, 0.5, ck, rtol=1e-2, rng=0)
    assert got["closed"] and got["reason"] is None
    assert 0 < got["lo"] <= got["hi"] <= got["lo"] * (1 + 1e-2) * (1 + 1e-12) <= 1
    real = lt.certify.c_star(W, alpha=0.5, rtol=1e-2)
    fake = real.__class__(real.lo * 1.5, real.hi, np.asarray(W[0]), real.certificate)
    monkeypatch.setattr(certified, "c_star", lambda *a, **kw: fake)
    with pytest.raises(RuntimeError, match="does not disagree"):
        certified.sharp_ratio(W, 0.5, ck, rtol=1e-2, rng=0)


@pytest.mark.parametrize("broken", ["witness_below", "certified_above", "exceeded"])
def test_a_construction_that_stops_pinning_or_a_search_counterexample_fails(broken):
    """The sharp-constant section is evidence, not only a measurement: a pinned construction
    without its witness or its certificate, or a searched net whose exact c*(W) exceeds
    c_k, makes the claim FAIL."""
    from proofs_check.engine.contract import Case
    pin = {"k": 3, "alpha": 0.3, "witness_below": True, "witness_ratio_over_ck": 1 - 5e-10,
           "certified_above": True, "certified_slack": 1e-9}
    search = {"k": 3, "alpha": 0.3, "full": False, "best": 0.999, "exceeded": False}
    if broken == "exceeded":
        search.update(best=1.01, exceeded=True)
    else:
        pin[broken] = False
    from proofs_check.kit.sharp_report import record_sharp
    clauses = {"attained": thm5_1.ATTAINED, "sharp": thm5_1.SHARP_CLAUSE}
    ctx = fresh_context(thm5_1)
    record_sharp(ctx, Case("sharp-constant", 1), {"pins": [pin], "search": [search]}, **clauses)
    assert verdict_of(ctx) == "FAIL"
    healthy = fresh_context(thm5_1)
    record_sharp(healthy, Case("sharp-constant", 1),
                 {"pins": [dict(pin, witness_below=True, certified_above=True)],
                  "search": [dict(search, best=0.999, exceeded=False)]}, **clauses)
    assert healthy.worst[thm5_1.ATTAINED].slack >= 0
    assert healthy.worst[thm5_1.SHARP_CLAUSE].slack >= 0


def test_the_enlarged_constant_control_fails_and_a_control_that_ignores_it_is_not_caught(
        monkeypatch):
    """The third control pins ENLARGE·c_k as if attained: it must FAIL.  A planted control
    that pins c_k itself (the factor dropped) passes, so the claim's control is not caught."""
    from proofs_check.kit import sharp_report
    ctx = fresh_context(thm5_1)
    thm5_1._control(ctx)
    assert ctx.control["caught"] and ctx.control["enlarged"]["verdict"] == "FAIL"
    assert ctx.control["enlarged"]["violations"] == len(sharp_report.KS)
    real = sharp_report.pin_construction
    monkeypatch.setattr(sharp_report, "pin_construction",
                        lambda k, a, factor=1.0: real(k, a))  # the factor ignored
    planted = fresh_context(thm5_1)
    thm5_1._control(planted)
    assert not planted.control["caught"]
    assert planted.control["enlarged"]["verdict"] != "FAIL"


# -- the clause records and the cases' construction, by value ---------------------------------
def _undecided():
    return {"status": "undecided", "band": None, "slack": None, "ratio": None,
            "reason": "k = 40 > 12: certified only at the thorough budget"}


def test_an_undecided_band_is_observed_from_its_points_or_else_inconclusive():
    """Undecided exactly: the band clause is recorded from its sampled points (observed), or
    the case is inconclusive when it has none; the sharp clause without sampled points is
    neither (its band may hold no point of the case)."""
    from proofs_check.engine.contract import Case
    case = Case("random", 3)
    out = {"alpha": 0.3, "k": 40, "c": 2.0,
           "certified": {thm5_1.CLAUSE: _undecided(), thm5_1.SHARP_CLAUSE: _undecided()}}
    ctx = fresh_context(thm5_1)
    thm5_1._record(ctx, case, out)
    assert ctx.counts["inconclusive"] == 1 and not ctx.worst
    ctx = fresh_context(thm5_1)
    thm5_1._record(ctx, case, {**out, "slack": np.array([0.5, 0.25]), "worst": {}})
    assert ctx.counts["inconclusive"] == 0 and list(ctx.worst) == [thm5_1.CLAUSE]
    assert ctx.worst[thm5_1.CLAUSE].slack == 0.25
    assert ctx.worst[thm5_1.CLAUSE].evidence == {"observed": 1}
    # both clauses sampled: each from its own points, the worst point's N, D, ratio with the
    # band clause only
    ctx = fresh_context(thm5_1)
    thm5_1._record(ctx, case, {**out, "slack": np.array([0.5]), "sampled_sharp": np.array([0.75]),
                               "worst": {"N": 1.0, "D": 2.0, "ratio": 3.0}})
    assert ctx.worst[thm5_1.CLAUSE].detail["N"] == 1.0
    assert ctx.worst[thm5_1.SHARP_CLAUSE].slack == 0.75
    assert "N" not in ctx.worst[thm5_1.SHARP_CLAUSE].detail


def test_a_proved_clause_records_its_least_slack_of_points_and_certificate():
    """Decided exactly: evidence 'proved', slack the least of the sampled points' and the
    certificate's; without sampled points, the certificate's."""
    from proofs_check.engine.contract import Case
    proved = {"status": "proved", "band": 2.0, "slack": 0.5, "ratio": None, "reason": None}
    out = {"alpha": 0.3, "k": 2, "c": 2.0, "slack": np.array([0.25, 0.75]), "worst": {},
           "certified": {thm5_1.CLAUSE: proved, thm5_1.SHARP_CLAUSE: dict(proved, slack=0.125)}}
    ctx = fresh_context(thm5_1)
    thm5_1._record(ctx, Case("random", 3), out)
    assert ctx.worst[thm5_1.CLAUSE].slack == 0.25
    assert ctx.worst[thm5_1.SHARP_CLAUSE].slack == 0.125
    assert ctx.worst[thm5_1.CLAUSE].evidence == {"proved": 1}


@pytest.fixture
def built_and_decided(monkeypatch):
    """Spies: the band g each extremal net is built at, and the nets handed to the exact
    decisions, in order."""
    built, decided = [], []
    real_build, real_certify = thm5_1.extremal_net, thm5_1.certify_nets

    def build(a, r, g, **kw):
        out = real_build(a, r, g, **kw)
        built.append((g, out[1]))
        return out

    def certify(nets, *args, **kw):
        decided.append(list(nets))
        return real_certify(nets, *args, **kw)

    monkeypatch.setattr(thm5_1, "extremal_net", build)
    monkeypatch.setattr(thm5_1, "certify_nets", certify)
    return built, decided


def test_an_extremal_case_builds_at_the_sharp_constant_the_band_edge_and_between(
        built_and_decided):
    """Its grid: c_k(α) and 2 exactly, four bands drawn in [c_k, 2], two in [2, 10]; every
    net decided, in the order built."""
    from proofs_check.engine.contract import Case
    built, decided = built_and_decided
    out = thm5_1._evaluate(Case("extremal", 5), "extremal", None, None)
    g = [b for b, _ in built]
    c_k = thm5_1.sharp(out["alpha"])
    assert len(g) == 8 and g[0] == c_k and g[1] == 2.0
    assert all(c_k <= b <= 2.0 for b in g[2:6]) and all(2.0 <= b <= 10.0 for b in g[6:])
    assert [id(W) for W in decided[0]] == [id(W) for _, W in built]


def test_the_shrunk_control_builds_between_its_band_and_the_sharp_constant_clearest_first(
        built_and_decided):
    """At c = SHRINK·c_k: eight nets at bands from c up to (not including) c_k, decided from
    the last built (the band nearest c_k) back."""
    from proofs_check.engine.contract import Case
    built, decided = built_and_decided
    out = thm5_1._evaluate(Case("extremal", 5), "extremal", None, thm5_1.SHRINK)
    g = [b for b, _ in built]
    c_k = thm5_1.sharp(out["alpha"])
    assert out["c"] == thm5_1.SHRINK * c_k
    np.testing.assert_array_equal(g, np.linspace(out["c"], c_k, 8, endpoint=False))
    assert [id(W) for W in decided[0]] == [id(W) for _, W in built][::-1]


@pytest.mark.parametrize("proved", [True, False])
def test_c_star_is_bracketed_only_where_the_sharp_clause_is_proved(monkeypatch, proved):
    from proofs_check.engine.contract import Case
    real = thm5_1._certify

    def certify(*args, **kw):
        got = real(*args, **kw)
        return got if proved else {**got, thm5_1.SHARP_CLAUSE: _undecided()}

    monkeypatch.setattr(thm5_1, "_certify", certify)
    calls = []
    monkeypatch.setattr(thm5_1, "sharp_ratio", lambda *a, **kw: calls.append(kw) or "bracketed")
    out = thm5_1._evaluate(Case("random", 7), "random", None, None, cstar=True)
    assert (out.get("cstar") == "bracketed") is proved
    assert "cstar" not in thm5_1._evaluate(Case("random", 7), "random", None, None)
    if proved:  # a flag True: the bracket alone (one node); ("close", n): closed within n
        thm5_1._evaluate(Case("random", 7), "random", None, None, cstar=("close", 500))
        assert [(kw["close"], kw["max_nodes"]) for kw in calls] == [(False, 1), (True, 500)]


def test_extremal_cases_are_drawn_over_their_stated_ranges(monkeypatch):
    """Over seeds 0–199: d uniform on FAMILIES["extremal"]["d"], both ends reached; r
    log-uniform in [1e-3, 10] (reaching below 1e-2 and past 9); the four bands between c_k and 2 and the
    two between 2 and 10 inside their ranges, and reaching past 1.9, below 2.5 and past 9."""
    from proofs_check.engine.contract import Case

    class Built(Exception):
        pass

    grid = []

    def build(a, r, g, *, d, rng):
        grid.append(g)
        if len(grid) == 8:
            raise Built(a, r, d)
        return real(a, r, g, d=d, rng=rng)

    real = thm5_1.extremal_net
    monkeypatch.setattr(thm5_1, "extremal_net", build)
    dims, radii, between, beyond = set(), [], [], []
    for seed in range(200):
        grid.clear()
        with pytest.raises(Built) as got:
            thm5_1._evaluate(Case("extremal", seed), "extremal", None, None)
        a, r, d = got.value.args
        dims.add(d)
        radii.append(r)
        c_k = thm5_1.sharp(a)
        assert all(c_k <= g <= 2.0 for g in grid[2:6]) and all(2.0 <= g <= 10.0 for g in grid[6:])
        between += grid[2:6]
        beyond += grid[6:]
    lo, hi = thm5_1.FAMILIES["extremal"]["d"]
    assert dims == set(range(lo, hi + 1))
    assert 1e-3 <= min(radii) < 1e-2 and 9.0 < max(radii) <= 10.0
    assert max(between) > 1.9 and min(beyond) < 2.5 and max(beyond) > 9.0


def test_a_witness_is_recorded_as_the_failure_it_is():
    """An exact disagreement (status 'witness', slack < 0) is recorded with its slack,
    proved, whatever the sampled points say."""
    from proofs_check.engine.contract import Case
    witness = {"status": "witness", "band": 2.0, "slack": -0.5, "ratio": 1.5, "reason": None}
    out = {"alpha": 0.3, "k": 2, "c": 2.0, "slack": np.array([0.5]), "worst": {},
           "certified": {thm5_1.CLAUSE: witness}}
    ctx = fresh_context(thm5_1)
    thm5_1._record(ctx, Case("random", 3), out)
    assert ctx.worst[thm5_1.CLAUSE].slack == -0.5 and verdict_of(ctx) == "FAIL"
    assert ctx.worst[thm5_1.CLAUSE].evidence == {"proved": 1}


@pytest.mark.parametrize("above", [0, 1])
def test_a_net_of_width_max_k_is_certified_and_a_wider_one_is_not(above):
    from proofs_check.engine.contract import Case
    case = Case("random", 7)
    k = thm5_1._evaluate(case, "random", None, None)["k"]
    out = thm5_1._evaluate(case, "random", None, None, max_k=k - above)
    reasons = [c["reason"] or "" for c in out["certified"].values()]
    assert any("certified only at the thorough budget" in why for why in reasons) is bool(above)


def test_a_shrunk_band_on_any_family_is_the_factor_times_its_sharp_constant(monkeypatch):
    from proofs_check.engine.contract import Case
    monkeypatch.setattr(thm5_1, "_certify", lambda *a, **kw: {})  # the band alone is asked
    out = thm5_1._evaluate(Case("random", 7), "random", None, 0.5)
    assert out["c"] == 0.5 * thm5_1.sharp(out["alpha"])


def test_sampled_points_with_a_net_each_are_judged_by_their_own_net_alone():
    """Two points in the regime, each with its own net (here the same net twice): two
    slacks, those of the points judged one by one."""
    from proofs_check.engine.contract import Case
    case = Case("random", 7)
    net, W = linear_regime.draw_net(case.rng, thm5_1.FAMILIES["random"])
    X = band_points(W, 2, c=4.0, rng=np.random.default_rng(0))
    got = thm5_1._sampled_at(net, [W, W], X, 2.0)
    alone = [sign_agreement(net, W, X[i:i + 1], c=2.0)["slack"] for i in range(2)]
    np.testing.assert_array_equal(got, np.concatenate(alone))
