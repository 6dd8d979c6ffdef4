"""The exact optimal policy as a :class:`solver.policies.base.Policy`, and exact values of decisions.

:class:`ExactPolicy` answers from an optimal decision tree (a solved opener, see
:func:`solver.exact.bellman.solve`) for the states the tree reaches, and solves any other state
exactly with :func:`solver.exact.bellman.solve_state` (Bertsimas & Paskov, Operations Research 2024,
§3: the time-indexed Bellman recursion ``F(S, d)``). Both give the same guess for a state: the
solver's tie-break (``solver.exact.bellman`` docstring) does not depend on how the state was reached.

It also prices a decision: :meth:`ExactPolicy.value_after` is the exact total when a given
guess is played now and the optimum is played afterwards, ``|S| + Σ_{C ≠ all-green} F(C, d−1)``;
compared with ``F(S, d)`` it gives the extra guesses a policy's choice costs (the gap report).
"""

from __future__ import annotations

import numpy as np

from policy_tree.tree import DecisionTree
from solver.game.errors import InputError
from solver.game.feedback import code_to_text, feedback_table
from solver.policies.base import Policy
from solver.game.spec import GUESS_LIMIT, all_green



class ArtifactMismatchError(InputError):
    """An artifact does not hold the expected tree (other lists, opener, mode or corrupt)."""


def read_tree_artifact(path, word_list) -> tuple[dict, DecisionTree]:
    """Read a decision-tree artifact (:func:`policy_tree.load`, which validates it) written
    for ``word_list``.

    Returns ``(header, tree)``: the artifact's scalar fields and the tree. Raises
    :class:`ArtifactMismatchError` if the file is missing, not a valid artifact, or belongs
    to other word lists.
    """
    import policy_tree

    try:
        loaded = policy_tree.load(path)
    except policy_tree.ArtifactError as exc:
        raise ArtifactMismatchError(str(exc)) from None
    if (loaded.word_list.answers_sha256 != word_list.answers_sha256
            or loaded.word_list.guesses_sha256 != word_list.guesses_sha256):
        raise ArtifactMismatchError(f"{path}: written for other word lists than {word_list.name!r}")
    return dict(loaded.header), loaded.tree


def _state_key(state: np.ndarray, guesses_left: int) -> tuple[bytes, int]:
    return np.ascontiguousarray(state, dtype=np.int32).tobytes(), int(guesses_left)


