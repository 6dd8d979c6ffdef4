"""``python -m tools.mcp``: ``wordle mcp`` (:mod:`solver.cli.mcp`)."""

from solver.cli.mcp import run

if __name__ == "__main__":
    run()
