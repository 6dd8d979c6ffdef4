# The two set-up commands are `make solve` and `make test`; each works as the first command
# on a fresh machine (both depend on `install`, which builds .venv from pyproject's pins).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install solve test test-fast bench verify report clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

solve: install
	$(PY) -m tools.solve --words legacy --opener salet

test: install
	$(PY) -m pytest -q

test-fast: install
	$(PY) -m pytest -q -m "not slow"

bench: install
	$(PY) -m tools.bench

# The optimality-gap report: 16 openers, heuristics beside the exact optimum (reports/legacy/).
REPORT_OPENERS := salet,carle,train,raise,clout,soare,salut,lants,reast,crate,trace,slate,trape,slane,prate,crane
report: install
	$(PY) -m tools.report --words legacy --opener $(REPORT_OPENERS) --policies mig_a,mig_b,rollout10_a,rollout10_b,rollout100_a --name legacy

# Re-check every committed decision tree: replay all answers with the plain feedback rule.
verify: install
	$(PY) -m tools.tree verify artifacts/*.msgpack

clean:
	rm -rf $(VENV) .pytest_cache
