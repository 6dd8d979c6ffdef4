"""Exporting a decision tree as text a person or another program can read without msgpack.

- :func:`export_paths`: one line per answer, in answer-list order, the whole game the tree plays
  against it: ``guess feedback guess feedback … answer ggggg`` (feedback as five of b/y/g), e.g.
  ``salet bbbby crony bbbbb … ggggg``. Replaying the lines with any feedback function checks
  the tree; summing the guesses gives the total.
- :func:`export_json`: the tree as nested maps ``{"guess": "salet", "children": {"bbbbb": …}}``,
  children keyed by feedback text in ascending code order; a node whose guess ends every game
  reaching it has ``"children": {}``. The all-green outcome is implicit (never a child).
"""

from __future__ import annotations

import json

from policy_tree.errors import UnsolvedAnswerError
from policy_tree.lookup import PolicyTree
from solver.game.feedback import code_to_text

#: Longest chain of guesses :func:`export_json` nests (a game never needs more than 26 or so).
MAX_DEPTH = 64


def path_line(steps) -> str:
    """``[("salet", 0), ("crony", 242)]`` → ``"salet bbbbb crony ggggg"``."""
    return " ".join(f"{guess} {code_to_text(code, len(guess))}" for guess, code in steps)


def export_paths(policy: PolicyTree) -> str:
    """Every answer's game, one line each (``n_answers`` lines, each ending in ``\\n``).
    Raises :class:`policy_tree.errors.UnsolvedAnswerError` if the tree fails an answer."""
    return "".join(path_line(policy.game(answer)) + "\n" for answer in policy.word_list.answers)


def export_json(policy: PolicyTree) -> dict:
    """The tree as nested dicts (see the module docstring); depth is at most the longest game.
    Raises :class:`policy_tree.errors.UnsolvedAnswerError` for a chain of guesses longer than
    ``MAX_DEPTH`` (only a damaged tree has one)."""
    tree = policy.tree
    built: list[dict | None] = [None] * tree.n_nodes
    depth = [1] * tree.n_nodes
    # Children are numbered after their parent (checked on load), so building from the last
    # node back to the root needs no recursion, whatever a damaged file holds.
    for node in range(tree.n_nodes - 1, -1, -1):
        lo, hi = int(tree.edge_start[node]), int(tree.edge_start[node + 1])
        children = {}
        for j in range(lo, hi):
            child = int(tree.edge_child[j])
            children[code_to_text(int(tree.edge_feedback[j]), tree.word_length)] = built[child]
            depth[node] = max(depth[node], depth[child] + 1)
        if depth[node] > MAX_DEPTH:
            raise UnsolvedAnswerError(
                policy.path, f"node {node} starts a chain of more than {MAX_DEPTH} guesses "
                "(run `python -m tools.tree verify`)")
        built[node] = {"guess": policy.guess_at(node), "children": children}
    return built[0]


def export_json_text(policy: PolicyTree) -> str:
    """:func:`export_json` as compact JSON text ending in a newline."""
    return json.dumps(export_json(policy), separators=(",", ":")) + "\n"
