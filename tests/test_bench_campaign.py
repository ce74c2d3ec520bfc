"""Rows C of the benchmark (campaign costs) and the generated part of docs/scale.md."""
from pathlib import Path

import pytest

from linteach.bench import rows_campaign as rc
from proofs_check import throughput
from proofs_check.engine import registry

ROOT = Path(__file__).resolve().parents[1]


def _doc():
    step = {"µs per step per run": {f"R={r}": 100.0 / r ** 0.5 for r in rc.RUNS},
            "batched/sequential": {f"R={r}": r ** 0.5 for r in rc.RUNS},
            "µs two-matmul floor (one run)": 4.0, "µs one small NumPy call": 0.5}
    rows = [{"id": "C1 fam (n=3) ratio", "value": 16.0, "unit": "×", "target": ">= 10×",
             "met": True, "detail": step},
            {"id": "C1 fam (n=3) floor", "value": 1.5, "unit": "×", "target": "<= 3×",
             "met": True, "detail": {}},
            {"id": "C3 thm6.1 (standard)", "value": 2.0, "unit": "×", "target": ">= 5×",
             "met": False, "detail": {"cases": 21, "cases/s now": 0.4, "cases/s before": 0.2,
                                      "same report": True}},
            {"id": "1 (other row)", "value": 1.0, "unit": "×", "target": "<= 2×", "met": True}]
    return {"rows": rows, "machine": {"cpus": 2, "cpu": "x", "load_average_end": [1, 2, 3]}}


def test_scale_section_marks_every_campaign_row_met_or_missed():
    text = rc.scale_section(_doc())
    assert text.startswith(rc.BEGIN) and text.endswith(rc.END)
    assert "| thm6.1 (standard) | 21 | 0.4 | 0.2 | 2 | >= 5× | missed | True |" in text
    assert "| C1 fam (n=3) ratio | 16× | >= 10× | met |" in text
    assert "other row" not in text  # only rows C belong to the scale page


def test_write_scale_replaces_only_its_own_part(tmp_path):
    page = tmp_path / "scale.md"
    page.write_text("# Title\n\nhand-written\n")
    rc.write_scale(page, _doc())
    once = page.read_text()
    assert once.startswith("# Title\n\nhand-written\n") and rc.BEGIN in once
    rc.write_scale(page, _doc())
    assert page.read_text() == once
    doc = _doc()
    doc["rows"][2]["detail"]["cases/s now"] = 9.0
    rc.write_scale(page, doc)
    assert "| 9 |" in page.read_text() and page.read_text().count(rc.BEGIN) == 1


def test_committed_scale_page_has_a_generated_campaign_part():
    text = (ROOT / "docs" / "scale.md").read_text()
    assert text.count(rc.BEGIN) == 1 and text.count(rc.END) == 1


def test_old_groupings_name_checks_that_fix_their_batch_size():
    for claim_id, old in throughput.OLD_CHUNK.items():
        module = registry.load(claim_id)
        assert isinstance(module.CHUNK, int) and module.CHUNK > old


@pytest.mark.slow
@pytest.mark.long  # a benchmark row's whole campaign, twice
def test_throughput_old_and_new_grouping_give_the_same_report():
    m = throughput.measure("appJ", budget="quick", cases=4)
    assert m["chunk"] == {"now": registry.load("appJ").CHUNK, "old": 3}
    assert m["same_report"] is True and m["now"]["cases"] == m["old"]["cases"] >= 4


def test_naive_seconds_times_the_outermost_reference_calls_and_restores_the_module():
    """The time in ``audit_ref``'s public functions: every call counted once (a reference
    calling another through the module counts as one call), nothing outside them, and the
    module's functions are its own again afterwards."""
    import time as clock
    from proofs_check.kit import audit_ref
    before = {name: getattr(audit_ref, name) for name in audit_ref.__all__}
    name, other = "forward", "log_sum_loss"
    assert name in audit_ref.__all__ and other in audit_ref.__all__
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(audit_ref, name, lambda *a: clock.sleep(0.05))
        mp.setattr(audit_ref, other, lambda *a: (audit_ref.forward(), clock.sleep(0.05)))
        with throughput.naive_seconds() as spent:
            clock.sleep(0.1)  # outside every reference: not counted
            audit_ref.forward()
            audit_ref.log_sum_loss()  # 0.1 s in all, of which forward's 0.05 s is nested
        assert 0.15 <= spent[0] < 0.25
        assert audit_ref.forward is not before[name]  # the test's own stand-in, restored
    assert {n: getattr(audit_ref, n) for n in audit_ref.__all__} == before


