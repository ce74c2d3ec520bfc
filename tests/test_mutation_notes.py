"""The mutation notes (``tools/mutation_notes*.py``) name mutants of the committed campaigns.

A note is keyed by (target, function, operator, line[, occurrence]) of a mutant stored in
``docs/mutation/<target>.json`` or ``docs/mutation/population/<target>.json``.  When code
moves, a campaign rerun stores its mutants at new lines and a note left at the old line
names nothing: the report then shows the mutant without its reason, or shows a reason
written for other code.  These tests fail on such a note, so the notes cannot rot.
(An sdist carries neither ``tools/`` nor the results: there the tests skip.)
"""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS, RESULTS = ROOT / "tools", ROOT / "docs" / "mutation"
if not (TOOLS / "mutation_notes.py").exists() or not RESULTS.is_dir():
    pytest.skip("the mutation tools and results are not in this tree (an sdist)",
                allow_module_level=True)
sys.path.insert(0, str(TOOLS))
from mutation_notes import EQUIVALENT, KILLED_BY, KILLED_BY_TARGET  # noqa: E402


def _stored():
    """Every stored mutant's key, with and without its occurrence; and the targets."""
    keys, targets = set(), set()
    for path in sorted(RESULTS.glob("*.json")) + sorted(RESULTS.glob("population/*.json")):
        res = json.loads(path.read_text())
        targets.add(res["target"])
        for r in res["mutants"]:
            key = (res["target"], r["function"], r["operator"], r["line"])
            keys |= {key, key + (r["occurrence"],)}
    return keys, targets


KEYS, TARGETS = _stored()


@pytest.mark.parametrize("table", ["EQUIVALENT", "KILLED_BY"])
def test_every_note_names_a_stored_mutant(table):
    notes = {"EQUIVALENT": EQUIVALENT, "KILLED_BY": KILLED_BY}[table]
    assert len(notes) > 100  # the tables were found and read
    stale = sorted((k for k in notes if k not in KEYS), key=str)
    assert stale == [], f"{len(stale)} notes of {table} name no stored mutant: {stale}"


def test_every_target_wide_note_names_a_stored_campaign():
    assert KILLED_BY_TARGET and sorted(t for t in KILLED_BY_TARGET if t not in TARGETS) == []


def test_a_note_at_a_moved_line_is_caught():
    """The control: the same note one line off names nothing stored."""
    key = next(iter(EQUIVALENT))
    moved = key[:3] + (key[3] + 10_000,) + key[4:]
    assert key in KEYS and moved not in KEYS
