"""``wordle mcp``: an MCP server (the official ``mcp`` SDK, stdio) that plays, advises and
analyses Wordle exactly, for LLM agents and their hosts.

Tools (each returns a JSON object):

- ``start_game(words, mode, answer, seed)``: a new game against an answer (given, or drawn
  with ``seed``); returns its ``game_id``, the word length and the guess limit.
- ``guess(game_id, word)``: play a guess; returns its feedback (``G``/``Y``/``X`` and
  ``g``/``y``/``b``), the exact value of the move (``V*``, ``Q*``, regret, luck, the optimal
  guess: :class:`solver.evaluation.exact_reward.MoveReward`), whether the game is over, and
  the answer once it is. A word that may not be played (unknown, repeated, against hard
  mode's hints, the game over) is a tool error saying why, and uses no guess.
- ``best_guess(history, words, mode, top, budget)`` or ``best_guess(game_id=...)``: the exact
  next guess after a history (``"salet:bbbby crane:bbbbb"``) with its value and the ``top``
  best alternatives with their ``Q*`` (``wordle assist``'s answer, :class:`~solver.exact.
  service.Advice`).
- ``analyse(guesses, answer, feedback, words, mode)``: a finished game's analysis, every move's
  regret, luck and scores (``wordle analyse --json``'s).

Games are kept in memory, at most :data:`MAX_GAMES` (the oldest dropped). Values are exact
unless a budget is given; the first answer of a process loads the search kernels (a second
or so).
"""

from __future__ import annotations

import argparse
import itertools
import random
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name

DESCRIPTION = """\
Run an MCP server on standard input and output (the Model Context Protocol, the official
SDK) with four tools: start_game, guess (each guess's exact regret and luck), best_guess
(the exact next guess and its alternatives) and analyse (a finished game). Point an MCP host
at it, e.g. {"command": "wordle", "args": ["mcp"]}. Needs the agents extra
(pip install 'exact-wordle[agents]').
"""

#: Games a server keeps (the oldest dropped beyond).
MAX_GAMES = 1024


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.mcp`` (``wordle mcp``), with :data:`DESCRIPTION` as
    its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("mcp"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default=None,
                        help="the default lists of the tools (default nyt-2024): a shipped list's name or a "
                             "directory with answers.txt and guesses.txt")
    add_debug_option(parser)
    return parser


class Sessions:
    """The server's games and search services (one per lists and mode)."""

    def __init__(self, words: str):
        self.words = words
        self.games: OrderedDict = OrderedDict()
        self._rewards: dict = {}
        self._ids = itertools.count(1)

    def reward(self, words: str | None, mode: str | None):
        """The :class:`~solver.evaluation.exact_reward.ExactReward` of these lists (default the
        server's) and mode (default normal), shared in the process and kept for the server's life."""
        from solver.evaluation.exact_reward import shared_reward
        from solver.game.spec import Game
        from solver.game.wordlists import load_word_list

        key = (words or self.words, mode or "normal")
        if key not in self._rewards:
            self._rewards[key] = shared_reward(Game(load_word_list(key[0]), mode=key[1]))
        return self._rewards[key]

    def start(self, words, mode, answer, seed) -> dict[str, Any]:
        """Start a game on ``words`` and ``mode``: against ``answer`` if given (InputError if it is
        not an answer), else one drawn with ``random.Random(seed)``. Returns the game's id, lists,
        mode, word length, guess limit, number of answers and how to play; the oldest game is
        dropped past ``MAX_GAMES``."""
        reward = self.reward(words, mode)
        word_list = reward.service.word_list
        if answer is not None:
            answer = word_list.answers[word_list.answer_index(answer.strip().lower())]
        else:
            answer = random.Random(seed).choice(word_list.answers)
        game_id = f"g{next(self._ids)}"
        self.games[game_id] = {"reward": reward, "answer": answer, "steps": [], "moves": []}
        if len(self.games) > MAX_GAMES:
            self.games.popitem(last=False)
        game = reward.service.game
        return {"game_id": game_id, "words": word_list.name, "mode": game.mode.value,
                "word_length": word_list.word_length, "guess_limit": game.guess_limit,
                "answers": word_list.n_answers,
                "how": "call guess(game_id, word); feedback per letter: G green, Y yellow, X not in the word"}

    def game(self, game_id: str) -> dict[str, Any]:
        """The game ``game_id`` (its reward, answer, steps and scored moves); InputError if there is
        none."""
        from solver.game.errors import InputError

        if game_id not in self.games:
            raise InputError(f"no game {game_id!r}: start one with start_game")
        return self.games[game_id]

    def guess(self, game_id: str, word: str) -> dict[str, Any]:
        """Play ``word`` in game ``game_id``: its feedback (``G``/``Y``/``X`` and ``b``/``y``/``g``)
        and the move's exact regret and values
        (:meth:`~solver.evaluation.exact_reward.ExactReward.move`), the guesses and answers left,
        and once over the answer and the game's total regret. InputError for a game over, a guess
        not allowed, or a word guessed already."""
        from solver.evaluation.exact_reward import check_guess
        from solver.game.errors import InputError
        from solver.game.feedback import feedback_code

        game = self.game(game_id)
        reward, steps = game["reward"], game["steps"]
        service = reward.service
        limit = service.game.guess_limit
        if (steps and steps[-1][1] == service.game.all_green) or len(steps) >= limit:
            raise InputError(f"game {game_id} is over (the answer was {game['answer']!r}): start another")
        word = check_guess(service, steps, word)
        if word in {w for w, _ in steps}:
            raise InputError(f"{word!r} was guessed already in this game")
        code = feedback_code(word, game["answer"], service.game.feedback.value)
        move = reward.move(steps, word, code)
        steps.append((word, code))
        game["moves"].append(move)
        over = move.won or len(steps) >= limit
        result = {**move.to_json(), "feedback": move.feedback.upper().replace("B", "X"), "feedback_bgy": move.feedback,
                  "guesses_left": limit - len(steps), "over": over,
                  "answers_left": move.answers_after}
        if over:
            result["answer"] = game["answer"]
            result["total_regret"] = sum(m.regret_finite for m in game["moves"] if m.regret_finite is not None)
        return result