def test_trainer_seconds_times_the_trainers_less_their_hooks_and_restores_the_package():
    """The time inside ``lt.sgd``/``lt.gd``/``lt.gradient_flow``: a nested call counted once,
    the hooks they call back (callback, on_epoch) and everything outside left out, and the
    package's trainers its own again afterwards."""
    import time as clock
    import linteach
    before = {name: getattr(linteach, name) for name in throughput.TRAINERS}

    def fake(*args, callback=None, on_epoch=None, nested=False):
        clock.sleep(0.05)
        if nested:
            linteach.gd()  # a trainer inside a trainer: its 0.05 s counted once
        for hook in (callback, on_epoch):
            if hook is not None:
                hook()

    with pytest.MonkeyPatch.context() as mp:
        for name in throughput.TRAINERS:
            mp.setattr(linteach, name, fake)
        with throughput.trainer_seconds() as spent:
            clock.sleep(0.1)  # outside every trainer: not counted
            linteach.gradient_flow(callback=lambda: clock.sleep(0.1))  # 0.05 s
            linteach.sgd(nested=True, on_epoch=lambda: clock.sleep(0.1))  # 0.1 s
            # a hook that trains (its trainer's own hook inside): the whole hook left out
            linteach.gd(callback=lambda: linteach.sgd(on_epoch=lambda: clock.sleep(0.05)))
        assert 0.19 <= spent[0] < 0.25  # 0.05 + 0.1 + 0.05
        assert linteach.sgd is fake  # the test's own stand-in, restored
    assert {n: getattr(linteach, n) for n in throughput.TRAINERS} == before


def test_trainer_seconds_sees_the_trainers_the_checks_really_call():
    """On real checks: one that trains (odd-part) spends some but not all of its time in the
    trainers, one that does not (appD.1) none; and no check reaches a trainer other than as
    ``lt.<name>`` (an import by name would bypass the timer and understate the time)."""
    import re
    trains = throughput.measure("odd-part", budget="quick", old=False)["now"]
    assert 0.0 < trains["trainer_seconds"] < trains["seconds"]
    assert throughput.measure("appD.1", budget="quick", old=False)["now"]["trainer_seconds"] == 0
    names = "|".join(throughput.TRAINERS)
    bypass = re.compile(rf"from linteach(\.train)? import [^\n]*\b({names})\b"
                        rf"|linteach\.train\.({names})\b")
    root = Path(throughput.__file__).parent
    assert [f for f in root.rglob("*.py") if bypass.search(f.read_text())] == []


def test_c4_rows_carry_the_naive_seconds_and_the_rate_they_allow(monkeypatch):
    from linteach.bench import rows_claims as rcl
    out = [{"claim": "eq6", "chunk": {"now": 4}, "now": {
        "cases": 20, "cases_per_s": 2.0, "seconds": 10.0, "naive_seconds": 2.5,
        "verdict": "PASS"}}]
    _fake_throughput(monkeypatch, rcl, out)
    [row] = rcl.every_claim(budget="standard")
    assert row["detail"]["naive reference seconds"] == 2.5
    assert row["detail"]["cases/s if only the naive references cost"] == 8.0
    assert row["detail"]["cases/s if the trainers took no time"] is None  # not measured
    out[0]["now"]["trainer_seconds"] = 7.5
    [row] = rcl.every_claim(budget="standard")
    assert row["detail"]["trainer seconds"] == 7.5
    assert row["detail"]["cases/s if the trainers took no time"] == 8.0  # 20 cases in 2.5 s
    assert "| 7.5 | 8 |" in "\n".join(rcl.section([row]))
    del out[0]["now"]["naive_seconds"]  # a report of an older throughput tool
    [row] = rcl.every_claim(budget="standard")
    assert row["detail"]["cases/s if only the naive references cost"] is None


def test_merged_documents_let_a_later_row_replace_an_earlier_one():
    first, second = _doc(), _doc()
    second["rows"] = [dict(second["rows"][0], value=99.0)]
    rows = {r["id"]: r for r in rc.merged([first, second])["rows"]}
    assert rows["C1 fam (n=3) ratio"]["value"] == 99.0 and len(rows) == len(first["rows"])


