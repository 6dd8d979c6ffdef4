# The two set-up commands are `make solve` and `make test`; each works as the first command
# on a fresh machine (both depend on `install`, which builds .venv from pyproject's pins).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install browser lint test test-fast test-jit-off solve tree book tables bench verify wordlists report screenshots clean

# The numba kernels the play commands and the server need are compiled once here (tools.warm:
# minutes on a fresh install, nothing once a stamp beside numba's cache says they are there).
install: $(STAMP)
	$(PY) -m tools.warm

$(STAMP): pyproject.toml setup.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[all,test]'
	touch $(STAMP)

# The overnight build: prove the best opener over all 12,972 allowed guesses (about a minute
# on 2 cores, docs/benchmarks.md), write the openers table and the proven opener's tree.
# `make tree OPENER=crane` (or `python -m tools.solve --opener W`) is the quick one-opener path.
solve: install
	$(PY) -m tools.prove --words legacy --tree

# One opener's optimal tree, without the proof: `make tree OPENER=crane`.
OPENER ?= salet
tree: install
	$(PY) -m tools.solve --words legacy --opener $(OPENER)

# The opening book: the optimal trees of the popular openers (solver/exact/book.py) for both
# shipped lists and both modes, into artifacts/book/ (trees already there are kept).
book: install
	for words in legacy nyt-2024; do for mode in normal hard; do \
		$(PY) -m tools.book --words $$words --mode $$mode || exit 1; done; done

# The opener tables (docs/algorithms.md §9.7): every opener's exact value and second guesses,
# for both shipped lists and both modes, into artifacts/tables/ (CPU-hours each: run it in the
# background). Resumable: shards on disk are read and checked, never recomputed, and finished
# openers are journaled; with every shard on disk it only checks them and rewrites each CSV,
# the same bytes. TABLES_OPTIONS passes options on (e.g. TABLES_OPTIONS='--hours 2').
tables: install
	for words in legacy nyt-2024; do for mode in normal hard; do \
		$(PY) -m tools.prove --words $$words --mode $$mode --all $(TABLES_OPTIONS) || exit 1; done; done

# The browser tests drive Debian's chromium (never a downloaded browser; the emoji font draws the
# shared grid's squares): installed here when missing and we are root with apt-get, else a
# one-line message says how, and the target fails (the browser tests never skip silently).
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s fonts-noto-color-emoji >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji; \
		else echo "make test needs Debian's chromium for the browser tests: sudo apt-get install chromium fonts-noto-color-emoji" >&2; exit 1; fi; \
	fi

# Static checks: ruff (pyproject [tool.ruff]) and the import-layer contracts ([tool.importlinter]).
lint: install
	@status=0; \
	echo "ruff check ."; $(VENV)/bin/ruff check . || status=1; \
	echo "lint-imports"; $(VENV)/bin/lint-imports --no-cache || status=1; \
	exit $$status

# Everything: lint, the whole suite, then the kernels' Python bodies (numba off). The suite runs
# in 2 processes (pytest-xdist), except the tests marked timed (budgets, wall times, the server
# and the browser), which run alone afterwards so that no other test shares their core.
# Each part runs even if an earlier one failed; the target fails if any did (pytest's status,
# 5 = no tests, too).
test: install browser
	@status=0; \
	$(MAKE) --no-print-directory lint || status=1; \
	echo "$(PY) -m pytest -q -n 2 -m 'not timed'"; $(PY) -m pytest -q -n 2 -m "not timed" || status=1; \
	echo "$(PY) -m pytest -q -m timed"; $(PY) -m pytest -q -m timed || status=1; \
	$(MAKE) --no-print-directory test-jit-off || status=1; \
	exit $$status

# Without the full word lists and the long runs (tests marked slow): under a minute once numba's
# cache is warm (compiling every kernel specialisation from cold takes about 3 minutes).
test-fast: install
	$(PY) -m pytest -q -m "not slow"

# The small-list kernel tests (marked kernels) with NUMBA_DISABLE_JIT=1, so that the kernels'
# plain-Python bodies run (and are covered). The kernels rely on uint64 wrap-around (hashes,
# SplitMix64), which numpy scalars do too but with a RuntimeWarning: those are silenced.
# Plain Python, independent small lists, no timing: split over 2 processes (pytest-xdist).
test-jit-off: install
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest -q -n 2 -m "kernels and not slow" -p no:cacheprovider \
		-W "ignore:overflow encountered:RuntimeWarning"

# Every benchmark keeps its figures in benchmarks/results/; the last step writes them into
# docs/benchmarks.md (one table per workload; the per-state tables whole on docs/benchmarks-states.md). `make bench SELBY=path/to/wordle` also times Selby's solver (built from its source, not shipped) on the same states
# (bench_play's popular openers, bench_states' random openers);
# `make bench SELBY_SOURCE=path/to/checkout` builds it from a checkout of its repository (in a temporary directory)
# and times it beside our SALET trees as whole processes.
bench: install
	$(PY) -m benchmarks.bench
	$(PY) -m benchmarks.bench_openers
	$(PY) -m benchmarks.bench_tables
	$(PY) -m benchmarks.bench_startup $(if $(SELBY_SOURCE),--selby-source $(SELBY_SOURCE))
	$(PY) -m benchmarks.bench_assist
	$(PY) -m benchmarks.bench_play $(if $(SELBY),--selby $(SELBY))
	$(PY) -m benchmarks.bench_states $(if $(SELBY),--selby $(SELBY))
	$(PY) -m benchmarks.bench_states --budget 2
	$(PY) -m benchmarks.bench_serve
	$(PY) -m benchmarks.bench_prove
	$(PY) -m benchmarks.bench_prove --mode hard --rank 1
	$(PY) -m benchmarks.bench_prove --objective worst --rank 1
	$(PY) -m benchmarks.bench_dask
	$(PY) -m benchmarks.bench_classic
	$(PY) -m benchmarks.bench_absurdle
	$(PY) -m benchmarks.report

# The optimality-gap report: 16 openers, heuristics beside the exact optimum (reports/legacy/);
# then the vocabulary-variant report (reports/classic/vocab.*, about 2 minutes on 2 cores).
REPORT_OPENERS := salet,carle,train,raise,clout,soare,salut,lants,reast,crate,trace,slate,trape,slane,prate,crane
report: install
	$(PY) -m tools.report --words legacy --opener $(REPORT_OPENERS) --policies mig_a,mig_b,rollout10_a,rollout10_b,rollout100_a --name legacy
	$(PY) -m tools.vocab_report --jobs -1

# Renew the page's screenshots in docs/img/ (the browser test takes them; a plain test run
# writes them to a scratch folder instead).
screenshots: install
	EXACT_WORDLE_SCREENSHOTS=1 $(PY) -m pytest -q tests/test_page.py

# Re-check every committed decision tree: replay all answers with the plain feedback rule (the
# Q-tables, artifacts/qlearning-*.msgpack, are no trees: they are checked when loaded).
verify: install
	$(PY) -m tools.tree verify $(filter-out artifacts/qlearning-%,$(wildcard artifacts/*.msgpack)) artifacts/book/*.msgpack

# Rebuild the 4-, 6- and 7-letter lists from wordfreq in memory and compare with solver/data/.
wordlists: install
	$(PY) -m tools.make_wordlists --check

# Also numba's compiled kernels (*.nbi index, *.nbc code, beside each kernel in __pycache__)
# and what a wheel build leaves (build/, dist/, *.egg-info).
clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build dist *.egg-info
	find solver policy_tree tools benchmarks tests -name '*.nb[ic]' -delete
