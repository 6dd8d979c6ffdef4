"""Runs: the journal of long runs (:mod:`solver.runs.journal`) and the names of the files runs
write (:mod:`solver.runs.naming`). Below the solver and knowing nothing of it: a caller names
its run with the inputs its results depend on (its version included); this layer only
stores, compares and names them (import-linter contracts in pyproject.toml)."""
