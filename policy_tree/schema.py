"""The decision-tree artifact format (msgpack), version 3.

An artifact is one msgpack map with these keys, in this order (``str`` keys; ``bin`` values
are raw little-endian arrays):

======================  =========  =============================================================
key                     type       meaning
======================  =========  =============================================================
``format``              str        always ``"exact-wordle/decision-tree"``
``format_version``      int        ``FORMAT_VERSION`` (3)
``word_list``           str        list name (``legacy``, ``nyt-2024`` or a directory's name)
``word_length``         int        letters per word, L (5 for Wordle; version 2 on)
``answers_sha256``      str        sha256 (hex) of the normalised answer list
``guesses_sha256``      str        sha256 (hex) of the normalised guess list
``answers``             bin        the sorted answers, L ASCII bytes each, concatenated
``guesses``             bin        the sorted guesses, L ASCII bytes each, concatenated
``mode``                str        ``"normal"``, ``"hard"`` (hard mode) or ``"ultra"`` (ultra-hard mode)
``objective``           str        ``"total"`` (minimise total guesses) or ``"worst"`` (minimise
                                   the most guesses any answer needs), or a lexicographic
                                   objective over them: ``"total,worst"``, ``"total,tail"``,
                                   ``"worst,total"`` (docs/algorithms.md §2.5)
``guess_limit``         int        games must be won within this many guesses (6)
``opener``              str        the root guess
``total``               int        sum over all answers of guesses used (final one included)
``average``             float      total / number of answers
``max_guesses``         int        the most guesses any answer needs
``histogram``           [int]      ``histogram[i]`` = answers solved in ``i + 1`` guesses,
                                   length ``guess_limit``
``solver_version``      str        version of the solver that wrote it
``tree``                map        the tree, below
``tree_sha256``         str        sha256 (hex) of the four tree arrays' bytes concatenated in
                                   the order below; detects corruption
(optional keys)                    ``opener_proof``, ``feedback``, ``priors`` (below)
``checksums``           map        always the last key (version 3 on): ``{key: sha256 hex}`` for
                                   every other key, in file order, of that value's msgpack bytes
                                   exactly as stored
======================  =========  =============================================================

Every byte of a version-3 file is checked: the map header and the keys by the structure (the
keys are exactly those ``checksums`` lists, ``checksums`` last, nothing after the map), each
value's bytes by its sha256 (hashlib). A reader refuses any mismatch and names the key, so a
flipped bit in a header figure (``total``, ``histogram``, ``word_list``, ``solver_version``...)
is refused on open, not just by ``tools.tree verify``.

The tree is stored as flat parallel arrays (a CSR adjacency), root = node 0, nodes numbered
in depth-first preorder with children in ascending feedback-code order:

- ``node_guess``: bin of uint32[n_nodes], the guess played at each node (index into ``guesses``);
- ``edge_start``: bin of uint32[n_nodes + 1], node ``i``'s edges are ``edge_start[i]:edge_start[i+1]``;
- ``edge_feedback``: bin of uint8[n_edges] for L ≤ 5, little-endian uint16 for L > 5, the
  feedback code (0..3**L − 2: never all-green, 3**L − 1) of each edge;
- ``edge_child``: bin of uint32[n_edges], the node reached after that feedback.

A node's edges are the feedbacks other than all-green (242 for L = 5) that some answer still possible
there produces, sorted ascending. Feedback codes: ``sum(c_i * 3**i)`` with position 0 the
first letter, ``c = 0`` gray, ``1`` yellow, ``2`` green (see :mod:`solver.game.feedback`).

Nothing in an artifact depends on the run that wrote it (no timing, no host, no date): two
solves of the same input give the same bytes. Version history: 1 had a ``solve_seconds`` key
after ``solver_version`` and no ``word_length`` (always 5); 2 dropped ``solve_seconds`` (the
solve's wall time goes to the run's console log) and added ``word_length``; 3 added
``checksums``. Versions 1 and 2 carry no checksum over the header, so the reader refuses them
(naming ``python -m tools.tree upgrade``, which replays such a tree, checks every header figure
against the replay and rewrites it as version 3).
"""

