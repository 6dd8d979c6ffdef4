"""Reading a decision-tree artifact (format: :mod:`policy_tree.schema`), validated on open.

:func:`load` checks, in this order, and raises the first problem found:

1. the file exists, is a regular file (not a device or a FIFO) of at most
   :data:`~policy_tree.schema.MAX_ARTIFACT_BYTES` bytes, and is readable
   (:class:`MissingArtifactError`; the size and the kind are checked before a byte is read);
2. it is one complete msgpack map with nothing after it and no key twice
   (:class:`CorruptArtifactError`: empty, truncated, trailing bytes, not msgpack);
3. the ``checksums`` record (version 3) lists exactly the other keys, comes last, and every
   value's bytes hash to their sha256 there (:class:`CorruptArtifactError` naming the key):
   every byte of the file is checked;
4. ``format`` is the decision-tree format and ``format_version`` is 3; versions 1 and 2 (no
   checksum over the header) only with ``unchecked_ok=True`` (:class:`UnsupportedArtifactError`);
5. every header key is present with its type (:class:`CorruptArtifactError`), ``mode`` and
   ``objective`` are known values, and so is the optional ``feedback`` rule (absent:
   ``"standard"``) (:class:`UnsupportedArtifactError`);
6. ``tree_sha256`` matches the four tree arrays, whose sizes agree and whose indices are in
   range (node guesses < number of guesses, children in 1..n_nodes-1, feedback codes < 242,
   ``edge_start`` non-decreasing from 0 to the number of edges, every child numbered after its
   parent so the tree has no cycle) (:class:`CorruptArtifactError`);
7. the embedded answers and guesses are sorted five-letter lowercase words, answers among the
   guesses, matching ``answers_sha256`` / ``guesses_sha256`` (:class:`CorruptArtifactError`);
   the header figures are in the ranges a game allows (``guess_limit`` 1..255, ``max_guesses``
   1..``guess_limit``, the histogram's counts and ``total`` between 0 and what the answers
   can use, a finite ``average``);
8. the arrays are a decision tree a game can play (:func:`check_tree_shape`): at most
   ``n_answers × guess_limit`` nodes and ``n_answers`` leaves, each node's edge feedbacks strictly
   ascending, every node but the root reached by exactly one edge (no shared child, no
   orphan), numbered in depth-first preorder, and no node deeper than ``guess_limit`` guesses
   with a branch at the last guess (:class:`CorruptArtifactError` naming the node or edge).
   Every check is a few vectorised passes over the arrays, so opening a file takes time and
   memory linear in its size, and every reader of a loaded tree (lookups, ``verify``,
   ``export``) can rely on a tree of at most ``guess_limit`` levels;
9. when ``word_list`` names a shipped list (``legacy``, ``nyt-2024``) its sha256s equal those of
   the lists shipped with the project (:class:`WordListMismatchError`);
10. a Yellow Wordle tree (``feedback`` ``"yellow"``) has no edge whose feedback shows a green
   (:class:`CorruptArtifactError`).

Whether the tree actually wins every answer, and whether the stored total, histogram and
maximum are those of the tree, is :func:`policy_tree.verify.verify`'s job: the checksums prove
the file is what its writer wrote, the replay that the writer was right.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import msgpack
import numpy as np

from policy_tree.errors import (
    CorruptArtifactError, MissingArtifactError, UnsupportedArtifactError, WordListMismatchError,
)
from policy_tree.lookup import SCALAR_FIELDS, PolicyTree
from policy_tree.shipped import resolve_artifact
from policy_tree.schema import (CHECKED_VERSIONS, CHECKSUMS_KEY, FEEDBACK_KEY, FORMAT,
                                 FORMAT_VERSION, HEADER_KEYS, HEADER_KEYS_V1, KNOWN_FEEDBACK,
                                 MAX_ARTIFACT_BYTES, OPENER_PROOF_FIELDS, OPENER_PROOF_KEY,
                                 PRIORS_FIELDS, PRIORS_KEY, READABLE_VERSIONS, tree_arrays)
from policy_tree.tree import DecisionTree
from solver.game.files import read_input_file
from solver.game.spec import (MAX_GUESS_LIMIT, OBJECTIVES, FeedbackRule, MAX_WORD_LENGTH,
                              MIN_WORD_LENGTH, all_green)
from solver.game.wordlists import BUILTIN_LISTS, DATA_DIR, WordList
from solver.game.wording import counted

KNOWN_MODES = ("normal", "hard", "ultra")
KNOWN_OBJECTIVES = OBJECTIVES

# Expected Python type(s) of each header value after msgpack decoding (bool is rejected
# separately, since it is an int subclass).
_HEADER_TYPES = {
    "format": str, "format_version": int, "word_list": str, "word_length": int, "answers_sha256": str,
    "guesses_sha256": str, "answers": bytes, "guesses": bytes, "mode": str, "objective": str,
    "guess_limit": int, "opener": str, "total": int, "average": (float, int),
    "max_guesses": int, "histogram": list, "solver_version": str, "tree": dict,
    "tree_sha256": str,
}
_TYPE_NAMES = {str: "str", int: "int", bytes: "bin", list: "array", dict: "map",
               (float, int): "float"}


def load(path: str | Path, *, unchecked_ok: bool = False) -> PolicyTree:
    """Read and validate the artifact at ``path``: a file, or a shipped tree's short name
    (``"legacy-normal-salet"``, ``"book/legacy-normal-crane"``; :mod:`policy_tree.shipped`),
    found in the shipped artifacts whatever the working directory.

    ``unchecked_ok``: also accept versions 1 and 2, whose header no checksum covers (for
    ``tools.tree upgrade``, which replays the tree before rewriting it).

    Returns:
        a :class:`~policy_tree.lookup.PolicyTree` with ``path`` set.
    Raises:
        MissingArtifactError, CorruptArtifactError, UnsupportedArtifactError,
        WordListMismatchError (all :class:`policy_tree.errors.ArtifactError`, an
        :class:`~solver.game.errors.InputError`); the message starts with the path.
    """
    if "\0" in str(path):
        raise MissingArtifactError(str(path).replace("\0", "\\0"),
                                   "not a file name (it holds a NUL character)")
    path = Path(resolve_artifact(path))
    return decode(read_artifact_bytes(path), path, unchecked_ok=unchecked_ok)


def read_artifact_bytes(path: Path, limit: int | None = None) -> bytes:
    """The bytes of the artifact file ``path``, read by the one bounded reader
    (:func:`solver.game.files.read_input_file`, kind ``"artifact"``: a regular file of at most
    ``INPUT_LIMITS["artifact"]`` bytes, or ``limit``, both checked before a byte is read).

    Raises:
        MissingArtifactError: no such file, not a regular file (a directory, a FIFO, a device),
            larger than the cap (the message states it), or unreadable; the message names the
            file.
    """
    path = Path(path)

    def refused(message: str) -> MissingArtifactError:  # the reader's message names the file
        return MissingArtifactError(path, message.removeprefix(f"{path}: "))

    return read_input_file(path, "artifact", limit=limit, error=refused)


def decode(data: bytes, path: str | Path | None = None, *, unchecked_ok: bool = False) -> PolicyTree:
    """Validate artifact bytes (see :func:`load`); ``path`` is only used in messages."""
    path = None if path is None else Path(path)
    if len(data) > MAX_ARTIFACT_BYTES:
        raise CorruptArtifactError(path, f"{len(data)} bytes, larger than any artifact (the "
                                   f"limit is {MAX_ARTIFACT_BYTES} bytes)")
    document, raw = _unpack(data, path)
    _check_checksums(document, raw, path, unchecked_ok)
    _check_header(document, path)
    word_length = document.get("word_length", 5)  # version 1 stored five-letter words only
    tree = _decode_tree(document, path, word_length)
    word_list = _decode_word_list(document, path, word_length)
    if int(tree.node_guess.max()) >= word_list.n_guesses:
        node = int(np.argmax(tree.node_guess >= word_list.n_guesses))
        raise CorruptArtifactError(
            path, f"node {node} plays guess index {int(tree.node_guess[node])}, but there are "
            f"only {word_list.n_guesses} guesses")
    _check_figures(document, path, word_list.n_answers)
    check_tree_shape(tree, word_list.n_answers, document["guess_limit"], path)
    header = {key: document.get(key, word_length) if key == "word_length" else document[key]
              for key in SCALAR_FIELDS}
    header[OPENER_PROOF_KEY] = document.get(OPENER_PROOF_KEY)
    header[PRIORS_KEY] = document.get(PRIORS_KEY)
    header[FEEDBACK_KEY] = document.get(FEEDBACK_KEY, "standard")
    if header[FEEDBACK_KEY] == FeedbackRule.YELLOW and len(tree.edge_feedback):
        from solver.game.feedback import shows_green

        green = [int(c) for c in np.unique(tree.edge_feedback) if shows_green(int(c), word_length)]
        if green:
            raise CorruptArtifactError(path, f"a Yellow Wordle tree has an edge with feedback code "
                                       f"{green[0]}, which shows a green")
    priors = header[PRIORS_KEY]
    if priors is not None and len(priors["weights"]) != 8 * word_list.n_answers:
        raise CorruptArtifactError(path, f"{PRIORS_KEY}['weights'] holds {len(priors['weights'])} "
                                   f"bytes, not 8 per answer ({word_list.n_answers} answers)")
    return PolicyTree(tree, word_list, header, path)


def _unpack(data: bytes, path: Path | None) -> tuple[dict, dict]:
    """The top-level map and, for each key, its value's bytes as stored."""
    if not data:
        raise CorruptArtifactError(path, "empty file (0 bytes)")
    # Unpacker rather than unpackb: it tells a truncated file (OutOfData) from garbage, and
    # tell() gives each value's bytes for the checksums.
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, max_buffer_size=len(data))
    unpacker.feed(data)

    def read(step, unpacker_at=None):
        start = (unpacker_at or unpacker).tell()
        try:
            return step()
        except msgpack.OutOfData:
            raise CorruptArtifactError(
                path, f"truncated: the msgpack data ends early (the file has {len(data)} bytes)"
            ) from None
        except (ValueError, TypeError, msgpack.UnpackException) as exc:
            raise CorruptArtifactError(
                path, f"not valid msgpack: {_msgpack_problem(exc)} (in the value that starts at "
                f"byte {start})") from None

    try:
        n_keys = unpacker.read_map_header()
    except (ValueError, TypeError, msgpack.UnpackException):
        whole = msgpack.Unpacker(raw=False, max_buffer_size=len(data))
        whole.feed(data)
        value = read(whole.unpack, whole)
        raise UnsupportedArtifactError(
            path, f"not a decision-tree artifact (the msgpack value is a "
            f"{type(value).__name__}, not a map)") from None
    document, raw = {}, {}
    for _ in range(n_keys):
        key = read(unpacker.unpack)
        if not isinstance(key, str):
            raise CorruptArtifactError(path, f"a header key is {_short(key)}, not a str")
        if key in document:
            raise CorruptArtifactError(path, f"header key {key!r} appears twice")
        start = unpacker.tell()
        document[key] = read(unpacker.unpack)
        raw[key] = data[start:unpacker.tell()]
    if unpacker.tell() != len(data):
        raise CorruptArtifactError(
            path, f"{len(data) - unpacker.tell()} unexpected bytes after the artifact's msgpack map"
        )
    return document, raw


