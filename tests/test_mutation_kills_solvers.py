"""Tests written for the survivors of the population pass over the mutation targets
assumption4, convex and kkt (Assumption 4's LPs, the paper's convex programs, the KKT re-checks): each names, in ``tools/mutation_notes_solvers.py``, the mutant it kills and why
no claim check does."""
