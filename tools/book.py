"""``python -m tools.book``: ``wordle book`` (:mod:`solver.cli.book`)."""

from solver.cli.book import run

if __name__ == "__main__":
    run()