def read_sealed(data: bytes, path: Path | None) -> dict:
    """The map of a sealed artifact's bytes (any format written by
    :func:`policy_tree.artifact.seal`), checked as a decision tree's are in steps 2 and 3 of
    this module's list: one complete msgpack map, no key twice, nothing after it, every value
    covered by the ``checksums`` record (which is dropped from the result).

    Raises:
        CorruptArtifactError: as :func:`check_seal`, or the bytes are not one msgpack map.
        UnsupportedArtifactError: the msgpack value is not a map."""
    document, raw = _unpack(data, path)
    check_seal(document, raw, path)
    document.pop(CHECKSUMS_KEY)
    return document


def _msgpack_problem(exc: Exception) -> str:
    """What a msgpack error says, in words: some carry no message at all."""
    if isinstance(exc, msgpack.FormatError):
        return "a byte that starts no msgpack value (0xc1 is reserved) or a malformed value"
    if isinstance(exc, msgpack.StackError):
        return "values nested too deeply"
    return str(exc) or type(exc).__name__


def _check_checksums(document: dict, raw: dict, path: Path | None, unchecked_ok: bool) -> None:
    """Every value's stored bytes against the ``checksums`` record (schema, version 3)."""
    version = document.get("format_version")
    if CHECKSUMS_KEY not in document:
        if document.get("format") != FORMAT or isinstance(version, bool):
            return  # _check_header says what the file is instead
        if version in CHECKED_VERSIONS:
            raise CorruptArtifactError(
                path, f"the {CHECKSUMS_KEY!r} record is missing (a format version {version} "
                "artifact must end with it): the file is corrupted")
        if version in READABLE_VERSIONS and not unchecked_ok:
            raise UnsupportedArtifactError(
                path, f"format version {version} has no checksum over its header, so it is not "
                f"read any more (this reader writes version {FORMAT_VERSION}): rewrite it with "
                f"`python -m tools.tree upgrade {path if path is not None else 'FILE'}` (replays "
                "the tree and checks every header figure first), or solve it again")
        return
    check_seal(document, raw, path)