class ExactPolicy(Policy):
    """The exact optimum (minimum total guesses, every game won within the limit).

    Args:
        word_list: the :class:`solver.game.wordlists.WordList`.
        table: its feedback table, uint8 or uint16[n_guesses, n_answers] (loaded if None).
        tree: an optimal :class:`policy_tree.tree.DecisionTree` (root = the opener) whose
            states are answered without search; None to solve every state.
        guess_limit: guesses allowed in a game (6); the tree's root has all of them.

    ``choose(Belief(state, guesses_left))`` plays the optimal guess; it raises
    :class:`solver.exact.bellman.UnwinnableError` if no policy wins every answer of the state in time.
    In hard mode (the belief's ``allowed`` set) it plays the first guess of the optimal hard-mode
    subtree after the belief's history (:func:`solver.exact.bellman.solve_from`, ``mode="hard"``;
    the tree, a normal-mode one, is not used then).
    """

    name = "exact"
    deterministic = True

    def __init__(self, word_list, table: np.ndarray | None = None, tree: DecisionTree | None = None,
                 guess_limit: int = GUESS_LIMIT):
        super().__init__(word_list, feedback_table(word_list) if table is None else table)
        self.guess_limit = int(guess_limit)
        self.tree = tree
        #: (state bytes, guesses left) → (optimal total F, optimal guess index)
        self._known: dict[tuple[bytes, int], tuple[int, int]] = {}
        #: the same in hard mode, keyed also by the history's constraint (:meth:`solve_hard`)
        self._known_hard: dict[tuple, tuple[int, int]] = {}
        if tree is not None:
            self._index_tree(tree)

    def _index_tree(self, tree: DecisionTree) -> None:
        """Record F and the guess of every state the tree reaches (post-order, no recursion)."""
        table = self.table
        green = all_green(self.word_list.word_length)
        root = np.arange(self.word_list.n_answers, dtype=np.int32)
        # frames: (node, state, guesses_left, children still to visit, running total)
        stack = [(0, root, self.guess_limit, None, 0)]
        while stack:
            node, state, left, pending, acc = stack.pop()
            if pending is None:
                guess = int(tree.node_guess[node])
                codes = table[guess, state]
                children = []
                for code in np.unique(codes):
                    if code == green:
                        continue
                    child = tree.child(node, int(code))
                    if child < 0:
                        raise InputError(
                            f"the tree has no branch for feedback "
                            f"{code_to_text(int(code), self.word_list.word_length)} after "
                            f"{self.word_list.guesses[guess]!r} (node {node}); the artifact is "
                            "damaged: `python -m tools.tree verify` lists what is wrong")
                    children.append((child, state[codes == code]))
                stack.append((node, state, left, children, len(state)))
                continue
            if pending:
                child, child_state = pending.pop()
                stack.append((node, state, left, pending, acc))
                stack.append((child, child_state, left - 1, None, 0))
                continue
            total = acc
            self._known[_state_key(state, left)] = (total, int(tree.node_guess[node]))
            if stack:
                p_node, p_state, p_left, p_pending, p_acc = stack.pop()
                stack.append((p_node, p_state, p_left, p_pending, p_acc + total))

    def known_states(self) -> int:
        """States whose optimum is recorded (from the tree or solved so far)."""
        return len(self._known)

    def solve(self, state, guesses_left: int) -> tuple[int, int]:
        """``(F(S, d), optimal guess index)`` for a sorted int32 state; raises UnwinnableError."""
        from solver.exact.bellman import solve_state
        from solver.game.spec import Game

        state = np.ascontiguousarray(state, dtype=np.int32)
        key = _state_key(state, guesses_left)
        found = self._known.get(key)
        if found is None:
            if len(state) == 1:
                found = (1, int(self.word_list.answer_guess_index[state[0]]))
            else:
                total, word = solve_state(Game(self.word_list), state, int(guesses_left), self.table)
                found = (int(total), self.word_list.guess_index(word))
            self._known[key] = found
        return found

    def value(self, state, guesses_left: int) -> int:
        """F(S, d): the least total guesses over the answers of ``state`` with ``guesses_left``."""
        return self.solve(state, guesses_left)[0]

    def value_after(self, state, guesses_left: int, guess: int) -> int | None:
        """Exact total when ``guess`` is played now and the optimum afterwards:
        ``|S| + Σ_{C ≠ all-green} F(C, d − 1)``; None if some answer can then no longer be won
        within the limit."""
        from solver.exact.bellman import UnwinnableError

        state = np.ascontiguousarray(state, dtype=np.int32)
        codes = self.table[int(guess), state]
        total = len(state)
        green = all_green(self.word_list.word_length)
        for code in np.unique(codes):
            if code == green:
                continue
            if guesses_left <= 1:
                return None
            try:
                total += self.value(state[codes == code], guesses_left - 1)
            except UnwinnableError:
                return None
        return total

    def _choose(self, state: np.ndarray, guesses_left: int, seed: int | None) -> int:
        return self.solve(state, guesses_left)[1]

    def _decide(self, belief, seed: int | None) -> int:
        if belief.allowed is None or len(belief.state) <= 1:
            return super()._decide(belief, seed)
        return self.solve_hard(belief.state, belief.history)[1]

    def solve_hard(self, state, history) -> tuple[int, int]:
        """``(F, optimal guess index)`` in hard mode for ``state`` (sorted int32 answer indices)
        after ``history`` (``(guess index, feedback code)`` pairs, as a belief holds them), with
        ``guess_limit − len(history)`` guesses left; memoised by the state, the guesses left
        and the hard-mode constraint the history implies. Raises UnwinnableError (also past
        the guess limit)."""
        from solver.exact.bellman import solve_from
        from solver.game.hard_mode import history_constraint
        from solver.game.spec import Game, Mode

        words = self.word_list.guesses
        played = [(words[int(g)], int(c)) for g, c in history]
        key = (_state_key(state, self.guess_limit - len(played)),
               history_constraint(self.word_list, played).tobytes())
        found = self._known_hard.get(key)
        if found is None:
            solution = solve_from(Game(self.word_list, self.guess_limit, mode=Mode.HARD), played,
                                  table=self.table)
            found = (int(solution.value), self.word_list.guess_index(solution.next_guess))
            self._known_hard[key] = found
        return found
