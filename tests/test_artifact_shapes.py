"""Artifacts bounded by structure, not by trust (issue 32, item 1).

The checksums prove a file is what its writer wrote, not that the writer wrote a decision tree:
these artifacts are written by the project's own writer (``encode_artifact``, ``seal``), so
every checksum is valid, with trees that are not trees (a child pointing back at an ancestor,
shared children, orphans, edges out of order), fields out of the ranges a game allows (a guess
limit of a million, a negative total), or trees deeper than their guess limit. Each must be
refused on open, naming the file, and every ``tools.tree`` command must either refuse it
(exit 2) or finish, in a subprocess whose address space and wall time are capped.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import msgpack
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import policy_tree
from policy_tree import CorruptArtifactError
from policy_tree.artifact import encode_artifact, seal
from policy_tree.tree import DecisionTree
from solver.game.feedback import feedback_code
from solver.game.wordlists import from_words

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = ["awake", "blush", "cigar", "evade", "focal", "humph", "rebut", "sissy"]
#: 'jjjjj' shares no letter with an answer: every answer gives it bbbbb (a wasted guess).
WASTE = "jjjjj"
WORDS = from_words(ANSWERS, ANSWERS + [WASTE], name="shapes")
GREEN = 242
#: What a subprocess may use: far above what a lookup on these files needs (about 300 MB of
#: address space, well under a second), far below what a wedged command takes.
MEMORY_LIMIT = 1536 * 1024 * 1024
TIME_LIMIT = 60


# -- a valid tree, built in preorder -----------------------------------------------------------
def build_tree(rng: random.Random, waste: float = 0.0):
    """A decision tree over WORDS that wins every answer (a remaining answer is guessed at each
    node, or with probability ``waste`` the wasted guess), as CSR arrays in preorder with its
    replayed figures."""
    node_guess: list[int] = []
    children: list[list[tuple[int, int]]] = []
    used = {}

    def grow(state: list[str], depth: int) -> int:
        node = len(node_guess)
        guess = WASTE if rng.random() < waste and depth < 8 else rng.choice(state)
        node_guess.append(WORDS.guess_index(guess))
        children.append([])
        classes: dict[int, list[str]] = {}
        for answer in state:
            code = feedback_code(guess, answer)
            if code == GREEN:
                used[answer] = depth
            else:
                classes.setdefault(code, []).append(answer)
        for code in sorted(classes):
            children[node].append((code, grow(classes[code], depth + 1)))
        return node

    grow(list(ANSWERS), 1)
    edge_start = np.cumsum([0] + [len(c) for c in children]).astype(np.uint32)
    flat = [edge for c in children for edge in c]
    tree = DecisionTree(np.array(node_guess, dtype=np.uint32), edge_start,
                        np.array([c for c, _ in flat], dtype=np.uint8),
                        np.array([n for _, n in flat], dtype=np.uint32))
    return tree, used


def artifact_bytes(tree: DecisionTree, used: dict, guess_limit: int = 6, **header) -> bytes:
    """The artifact of ``tree`` as ``encode_artifact`` writes it (checksums valid); ``header``
    overrides stored fields afterwards (re-sealed, so still checksummed)."""
    depth = max(used.values())
    histogram = [0] * guess_limit
    for d in used.values():
        if d <= guess_limit:
            histogram[d - 1] += 1
    data = encode_artifact(
        word_list=WORDS, tree=tree, mode="normal", objective="total", guess_limit=guess_limit,
        opener=WORDS.guesses[min(int(tree.node_guess[0]), WORDS.n_guesses - 1)], total=sum(used.values()),
        max_guesses=min(depth, guess_limit), histogram=histogram, solver_version="test")
    if header:
        document = msgpack.unpackb(data, raw=False)
        document.update(header)
        data = seal(document)
    return data


def with_arrays(tree: DecisionTree, **arrays) -> DecisionTree:
    fields = tree.arrays()
    fields.update(arrays)
    return DecisionTree(**fields)


def shared_chain(n: int = 40) -> DecisionTree:
    """Node i has two edges, both to node i + 1: a DAG of 2**(n-1) paths in 2n bytes of edges."""
    edge_start = np.array([0] + [2 * min(i + 1, n - 1) for i in range(n)], dtype=np.uint32)
    return DecisionTree(np.zeros(n, dtype=np.uint32), edge_start,
                        np.array([0, 1] * (n - 1), dtype=np.uint8),
                        np.array([i + 1 for i in range(n - 1) for _ in (0, 1)], dtype=np.uint32))


# -- the CLI under limits ------------------------------------------------------------------------
COMMANDS = (["verify"], ["stats"], ["stats", "--json"], ["export"], ["export", "--format", "json"],
            ["next"], ["play", "--answer", "cigar"], ["upgrade"])

DRIVER = textwrap.dedent("""
    import contextlib, io, json, sys
    import solver.cli.tree
    results = []
    for command in json.loads(sys.argv[1]):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = solver.cli.tree.main(command)
            except SystemExit as exc:
                status = exc.code
        results.append([command, status, out.getvalue()[-2000:], err.getvalue()[-2000:]])
    print(json.dumps(results))