def check_seal(document: dict, raw: dict, path: Path | None) -> None:
    """Every value's stored bytes (``raw``, from the file) against the ``checksums`` record,
    the last key of a sealed map (:func:`policy_tree.artifact.seal`): the same check for every
    sealed artifact format (decision trees, opener-table shards).

    Raises:
        CorruptArtifactError: the record is missing, not last, not a map of str to hex, lists
            other keys or another order than the file, or a value does not hash to its entry
            (the message names the key)."""
    if CHECKSUMS_KEY not in document:
        raise CorruptArtifactError(path, f"the {CHECKSUMS_KEY!r} record is missing: the file is "
                                   "corrupted")
    record = document[CHECKSUMS_KEY]
    keys = [key for key in document if key != CHECKSUMS_KEY]
    if next(reversed(document)) != CHECKSUMS_KEY:
        raise CorruptArtifactError(path, f"the {CHECKSUMS_KEY!r} record is not the last key")
    if not isinstance(record, dict) or any(
            not isinstance(k, str) or not isinstance(v, str) for k, v in record.items()):
        raise CorruptArtifactError(path, f"the {CHECKSUMS_KEY!r} record is not a map of str to "
                                   "sha256 hex (the file is corrupted)")
    unlisted = [key for key in keys if key not in record]
    if unlisted:
        raise CorruptArtifactError(path, f"header key {unlisted[0]!r} is not covered by the "
                                   f"{CHECKSUMS_KEY!r} record (the file is corrupted)")
    absent = [key for key in record if key not in document]
    if absent:
        raise CorruptArtifactError(path, f"header key {absent[0]!r} is missing (the "
                                   f"{CHECKSUMS_KEY!r} record lists it): the file is corrupted")
    if list(record) != keys:
        raise CorruptArtifactError(path, f"the {CHECKSUMS_KEY!r} record lists the keys in another "
                                   "order than the file (the file is corrupted)")
    for key in keys:
        actual = hashlib.sha256(raw[key]).hexdigest()
        if actual != record[key]:
            raise CorruptArtifactError(
                path, f"header field {key!r} does not match its checksum (its bytes hash to "
                f"{actual[:16]}…, the {CHECKSUMS_KEY!r} record says {record[key][:16]}…): "
                "the file is corrupted")