def test_sgd_rows_time_the_callback_and_the_on_epoch_filing_against_plain_sgd():
    rows = {r["id"]: r for r in rc.sgd_updates(repeats=1)}
    for row_id in ("C2 callback", "C2 on_epoch"):
        assert rows[row_id]["value"] > 0 and rows[row_id]["met"] in (True, False)
    assert rows["C2 on_epoch"]["target"] == "<= 1.2×"


def test_claim_rows_run_at_a_campaign_size_and_say_so(monkeypatch):
    """Rows C3 measure CAMPAIGN_CASES cases per family (the standard budget's own few cases
    cannot show batching), pass that size to the throughput run, and name it in the row."""
    import json
    import subprocess
    seen = {}
    out = [{"claim": "eq6", "chunk": {"now": 128, "old": 4}, "speedup": 6.0,
            "same_report": True, "now": {"cases": 64, "cases_per_s": 4.0, "seconds": 16.0,
                                        "verdict": "PASS"},
            "old": {"cases": 64, "cases_per_s": 0.66, "seconds": 97.0}}]

    def fake_run(args, **kw):
        seen["args"] = args
        return subprocess.CompletedProcess(args, 0, stdout=json.dumps(out) + "\n", stderr="")
    monkeypatch.setattr(rc.subprocess, "run", fake_run)
    rows = rc.claim_throughput(claims=("eq6",))
    assert seen["args"][-2:] == ["--cases", str(rc.CAMPAIGN_CASES)]
    assert rows[0]["id"] == f"C3 eq6 (standard sizes, {rc.CAMPAIGN_CASES} cases per family)"
    assert rows[0]["met"] is True
    rc.claim_throughput(claims=("eq6",), cases=None)
    assert "--cases" not in seen["args"]


def _fake_throughput(monkeypatch, module, out):
    import json
    import subprocess
    seen = {}

    def fake_run(args, **kw):
        seen["args"] = args
        return subprocess.CompletedProcess(args, 0, stdout=json.dumps(out) + "\n", stderr="")
    monkeypatch.setattr(module.subprocess, "run", fake_run)
    return seen


def test_every_claim_rows_judge_only_the_claims_with_a_filed_thorough_rate(monkeypatch):
    """Rows C4 run every registered claim once, with its own batching only (no old grouping);
    a target (5× the filed thorough rate) goes only to a judged thorough row of a claim
    whose rate was filed; every other row reports its cases/s without a target."""
    from linteach.bench import rows_claims as rcl
    filed = next(iter(rcl.FILED))
    out = [{"claim": c, "chunk": {"now": 4}, "now": {"cases": 20, "cases_per_s": rate,
                                                      "seconds": 20 / rate, "verdict": "PASS"}}
           for c, rate in ((filed, rcl.FILED[filed] * rcl.TARGET_FACTOR * 1.01),
                           ("cor6.1", 50.0))]
    seen = _fake_throughput(monkeypatch, rcl, out)
    rows = rcl.every_claim(budget="thorough", cases=rcl.THOROUGH_CASES)
    args = seen["args"]
    assert args[args.index("--claims") + 1] == "all" and "--no-old" in args
    assert args[-2:] == ["--cases", str(rcl.THOROUGH_CASES)]
    assert all(r["met"] is None and r["target"] == "–" for r in rows)  # not the filed basis
    judged = {r["id"].split()[1]: r for r in rcl.every_claim(budget="thorough", judged=True,
                                                             claims=(filed, "cor6.1"))}
    assert seen["args"][seen["args"].index("--claims") + 1] == f"{filed},cor6.1"
    assert "--cases" not in seen["args"]
    assert judged[filed]["id"] == f"C4 {filed} (thorough budget)"
    assert judged[filed]["met"] is True
    assert judged[filed]["target"] == f">= {rcl.FILED[filed] * rcl.TARGET_FACTOR:g} cases/s"
    assert judged["cor6.1"]["met"] is None and judged["cor6.1"]["target"] == "–"
    out[0]["now"]["cases_per_s"] = rcl.FILED[filed] * rcl.TARGET_FACTOR * 0.99
    assert rcl.every_claim(budget="thorough", judged=True)[0]["met"] is False
    standard = rcl.every_claim(budget="standard", judged=True)
    assert "--cases" not in seen["args"] and all(r["met"] is None for r in standard)
    assert standard[0]["id"] == f"C4 {filed} (standard budget)"
    with pytest.raises(ValueError, match="`budget` must be one of"):
        rcl.every_claim(budget="quick")


