"""``python -m tools.train_qlearning``: ``wordle train-qlearning`` (:mod:`solver.cli.train_qlearning`)."""

from solver.cli.train_qlearning import run

if __name__ == "__main__":
    run()