def _check_header(document: dict, path: Path | None) -> None:
    if document.get("format") != FORMAT:
        raise UnsupportedArtifactError(
            path, f"not a decision-tree artifact (format is {document.get('format')!r}, "
            f"expected {FORMAT!r})")
    version = document.get("format_version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise UnsupportedArtifactError(
            path, f"format version {version!r} is not supported (this reader knows versions "
            f"{', '.join(map(str, READABLE_VERSIONS))}; it writes {FORMAT_VERSION})")
    keys = HEADER_KEYS_V1 if version == 1 else HEADER_KEYS
    missing = [key for key in keys if key not in document]
    if missing:
        raise CorruptArtifactError(path, f"header key(s) missing: {', '.join(missing)}")
    for key in keys:
        expected, value = _HEADER_TYPES[key], document[key]
        if isinstance(value, bool) or not isinstance(value, expected):
            raise CorruptArtifactError(
                path, f"header key {key!r} should be {_TYPE_NAMES[expected]}, "
                f"found {type(value).__name__} {_short(value)}")
    length = document.get("word_length", 5)
    if not MIN_WORD_LENGTH <= length <= MAX_WORD_LENGTH:
        raise CorruptArtifactError(
            path, f"word_length {length} is not in {MIN_WORD_LENGTH}..{MAX_WORD_LENGTH}")
    histogram = document["histogram"]
    if any(isinstance(h, bool) or not isinstance(h, int) for h in histogram):
        raise CorruptArtifactError(path, f"histogram {_short(histogram)} is not a list of ints")
    if not 1 <= document["guess_limit"] <= MAX_GUESS_LIMIT:
        raise CorruptArtifactError(path, f"guess_limit {document['guess_limit']} is not in "
                                   f"1..{MAX_GUESS_LIMIT} (the guess limits a game allows)")
    if len(histogram) != document["guess_limit"]:
        raise CorruptArtifactError(
            path, f"histogram has {len(histogram)} entries, guess_limit is {document['guess_limit']}")
    if document["mode"] not in KNOWN_MODES:
        raise UnsupportedArtifactError(
            path, f"mode {document['mode']!r} is not one of {', '.join(KNOWN_MODES)}")
    feedback = document.get(FEEDBACK_KEY, "standard")
    if not isinstance(feedback, str) or feedback not in KNOWN_FEEDBACK:
        raise UnsupportedArtifactError(
            path, f"feedback rule {_short(feedback)} is not one of {', '.join(KNOWN_FEEDBACK)}")
    if document["objective"] not in KNOWN_OBJECTIVES:
        raise UnsupportedArtifactError(
            path, f"objective {document['objective']!r} is not one of {', '.join(KNOWN_OBJECTIVES)}")
    for key, fields in ((OPENER_PROOF_KEY, OPENER_PROOF_FIELDS), (PRIORS_KEY, PRIORS_FIELDS)):
        _check_record(document.get(key), key, fields, path)


