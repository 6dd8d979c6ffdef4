"""``python -m tools.uct_report``: ``wordle uct-report`` (:mod:`solver.cli.uct_report`)."""

from solver.cli.uct_report import run

if __name__ == "__main__":
    run()
