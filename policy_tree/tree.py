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
        """Number of nodes, ``node_guess.shape[0]``."""
        return int(self.node_guess.shape[0])

    def child(self, node: int, feedback: int) -> int:
        """The node after ``feedback`` at ``node``, or -1 if the tree has no such branch."""
        lo, hi = int(self.edge_start[node]), int(self.edge_start[node + 1])
        j = lo + int(np.searchsorted(self.edge_feedback[lo:hi], feedback))
        if j < hi and int(self.edge_feedback[j]) == feedback:
            return int(self.edge_child[j])
        return -1

    def arrays(self) -> dict[str, np.ndarray]:
        """The four CSR arrays by name (node_guess, edge_start, edge_feedback, edge_child), not
        copied."""
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

    def replay(self, codes, answers, start: int = 0) -> np.ndarray:
        """:meth:`guesses_per_answer`, one depth at a time over all the answers: int64[len(answers)],
        0 where the tree fails. ``codes(guesses, answers) -> int array`` gives the feedback of
        each guess index against the answer beside it (arrays of one shape), so only the codes
        of the guesses played against the answers that reach them are read."""
        answers = np.asarray(answers)
        used = np.zeros(len(answers), dtype=np.int64)
        green, width = self.all_green, self.all_green + 1
        # every edge as one key (its node, its feedback), ascending: the CSR form keeps a
        # node's edges together, nodes in order, feedback ascending
        edge_key = (np.repeat(np.arange(len(self.node_guess), dtype=np.int64),
                              np.diff(self.edge_start.astype(np.int64))) * width
                    + self.edge_feedback)
        at = np.full(len(answers), start, dtype=np.int64)  # the node each answer has reached
        going = np.arange(len(answers) if start >= 0 else 0)  # the answers not yet won
        for depth in range(1, 65):
            if not going.size:
                break
            code = np.asarray(codes(self.node_guess[at[going]], answers[going])).astype(np.int64)
            won = code == green
            used[going[won]] = depth
            going, key = going[~won], at[going[~won]] * width + code[~won]
            edge = np.searchsorted(edge_key, key)  # the node's edge of that feedback, if any
            found = edge < len(edge_key)
            found[found] = edge_key[edge[found]] == key[found]
            at[going[found]] = self.edge_child[edge[found]]
            going = going[found]
        return used

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