def _check_record(record, name: str, fields: dict, path: Path | None) -> None:
    """An optional header map (absent: None) whose fields have the types ``fields`` names."""
    if record is None:
        return
    if not isinstance(record, dict):
        raise CorruptArtifactError(path, f"{name} should be map, found {_short(record)}")
    for key, expected in fields.items():
        value = record.get(key)
        if isinstance(value, bool) or not isinstance(value, expected):
            raise CorruptArtifactError(
                path, f"{name}[{key!r}] should be {_TYPE_NAMES[expected]}, found {_short(value)}")


def _decode_tree(document: dict, path: Path | None, word_length: int) -> DecisionTree:
    bins = document["tree"]
    layout = tree_arrays(word_length)
    names = [name for name, _ in layout]
    if sorted(bins) != sorted(names):
        raise CorruptArtifactError(
            path, f"tree map has keys {sorted(map(str, bins))}, expected {names}")
    for name in names:
        if not isinstance(bins[name], bytes):
            raise CorruptArtifactError(path, f"tree array {name!r} is {type(bins[name]).__name__}, not bin")
    digest = hashlib.sha256()
    for name in names:
        digest.update(bins[name])
    if digest.hexdigest() != document["tree_sha256"]:
        raise CorruptArtifactError(
            path, f"tree checksum mismatch: the tree arrays hash to {digest.hexdigest()[:16]}…, "
            f"tree_sha256 says {document['tree_sha256'][:16]}… (the file is corrupted)")
    arrays = {}
    for name, dtype in layout:
        itemsize = np.dtype(dtype).itemsize
        if len(bins[name]) % itemsize:
            raise CorruptArtifactError(
                path, f"tree array {name!r} has {len(bins[name])} bytes, not a multiple of {itemsize}")
        arrays[name] = np.frombuffer(bins[name], dtype=dtype)  # read-only views of the file
    tree = DecisionTree(**arrays, word_length=word_length)
    green = all_green(word_length)
    n_nodes, n_edges = tree.n_nodes, len(tree.edge_feedback)
    if n_nodes == 0:
        raise CorruptArtifactError(path, "the tree has no nodes")
    if len(tree.edge_start) != n_nodes + 1:
        raise CorruptArtifactError(
            path, f"edge_start has {len(tree.edge_start)} entries for {n_nodes} nodes "
            f"(expected {n_nodes + 1})")
    if len(tree.edge_child) != n_edges:
        raise CorruptArtifactError(
            path, f"edge_child has {len(tree.edge_child)} entries, edge_feedback {n_edges}")
    if int(tree.edge_start[0]) != 0 or int(tree.edge_start[-1]) != n_edges:
        raise CorruptArtifactError(
            path, f"edge_start runs from {int(tree.edge_start[0])} to {int(tree.edge_start[-1])}, "
            f"expected 0 to {n_edges} (the number of edges)")
    if n_nodes > 1 and bool(np.any(np.diff(tree.edge_start.astype(np.int64)) < 0)):
        raise CorruptArtifactError(path, "edge_start decreases somewhere")
    if n_edges:
        if int(tree.edge_feedback.max()) >= green:
            raise CorruptArtifactError(
                path, f"an edge has feedback code {int(tree.edge_feedback.max())} (must be < {green})")
        if int(tree.edge_child.min()) < 1 or int(tree.edge_child.max()) >= n_nodes:
            raise CorruptArtifactError(
                path, f"an edge leads to a node outside 1..{n_nodes - 1}")
        # Preorder numbers every child after its parent; checking it here rules out cycles
        # for every reader of the tree.
        parent = np.repeat(np.arange(n_nodes, dtype=np.int64),
                           np.diff(tree.edge_start.astype(np.int64)))
        backwards = np.flatnonzero(tree.edge_child <= parent)
        if len(backwards):
            j = int(backwards[0])
            raise CorruptArtifactError(
                path, f"edge {j} leads from node {int(parent[j])} back to node "
                f"{int(tree.edge_child[j])} (children must be numbered after their parent)")
    return tree


