"""The census of the public API on hostile input (tests/_fuzz_census.py, docs/robustness.md).

``make test`` runs a small census (a few inputs per function) and requires no wrong answer,
no unclear error and no escaping warning; ``make verify`` (slow) reruns the committed census
and requires the same, plus a docs/robustness.md whose generated table is this run's.
"""
import pytest

import _fuzz_census as census

BAD = ("wrong answer", "unclear error", "warning")


def _check(table, notes):
    for name, counts in table.items():
        bad = sum(counts[o] for o in BAD)
        if name in census.KNOWN_OPEN:
            continue
        assert bad == 0, f"{name}: {dict(counts)}\n" + "\n".join(
            n for n in notes if n.startswith(name + " "))
    assert set(census.KNOWN_OPEN) <= set(table)


def test_quick_census_has_no_bad_outcome(rng_seed):
    table, notes = census.run_census(per_function=4, seed=rng_seed)
    _check(table, notes)
    assert all(sum(c.values()) == 4 for c in table.values())


@pytest.mark.slow
@pytest.mark.long  # 6,500 hostile calls (20 s of CPU); the fuzz tests themselves run everywhere
def test_committed_census_is_clean_and_docs_are_current():
    table, notes = census.run_census(census.PER_FUNCTION)
    _check(table, notes)
    for name in census.KNOWN_OPEN:  # a strict xfail: drop it from KNOWN_OPEN once fixed
        assert sum(table[name][o] for o in BAD) > 0, f"{name} is clean now: drop it from KNOWN_OPEN"
    text = census.ROBUSTNESS.read_text()
    start, end = text.index(census.BEGIN), text.index(census.END) + len(census.END)
    assert text[start:end] == census.markdown(table, census.PER_FUNCTION), \
        "docs/robustness.md is stale: run `python tests/_fuzz_census.py --write`"
