"""``python -m tools.tree`` in a subprocess: every subcommand's real output, and bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import msgpack
import numpy as np
import pytest

import policy_tree
from policy_tree.artifact import seal, tree_sha256
from policy_tree.schema import TREE_ARRAYS
from solver.game.feedback import code_to_text, feedback_code

ROOT = Path(__file__).resolve().parents[1]
ARTIFACT = ROOT / "artifacts" / "legacy-normal-salet.msgpack"
A = str(ARTIFACT)


def tree_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "tools.tree", *map(str, args)], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def tree():
    return policy_tree.load(ARTIFACT)


def history_tokens(steps) -> list[str]:
    return [f"{guess}:{code_to_text(code)}" for guess, code in steps]


def damaged(tmp_path, name, edit_arrays) -> Path:
    """A copy of the artifact whose tree arrays ``edit_arrays`` changed, checksum recomputed."""
    doc = msgpack.unpackb(ARTIFACT.read_bytes(), raw=False)
    arrays = {n: np.frombuffer(doc["tree"][n], dtype=d).copy() for n, d in TREE_ARRAYS}
    edit_arrays(arrays)
    doc["tree"] = {n: a.tobytes() for n, a in arrays.items()}
    doc["tree_sha256"] = tree_sha256(doc["tree"])
    path = tmp_path / name
    path.write_bytes(seal(doc))
    return path


def assert_input_error(proc, *fragments):
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert proc.stderr.startswith("error: ")
    for fragment in fragments:
        assert fragment in proc.stderr, proc.stderr


# -- next ------------------------------------------------------------------------------------
def test_next_without_history_prints_the_opener():
    proc = tree_cli("next", A)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "next guess: salet\n2315 answers remain\n"


def test_without_an_artifact_next_and_play_use_todays_nyt_tree():
    """No ARTIFACT: the shipped optimal tree of today's lists (solver.game.wordlists.PLAY_LISTS,
    nyt-2024: TARSE's), the first word a history token; --words legacy and --mode hard pick
    the legacy lists' and the hard-mode tree (SALET's); given with an ARTIFACT they are refused."""
    nyt = policy_tree.load(ROOT / "artifacts" / "nyt-2024-normal-tarse.msgpack")
    assert tree_cli("next").stdout == "next guess: tarse\n2309 answers remain\n"
    steps = nyt.game("crony")
    proc = tree_cli("next", *history_tokens(steps[:2]))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == tree_cli("next", "nyt-2024-normal-tarse", *history_tokens(steps[:2])).stdout
    assert proc.stdout.startswith(f"next guess: {nyt.next_guess(steps[:2])}\n")
    play = tree_cli("play", "--answer", "crony", "--color", "never").stdout.splitlines()
    assert [line.split()[1] for line in play[:-1]] == [guess for guess, _ in steps]
    assert tree_cli("next", "--words", "legacy").stdout == "next guess: salet\n2315 answers remain\n"
    assert tree_cli("next", "--words", "legacy", "--mode", "hard").stdout.startswith("next guess: salet\n")
    assert tree_cli("next", "--mode", "hard").stdout == "next guess: salet\n2309 answers remain\n"
    assert_input_error(tree_cli("next", A, "--words", "legacy"), "--words and --mode choose the shipped tree")
    assert_input_error(tree_cli("play", "salet:bbbbb"), "play takes no history")
    assert_input_error(tree_cli("next", "--words", "wordfreq-4", "--mode", "hard"),
                       "no shipped optimal trees of the 'wordfreq-4' lists in hard mode")


@pytest.mark.parametrize("answer, cut", [("crony", 1), ("crony", 2), ("knoll", 3), ("tiger", 2)])
def test_next_after_a_real_history_matches_the_api(tree, answer, cut):
    steps = tree.game(answer)[:cut]
    proc = tree_cli("next", A, *history_tokens(steps))
    assert proc.returncode == 0, proc.stderr
    remaining = tree.remaining_answers(steps)
    first, second = proc.stdout.splitlines()
    assert first == f"next guess: {tree.next_guess(steps)}"
    assert second.startswith(f"{len(remaining)} answer")
    assert answer in remaining
    if len(remaining) <= 10:
        assert second.endswith(": " + ", ".join(remaining))
    else:
        assert ":" not in second


def test_next_accepts_digits_and_squares(tree):
    steps = tree.game("crony")[:2]
    squares = {"b": "⬛", "y": "🟨", "g": "🟩"}
    tokens = [f"{g}:{''.join(squares[c] for c in code_to_text(code))}" for g, code in steps[:1]]
    tokens += [f"{g}:{code_to_text(code).translate(str.maketrans('byg', '012'))}" for g, code in steps[1:]]
    assert tree_cli("next", A, *tokens).stdout == tree_cli("next", A, *history_tokens(steps)).stdout


def test_next_off_the_tree_falls_back_to_the_exact_solver():
    """Leaving the tree is said, then answered exactly: after salet:bbbby crane:bbbbb the 28
    answers' optimum is bitty, 63 guesses in all (solve_from, checked in test_solve_from.py)."""
    proc = tree_cli("next", A, "salet:bbbby", "crane:bbbbb")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "the history leaves the SALET tree at guess 2: the tree plays 'north', not 'crane'; "
        "the exact solver answers from this state",
        "next guess: bitty (exact, from the solver): 2.25000 expected guesses (63 over 28 answers)",
        "28 answers remain; 4 guesses left"]