def _check_figures(document: dict, path: Path | None, n_answers: int) -> None:
    """The header figures in the ranges a game of ``n_answers`` answers allows (whether they
    are the tree's own is :func:`policy_tree.verify.verify`'s replay)."""
    limit = document["guess_limit"]
    histogram = document["histogram"]
    if any(not 0 <= h <= n_answers for h in histogram):
        bad = next(h for h in histogram if not 0 <= h <= n_answers)
        raise CorruptArtifactError(path, f"histogram holds the count {_short(bad)}, outside "
                                   f"0..{n_answers} (the number of answers)")
    if not 1 <= document["max_guesses"] <= limit:
        raise CorruptArtifactError(path, f"max_guesses {document['max_guesses']} is not in "
                                   f"1..{limit} (the guess limit)")
    if not 0 <= document["total"] <= n_answers * limit:
        raise CorruptArtifactError(path, f"total {document['total']} is not in 0..{n_answers * limit} "
                                   f"({counted(n_answers, 'answer')}, at most {counted(limit, 'guess')} each)")
    if not math.isfinite(document["average"]):
        raise CorruptArtifactError(path, f"average {document['average']!r} is not a finite number")


def check_tree_shape(tree: DecisionTree, n_answers: int, guess_limit: int,
                     path: Path | None = None) -> None:
    """Refuse arrays that are not a decision tree a game of ``n_answers`` answers and
    ``guess_limit`` guesses can play (the module docstring's step 8), whatever the checksums say.

    Expects what :func:`_decode_tree` already checked: sizes that agree, children in
    1..n_nodes-1 and numbered after their parent. Time and memory are linear in the arrays'
    size (one pass per level, at most ``guess_limit`` levels).

    Raises:
        CorruptArtifactError: naming the node or edge at fault.
    """
    n_nodes, n_edges = tree.n_nodes, len(tree.edge_child)
    if n_nodes > n_answers * guess_limit:
        raise CorruptArtifactError(
            path, f"the tree has {n_nodes} nodes, more than {counted(n_answers, 'answer')} can reach in "
            f"{counted(guess_limit, 'guess')} (at most {n_answers * guess_limit})")
    starts = tree.edge_start.astype(np.int64)
    out_degree = np.diff(starts)
    leaves = int(np.count_nonzero(out_degree == 0))
    if leaves > n_answers:
        raise CorruptArtifactError(
            path, f"the tree has {leaves} leaves, more than its {n_answers} answers (a leaf "
            "plays the one answer that reaches it)")
    parent = np.repeat(np.arange(n_nodes, dtype=np.int64), out_degree)
    child = tree.edge_child.astype(np.int64)
    feedback = tree.edge_feedback.astype(np.int64)
    same_node = parent[1:] == parent[:-1]
    unsorted = np.flatnonzero(same_node & (feedback[1:] <= feedback[:-1]))
    if len(unsorted):
        j = int(unsorted[0]) + 1
        raise CorruptArtifactError(
            path, f"node {int(parent[j])}'s edge feedbacks are not strictly ascending (edge {j} "
            f"has code {int(feedback[j])} after {int(feedback[j - 1])})")
    in_degree = np.bincount(child, minlength=n_nodes)
    wrong = np.flatnonzero(in_degree[1:] != 1)
    if len(wrong):
        node = int(wrong[0]) + 1
        raise CorruptArtifactError(
            path, f"node {node} is reached by {int(in_degree[node])} edges (in a decision tree "
            "every node but the root is reached by exactly one)")
    # Level by level from the root: every node is reached (one parent each, numbered before
    # it), so the levels partition the nodes and the loop runs at most guess_limit times.
    levels, nodes, depth = [], np.zeros(1, dtype=np.int64), 1
    while len(nodes):
        levels.append(nodes)
        counts = out_degree[nodes]
        n_next = int(counts.sum())
        if n_next and depth >= guess_limit:
            node = int(nodes[np.flatnonzero(counts)[0]])
            raise CorruptArtifactError(
                path, f"node {node} is at guess {depth} and has branches: the tree goes deeper "
                f"than the guess limit of {guess_limit}")
        offsets = np.repeat(starts[nodes] - (np.cumsum(counts) - counts), counts)
        nodes = child[np.arange(n_next, dtype=np.int64) + offsets]
        depth += 1
    size = np.ones(n_nodes, dtype=np.int64)
    parent_of = np.zeros(n_nodes, dtype=np.int64)
    parent_of[child] = parent
    for nodes in reversed(levels[1:]):
        np.add.at(size, parent_of[nodes], size[nodes])
    # Preorder: a node's first child is the next node, each later child follows the subtree of
    # the one before it.
    if n_edges:
        expected = parent + 1
        later = np.flatnonzero(np.concatenate(([False], same_node)))
        expected[later] = child[later - 1] + size[child[later - 1]]
        off = np.flatnonzero(child != expected)
        if len(off):
            j = int(off[0])
            raise CorruptArtifactError(
                path, f"edge {j} from node {int(parent[j])} leads to node {int(child[j])}, but "
                f"in depth-first preorder it leads to node {int(expected[j])}")


