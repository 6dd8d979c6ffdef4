"""The checkout's spelling of the command-line programs: ``python -m tools.<name>`` runs
:mod:`solver.cli.<name>` (installed as ``wordle <name>``). Each module here is a shim of three
lines; the programs themselves live in the library (:mod:`solver.cli`), so that a wheel
installs no top-level ``tools`` package. ``_lint_contracts`` (import-linter's contract types,
used by ``make lint``) is the one module of its own.
"""
