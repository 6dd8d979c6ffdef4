"""The decision-tree artifact format (msgpack), version 1.

An artifact is one msgpack map with these keys, in this order (``str`` keys; ``bin`` values
are raw little-endian arrays):

======================  =========  =============================================================
key                     type       meaning
======================  =========  =============================================================
``format``              str        always ``"exact-wordle/decision-tree"``
``format_version``      int        ``FORMAT_VERSION`` (1)
``word_list``           str        list name (``legacy``, ``nyt-2024`` or a directory's name)
``answers_sha256``      str        sha256 (hex) of the normalised answer list
``guesses_sha256``      str        sha256 (hex) of the normalised guess list
``answers``             bin        the sorted answers, 5 ASCII bytes each, concatenated
``guesses``             bin        the sorted guesses, 5 ASCII bytes each, concatenated
``mode``                str        ``"normal"`` (``"hard"`` reserved for the hard-mode variant)
``objective``           str        ``"total"`` (minimise total guesses; ``"worst"`` reserved)
``guess_limit``         int        games must be won within this many guesses (6)
``opener``              str        the root guess
``total``               int        sum over all answers of guesses used (final one included)
``average``             float      total / number of answers
``max_guesses``         int        the most guesses any answer needs
``histogram``           [int]      ``histogram[i]`` = answers solved in ``i + 1`` guesses,
                                   length ``guess_limit``
``solver_version``      str        version of the solver that wrote it
``solve_seconds``       float      wall seconds the solve took (the only field that varies
                                   between two solves of the same input)
``tree``                map        the tree, below
``tree_sha256``         str        sha256 (hex) of the four tree arrays' bytes concatenated in
                                   the order below; detects corruption
======================  =========  =============================================================

The tree is stored as flat parallel arrays (a CSR adjacency), root = node 0, nodes numbered
in depth-first preorder with children in ascending feedback-code order:

- ``node_guess``: bin of uint32[n_nodes], the guess played at each node (index into ``guesses``);
- ``edge_start``: bin of uint32[n_nodes + 1], node ``i``'s edges are ``edge_start[i]:edge_start[i+1]``;
- ``edge_feedback``: bin of uint8[n_edges], the feedback code (0..242, never 242) of each edge;
- ``edge_child``: bin of uint32[n_edges], the node reached after that feedback.

A node's edges are the feedbacks other than all-green (242) that some answer still possible
there produces, sorted ascending. Feedback codes: ``sum(c_i * 3**i)`` with position 0 the
first letter, ``c = 0`` gray, ``1`` yellow, ``2`` green (see :mod:`solver.game.feedback`).
"""

FORMAT = "exact-wordle/decision-tree"
FORMAT_VERSION = 1
TREE_ARRAYS = (
    ("node_guess", "<u4"),
    ("edge_start", "<u4"),
    ("edge_feedback", "u1"),
    ("edge_child", "<u4"),
)
HEADER_KEYS = (
    "format", "format_version", "word_list", "answers_sha256", "guesses_sha256", "answers",
    "guesses", "mode", "objective", "guess_limit", "opener", "total", "average", "max_guesses",
    "histogram", "solver_version", "solve_seconds", "tree", "tree_sha256",
)
