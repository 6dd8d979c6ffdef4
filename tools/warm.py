"""``python -m tools.warm``: ``wordle warm`` (:mod:`solver.cli.warm`)."""

from solver.cli.warm import run

if __name__ == "__main__":
    run()