def test_thorough_rows_add_the_filed_claims_at_the_budgets_counts_and_their_marginal_rate(
        monkeypatch):
    """The thorough C4 rows: every claim at THOROUGH_CASES per family (no target), the filed
    claims at the budget's own counts (judged) and at CAMPAIGN_CASES per family, and per
    filed claim the marginal rate, the extra cases over the extra seconds (not judged)."""
    from linteach.bench import rows_claims as rcl
    calls = []

    def fake(budget, cases, claims, timeout):
        calls.append((cases, claims))
        per = {None: (10, 5.0), rcl.THOROUGH_CASES: (4, 4.0), rcl.CAMPAIGN_CASES: (70, 11.0)}
        n, s = per[cases]
        return [{"claim": c, "chunk": {"now": 64}, "now": {"cases": n, "seconds": s,
                                                           "cases_per_s": n / s,
                                                           "verdict": "PASS"}}
                for c in (claims or ("thm4.1", "cor6.1"))]
    monkeypatch.setattr(rcl, "_measure", fake)
    rows = rcl.budget_rows("thorough")
    assert calls == [(rcl.THOROUGH_CASES, None), (None, tuple(rcl.FILED)),
                     (rcl.CAMPAIGN_CASES, tuple(rcl.FILED))]
    by = {r["id"]: r for r in rows}
    where = f"thorough sizes, marginal from the budget's counts to {rcl.CAMPAIGN_CASES} per family"
    for claim, rate in rcl.FILED.items():
        m = by[f"C4 {claim} ({where})"]
        assert m["value"] == pytest.approx(60 / 6.0) and m["met"] is None
        assert m["detail"]["cases"] == 60 and m["detail"]["now / filed"] == pytest.approx(10 / rate)
        assert by[f"C4 {claim} (thorough budget)"]["met"] == (2.0 >= rcl.TARGET_FACTOR * rate)
    assert sum(r["met"] is not None for r in rows) == len(rcl.FILED)
    calls.clear()
    assert len(rcl.budget_rows("standard")) == 2 and calls == [(None, None)]
    broken = {"detail": {"cases": 10, "seconds": 5.0}, "id": "C4 eq6 (thorough budget)"}
    assert rcl.marginal(broken, {"detail": {"cases": 10, "seconds": 4.0}})["value"] is None


def test_scale_section_lists_every_claim_row_and_leaves_untargeted_ones_out_of_the_verdicts():
    doc = _doc()
    doc["rows"] += [{"id": "C4 cor6.1 (standard budget)", "value": 50.0, "unit": " cases/s",
                     "target": "–", "met": None, "detail": {"cases": 9, "seconds": 0.18,
                                                           "load average at the end": [1, 2, 3]}},
                    {"id": "C4 eq6 (thorough sizes, 4 per family)", "value": 3.0,
                     "unit": " cases/s", "target": ">= 9.5 cases/s", "met": False,
                     "detail": {"cases": 8, "seconds": 2.7, "filed cases/s": 1.9,
                                "now / filed": 3.0 / 1.9, "naive reference seconds": 0.5,
                                "cases/s if only the naive references cost": 16.0,
                                "trainer seconds": 2.2,
                                "cases/s if the trainers took no time": 8 / 0.5}}]
    text = rc.scale_section(doc)
    assert "| cor6.1 (standard budget) | 9 | 0.18 | 50 | – | – | – | – | – | – | – | – |\n" \
        in text
    assert "| eq6 (thorough sizes, 4 per family) | 8 | 2.7 | 3 | 0.5 | 16 | 2.2 | 16 | 1.9 | " \
           "1.58 | >= 9.5 cases/s | missed |\n" in text
    assert "| C4 eq6 (thorough sizes, 4 per family) | 3 cases/s | >= 9.5 cases/s | missed |" \
        in text
    assert "| C4 cor6.1" not in text  # no target: not in the met/missed table
    assert "load averages at their end: standard budget: 1.0 / 2.0 / 3.0." in text


def test_throughput_all_names_every_registered_claim(monkeypatch, capsys):
    seen = []
    monkeypatch.setattr(throughput, "measure",
                        lambda c, **kw: seen.append((c, kw["old"])) or {"claim": c})
    assert throughput.main(["--claims", "all", "--no-old", "--budget", "quick"]) == 0
    assert seen == [(c, False) for c in registry.CHECKS]


