# Everything the project needs is installed here, into .venv.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test bench clean golden citations

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/ruleslawyer rules show lady-alice --variant 4p
	$(BIN)/ruleslawyer check examples/lady-alice/clean-4p.yaml
	$(BIN)/ruleslawyer solve examples/lady-alice/clean-4p.yaml --as Gordon --at 15 --hindsight
	@echo "--- a log with a violation (exit status 1 expected):"
	-$(BIN)/ruleslawyer check examples/lady-alice/violations/LA212.yaml
	@echo "--- Perfect Alibi: a complete game, the rulebook's Rival example, a violation (exit status 1 expected):"
	$(BIN)/ruleslawyer check examples/perfect-alibi/clean-4p.yaml examples/perfect-alibi/rulebook-rival.yaml
	-$(BIN)/ruleslawyer check examples/perfect-alibi/violations/PA310.yaml
	$(BIN)/ruleslawyer solve examples/perfect-alibi/clean-4p.yaml --as Blue --at 30 --hindsight

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/solve_bench.py
	$(BIN)/python benchmarks/check_bench.py
	$(BIN)/python benchmarks/alibi_check_bench.py
	$(BIN)/python benchmarks/alibi_solve_bench.py
	$(BIN)/python benchmarks/dp_bench.py

golden: $(STAMP)
	$(BIN)/python tests/golden/regenerate.py

# The quote index installed in place of the rulebooks (checker/citations.py).
citations: $(STAMP)
	$(BIN)/python -m ruleslawyer.checker.citations

clean:
	rm -rf $(VENV) build dist *.egg-info
