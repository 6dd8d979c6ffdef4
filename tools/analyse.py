"""``python -m tools.analyse``: ``wordle analyse`` (:mod:`solver.cli.analyse`)."""

from solver.cli.analyse import run

if __name__ == "__main__":
    run()