def test_bench_refuses_an_unknown_claims_budget_before_measuring(capsys):
    from linteach.bench import run
    with pytest.raises(SystemExit):
        run.main(["--claims-budgets", "standard,huge", "--campaign-only"])
    err = capsys.readouterr().err
    assert "`--claims-budgets` must name budgets among standard, thorough, got huge" in err


def test_a_quick_bench_runs_no_whole_claim_check_unless_asked(monkeypatch, tmp_path):
    """Rows C3 and C4 run whole claim checks (tens of minutes): --quick leaves them out by
    default and runs them when their budgets are named; rows C5 (executors) only without
    --quick."""
    from linteach.bench import rows_claims, rows_executors, run
    ran = []
    monkeypatch.setattr(rows_executors, "executor_rows", lambda: ran.append(("C5", {})) or [])
    monkeypatch.setattr(rc, "flow_steps", lambda **kw: [])
    monkeypatch.setattr(rc, "sgd_updates", lambda **kw: [])
    monkeypatch.setattr(rc, "claim_throughput", lambda **kw: ran.append(("C3", kw)) or [])
    monkeypatch.setattr(rows_claims, "budget_rows",
                        lambda budget: ran.append(("C4", {"budget": budget})) or [])
    out = ["--campaign-only", "--quiet", "--json", str(tmp_path / "b.json")]
    assert run.main(["--quick", *out]) == 0 and ran == []
    assert run.main(["--quick", "--claims-budgets", "standard", *out]) == 0
    assert ran == [("C4", {"budget": "standard"})]
    ran.clear()
    assert run.main(out) == 0
    assert [r[0] for r in ran] == ["C3", "C4", "C4", "C5"]
    assert [r[1]["budget"] for r in ran[:3]] == ["standard", "standard", "thorough"]


def test_executor_rows_report_each_executor_and_workload_and_render_one_table(monkeypatch):
    """Rows C5: per executor and workload the median cases/s per worker of the timed runs
    (never judged), its dispatch cost, and a row saying what could not be measured."""
    from linteach.bench import rows_executors as rex
    out = [{"executor": "in-process", "workers": 1, "workloads": [
                {"claim": "self.sgd", "cases": 100, "seconds": [0.5, 0.25],
                 "cases_per_s_per_worker": [200.0, 400.0], "verdict": "PASS"}]},
           {"executor": "local pool", "workers": 2, "dispatch_ms": 0.5, "workloads": [
               {"claim": "self.sgd", "cases": 100, "seconds": [1.0, 1.0],
                "cases_per_s_per_worker": [50.0, 50.0], "verdict": "PASS"}]},
           {"executor": "Dask LocalCluster", "workers": 2, "workloads": [],
            "missing": "ImportError: no dask"}]
    seen = _fake_throughput(monkeypatch, rex, out)
    rows = rex.executor_rows()
    assert seen["args"][1:] == ["-m", "proofs_check.executor_throughput"]
    by = {r["id"]: r for r in rows}
    assert by["C5 in-process, 1 worker: self.sgd"]["value"] == 300.0  # the median
    assert by["C5 local pool, 2 workers: dispatch"]["value"] == 0.5
    assert by["C5 Dask LocalCluster, 2 workers"]["missing"] == "ImportError: no dask"
    assert all(r["met"] is None and r["target"] == "–" for r in rows)
    text = "\n".join(rex.section(rows))
    assert "| in-process, 1 worker | 300 (0.5 / 0.2) | – |" in text
    assert "| local pool, 2 workers | 50 (1.0 / 1.0) | 0.5 |" in text
    assert "| Dask LocalCluster, 2 workers | – | not measured: ImportError: no dask |" in text
    assert "C5" in rc.scale_section({"rows": rows, "machine": {}})


def test_executor_throughput_runs_each_workload_warm_and_times_the_rest(monkeypatch):
    from proofs_check import executor_throughput as et
    calls = []

    class Result:
        families, cases, verdict = {"f": 3}, 3, "PASS"
    monkeypatch.setattr(et, "run_one", lambda c, **kw: calls.append((c, kw["cases"])) or Result)
    out = et.measure(repeats=2, executors_=(("in-process", 1, None),),
                     workloads=(("self.sgd", 3),))
    assert calls == [("self.sgd", 3)] * 3  # one untimed warm-up, then the two timed runs
    w = out[0]["workloads"][0]
    assert len(w["seconds"]) == 2 and w["cases"] == 3 and "dispatch_ms" not in out[0]
