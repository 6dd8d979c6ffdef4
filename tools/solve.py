"""``python -m tools.solve``: ``wordle solve`` (:mod:`solver.cli.solve`)."""

from solver.cli.solve import run

if __name__ == "__main__":
    run()
