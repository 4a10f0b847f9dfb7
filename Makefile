# Everything the project needs is installed here, into .venv.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test test-loaded bench clean golden citations

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,cluster]'
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
	@echo "--- the variant lab: a house rule against its base, same seeds and bots (plots in lab-demo/):"
	$(BIN)/ruleslawyer compare lady-alice --variant 3p --with two-counters --games 40 --seed 1 \
		--bots random:accuse=0.05 --max-moves 200 --plots lab-demo --report lab-demo/report.md
	@echo "--- what a mechanic is worth: greedy bots each forbidden one counter value, at a rotated seat (plots in lab-demo/value/):"
	$(BIN)/ruleslawyer value lady-alice --variant 3p --restrict-by place.value --games 6 --seed 1 --plots lab-demo/value
	@echo "--- Perfect Alibi simulated with its Rival variant (tiles drawn, questions answered, lies told):"
	$(BIN)/ruleslawyer simulate perfect-alibi --variant 3p --house rival --games 20 --seed 1 \
		--bots 'random:guess=0.02;accuse=0.02' --max-moves 200
	@echo "--- a deliberately flawed overlay refuted by prove (exit status 1 expected):"
	-$(BIN)/ruleslawyer prove lady-alice --house examples/lady-alice/lab/short-of-cards.yaml \
		--property examples/lady-alice/lab/properties.yaml --depth 1

# Every test, on every core (pytest-xdist, in the test extra): the one command CI runs.
# worksteal: a worker that is done takes tests queued on the other (the slow ones differ a lot).
# The bytecode first: where PYTHONDONTWRITEBYTECODE is set (as on CI), every command a test
# starts would otherwise compile the package again (about 8 % of the suite's time).
test: $(STAMP)
	$(BIN)/python -m compileall -q -j 0 ruleslawyer spec solver checker lab rules tests
	$(BIN)/python -m pytest -n auto --dist worksteal

# make test on a machine loaded on purpose: two busy processes per core beside it, stopped after
# (benchmarks/loaded.py); it prints the wall time and the load. No test is changed for it.
test-loaded: $(STAMP)
	$(BIN)/python benchmarks/loaded.py --per-core 2 -- $(MAKE) test

bench: $(STAMP)
	$(BIN)/python benchmarks/solve_bench.py
	$(BIN)/python benchmarks/check_bench.py
	$(BIN)/python benchmarks/alibi_check_bench.py
	$(BIN)/python benchmarks/alibi_solve_bench.py
	$(BIN)/python benchmarks/dp_bench.py
	$(BIN)/python benchmarks/lab_bench.py

golden: $(STAMP)
	$(BIN)/python tests/golden/regenerate.py

# The quote index installed in place of the rulebooks (checker/citations.py).
citations: $(STAMP)
	$(BIN)/python -m ruleslawyer.checker.citations

clean:
	rm -rf $(VENV) build dist *.egg-info lab-demo
