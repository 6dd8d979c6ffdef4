"""A loaded decision tree as a player uses it: next guess, remaining answers, whole games.

A *history* is the game so far: a sequence of ``(guess, feedback)`` pairs, first guess first.
``guess`` is a word of the artifact's guess list (any case); ``feedback`` is either the code
``sum(c_i * 3**i)`` (position 0 = first letter; ``c = 0`` gray, ``1`` yellow, ``2`` green; 242 =
all green) or a string accepted by :func:`solver.game.feedback.parse_feedback` (``"bbyyg"``,
``"00112"``, ``"⬛⬛🟨🟨🟩"``). A ``"guess:feedback"`` string is accepted in place of a pair.

Everything here is plain Python and numpy: no numba, nothing compiled, so a lookup answers
in a fraction of a second from a cold start.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from collections.abc import Iterable

from policy_tree.errors import (
    GameOverError, HistoryError, InconsistentHistoryError, NotInTreeError,
    UnsolvedAnswerError,
)
import numpy as np

from policy_tree.tree import DecisionTree
from solver.game.feedback import code_to_text, feedback_code
from solver.game.history import parse_history_token, parse_steps  # noqa: F401 (re-exported)
from solver.game.spec import Mode
from solver.game.wordlists import WordList
from solver.game.wording import counted, plural

Feedback = int | str
HistoryItem = tuple[str, Feedback] | str

#: The header fields of an artifact other than the word lists and the tree arrays.
SCALAR_FIELDS = (
    "format", "format_version", "word_list", "word_length", "answers_sha256", "guesses_sha256", "mode",
    "objective", "guess_limit", "opener", "total", "average", "max_guesses", "histogram",
    "solver_version", "tree_sha256",
)


def format_history(steps: Iterable[tuple[str, int]]) -> str:
    """``[("salet", 3), ...]`` → ``"salet:bbybb ..."``; ``"(empty history)"`` for none."""
    text = " ".join(f"{word}:{code_to_text(code, len(word))}" for word, code in steps)
    return text or "(empty history)"


@dataclass(frozen=True)
class Position:
    """Where a history leads: in a decision tree (:meth:`PolicyTree.position`), or for the
    search service (:meth:`solver.exact.service.SearchService.position`, which also sets the
    state, the guesses left and the value there). The one record of a position.

    Attributes:
        steps: the history normalised to ``(guess word, feedback code)`` pairs.
        answers: the answers consistent with every feedback so far, in list order (non-empty;
            set by :meth:`PolicyTree.position`).
        node: the node of ``tree`` whose guess is to be played next, or ``None`` when the game
            is won or the history has left the tree.
        won: the last feedback was all green.
        left_tree_at: index into ``steps`` of the first guess the tree does not play there
            (``None`` while the history follows the tree).
        tree_guess: the guess the tree plays at ``left_tree_at`` (``None`` if it did not leave).
        state: int32 answer indices still possible, sorted (set by the search service).
        guesses_left: guesses left within the game's limit (may be 0; the search service).
        tree: the DecisionTree whose node ``node`` is this state (the search service: the
            opener's tree or a solved subtree), or None.
        tree_value: ``V*`` there when ``tree`` is set (with ``extra`` guesses past the limit).
        extra: extra guesses past the limit the tree was solved with (§15.2).
        left_tree: the sentence for :attr:`solver.exact.advice.Advice.left_tree`, or None.
        opener: the opener whose tree the history followed, or None.
    """

    steps: tuple[tuple[str, int], ...]
    answers: tuple[str, ...] = ()
    node: int | None = None
    won: bool = False
    left_tree_at: int | None = None
    tree_guess: str | None = None
    state: np.ndarray | None = None
    guesses_left: int | None = None
    tree: DecisionTree | None = None
    tree_value: int | None = None
    extra: int = 0
    left_tree: str | None = None
    opener: str | None = None


class PolicyTree:
    """A decision-tree artifact, validated, ready for lookups (build it with
    :func:`policy_tree.load` or :func:`policy_tree.decode`).

    Attributes:
        tree: the :class:`~policy_tree.tree.DecisionTree` (CSR arrays; node 0 = the opener).
        word_list: the :class:`~solver.game.wordlists.WordList` embedded in the artifact (sorted
            answers and guesses; ``node_guess`` indexes ``word_list.guesses``).
        header: the artifact's scalar fields (``SCALAR_FIELDS``), as stored.
        path: the file it came from, or ``None``.
    """

    def __init__(self, tree: DecisionTree, word_list: WordList, header: dict, path: Path | None = None):
        self.tree = tree
        self.word_list = word_list
        self.header = dict(header)
        self.path = path

    # -- the stored header ---------------------------------------------------------------
    @property
    def opener(self) -> str:
        """The guess at the root (node 0), as the tree plays it."""
        return self.guess_at(0)

    @property
    def mode(self) -> str:
        """The play mode the tree was solved for (``"normal"``, ``"hard"``...), as stored."""
        return self.header["mode"]

    @property
    def opener_proof(self) -> dict | None:
        """The proof that the opener is optimal over every allowed guess
        (:data:`policy_tree.schema.OPENER_PROOF_FIELDS`), or ``None`` if the tree records none
        (it is then optimal for its opener only)."""
        return self.header.get("opener_proof")

    @property
    def feedback(self) -> str:
        """The feedback rule the tree plays under: ``"standard"``, or ``"yellow"`` (Yellow
        Wordle, docs/algorithms.md §10.4: no green is shown unless the guess is right)."""
        return self.header.get("feedback", "standard")

    @property
    def objective(self) -> str:
        """The objective the tree minimises (``"total"``, ``"worst"``...), as stored."""
        return self.header["objective"]

    @property
    def priors(self) -> dict | None:
        """The answer weights the tree was solved under (:data:`policy_tree.schema.PRIORS_FIELDS`),
        or ``None`` (every answer equally likely)."""
        return self.header.get("priors")

    @property
    def prior_weights(self):
        """int64[n_answers]: the priors' integer weights, or None."""
        import numpy as np

        priors = self.priors
        return None if priors is None else np.frombuffer(priors["weights"], dtype="<i8").astype(np.int64)

    @property
    def guess_limit(self) -> int:
        """The guess limit: every answer is won within this many guesses (6 for Wordle)."""
        return self.header["guess_limit"]

    @property
    def total(self) -> int:
        """Stored total guesses over all answers (``verify`` checks it against a replay)."""
        return self.header["total"]

    @property
    def average(self) -> float:
        """Stored average guesses per answer (``total`` / number of answers)."""
        return self.header["average"]

    @property
    def max_guesses(self) -> int:
        """Stored most guesses any answer needs."""
        return self.header["max_guesses"]

    @property
    def histogram(self) -> list[int]:
        """``histogram[i]`` = answers solved in ``i + 1`` guesses; length ``guess_limit``."""
        return list(self.header["histogram"])

    @property
    def solver_version(self) -> str:
        """Version of the solver that wrote the artifact."""
        return self.header["solver_version"]

    @property
    def tree_sha256(self) -> str:
        """Stored sha256 (hex) of the four tree arrays (checked on load, :mod:`policy_tree.reader`)."""
        return self.header["tree_sha256"]

    @property
    def n_nodes(self) -> int:
        """Number of nodes (guesses played) in the decision tree."""
        return self.tree.n_nodes

    def __repr__(self) -> str:
        where = f" from {str(self.path)!r}" if self.path else ""
        return (f"<PolicyTree {self.word_list.name}/{self.mode}/{self.opener}: total {self.total}, "
                f"{self.n_nodes} nodes{where}>")

    def guess_at(self, node: int) -> str:
        """The guess word played at ``node``."""
        return self.word_list.guesses[int(self.tree.node_guess[node])]

    def to_bytes(self) -> bytes:
        """The artifact re-encoded with :func:`policy_tree.artifact.encode_artifact` (the current
        format version); for a version-2 file written by the solver this equals the file's bytes."""
        from policy_tree.artifact import encode_artifact

        h = self.header
        return encode_artifact(
            word_list=self.word_list, tree=self.tree, mode=h["mode"], objective=h["objective"],
            guess_limit=h["guess_limit"], opener=h["opener"], total=h["total"],
            max_guesses=h["max_guesses"], histogram=h["histogram"],
            solver_version=h["solver_version"], opener_proof=h.get("opener_proof"),
            priors=h.get("priors"), feedback=h.get("feedback", "standard"),
        )

    # -- lookups ---------------------------------------------------------------------------
    def normalise_history(self, history: Iterable[HistoryItem]) -> tuple[tuple[str, int], ...]:
        """The history as ``(guess word, feedback code)`` pairs, each guess checked against
        the artifact's guess list, read by the one history parser
        (:func:`solver.game.history.parse_steps`: a text, tokens or pairs). Raises
        :class:`~solver.game.errors.UnknownWordError`, :class:`~solver.game.errors.FeedbackError`
        or :class:`HistoryTokenError`. On a Yellow Wordle tree a feedback that shows a green
        other than all-green is refused (FeedbackError): that game never shows one, and mapping
        it silently to yellow would hide a mix-up of the two games."""
        return parse_steps(self.word_list, history, feedback=self.feedback)

    def position(self, history: Iterable[HistoryItem] = ()) -> Position:
        """Follow ``history`` through the answers and the tree.

        Raises:
            UnknownWordError, FeedbackError, HistoryTokenError: malformed history.
            InconsistentHistoryError: no answer produces every feedback of the history.
            GameOverError: a guess follows an all-green feedback.
            HardModeError: on a hard-mode tree, a guess that ignores an earlier hint; on an
                ultra-hard tree, one inconsistent with an earlier feedback.
        """
        steps = self.normalise_history(history)
        if self.mode != Mode.NORMAL:  # a hard-mode tree answers hard-mode games only
            from solver.game.hard_mode import check_mode_history

            check_mode_history(self.mode, steps)
        answers: tuple[str, ...] = self.word_list.answers
        node: int | None = 0
        won = False
        left_at, tree_guess = None, None
        for k, (word, code) in enumerate(steps):
            if won:
                raise GameOverError(
                    f"the game was won at guess {k} ({format_history(steps[:k])}); "
                    f"no guess may follow it, but the history goes on with {format_history(steps[k:])}"
                )
            narrowed = tuple(a for a in answers if feedback_code(word, a, self.feedback) == code)
            if not narrowed:
                before = (f"after {format_history(steps[:k])} {len(answers)} answers remained, "
                          if k else f"of all {len(answers)} answers, ")
                raise InconsistentHistoryError(
                    f"no answer is consistent with {format_history(steps[:k + 1])} "
                    f"({before}none gives {code_to_text(code, len(word))} to {word!r})"
                )
            answers = narrowed
            won = code == self.tree.all_green
            if node is None:
                continue
            if word != self.guess_at(node):
                left_at, tree_guess, node = k, self.guess_at(node), None
            elif won:
                node = None
            else:
                child = self.tree.child(node, code)
                if child < 0:  # only in a damaged tree: consistent feedback without a branch
                    left_at, tree_guess, node = k + 1, None, None
                else:
                    node = child
        return Position(steps, answers, node, won, left_at, tree_guess)

    def remaining_answers(self, history: Iterable[HistoryItem] = ()) -> tuple[str, ...]:
        """The answers consistent with all feedback in ``history`` (in list order, at least one),
        whether or not the history follows the tree. Raises as :meth:`position`."""
        return self.position(history).answers

    def next_guess(self, history: Iterable[HistoryItem] = ()) -> str:
        """The tree's next guess after ``history`` (the opener for an empty history).

        Raises:
            NotInTreeError: the history leaves the tree (a guess the tree does not play there).
            InconsistentHistoryError: no answer produces that feedback.
            GameOverError: the history already ends in (or passes) an all-green feedback.
            UnknownWordError, FeedbackError, HistoryTokenError: malformed history.
        The first three are :class:`HistoryError`, a :class:`KeyError`.
        """
        return self.guess_after(self.position(history))

    def guess_after(self, where: Position) -> str:
        """The tree's guess at a :class:`Position` from :meth:`position`; raises as
        :meth:`next_guess` (:class:`GameOverError`, :class:`NotInTreeError`)."""
        if where.won:
            raise GameOverError(
                f"the game is already won: {format_history(where.steps)}; there is no next guess"
            )
        if where.node is None:
            raise NotInTreeError(self._left_tree_message(where))
        return self.guess_at(where.node)

    def get_next_guess(self, history: Iterable[HistoryItem] = (), default=None):
        """Like :meth:`next_guess` but returns ``default`` for a history the tree does not
        cover (any :class:`HistoryError`); malformed input still raises."""
        try:
            return self.next_guess(history)
        except HistoryError:
            return default

    def _left_tree_message(self, where: Position) -> str:
        k = where.left_tree_at
        if where.tree_guess is None:
            reason = (f"the tree has no branch for {format_history(where.steps[k - 1:k])} "
                      "(the artifact fails `python -m tools.tree verify`)")
        else:
            played = where.steps[k][0]
            reason = f"at guess {k + 1} the tree plays {where.tree_guess!r}, not {played!r}"
        n = len(where.answers)
        return (
            f"{format_history(where.steps)} leaves the decision tree: {reason}. "
            f"{counted(n, 'answer')} {plural(n, 'remains')}; the tree holds no "
            "move from here, but the exact solver can answer from this state "
            "(`solver.exact.bellman.solve_from`)"
        )

    def game(self, answer: str) -> tuple[tuple[str, int], ...]:
        """The game the tree plays against ``answer``: ``(guess, feedback code)`` pairs, the last
        one all green. Raises :class:`~solver.game.errors.UnknownWordError` if ``answer`` is not in
        the answer list, :class:`UnsolvedAnswerError` if the tree does not win it (a damaged
        tree) within 64 guesses."""
        answer = str(answer).strip().lower()
        self.word_list.answer_index(answer)
        steps: list[tuple[str, int]] = []
        node = 0
        while len(steps) < 64:
            guess = self.guess_at(node)
            code = feedback_code(guess, answer, self.feedback)
            steps.append((guess, code))
            if code == self.tree.all_green:
                return tuple(steps)
            node = self.tree.child(node, code)
            if node < 0:
                raise UnsolvedAnswerError(
                    self.path, f"the decision tree does not solve {answer!r}: no branch after "
                    f"{format_history(steps)} (run `python -m tools.tree verify`)"
                )
        raise UnsolvedAnswerError(self.path, f"the decision tree loops on {answer!r}")
