"""``python -m tools.assist``: ``wordle assist`` (:mod:`solver.cli.assist`)."""

from solver.cli.assist import run

if __name__ == "__main__":
    run()
