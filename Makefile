# linteach: every target installs what it needs into a local .venv first, and says what it is
# doing before each step.  Durations: README.md's command table (measured into
# docs/timings.json by tools/command_times.py, never typed here).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SEED ?= 0
# what `make venv` installs: the library, its tests, the figures and the Dask executor
EXTRAS ?= test,figures,dask
PIP := $(BIN)/python -m pip --disable-pip-version-check
PIP_INSTALL := $(PIP) install --progress-bar off

.PHONY: pages help venv shell test test-slow verify verify-claims verify-tests update-claims figures bench update-bench \
        dist check-dist clean mutate

help:
	@echo "make venv           create .venv and install linteach[$(EXTRAS)]"
	@echo "make shell          a shell with .venv's linteach and proofs_check on PATH"
	@echo "make test           the fast test suite"
	@echo "make verify         every claim at the standard budget into build/, compared with"
	@echo "                    the committed docs/claims.json, then the slow tests and the"
	@echo "                    thorough property tests"
	@echo "make update-claims  rewrite the committed docs/claims.json and docs/claims.md"
	@echo "make figures        the paper's figures into docs/figures/ and docs/figures.md"
	@echo "make bench          benchmarks into build/bench.md, build/bench.json (WITH_TORCH=1"
	@echo "                    installs torch for the torch rows: a large download)"
	@echo "make update-bench   make bench, then copy build/bench.* to the committed docs/"
	@echo "make dist           sdist and wheel into dist/;  make check-dist: test them, and"
	@echo "                    the long tests"
	@echo "make mutate         mutation testing (cosmic-ray) into docs/mutation.md: hours on"
	@echo "                    2 cores; MUTATE=target names a subset (see tools/mutate.py);"
	@echo "                    REFRESH=1 judges only the mutants of code changed since"

$(STAMP): setup.cfg pyproject.toml
	@echo "[venv 1/3] creating $(VENV) with $(PY)"
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@echo "[venv 2/3] upgrading pip in $(VENV)"
	@$(PIP_INSTALL) -q --upgrade pip
	@echo "[venv 3/3] installing linteach[$(EXTRAS)] in editable mode: numpy, scipy, cvxpy," \
	      "clarabel, scikit-learn, matplotlib, pytest, hypothesis, dask, tqdm"
	@echo "           (pip lists what it fetches)"
	@$(PIP_INSTALL) -e '.[$(EXTRAS)]'
	@$(BIN)/python -c "import linteach, proofs_check" && touch $(STAMP) \
	    && echo "[venv] ready: $(BIN)/linteach, $(BIN)/proofs_check"

venv: $(STAMP)

## a shell in which `linteach`, `proofs_check` and `python` are .venv's (exit to leave)
shell: $(STAMP)
	@echo "[shell] .venv is active in this shell; type exit to leave"
	@VIRTUAL_ENV="$(CURDIR)/$(VENV)" PATH="$(CURDIR)/$(BIN):$$PATH" $${SHELL:-/bin/sh} -i

## fast, deterministic suite (hypothesis profile "dev"); slow tests run in `make verify`
test: $(STAMP)
	@echo "[test] pytest, hypothesis profile dev, slow tests left out"
	HYPOTHESIS_PROFILE=dev $(BIN)/python -m pytest -m "not slow" -n 2

test-slow: $(STAMP)
	@echo "[test-slow] every test marked slow, the fresh-venv packaging checks included"
	HYPOTHESIS_PROFILE=dev $(BIN)/python -m pytest -m slow

## every claim check at the standard budget into build/ (untracked), compared with the
## committed docs/claims.json; then, in one pytest session on 2 processes, the slow tests and
## the property and fuzz tests of tests/conftest.py's THOROUGH_FILES under the "thorough"
## hypothesis profile (`--thorough`).  The tests of minutes (marker `long`: a whole benchmark,
## the README's slower commands) and the packaging checks are `make check-dist`.
## Leaves `git status` clean.
VERIFY_TESTS := thorough or (slow and not fresh_venv and not long and not claim_rerun)
## (one after the other: run side by side, the four processes on two cores cost ~20% more
## CPU and took longer than the two steps in turn)
verify: verify-claims verify-tests

verify-claims: $(STAMP)
	@mkdir -p build
	@rm -f build/claims.json build/claims.md
	@echo "[verify 1/3] every claim, standard budget, seed $(SEED), one worker per core" \
	      "-> build/claims.json, build/claims.md"
	$(BIN)/proofs_check --budget standard --seed $(SEED) \
	    --json build/claims.json --out build/claims.md
	@echo "[verify 2/3] the fresh report against the committed docs/claims.json"
	$(BIN)/proofs_check --compare docs/claims.json build/claims.json

