"""``python -m tools.make_vocab``: ``wordle make-vocab`` (:mod:`solver.cli.make_vocab`)."""

from solver.cli.make_vocab import run

if __name__ == "__main__":
    run()
