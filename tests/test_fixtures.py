"""The suite's own fixtures: the ``rng`` seed follows the test, not the order tests ran in,
and a failing test's report names the seed that reproduces it."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import pytest
from hypothesis import settings

from conftest import BASE_SEED, DEFAULT_PROFILE, THOROUGH_FILES, seed_for

HERE = Path(__file__).resolve().parent

PROBE = '''
def test_a(rng_seed):
    print("SEED", "a", rng_seed)


def test_b(rng_seed):
    print("SEED", "b", rng_seed)


def test_fails(rng):
    assert rng.random() < 0  # always fails: its report must carry the seed
'''


def _pytest(tmp_path, *args):
    """Run pytest on the probe module with this suite's conftest, in a fresh process."""
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_probe.py").write_text(PROBE)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-s",
                           "-p", "no:xdist", "-o", "addopts=", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)


def _seeds(out):
    return {name: int(seed) for name, seed in re.findall(r"SEED (\w+) (\d+)", out)}


def test_seed_is_a_pure_function_of_the_node_id():
    assert seed_for("tests/x.py::t") == seed_for("tests/x.py::t")
    assert seed_for("tests/x.py::t[0]") != seed_for("tests/x.py::t[1]")  # parameters differ
    assert seed_for("tests/x.py::t", BASE_SEED + 1) != seed_for("tests/x.py::t")
    assert 0 <= seed_for("tests/x.py::t") < 2**63


def test_rng_is_the_generator_of_rng_seed(rng, rng_seed):
    np.testing.assert_array_equal(rng.random(4), np.random.default_rng(rng_seed).random(4))


def test_seeds_do_not_depend_on_which_tests_ran_or_their_order(tmp_path):
    both = _seeds(_pytest(tmp_path, "test_probe.py::test_b", "test_probe.py::test_a").stdout)
    alone = _seeds(_pytest(tmp_path, "test_probe.py::test_a").stdout)
    assert both["a"] == alone["a"] == seed_for("test_probe.py::test_a")
    assert both["b"] == seed_for("test_probe.py::test_b") != both["a"]


def test_a_failing_test_reports_its_seed_and_a_passing_one_does_not(tmp_path):
    out = _pytest(tmp_path, "test_probe.py").stdout
    seed = seed_for("test_probe.py::test_fails")
    assert "random seed" in out and f"np.random.default_rng({seed})" in out
    for passing in ("test_a", "test_b"):  # only the failure's section is printed
        assert f"default_rng({seed_for('test_probe.py::' + passing)})" not in out


@pytest.mark.thorough  # `make verify` selects it, so it sees the --thorough session
def test_thorough_files_take_the_thorough_profile_and_the_others_do_not(request):
    """Under ``--thorough`` the hypothesis tests of THOROUGH_FILES run under the 'thorough'
    profile and every other file's under the default profile; without it, all run under the
    default profile."""
    thorough = request.config.getoption("--thorough")
    # the profiles differ in derandomize, which no test's own @settings overrides (max_examples
    # is: some tests scale the profile's count), so it tells which profile a test inherited
    want = {True: settings.get_profile("thorough").derandomize,
            False: settings.get_profile(DEFAULT_PROFILE).derandomize}
    if want[True] == want[False]:  # e.g. HYPOTHESIS_PROFILE=thorough: nothing to tell apart
        pytest.skip(f"the default profile {DEFAULT_PROFILE!r} derandomizes as 'thorough' does")
    seen = {True: 0, False: 0}
    here = Path(__file__).resolve().parent
    for module in list(sys.modules.values()):  # every test module this session imported
        path = Path(getattr(module, "__file__", None) or "/").resolve()
        if path.parent != here or not path.name.startswith("test_"):
            continue
        in_file = path.name in THOROUGH_FILES
        for fn in vars(module).values():
            # the settings a @given test was decorated with: the profile loaded at its import
            got = getattr(fn, "_hypothesis_internal_use_settings", None)
            if got is not None and callable(fn):
                assert got.derandomize == want[thorough and in_file], (path.name, fn.__name__)
                seen[in_file] += 1
    if not (seen[True] and seen[False]):
        pytest.skip("this session imported no hypothesis test of THOROUGH_FILES or none of "
                    "the others")
