"""``python -m tools.serve``: ``wordle serve`` (:mod:`solver.cli.serve`)."""

from solver.cli.serve import run

if __name__ == "__main__":
    run()
