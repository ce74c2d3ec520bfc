"""Shared claim helpers: case families, trainers' audits, exact signs, report helpers.

Imports the engine's contract and context and linteach; never a claim module."""
