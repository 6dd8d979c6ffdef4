"""Advice from any position: the optimal next guess, its exact value and the best alternatives.

A *history* is the game so far, ``(guess, feedback)`` pairs first guess first (feedback as a
code or as ``"bbygb"`` text, see :func:`solver.game.feedback.parse_feedback`, or a
``"guess:feedback"`` token); it may follow a decision tree or leave it anywhere, be won, lost or
still going. The *state* ``S`` is the set of answers consistent with it and ``d`` the guesses
left. Values are totals over the state's answers, as in the solver (docs/algorithms.md §2.1,
§2.3), or the game's own objective (the worst case, the weighted total under priors):

- ``V*(S, d)``, the least total number of guesses still needed, summed over the answers of
  ``S``; ``V*/|S|`` is the expected number of further guesses (the next one included) for one
  game in that state, every answer equally likely;
- ``Q*(S, d, g) = |S| + Σ_{C ≠ green} V*(C, d − 1)``, the total when ``g`` is played now and
  the optimum afterwards.

Every answer comes from the exact layer's one search service
(:class:`solver.exact.service.SearchService`): the state the history leaves, read from the
opener's optimal tree where one is shipped or cached, else searched on its own (exactly, or
within a deadline by the anytime search). This module keeps the functions the tools call.
"""

from __future__ import annotations

import numpy as np

from solver.exact.anytime import INF, Ranking, cheap_lower_bound, rank_guesses  # noqa: F401
from solver.exact.book import ARTIFACTS_DIR  # noqa: F401
from solver.exact.service import (EXACT, NOT_PROVEN, SOLVED, TOP, Advice, Alternative,  # noqa: F401
                                  SearchService, check_budget, format_steps)
from solver.game.errors import InputError
from solver.game.spec import Game
from solver.game.wordlists import WordList

#: Seconds the alternatives of an answer may take by default (the next guess itself is exact).
ALTERNATIVES_BUDGET = 1.0


def service_for(game: Game, *, tree=None, table: np.ndarray | None = None,
                book: bool = True) -> SearchService:
    """The search service of the game: ``tree``'s game when a tree is given (its objective,
    priors and feedback rule, answering off the tree under them; InputError unless its lists
    and mode are ``game``'s), else ``game``'s."""
    if tree is not None:
        if tree.word_list.identity != game.word_list.identity:
            raise InputError(f"the tree {tree!r} is not for the {game.word_list.name!r} lists")
        if tree.mode != game.mode:
            raise InputError(f"the tree is a {tree.mode}-mode tree, but {game.mode} mode was asked for")
        return SearchService.for_tree(tree, table=table, book=book)
    return SearchService(game, table=table, book=book)


def advise_game(game: Game, history=(), *, top: int = TOP, budget: float | None = None,
                tree=None, table: np.ndarray | None = None, book: bool = True,
                alternatives_budget: float | None = None, service: SearchService | None = None) -> Advice:
    """The optimal next guess after ``history``, its value, and the ``top`` best guesses.

    Args:
        game: the :class:`~solver.game.spec.Game` (lists, mode, guess limit, …).
        history: see :meth:`solver.game.history.History.parse`; any guesses.
        top: alternatives to list with exact ``Q*`` (0: none).
        budget: wall seconds this call may take, or None (default): the exact answer however
            long it takes (the state the history leaves is searched; no tree is built).
        tree: an optimal :class:`policy_tree.PolicyTree` of these lists: its game (objective,
            priors, feedback rule) is the one answered, and it joins the opening book.
        table: the feedback table (loaded from the cache when needed and omitted).
        book: use the opening book (False: every state is searched on its own).
        alternatives_budget: seconds the alternatives may take (None: what ``budget`` allows).
        service: a :class:`~solver.exact.service.SearchService` to ask (it keeps what it
            solved for later questions); ``game`` is then ignored.

    Returns:
        :class:`~solver.exact.service.Advice`.

    Raises:
        InputError (subclasses) naming the guess at fault: malformed history, unknown word,
        a history nothing fits (FeedbackError), too many guesses; a bad budget; a
        hard-mode history that ignores a hint (HardModeError).
    """
    check_budget(budget)
    if service is None:
        service = service_for(game, tree=tree, table=table, book=book)
    return service.advise(history, top=top, budget=budget, alternatives_budget=alternatives_budget)


def tree_value(tree, node: int, answers) -> int:
    """Value of a :class:`policy_tree.PolicyTree` from ``node`` over ``answers`` (words) under
    the tree's own game. Raises InputError if the tree does not solve one of them."""
    service = SearchService.for_tree(tree, book=False)
    state = np.array(sorted(tree.word_list.answer_index(a) for a in answers), dtype=np.int32)
    return service.tree_value(tree.tree, node, state)


def opener_proven(tree, word_list: WordList) -> bool:
    """Whether ``tree`` records a proof (:func:`solver.exact.prove.save_proven_tree`) that its
    opener is optimal over every allowed guess of ``word_list``."""
    proof = getattr(tree, "opener_proof", None)
    return (proof is not None and proof["guesses_sha256"] == word_list.guesses_sha256
            and proof["openers"] == word_list.n_guesses)