def test_next_with_no_answer_left_answers_from_the_guesses_that_fit():
    """As tools.assist: when no answer of the list fits, the allowed guesses that fit are the
    answers (salet:ggggb leaves SALEP and SALES, 3 guesses in all from here)."""
    proc = tree_cli("next", A, "salet:ggggb")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[1:] == [
        "next guess: salep (exact, from the solver): 1.50000 expected guesses (3 over 2 answers)",
        "2 answers remain: salep, sales; 5 guesses left"]
    assert tree_cli("next", A, "salet:bbbbb", "courd:ggggg").stdout == "solved: courd in 2 guesses\n"


def test_next_after_the_winning_feedback_says_solved(tree):
    steps = tree.game("crony")
    proc = tree_cli("next", A, *history_tokens(steps))
    assert proc.returncode == 0 and proc.stdout == f"solved: crony in {len(steps)} guesses\n"


@pytest.mark.parametrize("history, fragments", [
    (["zzzzz:bbbbb"], ["'zzzzz' is not an allowed guess"]),
    (["salet:bbbb"], ["feedback 'bbbb' is not five of b/y/g"]),
    (["salet:bbbbq"], ["is not five of b/y/g"]),
    (["salet"], ["history token 'salet' is not word:feedback"]),
    (["salet:ggggy"], ["no answer and no allowed guess fits the history: after guess 1 (salet:ggggy)"]),
    (["salet:bbbbb", "courd:gybyb", "anion:bybyb", "crony:ggggg", "salet:bbbbb"],
     ["no guess may follow"]),
])
def test_next_rejects_bad_histories(history, fragments):
    assert_input_error(tree_cli("next", A, *history), *fragments)


