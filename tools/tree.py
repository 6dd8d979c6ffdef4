"""``python -m tools.tree``: ``wordle tree`` (:mod:`solver.cli.tree`)."""

from solver.cli.tree import run

if __name__ == "__main__":
    run()
