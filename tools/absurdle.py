"""``python -m tools.absurdle``: ``wordle absurdle`` (:mod:`solver.cli.absurdle`)."""

from solver.cli.absurdle import run

if __name__ == "__main__":
    run()