""")


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_commands(path: Path, commands=COMMANDS) -> list:
    """Every command on ``path`` in one subprocess capped at MEMORY_LIMIT bytes of address
    space and TIME_LIMIT seconds: ``[(argv, status, stdout tail, stderr tail), ...]``. A command
    that exhausts either limit fails the test (TimeoutExpired, or a non-zero exit with no
    results)."""
    argv = [[*command[:1], str(path), *command[1:]] for command in commands]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    proc = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(argv)], cwd=path.parent,
                          capture_output=True, text=True, timeout=TIME_LIMIT, env=env,
                          preexec_fn=_limit_memory)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def assert_refused_or_finished(path: Path, refused: bool) -> None:
    """Every command on ``path`` refuses it (exit 2, one line naming the file) when ``refused``;
    otherwise each finishes (0, 1: verify's failures) or refuses what the tree cannot do (2, an
    answer it does not solve), again in one line naming the file."""
    for argv, status, out, err in run_commands(path):
        assert "Traceback" not in err and "internal error" not in err, (argv, err)
        assert status in ((2,) if refused else (0, 1, 2)), (argv, status, out, err)
        if status == 2:
            assert err.startswith(f"error: {path}: ") and err.count("\n") == 1, (argv, err)


# -- refused on open, by the API ------------------------------------------------------------------
def _tree():
    return build_tree(random.Random(1))


SHAPES = {
    "a back edge to the root": (
        lambda t: with_arrays(t, edge_child=np.where(np.arange(len(t.edge_child)) == len(t.edge_child) - 1,
                                                     0, t.edge_child).astype(np.uint32)),
        "outside 1.."),
    "a shared child (DAG)": (
        lambda t: with_arrays(t, edge_child=np.concatenate([t.edge_child[:1], t.edge_child[:1],
                                                            t.edge_child[2:]]).astype(np.uint32)),
        "is reached by"),
    "edges out of order": (
        lambda t: with_arrays(t, edge_feedback=t.edge_feedback[::-1].copy()),
        "not strictly ascending"),
    "children out of preorder": (
        lambda t: with_arrays(t, node_guess=t.node_guess, edge_child=t.edge_child[::-1].copy()),
        None),
    "an invalid feedback code": (
        lambda t: with_arrays(t, edge_feedback=np.where(np.arange(len(t.edge_feedback)) == 0, 250,
                                                        t.edge_feedback).astype(np.uint8)),
        "feedback code 250"),
    "a guess index out of range": (
        lambda t: with_arrays(t, node_guess=np.where(np.arange(t.n_nodes) == 1, 10**6,
                                                     t.node_guess).astype(np.uint32)),
        "plays guess index 1000000"),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_tree_that_is_not_a_tree_is_refused_on_open(tmp_path, shape):
    tree, used = _tree()
    assert tree.n_nodes > 3
    policy_tree.decode(artifact_bytes(tree, used))  # the tree itself loads
    edit, words = SHAPES[shape]
    path = tmp_path / "bad.msgpack"
    path.write_bytes(artifact_bytes(edit(tree), used))
    with pytest.raises(CorruptArtifactError) as caught:
        policy_tree.load(path)
    assert str(caught.value).startswith(f"{path}: ")
    if words:
        assert words in str(caught.value)


def test_a_shared_chain_is_refused_and_no_command_runs_without_bound(tmp_path):
    """The probe's first shape: 40 nodes, each with two edges to the next. `export --format json`
    expanded its 2**39 paths (no bound in time or memory) before the reader refused it."""
    path = tmp_path / "dag.msgpack"
    path.write_bytes(artifact_bytes(shared_chain(), {"awake": 1, "blush": 2}))
    with pytest.raises(CorruptArtifactError, match="node 1 is reached by 2 edges"):
        policy_tree.load(path)
    assert_refused_or_finished(path, refused=True)


def test_a_guess_limit_no_game_allows_is_refused(tmp_path):
    """The probe's second shape: a guess limit of a million (and a histogram as long, 1 MB):
    `stats` drew a million-row table."""
    tree, used = _tree()
    limit = 10**6
    path = tmp_path / "limit.msgpack"
    path.write_bytes(artifact_bytes(tree, used, guess_limit=limit))
    with pytest.raises(CorruptArtifactError, match=r"guess_limit 1000000 is not in 1\.\.255"):
        policy_tree.load(path)
    assert_refused_or_finished(path, refused=True)


@pytest.mark.parametrize("header, words", [
    ({"total": -1}, "total -1 is not in 0..48"),
    ({"total": 2**63 - 1}, "is not in 0..48"),
    ({"max_guesses": 7}, "max_guesses 7 is not in 1..6"),
    ({"max_guesses": 0}, "max_guesses 0 is not in 1..6"),
    ({"histogram": [9, 0, 0, 0, 0, 0]}, "histogram holds the count 9, outside 0..8"),
    ({"histogram": [-1, 0, 0, 0, 0, 0]}, "histogram holds the count -1"),
    ({"average": float("nan")}, "average nan is not a finite number"),
    ({"average": float("inf")}, "average inf is not a finite number"),
])
def test_header_figures_out_of_range_are_refused(header, words):
    tree, used = _tree()
    with pytest.raises(CorruptArtifactError, match=words.replace(".", r"\.")):
        policy_tree.decode(artifact_bytes(tree, used, **header))


def test_a_tree_deeper_than_its_guess_limit_is_refused():
    rng = random.Random(3)
    tree, used = build_tree(rng, waste=0.6)
    depth = max(used.values())
    assert depth > 2
    policy_tree.decode(artifact_bytes(tree, used, guess_limit=depth))
    with pytest.raises(CorruptArtifactError, match=f"the tree goes deeper than the guess limit "
                                                   f"of {depth - 1}"):
        policy_tree.decode(artifact_bytes(tree, used, guess_limit=depth - 1,
                                          max_guesses=depth - 1, total=0))


def test_more_leaves_than_answers_are_refused():
    # a root with 9 leaves, one per feedback 0..8: more than the 8 answers could reach
    tree = DecisionTree(np.zeros(10, dtype=np.uint32), np.array([0] + [9] * 10, dtype=np.uint32),
                        np.arange(9, dtype=np.uint8), np.arange(1, 10, dtype=np.uint32))
    with pytest.raises(CorruptArtifactError, match="9 leaves, more than its 8 answers"):
        policy_tree.decode(artifact_bytes(tree, {"awake": 1}))


# -- fuzz: the project's writer, trees mutated, every command under limits -------------------------
def _mutate(tree: DecisionTree, kind: str, rng: random.Random) -> DecisionTree:
    a = {name: array.copy() for name, array in tree.arrays().items()}
    n, m = tree.n_nodes, len(a["edge_child"])
    j = rng.randrange(m)
    parent = int(np.searchsorted(a["edge_start"], j, side="right")) - 1
    if kind == "back edge":        # to an ancestor, itself, or any earlier node
        a["edge_child"][j] = rng.randint(0, parent)
    elif kind == "shared child":   # to another node that already has a parent: a DAG
        a["edge_child"][j] = rng.randrange(1, n)
    elif kind == "child out of range":
        a["edge_child"][j] = rng.choice([n, n + 1, 2**32 - 1])
    elif kind == "feedback":       # any byte: all-green, above it, a duplicate, out of order
        a["edge_feedback"][j] = rng.randrange(256)
    elif kind == "guess":
        a["node_guess"][rng.randrange(n)] = rng.choice([WORDS.n_guesses, 2**32 - 1, rng.randrange(9)])
    elif kind == "swap children":
        k = rng.randrange(m)
        a["edge_child"][[j, k]] = a["edge_child"][[k, j]]
    elif kind == "orphan":         # one edge fewer: its subtree hangs from nothing
        a["edge_child"], a["edge_feedback"] = np.delete(a["edge_child"], j), np.delete(a["edge_feedback"], j)
        a["edge_start"][parent + 1:] -= 1
    elif kind == "extra node":     # a node no edge reaches
        a["node_guess"] = np.append(a["node_guess"], np.uint32(0))
        a["edge_start"] = np.append(a["edge_start"], a["edge_start"][-1])
    return DecisionTree(**a)


MUTATIONS = ("none", "back edge", "shared child", "child out of range", "feedback", "guess",
             "swap children", "orphan", "extra node")


@st.composite
def mutated_artifacts(draw):
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    tree, used = build_tree(rng, waste=draw(st.sampled_from([0.0, 0.3, 0.7])))
    kinds = draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3))
    for kind in kinds:
        if kind != "none" and len(tree.edge_child):
            tree = _mutate(tree, kind, rng)
    limit = draw(st.sampled_from([1, 2, 3, 6, 255, 256, 10**5]))
    header = draw(st.sampled_from([{}, {"total": -5}, {"max_guesses": 300}, {"total": 10**12},
                                   {"average": float("nan")}]))
    return kinds, artifact_bytes(tree, used, guess_limit=limit, **header)


def _loads(data: bytes) -> bool:
    try:
        loaded = policy_tree.decode(data)
    except CorruptArtifactError:
        return False
    # what the reader lets through is a tree of at most guess_limit levels, in preorder
    tree, order, stack = loaded.tree, [], [(0, 1)]
    while stack:
        node, depth = stack.pop()
        assert depth <= loaded.guess_limit and len(order) < tree.n_nodes
        order.append(node)
        lo, hi = int(tree.edge_start[node]), int(tree.edge_start[node + 1])
        stack.extend((int(c), depth + 1) for c in tree.edge_child[lo:hi][::-1])
    assert order == list(range(tree.n_nodes))
    return True


@settings(max_examples=400, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_artifacts())
def test_whatever_the_reader_accepts_is_a_tree_within_the_guess_limit(case):
    _kinds, data = case
    _loads(data)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(case=mutated_artifacts())
def test_every_tree_command_refuses_or_finishes_within_limits(tmp_path, case):
    _kinds, data = case
    path = tmp_path / "fuzzed.msgpack"
    path.write_bytes(data)
    assert_refused_or_finished(path, refused=not _loads(data))
