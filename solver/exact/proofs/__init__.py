"""The opener proofs: the best first guess over all allowed guesses, proven.

- :mod:`.total` — the total (and weighted) objective: bound every opener, search the best
  (docs/algorithms.md §9); :func:`solver.exact.proofs.total.prove` is the entry point for
  both objectives.
- :mod:`.worst` — the worst-case objective, level by level (§9.5).
- :mod:`.fixed_start` — the best 2 or 3 words played blind, then optimally (§9.6).
- :mod:`.runner` — what both share: the workers' job, the memo size, the runner, the journal.
- :mod:`.results` — the result types and the openers table.

Imports point one way (total, fixed_start → worst → runner, results): the import-linter contract
``proofs`` in pyproject.toml. :mod:`solver.exact.prove` re-exports the public names.
"""
