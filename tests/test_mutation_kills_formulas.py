"""Tests written for the survivors of the population pass over the mutation targets
loss-scaled and bounds-formulas (the scaled loss terms of the late flow, Theorem 4.1's constants): each names, in ``tools/mutation_notes_formulas.py``, the mutant it kills and why
no claim check does."""
