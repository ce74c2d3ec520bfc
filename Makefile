# linteach: every target installs what it needs into a local .venv first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SEED ?= 0

.PHONY: venv test verify figures bench clean

$(STAMP): setup.cfg pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dask]'
	touch $(STAMP)

venv: $(STAMP)

## fast, deterministic suite (hypothesis profile "dev")
test: $(STAMP)
	HYPOTHESIS_PROFILE=dev $(BIN)/python -m pytest

## every claim check at the standard budget (docs/claims.md, docs/claims.json), then the
## property and fuzz tests under the "thorough" hypothesis profile
THOROUGH_TESTS := tests/test_fuzz.py tests/test_network.py tests/test_loss.py \
                  tests/test_data.py tests/test_metrics.py tests/test_strategies.py
verify: $(STAMP)
	$(BIN)/python -m proofs_check --budget standard --seed $(SEED) \
	    --json docs/claims.json --out docs/claims.md
	HYPOTHESIS_PROFILE=thorough $(BIN)/python -m pytest $(THOROUGH_TESTS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis

## the paper's figures (PNG + JSON of the plotted numbers) into docs/figures/
figures: $(STAMP)
	MPLBACKEND=Agg $(BIN)/python -m linteach.cli figure all --out docs/figures

## benchmarks (ratios measured in one process) into docs/bench.md and docs/bench.json
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py --md docs/bench.md --json docs/bench.json
