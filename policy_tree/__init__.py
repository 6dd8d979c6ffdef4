"""Decision-tree artifacts: the optimal policy as a file a player can use.

>>> import policy_tree
>>> tree = policy_tree.load("legacy-normal-salet")    # a shipped tree by name, or a path
>>> tree.next_guess([])                      # the opener
'salet'
>>> tree.next_guess([("salet", "bbbby")])    # feedback as b/y/g text, 0/1/2 digits, squares or a code
'north'
>>> len(tree.remaining_answers([("salet", "bbbby")]))
86

``load`` takes a file's path or a shipped tree's name (:mod:`policy_tree.shipped`), validates
the file on open (format, header types, array sizes, checksums, word lists) and raises an
:class:`ArtifactError` naming the file; ``next_guess`` raises a :class:`HistoryError` (a
``KeyError``) for a history the tree does not cover, and
``get_next_guess(history, default)`` returns the default instead. :func:`verify` replays every
answer with the plain-Python feedback rule. Nothing here imports numba.
"""

from policy_tree.errors import (
    ArtifactError, CorruptArtifactError, GameOverError, HistoryError, HistoryTokenError,
    InconsistentHistoryError, MissingArtifactError, NotInTreeError, UnsolvedAnswerError,
    UnsupportedArtifactError, WordListMismatchError,
)
from policy_tree.export import export_json, export_paths
from policy_tree.lookup import PolicyTree, Position, format_history, parse_history_token
from policy_tree.reader import decode, load
from policy_tree.tree import DecisionTree
from policy_tree.verify import VerifyReport, verify, verify_position

__all__ = [
    "ArtifactError", "CorruptArtifactError", "DecisionTree", "GameOverError", "HistoryError",
    "HistoryTokenError", "InconsistentHistoryError", "MissingArtifactError", "NotInTreeError",
    "PolicyTree", "Position", "UnsolvedAnswerError", "UnsupportedArtifactError", "VerifyReport",
    "WordListMismatchError", "decode", "export_json", "export_paths", "format_history", "load",
    "parse_history_token", "verify", "verify_position",
]
