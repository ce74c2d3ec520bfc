"""``make bench`` / ``linteach bench``: speed measured as ratios against baselines run in the
same process (and ``make verify`` end to end).  Nothing here asserts a speed.

The benchmark ships inside the package, so ``linteach bench`` runs the installed code, never
a script of the current folder.  ``torch`` (the ``bench`` extra) enables the torch rows;
without it they say "not installed".  Entry point: :func:`linteach.bench.run.main`.
"""