# -- bad artifacts, for every subcommand ---------------------------------------------------
@pytest.fixture
def bad_artifacts(tmp_path):
    data = ARTIFACT.read_bytes()
    truncated, corrupted = tmp_path / "truncated.msgpack", tmp_path / "corrupted.msgpack"
    truncated.write_bytes(data[:-100])
    edge_child = msgpack.unpackb(data, raw=False)["tree"]["edge_child"]
    at = data.index(edge_child) + 100
    corrupted.write_bytes(data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:])
    doc = msgpack.unpackb(data, raw=False)
    doc["guesses"] = doc["guesses"][5:]  # drop 'aahed': another list called 'legacy'
    from solver.game.wordlists import normalised_sha256

    doc["guesses_sha256"] = normalised_sha256(
        doc["guesses"][i:i + 5].decode() for i in range(0, len(doc["guesses"]), 5))
    doc["tree"]["node_guess"] = np.zeros(len(doc["tree"]["node_guess"]) // 4, dtype="<u4").tobytes()
    doc["tree_sha256"] = tree_sha256(doc["tree"])
    mismatched = tmp_path / "mismatched.msgpack"
    mismatched.write_bytes(seal(doc))
    return {
        "missing": (tmp_path / "nope.msgpack", "no such artifact file"),
        "truncated": (truncated, "truncated"),
        "corrupted": (corrupted, "header field 'tree' does not match its checksum"),
        "mismatched": (mismatched, "shipped 'legacy' guesses"),
    }


@pytest.mark.parametrize("kind", ["missing", "truncated", "corrupted", "mismatched"])
@pytest.mark.parametrize("command", [["next"], ["stats"], ["verify"], ["play", "--answer", "crony"]])
def test_unreadable_artifacts_exit_2_naming_the_file(bad_artifacts, kind, command):
    path, fragment = bad_artifacts[kind]
    proc = tree_cli(command[0], path, *command[1:])
    assert_input_error(proc, str(path), fragment)


def test_export_to_a_file_writes_nothing_for_a_bad_artifact(bad_artifacts, tmp_path):
    out = tmp_path / "out.txt"
    path, fragment = bad_artifacts["truncated"]
    assert_input_error(tree_cli("export", path, "-o", out), fragment)
    assert not out.exists()
    assert list(tmp_path.glob(".out.txt*")) == []


# -- verify ----------------------------------------------------------------------------------
def test_verify_passes_the_committed_artifact():
    proc = tree_cli("verify", A)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (f"OK {A}: 2315 answers, all won within 6 guesses; total 7920, average "
                           "3.42117, max 5, histogram 0 78 1225 971 41 0; 2448 nodes\n")


def test_verify_fails_a_wrong_guess_with_a_valid_checksum(tmp_path, tree):
    node = tree.position([("salet", "bbbbb")]).node
    crane = tree.word_list.guess_index("crane")
    path = damaged(tmp_path, "wrong-guess.msgpack", lambda a: a["node_guess"].__setitem__(node, crane))
    assert tree_cli("next", path).returncode == 0  # it loads
    proc = tree_cli("verify", path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith(f"FAILED {path}: ")
    assert "has no branch for feedback" in proc.stdout and "path salet:bbbbb crane:" in proc.stdout
    assert "... and" in proc.stdout  # more failures than listed


def drop_last_root_edge(a):
    last = int(a["edge_start"][1]) - 1
    a["edge_feedback"] = np.delete(a["edge_feedback"], last)
    a["edge_child"] = np.delete(a["edge_child"], last)
    a["edge_start"][1:] -= 1


def test_verify_fails_a_missing_branch_with_a_valid_checksum(tmp_path):
    def drop_last_root_branch(a):  # salet:bgggg leads to the last node, a leaf (valet)
        assert int(a["edge_child"][int(a["edge_start"][1]) - 1]) == len(a["node_guess"]) - 1
        drop_last_root_edge(a)
        a["node_guess"], a["edge_start"] = a["node_guess"][:-1], a["edge_start"][:-1]

    path = damaged(tmp_path, "missing-branch.msgpack", drop_last_root_branch)
    proc = tree_cli("verify", path)
    assert proc.returncode == 1, proc.stderr
    assert "'valet': node 0 (guess 'salet') has no branch for feedback bgggg" in proc.stdout


def test_an_orphaned_node_is_refused_on_open(tmp_path):
    path = damaged(tmp_path, "orphan.msgpack", drop_last_root_edge)
    proc = tree_cli("verify", path)
    assert_input_error(proc, str(path), "is reached by 0 edges")


@pytest.mark.parametrize("command", [["stats"], ["verify"], ["next"], ["export"]])
def test_a_flipped_stored_total_is_refused_on_open(tmp_path, command):
    # Issue 23's probe: bit 0 of byte 76763 turns the stored total (uint16 0x1ef0 = 7920 after
    # its key) into 8176; the checksums record covers it, so every command refuses the file,
    # naming the field.
    data = bytearray(ARTIFACT.read_bytes())
    assert bytes(data[76756:76765]) == b"\xa5total\xcd\x1e\xf0"
    data[76763] ^= 0x01
    path = tmp_path / "flipped-total.msgpack"
    path.write_bytes(bytes(data))
    proc = tree_cli(command[0], path, *command[1:])
    assert_input_error(proc, str(path), "header field 'total' does not match its checksum")


def test_verify_of_a_wrong_stored_total_with_a_valid_checksum_exits_1(tmp_path):
    doc = msgpack.unpackb(ARTIFACT.read_bytes(), raw=False)
    doc["total"] = 7921
    path = tmp_path / "wrong-total.msgpack"
    path.write_bytes(seal(doc))
    proc = tree_cli("verify", path)
    assert proc.returncode == 1
    assert "stored total 7921 differs from the replay's 7920" in proc.stdout


def test_verify_many_reports_each(tmp_path, bad_artifacts):
    path, _ = bad_artifacts["truncated"]
    proc = tree_cli("verify", A, path)
    assert proc.returncode == 2
    assert proc.stdout.startswith(f"OK {A}")
    assert f"{path}: truncated" in proc.stderr


# -- stats -----------------------------------------------------------------------------------
def test_stats_json_matches_the_artifact(tree):
    proc = tree_cli("stats", A, "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["total"] == 7920 and doc["max_guesses"] == 5 and doc["opener"] == "salet"
    assert doc["histogram"] == [0, 78, 1225, 971, 41, 0]
    assert doc["average"] == tree.average and "solve_seconds" not in doc
    assert (doc["word_list"], doc["mode"], doc["answers"], doc["nodes"]) == ("legacy", "normal", 2315, 2448)
    assert doc["solver_version"] == tree.solver_version


def test_stats_table_shows_the_figures_and_a_bar_chart():
    proc = tree_cli("stats", A)
    assert proc.returncode == 0, proc.stderr
    for fragment in ("legacy (2315 answers, 12972 guesses)", "normal / total", "salet", "7920",
                     "3.42117", "5 (limit 6)", "2448", "52.9%"):
        assert fragment in proc.stdout
    bars = {int(line.split("│")[1]): line.split("│")[4].strip()
            for line in proc.stdout.splitlines() if line.count("│") == 5 and line.split("│")[1].strip().isdigit()}
    assert bars[3] == "█" * 40 and bars[1] == "" and len(bars[4]) == round(40 * 971 / 1225)


# -- export ----------------------------------------------------------------------------------
def test_export_paths_replays_to_7920(tmp_path, tree):
    out = tmp_path / "paths.txt"
    proc = tree_cli("export", A, "--format", "paths", "-o", out)
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    lines = out.read_text().splitlines()
    assert [line.split()[-2] for line in lines] == list(tree.word_list.answers)
    total = 0
    for line in lines:
        tokens = line.split()
        answer = tokens[-2]
        for guess, fb in zip(tokens[0::2], tokens[1::2]):
            assert code_to_text(feedback_code(guess, answer)) == fb
        assert tokens[-1] == "ggggg" and tokens[0] == "salet"
        total += len(tokens) // 2
    assert total == 7920
    assert tree_cli("export", A).stdout == out.read_text()  # paths is the default, stdout too


def test_export_json_is_the_nested_tree(tree):
    proc = tree_cli("export", A, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    root = json.loads(proc.stdout)
    node = root
    for guess, code in tree.game("knoll")[:-1]:
        assert node["guess"] == guess
        node = node["children"][code_to_text(code)]
    assert node == {"guess": "knoll", "children": {}}
    root_feedbacks = {feedback_code("salet", a) for a in tree.word_list.answers} - {242}
    assert sorted(root["children"]) == sorted(code_to_text(c) for c in root_feedbacks)


# -- play ------------------------------------------------------------------------------------
@pytest.mark.parametrize("answer", ["crony", "aback"])
def test_play_answer_prints_the_board(tree, answer):
    steps = tree.game(answer)
    proc = tree_cli("play", A, "--answer", answer.upper())
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:-1] == [f"{i}  {g}  {code_to_text(c)}" for i, (g, c) in enumerate(steps, start=1)]
    assert lines[-2].endswith(f"{answer}  ggggg")
    assert lines[-1] == f"solved {answer} in {len(steps)} guesses"


def test_play_answer_needing_five_guesses(tree):
    answer = next(a for a in tree.word_list.answers if len(tree.game(a)) == 5)
    lines = tree_cli("play", A, "--answer", answer).stdout.splitlines()
    assert len(lines) == 6 and lines[-1] == f"solved {answer} in 5 guesses"


def test_play_answer_in_colour_uses_squares_and_ansi():
    proc = tree_cli("play", A, "--answer", "crony", "--color", "always")
    assert proc.returncode == 0
    assert "\x1b[" in proc.stdout and "🟩🟩🟩🟩🟩" in proc.stdout and " C " in proc.stdout


@pytest.mark.parametrize("answer, fragment", [("zzzzz", "not an allowed guess"),
                                              ("aahed", "not a possible answer")])
def test_play_rejects_an_answer_outside_the_list(answer, fragment):
    assert_input_error(tree_cli("play", A, "--answer", answer), fragment)


def test_play_interactive_reaches_ggggg(tree):
    steps = tree.game("crony")
    typed = [code_to_text(steps[0][1]), "nonsense", "ggggg"]  # a typo and an impossible feedback
    typed += [code_to_text(c) for _, c in steps[1:]]
    proc = tree_cli("play", A, stdin="\n".join(typed) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert "feedback 'nonsense' is not five of b/y/g" in proc.stdout
    assert "no answer is consistent with" in proc.stdout
    for number, (guess, _) in enumerate(steps, start=1):
        assert f"guess {number}: {guess}" in proc.stdout
    assert proc.stdout.rstrip().endswith(f"solved crony in {len(steps)} guesses")
    assert "1 answer remains: crony" in proc.stdout


def test_play_interactive_off_the_tree_and_quit():
    proc = tree_cli("play", A, stdin="bbbbb\ncrane:bbbbb\nq\n")
    assert proc.returncode == 0, proc.stderr
    assert "leaves the decision tree" in proc.stdout and "51 answers remain" in proc.stdout
    assert "solved" not in proc.stdout


# -- cost of a lookup --------------------------------------------------------------------------
def test_lookup_imports_no_numba_or_solver_kernels():
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "tools.tree", "next", A,
                           "salet:bbbbb"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    imported = {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    assert "policy_tree.reader" in imported  # the probe sees our own imports
    assert not {m for m in imported if m.split(".")[0] in ("numba", "joblib", "llvmlite")}
    assert not {m for m in imported
                if m.startswith("solver.exact") or m.startswith("solver.") and m.endswith("_kernel")}


def test_help_lists_the_subcommands():
    proc = tree_cli("--help")
    assert proc.returncode == 0
    for command in ("verify", "stats", "export", "next", "play"):
        assert command in proc.stdout


# -- issue 32, item 3 --------------------------------------------------------------------------
def test_a_directory_is_refused_in_one_line_naming_it(tmp_path):
    """It printed 'error: 4: Is a directory' (the file descriptor), exit 1."""
    for command in (["next"], ["stats"], ["export"], ["play", "--answer", "cigar"]):
        proc = tree_cli(command[0], tmp_path, *command[1:])
        assert_input_error(proc, f"error: {tmp_path}: is a directory, not an artifact file")
        assert proc.stderr.count("\n") == 1


def test_a_game_won_at_the_first_guess_takes_1_guess():
    crane = ROOT / "artifacts" / "book" / "legacy-normal-crane.msgpack"
    proc = tree_cli("next", crane, "crane:ggggg")
    assert proc.returncode == 0 and proc.stdout == "solved: crane in 1 guess\n", proc
    proc = tree_cli("play", crane, "--answer", "crane", "--color", "never")
    assert proc.returncode == 0 and proc.stdout.endswith("solved crane in 1 guess\n"), proc


def test_a_short_name_names_one_shipped_tree(tmp_path):
    """nyt-2024-hard-salet named two files (the proven tree and a stale copy in the book)."""
    proc = tree_cli("stats", "--json", "nyt-2024-hard-salet")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["opener_proof"] is not None
    proc = subprocess.run([sys.executable, "-m", "solver.cli.tree", "next", "book/legacy-normal-crane"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("next guess: crane\n"), proc


def test_a_short_name_two_shipped_trees_have_is_refused_listing_both(tmp_path, monkeypatch):
    import policy_tree.shipped
    import solver.cli.tree
    from solver.game.errors import InputError

    top, book = tmp_path / "artifacts", tmp_path / "artifacts" / "book"
    book.mkdir(parents=True)
    for directory in (top, book):
        (directory / "legacy-normal-salet.msgpack").write_bytes(ARTIFACT.read_bytes())
    monkeypatch.setattr(policy_tree.shipped, "_shipped_dirs", lambda: (("", top), ("book/", book)))
    monkeypatch.chdir(tmp_path)  # where the name is no file
    with pytest.raises(InputError) as caught:
        solver.cli.tree.resolve_artifact("legacy-normal-salet")
    assert str(caught.value) == (
        f"legacy-normal-salet: names 2 shipped trees, give the path of the one meant: "
        f"{top / 'legacy-normal-salet.msgpack'} or {book / 'legacy-normal-salet.msgpack'}")
    assert solver.cli.tree.resolve_artifact("book/legacy-normal-salet") == str(book / "legacy-normal-salet.msgpack")
    assert solver.cli.tree.shipped_trees() == ["book/legacy-normal-salet", "legacy-normal-salet"]


def test_a_tree_that_fails_verification_is_never_shown_as_proven_nor_answered_from(tmp_path, tree):
    """A crafted tree (checksums right, one guess wrong, SALET's opener proof kept) that
    `verify` rejects: `stats` showed it as "proven optimal" and `next` answered its guess. Now
    `stats` checks first (exit 1, the figures marked unchecked, never "proven"), and `next`
    checks the answers left from where it stands and lets the exact solver answer instead."""
    steps = tree.game("crony")[:2]
    node = tree.position(steps).node  # 5 answers left: choir crock crony crook crown
    salet = tree.word_list.guess_index("salet")
    path = damaged(tmp_path, "crafted.msgpack", lambda a: a["node_guess"].__setitem__(node, salet))
    assert policy_tree.load(path).opener_proof is not None and not policy_tree.verify(policy_tree.load(path)).ok
    stats = subprocess.run([sys.executable, "-m", "tools.tree", "stats", str(path)], cwd=ROOT,
                           env=dict(os.environ, COLUMNS="300"), capture_output=True, text=True, timeout=120)
    assert stats.returncode == 1, stats.stderr
    assert "proven optimal over" not in stats.stdout
    assert "claims to be proven optimal, but the tree fails verification: not proven" in stats.stdout
    assert "NO: " in stats.stdout and "the figures above are as stored, unchecked" in stats.stdout
    doc = json.loads(tree_cli("stats", path, "--json").stdout)
    assert doc["verified"] is False and doc["opener_proven"] is False and doc["verify_failures"]
    good = json.loads(tree_cli("stats", A, "--json").stdout)
    assert good["verified"] is True and good["opener_proven"] is True and good["verify_failures"] == []
    proc = tree_cli("next", path, *history_tokens(steps))
    assert proc.returncode == 0, proc.stderr
    assert "next guess: salet" not in proc.stdout
    assert "the tree does not win every answer left from here" in proc.stderr
    assert "the exact solver answers instead" in proc.stderr
    # the right guess (the shipped tree's), not the crafted tree's
    assert proc.stdout.startswith(f"next guess: {tree.next_guess(steps)} (exact, "), proc.stdout
    # on a part of the tree that checks, it answers from the tree as before
    fine = tree.game("tiger")[:2]
    assert tree_cli("next", path, *history_tokens(fine)).stdout == tree_cli("next", A, *history_tokens(fine)).stdout
