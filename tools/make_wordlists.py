"""``python -m tools.make_wordlists``: ``wordle make-wordlists`` (:mod:`solver.cli.make_wordlists`)."""

from solver.cli.make_wordlists import run

if __name__ == "__main__":
    run()
