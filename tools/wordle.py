"""``python -m tools.wordle``: the ``wordle`` command (:mod:`solver.cli.wordle`)."""

from solver.cli.wordle import run

if __name__ == "__main__":
    run()