def _decode_words(document: dict, key: str, path: Path | None,
                  length: int) -> tuple[tuple[str, ...], str]:
    """The sorted words stored under ``key`` and the sha256 of their normalised form, checked
    against ``<key>_sha256``."""
    raw = document[key]
    if not raw or len(raw) % length:
        raise CorruptArtifactError(
            path, f"{key} has {len(raw)} bytes, not a positive multiple of {length}")
    letters = np.frombuffer(raw, dtype=np.uint8).reshape(-1, length)
    if bool(np.any((letters < ord("a")) | (letters > ord("z")))):
        raise CorruptArtifactError(path, f"{key} holds bytes other than lowercase letters a-z")
    # The stored digest is of the normalised (sorted) list, so hashing the words as stored,
    # a newline after each, matches it exactly when the words are intact and sorted.
    lines = np.hstack([letters, np.full((len(letters), 1), ord("\n"), dtype=np.uint8)])
    actual, stored = hashlib.sha256(lines.tobytes()).hexdigest(), document[f"{key}_sha256"]
    if actual != stored:
        raise CorruptArtifactError(
            path, f"the embedded {key} hash to {actual[:16]}…, {key}_sha256 says {stored[:16]}… "
            "(the file is corrupted)")
    text = raw.decode("ascii")
    words = tuple(text[i:i + length] for i in range(0, len(text), length))
    if any(a >= b for a, b in zip(words, words[1:])):
        raise CorruptArtifactError(path, f"{key} are not sorted without duplicates")
    return words, actual


