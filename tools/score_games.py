"""``python -m tools.score_games``: ``wordle score-games`` (:mod:`solver.cli.score_games`)."""

from solver.cli.score_games import run

if __name__ == "__main__":
    run()
