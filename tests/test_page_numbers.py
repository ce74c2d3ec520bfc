"""The hand-written part of a claim page quotes no number from a run (issue 14.4).

A reviewer page ``docs/claims/<id>.md`` has a hand-written part and a generated section
(``proofs_check.pages``).  Numbers from a run (counts, ranges, medians, timings, seeds,
commit ids) belong in the generated section only: typed by hand they drift from the data.
This test fails on any number in the hand-written part that looks run-derived — a decimal
point or an exponent, or an integer ≥ 10, or a commit-like hex id — unless it is a constant
of the check: it appears in the claim module's source or the kit modules it imports, in
``docs/math.md``, or in :data:`ALLOWED` with a reason.
"""
import ast
import re
from pathlib import Path

import pytest

from proofs_check import pages
from proofs_check.engine import registry

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "docs" / "claims"
#: pages owned elsewhere whose hand-written part is not (yet) held to this rule
EXEMPT = {"thm5.1"}

#: numbers allowed on every page although no source states them, each with its reason
ALLOWED = {
    "0.278": "max_q q/(1 + e^q), a property of the logistic loss (thm4.1's G² looseness)",
}

# a number not glued to a word (thm6.1, log10, x_10 are names, not numbers)
NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w]|\.\d)")
# a commit-like hex id: 7 to 40 lowercase hex digits with at least one digit and one letter
COMMIT = re.compile(r"(?<![\w])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w])")


def hand_written_lines(text: str):
    """(line number, line) of ``text`` outside its generated section."""
    inside = False
    for no, line in enumerate(text.splitlines(), 1):
        if line.strip() == pages.BEGIN:
            inside = True
        elif line.strip() == pages.END:
            inside = False
        elif not inside:
            yield no, line


def looks_run_derived(token: str) -> bool:
    """A decimal point, an exponent, or an integer ≥ 10."""
    return "." in token or "e" in token.lower() or int(token) >= 10


def values(text: str) -> set:
    return {float(t) for t in NUMBER.findall(text)}


def _kit_sources(source: str) -> list:
    """The source of the ``proofs_check.kit`` modules a claim module imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
            if node.module == "kit":
                found += [a.name for a in node.names]
            elif node.module.startswith("kit."):
                found.append(node.module.split(".", 1)[1])
    paths = [ROOT / "proofs_check" / "kit" / f"{name}.py" for name in found]
    return [p.read_text() for p in paths if p.exists()]


def constants(claim_id: str) -> set:
    """Numbers a page of ``claim_id`` may quote: the check's and the mathematics' own."""
    source = (ROOT / "proofs_check" / "claims" / f"{registry.CHECKS[claim_id]}.py").read_text()
    texts = [source, (ROOT / "docs" / "math.md").read_text()] + _kit_sources(source)
    return set().union(*(values(t) for t in texts)) | {float(t) for t in ALLOWED}


def violations(text: str, allowed: set) -> list:
    """(line number, token) of every run-derived-looking number in ``text``'s hand-written part."""
    found = []
    for no, line in hand_written_lines(text):
        found += [(no, t) for t in COMMIT.findall(line)]
        found += [(no, t) for t in NUMBER.findall(line)
                  if looks_run_derived(t) and float(t) not in allowed]
    return found


def test_the_detector_catches_run_numbers_and_spares_constants():
    allowed = {6.1, 1e-3, 2000.0}
    page = ("# `thm6.1` (Theorem 6.1)\n\nTolerance 1e-3, 2000 steps, log10 of r, x_10, 3 runs.\n"
            "Found 1 − cos = 0.098 on 13 of 13 runs in 11 s; median 1.5e-5 (commit 3b4c184).\n"
            f"{pages.BEGIN}\nGenerated: 0.6385, 51 evaluations.\n{pages.END}\nAfter: 42 cases.\n")
    assert violations(page, allowed) == [(4, "3b4c184"), (4, "0.098"), (4, "13"), (4, "13"),
                                         (4, "11"), (4, "1.5e-5"), (8, "42")]


@pytest.mark.parametrize("claim_id", [c for c in registry.CHECKS if c not in EXEMPT])
def test_hand_written_part_has_no_run_derived_numbers(claim_id):
    text = (PAGES / f"{claim_id}.md").read_text()
    found = violations(text, constants(claim_id))
    assert not found, (f"docs/claims/{claim_id}.md quotes numbers that look run-derived in its "
                       f"hand-written part (line: token): {found}; let them come from the "
                       "generated section, or name the check's constant")


@pytest.mark.parametrize("claim_id", list(registry.CHECKS))
def test_files_a_page_names_exist(claim_id):
    text = (PAGES / f"{claim_id}.md").read_text()
    named = set(re.findall(r"(?<![\w/])((?:proofs_check|linteach|tests)/[\w/]+\.py)", text))
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"docs/claims/{claim_id}.md names files that do not exist: {missing}"
