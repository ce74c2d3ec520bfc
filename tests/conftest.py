"""Shared fixtures and hypothesis profiles.

``dev`` (``make test``): few examples, derandomized, so the suite is fast and repeatable.
``thorough`` (``make verify``-style runs): many examples, random.
Select with ``HYPOTHESIS_PROFILE``; ``dev`` is the default.  ``pytest --thorough`` (what
``make verify`` runs) gives the files of :data:`THOROUGH_FILES` the ``thorough`` profile and
leaves every other file on the default one, in one session.

Random numbers: a test that needs randomness takes the ``rng`` fixture (a fresh
``numpy.random.Generator``) or ``rng_seed`` (the integer behind it, for a test that must build
the same generator twice, e.g. to replay what a trainer spawned).  The seed is derived from
``BASE_SEED`` and the test's node id (path, name and parameters), so

- every test, and every parameter of a parametrized test, draws its own independent stream;
- the stream does not depend on which other tests ran, in what order, or on which xdist
  worker (``-n 2``): the same test always sees the same numbers;
- a failing test's report carries a ``random seed`` section with the seed, so the failure
  reproduces with ``np.random.default_rng(<seed>)`` outside pytest.

Change ``BASE_SEED`` (or set ``LINTEACH_TEST_SEED``) to draw a fresh set of streams for the
whole suite; a test that needs one particular seed for a reason (a recorded witness of a bug,
a case known to exercise a branch) keeps it as a named constant in its module, with the reason.
A hypothesis test draws its seeds from hypothesis (``st.integers``), not from ``rng``: one
function-scoped generator would be shared by all of its examples.
"""
import hashlib
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=25, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("thorough", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
DEFAULT_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
settings.load_profile(DEFAULT_PROFILE)

#: the property and fuzz test files whose hypothesis tests ``make verify`` runs under the
#: ``thorough`` profile (``pytest --thorough``), in the same session as the slow tests
THOROUGH_FILES = frozenset({"test_fuzz.py", "test_network.py", "test_loss.py", "test_data.py",
                            "test_metrics.py", "test_strategies.py"})

#: the one base seed of the suite (the paper's year and a day); every test's seed derives from it
BASE_SEED = int(os.environ.get("LINTEACH_TEST_SEED", "20210101"))


def seed_for(nodeid, base=BASE_SEED):
    """The seed of the test ``nodeid``: 63 bits of SHA-256 of ``"<base>:<nodeid>"``.

    A hash, not Python's ``hash`` (salted per process), so every worker agrees."""
    digest = hashlib.sha256(f"{base}:{nodeid}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def pytest_addoption(parser):
    parser.addoption("--thorough", action="store_true",
                     help="import the test files of THOROUGH_FILES (tests/conftest.py) under "
                          "the hypothesis profile 'thorough' and mark their tests 'thorough'")


def _thorough(node) -> bool:
    return node.config.getoption("--thorough") and node.path.name in THOROUGH_FILES


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """Under ``--thorough``, a thorough file is imported with the 'thorough' profile loaded.

    A hypothesis test takes its settings (and an explicit ``@settings`` its parent) from the
    profile loaded when its module is imported, so this equals ``HYPOTHESIS_PROFILE=thorough``
    for those files and leaves every other file on :data:`DEFAULT_PROFILE`.
    """
    switch = isinstance(collector, pytest.Module) and _thorough(collector)
    if switch:
        settings.load_profile("thorough")
    try:
        yield
    finally:
        if switch:
            settings.load_profile(DEFAULT_PROFILE)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects
def pytest_collection_modifyitems(config, items):
    for item in items:
        if _thorough(item):
            item.add_marker("thorough")


@pytest.fixture
def rng_seed(request):
    """This test's own seed (see the module docstring); recorded for the failure report."""
    seed = seed_for(request.node.nodeid)
    request.node.user_properties.append(("random seed", seed))
    return seed


@pytest.fixture
def rng(rng_seed):
    """A fresh generator per test, seeded from ``BASE_SEED`` and the test's node id."""
    return np.random.default_rng(rng_seed)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Put the test's seed in the report of a failing test that drew random numbers."""
    outcome = yield
    report = outcome.get_result()
    seeds = [value for name, value in item.user_properties if name == "random seed"]
    if report.failed and seeds:
        report.sections.append(
            ("random seed", f"seed {seeds[0]} (BASE_SEED {BASE_SEED}): reproduce with "
                            f"np.random.default_rng({seeds[0]})"))