verify-tests: $(STAMP)
	@echo "[verify 3/3] the slow tests, and the property and fuzz tests under the hypothesis" \
	      "profile thorough, 2 processes (the long tests and the fresh-venv" \
	      "packaging checks are make check-dist)"
	HYPOTHESIS_PROFILE=dev $(BIN)/python -m pytest --thorough -m "$(VERIFY_TESTS)" -n 2

## the committed evidence: rerun every claim and overwrite docs/claims.json, docs/claims.md
update-claims: $(STAMP)
	@mkdir -p build
	@echo "[update-claims 1/3] every claim, standard budget, seed $(SEED) -> build/"
	@rm -f build/claims.json build/claims.md  # never copy a report left by an earlier run
	$(BIN)/proofs_check --budget standard --seed $(SEED) \
	    --json build/claims.json --out build/claims.md || true
	@test -s build/claims.json
	@echo "[update-claims 2/3] build/claims.* -> docs/ (commit them with the change that moved them)"
	cp build/claims.json docs/claims.json
	cp build/claims.md docs/claims.md
	@echo "[update-claims 3/3] the reviewer pages' generated sections and slack plots"
	$(BIN)/proofs_check --from docs/claims.json --pages docs/claims

## the paper's figures (PNG + JSON of the plotted numbers) into docs/figures/, and the numbers
## of docs/figures.md regenerated from those JSON files
figures: $(STAMP)
	@echo "[figures] 11 figures at full size, seed $(SEED) -> docs/figures/"
	MPLBACKEND=Agg $(BIN)/linteach figure all --seed $(SEED) --out docs/figures
	$(BIN)/python -m linteach.figures.doc docs/figures docs/figures.md

## benchmarks (ratios measured in one process) into build/ (untracked; rows C3 and C4 run
## whole claim checks, C4 every claim at the standard and thorough sizes)
bench: $(STAMP)
ifeq ($(WITH_TORCH),1)
	@echo "[bench] installing linteach[bench] (torch, with its CUDA libraries: a large download)"
	$(PIP_INSTALL) -e '.[bench,$(EXTRAS)]'
endif
	@mkdir -p build
	@$(BIN)/python -c "import torch" 2>/dev/null || echo "[bench] torch is not installed:" \
	    "the torch rows will say so (make bench WITH_TORCH=1 installs it)"
	$(BIN)/linteach bench --md build/bench.md --json build/bench.json

## the committed benchmark report: make bench, then build/bench.* -> docs/
update-bench: bench
	cp build/bench.md docs/bench.md
	cp build/bench.json docs/bench.json
	$(BIN)/python -m linteach.bench.rows_campaign build/bench.json docs/scale.md

## sdist and wheel into dist/ (the `build` frontend is installed into .venv on first use)
dist: $(STAMP)
	@echo "[dist] python -m build: sdist and wheel into dist/"
	@$(BIN)/python -c "import build" 2>/dev/null || $(PIP_INSTALL) -q build
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

## the packaging and long checks: both archives build, the sdist's own test suite passes, a
## fresh venv with the wheel runs the README tour, a fresh clone's `make venv` + every README
## command works (tests/test_packaging.py, tests/test_readme.py), and the tests of minutes
## (marker `long`: `linteach bench --quick`)
check-dist: $(STAMP)
	@echo "[check-dist] sdist and wheel, fresh venvs, a fresh clone, and the long tests"
	HYPOTHESIS_PROFILE=dev $(BIN)/python -m pytest -m "fresh_venv or long"

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis

## mutation testing of linteach/ and proofs_check/ (not in CI: hours); each mutant is judged
## by proofs_check at the quick budget, then the fast tests; writes docs/mutation.md
MUTATE ?=
REFRESH ?=
mutate: $(STAMP)
	@echo "[mutate] installing cosmic-ray (the mutate extra)"
	@$(PIP_INSTALL) -q -e '.[$(EXTRAS),mutate]'
	@echo "[mutate] running the mutants of $(if $(MUTATE),$(MUTATE),every target)"
	$(BIN)/python tools/mutate.py run $(MUTATE) $(if $(REFRESH),--refresh)
	$(BIN)/python tools/mutate.py recheck $(MUTATE)
	$(BIN)/python tools/mutate.py report

## the generated sections (and slack plots) of docs/claims/<id>.md from docs/claims.json
pages: $(STAMP)
	$(BIN)/proofs_check --from docs/claims.json --pages docs/claims