def _decode_word_list(document: dict, path: Path | None, word_length: int) -> WordList:
    answers, answers_sha256 = _decode_words(document, "answers", path, word_length)
    guesses, guesses_sha256 = _decode_words(document, "guesses", path, word_length)
    guess_set = set(guesses)
    missing = [a for a in answers if a not in guess_set]
    if missing:
        raise CorruptArtifactError(
            path, f"{len(missing)} answer(s) missing from the guesses, e.g. {missing[0]!r}")
    actual = {"answers": answers_sha256, "guesses": guesses_sha256}
    name = document["word_list"]
    if name in BUILTIN_LISTS:
        _check_shipped(name, actual, {"answers": len(answers), "guesses": len(guesses)}, path)
    return WordList(name, answers, guesses, None)


def _check_shipped(name: str, actual: dict, sizes: dict, path: Path | None) -> None:
    """Raise :class:`WordListMismatchError` unless the shipped list ``name`` has the sha256s in
    ``actual`` (``{"answers": hex, "guesses": hex}``)."""
    shipped = None
    for kind in ("answers", "guesses"):
        # Fast path: a shipped file that hashes to the stored digest is that normalised list
        # (the shipped files are stored normalised); anything else is checked word by word.
        try:
            if hashlib.sha256((DATA_DIR / name / f"{kind}.txt").read_bytes()).hexdigest() == actual[kind]:
                continue
        except OSError:
            pass  # load_word_list below reports the missing or unreadable file
        if shipped is None:
            from solver.game.wordlists import load_word_list

            shipped = load_word_list(name)
        theirs = getattr(shipped, f"{kind}_sha256")
        if theirs != actual[kind]:
            raise WordListMismatchError(
                path, f"built on a {name!r} {kind} list with sha256 {actual[kind][:16]}… "
                f"({sizes[kind]} words), but the shipped {name!r} {kind} have sha256 "
                f"{theirs[:16]}… ({len(getattr(shipped, kind))} words); re-solve with "
                f"`python -m tools.solve --words {name}`")


def _short(value, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
