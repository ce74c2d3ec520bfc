"""The survivors of the population pass over the targets loss-scaled and bounds-formulas: kill reasons (the test written
for each, in ``tests/test_mutation_kills_formulas.py``) and equivalence reasons, keyed like
:mod:`mutation_notes`: (target, function, operator, line[, occurrence]); merged into
:data:`mutation_notes_population.KILLED_BY_POPULATION` and
:data:`mutation_notes_population.EQUIVALENT_POPULATION`.
"""

#: survivors killed by a test written for them -> the test, and why the claims miss it
KILLED_BY: dict = {}

#: survivors no test can kill -> why they are equivalent
EQUIVALENT: dict = {}
