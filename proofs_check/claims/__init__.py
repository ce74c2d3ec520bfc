"""One module per claim; each defines ``CLAIM`` and ``check(ctx)`` (see
:mod:`proofs_check.engine.contract`).  A claim imports only the engine's contract and
context, the kit, and linteach — never another claim."""
