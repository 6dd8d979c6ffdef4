"""The decision tree as flat parallel arrays (see :mod:`policy_tree.schema`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.game.spec import all_green

#: Wordle's all-green code; a tree of another word length has ``DecisionTree.all_green``.
ALL_GREEN = all_green(5)


@dataclass(frozen=True)
class DecisionTree:
    """A policy as a decision tree in CSR form; root = node 0, preorder numbering.

    Attributes:
        node_guess: uint32[n_nodes], guess index played at each node.
        edge_start: uint32[n_nodes + 1], node i's edges are ``edge_start[i]:edge_start[i+1]``.
        edge_feedback: uint8[n_edges] (uint16 for words of more than 5 letters), feedback code
            of each edge (never all-green, ascending per node).
        edge_child: uint32[n_edges], node reached by each edge.
        word_length: letters per word (sets the all-green code ``3**word_length − 1``).
    """

    node_guess: np.ndarray
    edge_start: np.ndarray
    edge_feedback: np.ndarray
    edge_child: np.ndarray
    word_length: int = 5

    @property
    def all_green(self) -> int:
        """The feedback code that ends a game, ``3**word_length − 1``."""
        return all_green(self.word_length)

    @property
    def n_nodes(self) -> int:
        return int(self.node_guess.shape[0])

    def child(self, node: int, feedback: int) -> int:
        """The node after ``feedback`` at ``node``, or -1 if the tree has no such branch."""
        lo, hi = int(self.edge_start[node]), int(self.edge_start[node + 1])
        j = lo + int(np.searchsorted(self.edge_feedback[lo:hi], feedback))
        if j < hi and int(self.edge_feedback[j]) == feedback:
            return int(self.edge_child[j])
        return -1

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "node_guess": self.node_guess,
            "edge_start": self.edge_start,
            "edge_feedback": self.edge_feedback,
            "edge_child": self.edge_child,
        }

    def __eq__(self, other) -> bool:
        if not isinstance(other, DecisionTree):
            return NotImplemented
        return all(np.array_equal(a, b) for a, b in zip(self.arrays().values(), other.arrays().values()))

    def guesses_per_answer(self, table_row_of, answers, start: int = 0) -> np.ndarray:
        """Guesses used for each answer from node ``start`` (0: the root) on, int64[len(answers)];
        0 where the tree fails (no branch or more than the tree's depth).
        ``table_row_of(guess_index, answer) -> code``, for the answers as given."""
        out = np.zeros(len(answers), dtype=np.int64)
        green = self.all_green
        for i, a in enumerate(answers):
            node, used = start, 0
            while node >= 0 and used < 64:
                used += 1
                code = table_row_of(int(self.node_guess[node]), a)
                if code == green:
                    out[i] = used
                    break
                node = self.child(node, code)
        return out
