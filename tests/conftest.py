"""Shared fixtures and hypothesis profiles.

``dev`` (``make test``): few examples, derandomized, so the suite is fast and repeatable.
``thorough`` (``make verify``-style runs): many examples, random.
Select with ``HYPOTHESIS_PROFILE``; ``dev`` is the default.
"""
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=25, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("thorough", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def rng():
    """A fresh generator per test (never a global seed)."""
    return np.random.default_rng(20210101)
