"""``python -m tools.prove``: ``wordle prove`` (:mod:`solver.cli.prove`)."""

from solver.cli.prove import run

if __name__ == "__main__":
    run()