from solver.game.files import INPUT_LIMITS

FORMAT = "exact-wordle/decision-tree"
FORMAT_VERSION = 3
#: Versions the reader accepts: version 1 also stored ``solve_seconds`` (ignored when read);
#: versions 1 and 2 only through :func:`policy_tree.reader.decode` with ``unchecked_ok=True``
#: (``tools.tree upgrade``), since nothing checks their header.
READABLE_VERSIONS = (1, 2, 3)
#: The versions whose every byte is covered by :data:`CHECKSUMS_KEY`.
CHECKED_VERSIONS = (3,)
#: The last key of a version-3 artifact: ``{key: sha256 hex of the value's msgpack bytes}``.
CHECKSUMS_KEY = "checksums"
#: The largest artifact file the reader opens (the 7-letter tree is under 1 MB): a larger
#: file, or anything but a regular file (a device, a FIFO), is refused before it is read. Its
#: one home is the bounded reader's table of caps.
MAX_ARTIFACT_BYTES = INPUT_LIMITS["artifact"]
TREE_ARRAYS = (
    ("node_guess", "<u4"),
    ("edge_start", "<u4"),
    ("edge_feedback", "u1"),
    ("edge_child", "<u4"),
)
HEADER_KEYS = (
    "format", "format_version", "word_list", "word_length", "answers_sha256", "guesses_sha256",
    "answers", "guesses", "mode", "objective", "guess_limit", "opener", "total", "average",
    "max_guesses", "histogram", "solver_version", "tree", "tree_sha256",
)
#: Optional header key, written only for a tree whose opener was proven optimal by
#: :func:`solver.exact.prove.prove`: a map ``{"openers": int (how many allowed guesses the
#: proof covered: all of them), "guesses_sha256": str (the guess list it ran over),
#: "others_at_least": int (a proven lower bound on every other opener's value, > the tree's)}``.
OPENER_PROOF_KEY = "opener_proof"
OPENER_PROOF_FIELDS = {"openers": int, "guesses_sha256": str, "others_at_least": int}
#: Optional header key, written only for a tree solved under answer weights (priors,
#: docs/algorithms.md §10.3): a map ``{"source": str (a file's path or "wordfreq"),
#: "sha256": str (of the integer weights as word,weight lines), "weights": bin (int64
#: little-endian, one per answer, answer order), "weighted_total": int (Σ w_a · guesses(a),
#: what the tree minimises)}``.
PRIORS_KEY = "priors"
PRIORS_FIELDS = {"source": str, "sha256": str, "weights": bytes, "weighted_total": int}
#: Optional header key: the feedback rule the tree plays under, a str of
#: :data:`KNOWN_FEEDBACK` — ``"yellow"`` for Yellow Wordle (docs/algorithms.md §10.4: every
#: green shown as yellow unless the guess is right, so edge feedbacks hold no green digit).
#: Absent means ``"standard"`` (and is what a standard tree writes).
FEEDBACK_KEY = "feedback"
KNOWN_FEEDBACK = ("standard", "yellow")
#: Version 1's header keys (no ``word_length``; ``solve_seconds`` is not checked).
HEADER_KEYS_V1 = tuple(key for key in HEADER_KEYS if key != "word_length")


def tree_arrays(word_length: int) -> tuple[tuple[str, str], ...]:
    """The tree arrays' (name, dtype) for words of ``word_length`` letters: edge feedback is
    uint8 up to 5 letters (3**5 = 243 codes) and little-endian uint16 above."""
    feedback = "u1" if word_length <= 5 else "<u2"
    return tuple((name, feedback if name == "edge_feedback" else dtype) for name, dtype in TREE_ARRAYS)
