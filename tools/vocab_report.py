"""``python -m tools.vocab_report``: ``wordle vocab-report`` (:mod:`solver.cli.vocab_report`)."""

from solver.cli.vocab_report import run

if __name__ == "__main__":
    run()