def build_server(words: str = "nyt-2024"):
    """The :class:`mcp.server.mcpserver.MCPServer` with the four tools (module docstring)."""
    from mcp.server.mcpserver import MCPServer

    sessions = Sessions(words)
    server = MCPServer("exact-wordle", instructions=(
        "Exact Wordle: start_game then guess to play with each guess's exact regret (expected guesses "
        "given away, 0 for an optimal guess); best_guess for the optimal next guess; analyse for a "
        "finished game."))

    @server.tool(structured_output=True)
    def start_game(words: str | None = None, mode: str = "normal", answer: str | None = None,
                   seed: int | None = None) -> dict[str, Any]:
        """Start a game. words: a shipped list (nyt-2024, legacy, ...) or a directory; mode:
        normal, hard or ultra; answer: the answer to play against (else drawn with seed)."""
        return sessions.start(words, mode, answer, seed)

    @server.tool(structured_output=True)
    def guess(game_id: str, word: str) -> dict[str, Any]:
        """Play a guess in a game: its feedback (G green, Y yellow, X not in the word), the
        move's exact regret (expected guesses given away; 0 for an optimal guess) and luck,
        V* before it, the optimal guess, and the answer once the game is over."""
        return sessions.guess(game_id, word)

    @server.tool(structured_output=True)
    def best_guess(history: str = "", game_id: str | None = None, words: str | None = None,
                   mode: str | None = None, top: int = 5, budget: float | None = None) -> dict[str, Any]:
        """The exact optimal next guess after a history ("salet:bbbby crane:bbbbb", feedback
        b/y/g) or a game's guesses so far, its expected guesses V*, and the top alternatives
        with their Q*. budget: seconds (else exact)."""
        if game_id is not None:
            game = sessions.game(game_id)
            service, steps = game["reward"].service, list(game["steps"])
        else:
            service = sessions.reward(words, mode).service
            steps = history
        return service.advise(steps, top=top, budget=budget).to_json()

    @server.tool(structured_output=True)
    def analyse(guesses: list[str], answer: str | None = None, feedback: list[str] | None = None,
                words: str | None = None, mode: str | None = None) -> dict[str, Any]:
        """Analyse a finished game exactly: each move's V*, Q*, regret, luck and 0-99 skill and
        luck scores. guesses: the words in order; answer, or feedback per guess (G/Y/X or
        b/y/g)."""
        from solver.evaluation.analysis import analyse_game
        from solver.evaluation.game_log import LoggedGame
        from solver.game.history import History

        service = sessions.reward(words, mode).service
        logged = LoggedGame(0, tuple(g.strip().lower() for g in guesses),
                            None if feedback is None else tuple(feedback), answer)
        history = History.from_record(service.game, logged.tokens(), answer=answer)
        return analyse_game(service.game, history, service=service).to_json()

    return server


@entry_point()
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mcp`` on ``argv`` (default ``sys.argv[1:]``): check the lists, then serve the MCP tools
    on standard input and output until the client closes; returns the exit status (0; 2 for bad
    input or a missing ``agents`` extra)."""
    args = build_parser().parse_args(argv)
    from solver.game.errors import require_extra
    from solver.game.wordlists import PLAY_LISTS, load_word_list

    require_extra("mcp", "agents", "wordle mcp")
    words = args.words or PLAY_LISTS
    load_word_list(words)  # a bad list is exit 2 before the server starts
    build_server(words).run("stdio")
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
