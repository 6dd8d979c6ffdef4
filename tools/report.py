"""``python -m tools.report``: ``wordle report`` (:mod:`solver.cli.report`)."""

from solver.cli.report import run

if __name__ == "__main__":
    run()
