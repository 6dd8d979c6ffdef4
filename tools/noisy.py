"""``python -m tools.noisy``: ``wordle noisy`` (:mod:`solver.cli.noisy`)."""

from solver.cli.noisy import run

if __name__ == "__main__":
    run()
