"""The ``policy_tree`` API: loading with validation, lookups, verification, export."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import msgpack
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import policy_tree
from policy_tree import (
    ArtifactError, CorruptArtifactError, GameOverError, HistoryError, HistoryTokenError,
    InconsistentHistoryError, MissingArtifactError, NotInTreeError, UnsolvedAnswerError,
    UnsupportedArtifactError, WordListMismatchError,
)
from policy_tree.artifact import encode_artifact, seal, tree_sha256
from policy_tree.tree import DecisionTree
from solver.game.errors import FeedbackError, InputError, UnknownWordError
from solver.game.feedback import code_to_text, feedback_code
from solver.game.wordlists import from_words, normalised_sha256

ROOT = Path(__file__).resolve().parents[1]
ARTIFACT = ROOT / "artifacts" / "legacy-normal-salet.msgpack"


@pytest.fixture(scope="module")
def tree():
    return policy_tree.load(ARTIFACT)


# -- helpers that damage an artifact while keeping it loadable ------------------------------
def document():
    return msgpack.unpackb(ARTIFACT.read_bytes(), raw=False)


def arrays(doc) -> dict:
    from policy_tree.schema import TREE_ARRAYS

    return {name: np.frombuffer(doc["tree"][name], dtype=dtype).copy() for name, dtype in TREE_ARRAYS}


def repack(doc, tree_arrays=None) -> bytes:
    """``doc`` as msgpack, with ``tree_arrays`` stored and ``tree_sha256`` recomputed."""
    if tree_arrays is not None:
        doc["tree"] = {name: a.tobytes() for name, a in tree_arrays.items()}
        doc["tree_sha256"] = tree_sha256(doc["tree"])
    return seal(doc)


def node_of(policy, history) -> int:
    return policy.position(history).node


def wrong_guess_bytes(policy) -> bytes:
    """The node after salet:bbbbb plays 'crane' instead of its guess; checksum recomputed."""
    doc = document()
    a = arrays(doc)
    a["node_guess"][node_of(policy, [("salet", 0)])] = policy.word_list.guess_index("crane")
    return repack(doc, a)


def missing_branch_bytes() -> bytes:
    """The last node (a leaf, in preorder) and the edge to it removed: still a tree, but one
    answer meets a feedback without a branch; checksum recomputed."""
    doc = document()
    a = arrays(doc)
    last = len(a["node_guess"]) - 1
    j = int(np.flatnonzero(a["edge_child"] == last)[0])
    parent = int(np.searchsorted(a["edge_start"], j, side="right")) - 1
    a["node_guess"] = a["node_guess"][:-1]
    a["edge_feedback"] = np.delete(a["edge_feedback"], j)
    a["edge_child"] = np.delete(a["edge_child"], j)
    a["edge_start"] = np.delete(a["edge_start"], -1)
    a["edge_start"][parent + 1:] -= 1
    return repack(doc, a)


def mini_artifact(**overrides) -> bytes:
    """A two-answer artifact on a custom list: 'abcde' first, then 'fghij' if needed."""
    words = from_words(["abcde", "fghij"], ["abcde", "fghij", "klmno"], name="mini")
    dt = DecisionTree(
        node_guess=np.array([0, 1], dtype=np.uint32), edge_start=np.array([0, 1, 1], dtype=np.uint32),
        edge_feedback=np.array([feedback_code("abcde", "fghij")], dtype=np.uint8),
        edge_child=np.array([1], dtype=np.uint32),
    )
    fields = dict(word_list=words, tree=dt, mode="normal", objective="total", guess_limit=6,
                  opener="abcde", total=3, max_guesses=2, histogram=[1, 1, 0, 0, 0, 0],
                  solver_version="test")
    fields.update(overrides)
    return encode_artifact(**fields)


# -- loading ---------------------------------------------------------------------------------
def test_load_reads_the_committed_artifact(tree):
    assert tree.opener == "salet" and tree.header["opener"] == "salet"
    assert (tree.total, tree.max_guesses, tree.guess_limit) == (7920, 5, 6)
    assert tree.histogram == [0, 78, 1225, 971, 41, 0]
    assert tree.average == pytest.approx(7920 / 2315)
    assert tree.word_list.name == "legacy" and tree.word_list.n_answers == 2315
    assert tree.mode == "normal" and tree.objective == "total"
    assert tree.path == ARTIFACT


def test_reencoding_gives_the_same_bytes(tree):
    assert tree.to_bytes() == ARTIFACT.read_bytes()


def test_a_custom_list_artifact_is_self_contained(tmp_path):
    path = tmp_path / "mini.msgpack"
    path.write_bytes(mini_artifact())
    mini = policy_tree.load(path)
    assert mini.word_list.answers == ("abcde", "fghij")
    assert mini.next_guess([]) == "abcde"
    assert mini.next_guess([("abcde", feedback_code("abcde", "fghij"))]) == "fghij"
    assert policy_tree.verify(mini).ok
    assert mini.to_bytes() == path.read_bytes()


@pytest.mark.parametrize("damage, error, words", [
    (lambda data: None, MissingArtifactError, "no such artifact file"),
    (lambda data: b"", CorruptArtifactError, "empty file"),
    (lambda data: data[: len(data) // 2], CorruptArtifactError, "truncated"),
    (lambda data: data + b"\x00", CorruptArtifactError, "unexpected bytes after"),
    (lambda data: b"\xc1" + data[1:], CorruptArtifactError, "not valid msgpack"),
    (lambda data: msgpack.packb([1, 2]), UnsupportedArtifactError, "not a decision-tree artifact"),
])
def test_unreadable_files_raise_specific_errors(tmp_path, damage, error, words):
    path = tmp_path / "bad.msgpack"
    data = damage(ARTIFACT.read_bytes())
    if data is not None:
        path.write_bytes(data)
    with pytest.raises(error) as caught:
        policy_tree.load(path)
    assert isinstance(caught.value, ArtifactError) and isinstance(caught.value, InputError)
    assert str(caught.value).startswith(str(path)) and words in str(caught.value)


def flip_inside(data: bytes, needle: bytes, offset: int) -> bytes:
    at = data.index(needle) + offset
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1:]


def test_flipped_byte_in_the_tree_fails_the_checksum(tmp_path):
    data = ARTIFACT.read_bytes()
    edge_child = document()["tree"]["edge_child"]
    path = tmp_path / "flipped.msgpack"
    path.write_bytes(flip_inside(data, edge_child, len(edge_child) // 2))
    with pytest.raises(CorruptArtifactError, match="header field 'tree' does not match its checksum"):
        policy_tree.load(path)
    doc = document()  # with the checksums record re-sealed, the tree's own hash still tells
    doc["tree"] = dict(doc["tree"], edge_child=flip_inside(edge_child, edge_child, 7))
    path.write_bytes(repack(doc))
    with pytest.raises(CorruptArtifactError, match="tree checksum mismatch"):
        policy_tree.load(path)


def test_flipped_letter_in_the_answers_fails_their_checksum(tmp_path):
    data = ARTIFACT.read_bytes()
    answers = document()["answers"]
    # 'aback' -> 'abacj': still sorted five-letter words, so only the hash can tell
    path = tmp_path / "flipped.msgpack"
    path.write_bytes(flip_inside(data, answers, 4))
    with pytest.raises(CorruptArtifactError, match="field 'answers' does not match its checksum"):
        policy_tree.load(path)
    path.write_bytes(repack(dict(document(), answers=flip_inside(answers, answers, 4))))
    with pytest.raises(CorruptArtifactError, match="embedded answers hash to"):
        policy_tree.load(path)


@pytest.mark.parametrize("edit, error, words", [
    (lambda d: d.update(format_version=4), UnsupportedArtifactError, "format version 4"),
    (lambda d: d.update(format="something else"), UnsupportedArtifactError, "not a decision-tree"),
    (lambda d: d.pop("histogram"), CorruptArtifactError, "missing: histogram"),
    (lambda d: d.update(total="7920"), CorruptArtifactError, "'total' should be int"),
    (lambda d: d.update(histogram=[1, 2]), CorruptArtifactError, "histogram has 2 entries"),
    (lambda d: d.update(mode="speedrun"), UnsupportedArtifactError, "mode 'speedrun'"),
    (lambda d: d.update(tree_sha256="0" * 64), CorruptArtifactError, "tree checksum mismatch"),
])
def test_bad_headers_raise(tmp_path, edit, error, words):
    doc = document()
    edit(doc)
    path = tmp_path / "bad.msgpack"
    path.write_bytes(repack(doc))
    with pytest.raises(error, match=words):
        policy_tree.load(path)


def old_version(version: int) -> dict:
    """The committed artifact as format ``version`` (1 or 2) wrote it: no checksums record;
    version 1 had solve_seconds right after solver_version and no word_length."""
    old = {k: v for k, v in document().items() if k != "checksums"}
    old["format_version"] = version
    if version == 1:
        items = [(k, v) for k, v in old.items() if k != "word_length"]
        at = [k for k, _ in items].index("solver_version") + 1
        old = dict(items[:at] + [("solve_seconds", 5.98)] + items[at:])
    return old


@pytest.mark.parametrize("version", [1, 2])
def test_versions_without_a_header_checksum_are_refused_naming_upgrade(tmp_path, version, tree):
    assert "solve_seconds" not in document() and document()["format_version"] == 3
    path = tmp_path / f"v{version}.msgpack"
    path.write_bytes(msgpack.packb(old_version(version), use_bin_type=True))
    with pytest.raises(UnsupportedArtifactError, match=f"format version {version} has no checksum.*"
                       "tools.tree upgrade"):
        policy_tree.load(path)
    loaded = policy_tree.load(path, unchecked_ok=True)
    assert loaded.tree == tree.tree and "solve_seconds" not in loaded.header
    assert loaded.to_bytes() == ARTIFACT.read_bytes()  # re-encoded as version 3


def test_a_version_3_file_without_its_checksums_record_is_refused(tmp_path):
    doc = {k: v for k, v in document().items() if k != "checksums"}
    with pytest.raises(CorruptArtifactError, match="'checksums' record is missing"):
        policy_tree.decode(msgpack.packb(doc, use_bin_type=True))


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.update(extra=1), "'checksums' record is not the last key"),
    (lambda d: d.update(extra=1, checksums=d.pop("checksums")),
     "'extra' is not covered by the 'checksums' record"),
    (lambda d: d["checksums"].update(ghost="0" * 64), "'ghost' is missing"),
    (lambda d: d["checksums"].update(total="0" * 64), "field 'total' does not match"),
    (lambda d: d.update(checksums=dict(reversed(d["checksums"].items()))), "in another order"),
    (lambda d: d.update(checksums=[1]), "not a map of str"),
])
def test_a_damaged_checksums_record_is_refused(edit, words):
    doc = document()
    edit(doc)
    with pytest.raises(CorruptArtifactError, match=words):
        policy_tree.decode(msgpack.packb(doc, use_bin_type=True))


def test_every_bit_flipped_in_a_small_artifact_is_refused_or_loads_identically():
    """Issue 23: each of the 8 single-bit flips of every byte of a small artifact (with the
    optional opener_proof and priors records, so their bytes are covered too) must load to the
    same artifact or raise an ArtifactError — never load different figures, never crash."""
    words = from_words(["abcde", "fghij"], ["abcde", "fghij", "klmno"], name="mini")
    data = mini_artifact(word_list=words, opener_proof={"openers": 3, "guesses_sha256": words.guesses_sha256,
                                                       "others_at_least": 4},
                         priors={"source": "test", "sha256": "0" * 64,
                                 "weights": np.array([1, 2], dtype="<i8").tobytes(),
                                 "weighted_total": 5})
    assert policy_tree.decode(data).to_bytes() == data
    loaded_same = refused = 0
    for at in range(len(data)):
        for bit in range(8):
            flipped = bytearray(data)
            flipped[at] ^= 1 << bit
            try:
                again = policy_tree.decode(bytes(flipped))
            except ArtifactError:
                refused += 1
                continue
            assert again.to_bytes() == data, (at, bit)
            loaded_same += 1
    assert refused + loaded_same == 8 * len(data) and refused > 0


@pytest.mark.parametrize("edit, words", [
    (lambda a: a.update(edge_start=a["edge_start"][:-1]), "edge_start has"),
    (lambda a: a["edge_child"].__setitem__(3, 10**6), "outside 1.."),
    (lambda a: a["edge_child"].__setitem__(5, 0), "outside 1.."),
    (lambda a: a["edge_feedback"].__setitem__(0, 242), "feedback code 242"),
    (lambda a: a["node_guess"].__setitem__(7, 10**6), "only 12972 guesses"),
])
def test_inconsistent_tree_arrays_raise_even_with_a_fresh_checksum(tmp_path, edit, words):
    doc = document()
    a = arrays(doc)
    edit(a)
    path = tmp_path / "bad.msgpack"
    path.write_bytes(repack(doc, a))
    with pytest.raises(CorruptArtifactError, match=words):
        policy_tree.load(path)


def test_a_backward_edge_is_refused_so_no_reader_can_loop(tmp_path, tree):
    doc = document()
    a = arrays(doc)
    deep = node_of(tree, [("salet", 0)])
    lo = int(a["edge_start"][deep])
    a["edge_child"][lo] = 1 if deep > 1 else deep  # points back at (or before) its parent
    path = tmp_path / "cycle.msgpack"
    path.write_bytes(repack(doc, a))
    with pytest.raises(CorruptArtifactError, match="numbered after their parent"):
        policy_tree.load(path)


def test_a_different_shipped_list_is_a_mismatch(tmp_path):
    doc = document()
    answers = doc["answers"][:-5]  # drop the last answer, keep everything else consistent
    doc["answers"] = answers
    doc["answers_sha256"] = normalised_sha256(answers[i:i + 5].decode() for i in range(0, len(answers), 5))
    path = tmp_path / "other-list.msgpack"
    path.write_bytes(repack(doc))
    with pytest.raises(WordListMismatchError) as caught:
        policy_tree.load(path)
    assert "shipped 'legacy' answers" in str(caught.value) and "2314 words" in str(caught.value)


def test_artifact_errors_survive_pickling(tmp_path):
    error = MissingArtifactError(tmp_path / "x.msgpack", "no such artifact file")
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and again.path == error.path


# -- lookups ---------------------------------------------------------------------------------
def test_empty_history_gives_the_opener(tree):
    assert tree.next_guess([]) == tree.next_guess() == "salet"
    assert tree.remaining_answers([]) == tree.word_list.answers


@pytest.mark.parametrize("answer", ["crony", "aback", "zonal", "knoll", "tiger"])
def test_next_guess_follows_the_game_of_each_answer(tree, answer):
    steps = tree.game(answer)
    assert steps[-1] == (answer, 242)
    for k in range(len(steps)):
        assert tree.next_guess(steps[:k]) == steps[k][0]
        remaining = tree.remaining_answers(steps[:k])
        assert answer in remaining
        assert remaining == tuple(a for a in tree.word_list.answers
                                  if all(feedback_code(g, a) == c for g, c in steps[:k]))


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 2314), cut=st.integers(0, 5))
def test_lookup_agrees_with_an_independent_walk_of_the_arrays(tree, index, cut):
    answer = tree.word_list.answers[index]
    node, history = 0, []
    while len(history) < cut:
        guess = tree.word_list.guesses[int(tree.tree.node_guess[node])]
        code = feedback_code(guess, answer)
        if code == 242:
            break
        history.append((guess, code))
        lo, hi = int(tree.tree.edge_start[node]), int(tree.tree.edge_start[node + 1])
        node = int(tree.tree.edge_child[lo + list(tree.tree.edge_feedback[lo:hi]).index(code)])
    assert tree.next_guess(history) == tree.word_list.guesses[int(tree.tree.node_guess[node])]


def test_all_feedback_forms_agree(tree):
    code = feedback_code("salet", "crony")  # bbbbb
    code2 = feedback_code("courd", "crony")
    text2 = code_to_text(code2)
    digits2 = text2.translate(str.maketrans("byg", "012"))
    squares2 = text2.translate(str.maketrans({"b": "⬛", "y": "🟨", "g": "🟩"}))
    expected = tree.next_guess([("salet", code), ("courd", code2)])
    for second in (code2, text2, text2.upper(), digits2, squares2):
        assert tree.next_guess([("salet", code_to_text(code)), ("courd", second)]) == expected
    assert tree.next_guess([f"salet:{code_to_text(code)}", f"COURD:{squares2}"]) == expected


def test_uncovered_histories_raise_key_errors_and_get_returns_default(tree):
    off = [("crane", "bbbbb")]
    with pytest.raises(NotInTreeError) as caught:
        tree.next_guess(off)
    message = str(caught.value)
    assert "leaves the decision tree" in message and "'salet', not 'crane'" in message
    assert "exact solver can answer" in message and "solve_from" in message
    assert "later issue" not in message and "for now" not in message  # no roadmap text
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, InputError)
    assert tree.get_next_guess(off) is None and tree.get_next_guess(off, "?") == "?"
    # the state is still well defined off the tree
    assert tree.remaining_answers(off) == tuple(
        a for a in tree.word_list.answers if feedback_code("crane", a) == 0)

    with pytest.raises(InconsistentHistoryError, match=r"no answer is consistent with salet:ggggy"):
        tree.next_guess([("salet", "ggggy")])
    assert tree.get_next_guess([("salet", "ggggy")], "none") == "none"
    assert issubclass(InconsistentHistoryError, FeedbackError)
    assert issubclass(InconsistentHistoryError, HistoryError)

    won = tree.game("crony")
    with pytest.raises(GameOverError, match="already won"):
        tree.next_guess(won)
    with pytest.raises(GameOverError, match="no guess may follow"):
        tree.next_guess([*won, ("salet", 0)])
    assert tree.get_next_guess(won) is None


def test_inconsistent_message_lists_the_history(tree):
    first = tree.game("crony")[0]
    with pytest.raises(InconsistentHistoryError) as caught:
        tree.next_guess([first, ("courd", "ggggg")])
    assert f"salet:{code_to_text(first[1])} courd:ggggg" in str(caught.value)
    assert "221 answers remained" in str(caught.value)


@pytest.mark.parametrize("history, error", [
    ([("zzzzz", "bbbbb")], UnknownWordError),
    ([("salet", "bbbb")], FeedbackError),
    ([("salet", "bbbbq")], FeedbackError),
    ([("salet", 243)], FeedbackError),
    ([("salet", True)], FeedbackError),
    (["salet"], HistoryTokenError),
    (["salet:"], HistoryTokenError),
])
def test_malformed_history_raises_even_from_get(tree, history, error):
    with pytest.raises(error):
        tree.get_next_guess(history)
    with pytest.raises(InputError):
        tree.next_guess(history)


# -- verification ----------------------------------------------------------------------------
def test_verify_passes_the_committed_artifact(tree):
    report = policy_tree.verify(tree)
    assert report.ok, report.failures
    assert (report.total, report.max_guesses, report.histogram) == (7920, 5, [0, 78, 1225, 971, 41, 0])
    assert report.n_answers == 2315 and report.n_nodes == tree.n_nodes


def test_verify_catches_a_wrong_guess(tree):
    bad = policy_tree.decode(wrong_guess_bytes(tree))  # loads: only a replay can tell
    report = policy_tree.verify(bad, max_failures=1000)
    assert not report.ok and report.n_failures == len(report.failures)
    assert any("has no branch for feedback" in f for f in report.failures)
    assert any("stored total 7920 differs" in f for f in report.failures)


def test_verify_catches_a_missing_branch(tree):
    bad = policy_tree.decode(missing_branch_bytes())  # a tree, so it loads: only a replay can tell
    report = policy_tree.verify(bad)
    # the last node in preorder is the root's last branch: salet:bgggg, whose answer is valet
    assert tree.position([("salet", "bgggg")]).node == tree.n_nodes - 1
    assert not report.ok
    assert ("'valet': node 0 (guess 'salet') has no branch for feedback bgggg; path salet:bgggg"
            in report.failures)


def test_verify_catches_wrong_stored_figures():
    doc = document()
    doc["total"], doc["histogram"][2] = 7919, 1224
    report = policy_tree.verify(policy_tree.decode(repack(doc)))
    assert [f for f in report.failures if "stored" in f] == [
        "stored total 7919 differs from the replay's 7920",
        "stored histogram [0, 78, 1224, 971, 41, 0] differs from the replay's [0, 78, 1225, 971, 41, 0]",
        f"stored average {7920 / 2315!r} is not total / answers = {7919 / 2315!r}",
    ]


def test_a_tree_deeper_than_the_guess_limit_is_refused_on_open():
    with pytest.raises(CorruptArtifactError, match="node 0 is at guess 1 and has branches: the "
                       "tree goes deeper than the guess limit of 1"):
        policy_tree.decode(mini_artifact(guess_limit=1, histogram=[1], max_guesses=1, total=2))


def test_verify_checks_hard_mode_rules():
    # 'abcde' against 'fghij' reveals nothing, so 'fghij' is legal; against a list where the
    # second guess ignores a green it is not.
    words = from_words(["abcde", "abxyz"], ["abcde", "abxyz", "klmno"], name="mini")
    code = feedback_code("abcde", "abxyz")  # ggbbb
    dt = DecisionTree(np.array([0, 2, 1], dtype=np.uint32), np.array([0, 1, 2, 2], dtype=np.uint32),
                      np.array([code, feedback_code("klmno", "abxyz")], dtype=np.uint8),
                      np.array([1, 2], dtype=np.uint32))
    data = encode_artifact(word_list=words, tree=dt, mode="hard", objective="total", guess_limit=6,
                           opener="abcde", total=4, max_guesses=3, histogram=[1, 0, 1, 0, 0, 0],
                           solver_version="test")
    report = policy_tree.verify(policy_tree.decode(data))
    assert any("illegal in hard mode: position 1 must stay 'a'" in f for f in report.failures)
    normal = policy_tree.decode(seal(dict(msgpack.unpackb(data, raw=False), mode="normal")))
    assert policy_tree.verify(normal).ok


# -- export ----------------------------------------------------------------------------------
def test_export_paths_replays_to_7920_under_the_plain_feedback_rule(tree):
    lines = policy_tree.export_paths(tree).splitlines()
    assert len(lines) == 2315
    total, next_guess_after = 0, {}
    for answer, line in zip(tree.word_list.answers, lines):
        tokens = line.split()
        guesses, feedbacks = tokens[0::2], tokens[1::2]
        assert guesses[-1] == answer and feedbacks[-1] == "ggggg"
        for k, (guess, fb) in enumerate(zip(guesses, feedbacks)):
            assert code_to_text(feedback_code(guess, answer)) == fb
            # one guess per prefix: the lines are the paths of one decision tree
            assert next_guess_after.setdefault(tuple(tokens[:2 * k]), guess) == guess
        total += len(guesses)
    assert total == 7920
    assert next_guess_after[()] == "salet"


def test_export_json_nests_the_whole_tree(tree):
    root = json.loads(json.dumps(policy_tree.export_json(tree)))
    assert root["guess"] == "salet"
    count, leaves, stack = 0, 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        leaves += not node["children"]
        assert set(node) == {"guess", "children"} and "ggggg" not in node["children"]
        stack.extend(node["children"].values())
    assert count == tree.n_nodes
    assert leaves == sum(1 for n in range(tree.n_nodes)
                         if tree.tree.edge_start[n] == tree.tree.edge_start[n + 1])
    # a game read off the JSON
    node = root
    for guess, code in tree.game("crony")[:-1]:
        assert node["guess"] == guess
        node = node["children"][code_to_text(code)]
    assert node["guess"] == "crony"


def test_export_paths_refuses_a_tree_that_fails_an_answer():
    bad = policy_tree.decode(missing_branch_bytes())
    with pytest.raises(UnsolvedAnswerError, match="does not solve"):
        policy_tree.export_paths(bad)


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.update(word_list="mini"), "the words are the shipped 'legacy' lists"),
    (lambda d: d.update(opener_proof=dict(d["opener_proof"], others_at_least=7919)),
     "below this tree's 7920"),
    (lambda d: d.update(opener_proof=dict(d["opener_proof"], openers=12)), "covers 12 openers"),
    (lambda d: d.update(average=3.5), "stored average 3.5"),
    (lambda d: d.update(max_guesses=6), "stored max_guesses 6"),
])
def test_verify_re_derives_every_header_figure(edit, words):
    """Figures written wrong by the writer (sealed with a valid checksum) fail the replay."""
    doc = document()
    edit(doc)
    report = policy_tree.verify(policy_tree.decode(repack(doc)))
    assert not report.ok and any(words in f for f in report.failures), report.failures


@pytest.mark.parametrize("data, words", [
    (b"\x81\xa1a\xc1", "not valid msgpack: a byte that starts no msgpack value (0xc1 is reserved) "
                        "or a malformed value (in the value that starts at byte 3)"),
    (b"\xc1", "(in the value that starts at byte 0)"),
    (b"\x81\xa1a" + b"\x91" * 2000 + b"\x00", "not valid msgpack: values nested too deeply"),
])
def test_invalid_msgpack_says_what_is_wrong(data, words):
    """It said 'not valid msgpack ()': some msgpack errors carry no message."""
    with pytest.raises(CorruptArtifactError) as caught:
        policy_tree.decode(data)
    assert words in str(caught.value) and "()" not in str(caught.value)


def test_load_takes_a_shipped_trees_name_from_any_directory(tmp_path, monkeypatch):
    """The docs' ``policy_tree.load("legacy-normal-salet")`` from outside the checkout (as from
    a pip install): the name is found in the shipped artifacts, not in the working directory."""
    monkeypatch.chdir(tmp_path)
    tree = policy_tree.load("legacy-normal-salet")
    assert tree.path == ARTIFACT and tree.next_guess([("salet", "bbbby")]) == "north"
    assert policy_tree.load("book/legacy-normal-crane.msgpack").opener == "crane"
    assert policy_tree.load(ARTIFACT).opener == "salet"  # a path as before
    with pytest.raises(policy_tree.MissingArtifactError,
                       match="no shipped tree of that name; shipped: .*legacy-normal-salet"):
        policy_tree.load("legacy-normal-nope")
    with pytest.raises(policy_tree.MissingArtifactError):
        policy_tree.load("elsewhere/legacy-normal-salet")  # a path: never looked up by name
