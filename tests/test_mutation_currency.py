"""``docs/mutation.md`` says which stored campaigns are older than their code
(``tools/mutation_currency.py``), and says it of today's tree: the committed page is the one
``python tools/mutate.py report`` writes now, so an edit to a mutation target that leaves a
stored mutant's line gone shows in the page (or fails this test until the page is
regenerated).  An sdist carries neither ``tools/`` nor the results: there the tests skip."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS, RESULTS = ROOT / "tools", ROOT / "docs" / "mutation"
if not (TOOLS / "mutation_currency.py").exists() or not RESULTS.is_dir():
    pytest.skip("the mutation tools and results are not in this tree (an sdist)",
                allow_module_level=True)
sys.path.insert(0, str(TOOLS))
from mutation_currency import campaign_states, old_side, state  # noqa: E402
from mutation_report import report  # noqa: E402

DIFF = """--- mutation diff ---
--- a/pkg/m.py
+++ b/pkg/m.py
@@ -3,7 +3,7 @@
 def f(x):
     y = x
     z = y
-    return y + z
+    return y - z
 
 
 def g():
"""
FILE = ["import numpy", "", "def f(x):", "    y = x", "    z = y", "    return y + z", "", "",
        "def g():", "    pass"]


def test_the_committed_report_is_the_generated_one(tmp_path):
    report(RESULTS, tmp_path / "mutation.md")
    assert (tmp_path / "mutation.md").read_text() == (ROOT / "docs" / "mutation.md").read_text(), \
        "stale: python tools/mutate.py report"


def test_the_old_side_of_a_diff_is_its_context_and_removed_lines():
    first, old, removed = old_side(DIFF)
    assert (first, removed) == (3, ["    return y + z"])
    assert old == FILE[2:9]


@pytest.mark.parametrize("edit, expected", [
    (lambda f: f, "current"),
    (lambda f: ["# a new first line"] + f, "moved"),
    (lambda f: f[:4] + ["    z = 2 * y"] + f[5:], "context"),
    (lambda f: f[:5] + ["    return y * z"] + f[6:], "gone"),
    (lambda f: f[:5] + ["    return y + z  # a comment"] + f[6:], "gone"),
])
def test_a_mutant_is_current_moved_in_new_context_or_gone(edit, expected):
    assert state(edit(list(FILE)), DIFF) == expected


def test_a_diff_without_a_hunk_is_an_error():
    with pytest.raises(ValueError, match="no hunk header"):
        old_side("--- mutation diff ---\n")


def test_a_campaign_counts_its_mutants_against_the_file_of_the_tree_given(tmp_path):
    res = {"file": "pkg/m.py", "mutants": [{"diff": DIFF}] * 3}
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text("\n".join(FILE) + "\n")
    assert campaign_states(res, tmp_path) == {"current": 3, "moved": 0, "context": 0, "gone": 0}
    (tmp_path / "pkg" / "m.py").write_text("\n".join(FILE).replace("y + z", "y + 1") + "\n")
    assert campaign_states(res, tmp_path)["gone"] == 3
    (tmp_path / "pkg" / "m.py").unlink()
    assert campaign_states(res, tmp_path)["gone"] == 3  # the file itself is gone


def test_every_stored_diff_has_a_hunk():
    for path in sorted(RESULTS.glob("*.json")) + sorted(RESULTS.glob("population/*.json")):
        for r in json.loads(path.read_text())["mutants"]:
            first, old, removed = old_side(r["diff"])
            assert first >= 1 and removed, (path.name, r["line"])


def test_a_mutant_on_the_last_line_is_current_in_a_file_that_ends_in_a_newline(tmp_path):
    """cosmic-ray splits a file on newlines, so its last hunk ends in an empty line."""
    diff = "@@ -2,3 +2,3 @@\n def h():\n-    return a + b\n+    return a - b\n \n"
    (tmp_path / "m.py").write_text("x = 1\ndef h():\n    return a + b\n")
    res = {"file": "m.py", "mutants": [{"diff": diff}]}
    assert campaign_states(res, tmp_path)["current"] == 1
