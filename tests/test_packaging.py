"""The packaging checks (``make check-dist``; slow, so part of ``make verify``).

* ``python -m build`` makes an sdist and a wheel; the wheel carries the library, the
  benchmark and proofs_check, the sdist also the tests, examples, docs and the legal files.
* ``pip install <wheel>`` into a fresh venv (no extras) imports linteach without any test or
  plotting package, runs the README tour and prints what the README says, both console
  scripts answer, and a claim check runs.
* The sdist's own test suite (``-m "not slow"``) passes in a fresh venv with its extras.
"""
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.fresh_venv]

ROOT = Path(__file__).resolve().parents[1]


def _run(argv, **kw):
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                          timeout=kw.pop("timeout", 1800), **kw)
    assert done.returncode == 0, f"{argv}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    pytest.importorskip("build")
    if not (ROOT / "setup.cfg").is_file():
        pytest.skip("needs the source tree")
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--outdir", out, ROOT])
    (sdist,), (wheel,) = sorted(out.glob("*.tar.gz")), sorted(out.glob("*.whl"))
    return sdist, wheel


def _venv(path: Path) -> Path:
    _run([sys.executable, "-m", "venv", path])
    return path / "bin"


def test_the_wheel_holds_the_package_and_no_tests(dist):
    names = zipfile.ZipFile(dist[1]).namelist()
    for needed in ("linteach/__init__.py", "linteach/bench/run.py", "linteach/figures/doc.py",
                   "proofs_check/__main__.py"):
        assert needed in names
    assert not any(name.startswith(("tests/", "benchmarks/")) for name in names)
    meta = next(n for n in names if n.endswith("METADATA"))
    text = zipfile.ZipFile(dist[1]).read(meta).decode()
    requires = re.findall(r"^Requires-Dist: ([A-Za-z0-9_.\-]+)(.*)$", text, re.M)
    core = {name.lower() for name, rest in requires if "extra ==" not in rest}
    # hypothesis is a test dependency: the claims draw their cases with linteach.generators
    assert core == {"numpy", "scipy", "cvxpy", "clarabel", "scikit-learn", "threadpoolctl"}
    assert {"pytest", "matplotlib", "torch", "dask", "hypothesis"}.isdisjoint(core)


def test_the_sdist_carries_tests_examples_docs_and_legal_files(dist):
    names = {n.split("/", 1)[1] for n in tarfile.open(dist[0]).getnames() if "/" in n}
    for needed in ("LICENSE", "CITATION.cff", "CHANGELOG.md", "README.md", "Makefile",
                   "tests/conftest.py", "tests/test_examples.py", "examples/tour.py",
                   "docs/figures/fig1.json", "docs/figures.md", "docs/claims.json"):
        assert needed in names, needed


def test_pip_install_into_a_fresh_venv_runs_the_readme_tour(dist, tmp_path):
    bindir = _venv(tmp_path / "venv")
    _run([bindir / "python", "-m", "pip", "install", "--disable-pip-version-check", "-q",
          dist[1]])
    away = tmp_path / "elsewhere"  # not the source tree: the installed package is used
    away.mkdir()
    heavy = _run([bindir / "python", "-c",
                  "import sys, linteach; print(linteach.__file__); print(sorted(m for m in "
                  "('pytest', 'hypothesis', 'matplotlib', 'cvxpy', 'sklearn') "
                  "if m in sys.modules))"],
                 cwd=away).stdout.splitlines()
    assert str(tmp_path / "venv") in heavy[0] and heavy[1] == "[]"
    tour = _run([bindir / "python", ROOT / "examples" / "tour.py"], cwd=away).stdout
    readme = (ROOT / "README.md").read_text()
    assert tour == re.search(r"It prints\n\n```\n(.*?)```", readme, re.S).group(1)
    version = _run([bindir / "linteach", "--version"], cwd=away).stdout
    assert version.startswith("linteach ")
    _run([bindir / "proofs_check", "--help"], cwd=away)
    # the install set suffices for a claim check (no test or plotting package needed)
    _run([bindir / "proofs_check", "--only", "thm5.1", "appK", "--budget", "quick", "--json",
          away / "c.json", "--state", away / "state"], cwd=away)
    no_plot = subprocess.run([bindir / "linteach", "figure", "5", "--out", away / "f"],
                             cwd=away, capture_output=True, text=True, timeout=600)
    assert no_plot.returncode == 1 and "linteach[figures]" in no_plot.stderr


def test_the_sdist_test_suite_passes_in_a_fresh_venv(dist, tmp_path):
    with tarfile.open(dist[0]) as tar:
        tar.extractall(tmp_path, filter="data")
    (src,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    bindir = _venv(tmp_path / "venv")
    _run([bindir / "python", "-m", "pip", "install", "--disable-pip-version-check", "-q",
          f"{dist[0]}[test,figures]"])
    done = _run([bindir / "python", "-m", "pytest", "-m", "not slow", "-x",
                 "-p", "no:cacheprovider"], cwd=src, timeout=3000)
    assert re.search(r"\d+ passed", done.stdout)
