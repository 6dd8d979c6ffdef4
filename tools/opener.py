"""``python -m tools.opener``: ``wordle opener`` (:mod:`solver.cli.opener`)."""

from solver.cli.opener import run

if __name__ == "__main__":
    run()
