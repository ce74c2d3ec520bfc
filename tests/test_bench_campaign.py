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
