"""``python tools/mutate.py run TARGET --refresh`` carries a stored verdict only to the same
mutation of the same code, and judges everything else (``tools/mutation_refresh.py``).
The parts that need cosmic-ray (the ``mutate`` extra) skip without it."""
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]
if not (ROOT / "tools" / "mutation_refresh.py").exists():
    pytest.skip("the mutation tools are not in this tree (an sdist)", allow_module_level=True)
sys.path.insert(0, str(ROOT / "tools"))
from mutation_refresh import CARRIED, carry, hunk_key, merged, stored_campaign  # noqa: E402

SOURCE = "import os\n\n\ndef f(x):\n    y = x\n    z = y\n    return y + z\n\n\ndef g():\n    return 1\n"
ADD_SUB = "core/ReplaceBinaryOperator_Add_Sub"


def _diff(tmp_path, source, operator=ADD_SUB, occurrence=0):
    pytest.importorskip("cosmic_ray")
    from mutation_refresh import today_diff

    path = tmp_path / "m.py"
    path.write_text(source)
    return today_diff(path, "m.py", SimpleNamespace(operator_name=operator,
                                                    occurrence=occurrence))


def test_a_mutation_of_the_same_code_has_the_same_key_wherever_it_stands(tmp_path):
    here = _diff(tmp_path, SOURCE)
    assert "-    return y + z" in here and "+    return y - z" in here
    moved = _diff(tmp_path, "# a new first line\n" + SOURCE)
    assert moved != here and hunk_key(moved) == hunk_key(here)
    new_context = _diff(tmp_path, SOURCE.replace("z = y", "z = 2 * y"))
    assert hunk_key(new_context) != hunk_key(here)  # the control: a neighbour changed
    assert _diff(tmp_path, SOURCE, occurrence=5) is None  # no such mutant


def test_a_diff_without_a_hunk_has_no_key():
    with pytest.raises(ValueError, match="no hunk header"):
        hunk_key("--- mutation diff ---")


def test_a_sampled_or_missing_campaign_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="no stored campaign"):
        stored_campaign(tmp_path / "none.json")
    (tmp_path / "s.json").write_text(json.dumps({"target": "t", "sampled_out": 9}))
    with pytest.raises(SystemExit, match="random sample"):
        stored_campaign(tmp_path / "s.json")


def test_the_merge_orders_by_line_and_counts_what_it_carried_judged_and_dropped():
    stored = {"mutants": [{"line": 1}] * 3, "rechecked_with": {"tests": []}, "not_run": 4}
    row = {"operator": ADD_SUB, "occurrence": 0}
    fresh = {"target": "t", "mutants": [{**row, "line": 9}]}
    out = merged(stored, fresh, [{**row, "line": 2}, {**row, "line": 12}])
    assert [r["line"] for r in out["mutants"]] == [2, 9, 12]
    assert {k: out["refreshed"][k] for k in ("carried", "judged", "dropped")} == \
        {"carried": 2, "judged": 1, "dropped": 1}
    assert "not_run" not in out and out["rechecked_with"] == {"tests": []}


@pytest.mark.slow
def test_a_refresh_carries_the_unchanged_mutants_of_a_cosmic_ray_session(tmp_path):
    """A real session of a file with two functions; the stored campaign judged the file
    before ``f`` changed: ``g``'s mutants are carried (at their new lines), ``f``'s are not."""
    pytest.importorskip("cosmic_ray")
    from cosmic_ray.work_db import WorkDB, use_db

    old = "\n" + SOURCE
    stored = {"target": "t", "file": "m.py", "mutants": []}
    for occurrence in range(2):  # y + z in f (occurrence 0), nothing else of Add_Sub
        diff = _diff(tmp_path, old, occurrence=occurrence)
        if diff:
            stored["mutants"].append({"operator": ADD_SUB, "occurrence": occurrence, "line": 0,
                                      "function": "f", "verdict": "killed by tests",
                                      "diff": diff})
    number = _diff(tmp_path, old, "core/NumberReplacer", 0)  # return 1 in g
    stored["mutants"].append({"operator": "core/NumberReplacer", "occurrence": 0, "line": 0,
                              "function": "g", "verdict": "survived", "diff": number})
    today = SOURCE.replace("y + z", "y + 2 * z")
    (tmp_path / "m.py").write_text(today)
    (tmp_path / "c.toml").write_text(
        '[cosmic-ray]\nmodule-path = "m.py"\ntimeout = 10\nexcluded-modules = []\n'
        'test-command = "true"\n[cosmic-ray.distributor]\nname = "local"\n')
    bin_dir = Path(sys.executable).parent
    subprocess.run([str(bin_dir / "cosmic-ray"), "init", "c.toml", "s.sqlite"], cwd=tmp_path,
                   check=True, capture_output=True)
    carried = carry(tmp_path / "s.sqlite", tmp_path, stored, lambda line: f"line {line}")
    assert [(r["operator"], r["verdict"], r["line"], r["function"]) for r in carried] == \
        [("core/NumberReplacer", "survived", 11, "line 11")]
    with use_db(str(tmp_path / "s.sqlite"), WorkDB.Mode.open) as db:
        done = [r.output for _i, r in db.completed_work_items]
        pending = [i.mutations[0].operator_name for i in db.pending_work_items]
    assert done == [CARRIED] and ADD_SUB in pending  # f's mutants are left to judge


def test_the_killer_is_read_from_the_judges_output():
    from mutation_recheck import killer_of

    assert killer_of("KILLED-BY: verify (eq6)\n...") == "claim eq6 at the quick budget"
    assert killer_of("KILLED-BY: verify (ALL)\n") == "a claim"
    tail = ("FAILED tests/test_a.py::test_b[x-1] - AssertionError: 1 != 2\n"
            "1 failed, 3 passed in 1.2s\nKILLED-BY: tests\n")
    assert killer_of(tail) == "tests/test_a.py::test_b[x-1]"
    assert killer_of("KILLED-BY: tests\nsomething else\n") is None
    assert killer_of("SURVIVED\n") is None
