"""Nothing cached is trusted unchecked (issue 58): every kind of file the project writes into
its user cache, damaged while keeping its size, is computed again (and replaced) or refused,
never served, and the answers stay exact.

The kinds: the feedback tables (``feedback-*.npy``, the yellow rule's ``feedback-yellow-*.npy``,
the belief setting's ``feedback-guesses-*.npy``: checksums per row and per column,
solver/game/checked_table.py), the opening book's trees (``book/<fingerprint>/*.msgpack``:
their own sha256s, policy_tree/reader.py) and its notes that an opener cannot win
(``*.unwinnable``: sealed, solver/game/files.py). Journals carry a crc32 per record
(tests/test_journal.py)."""

from __future__ import annotations

import json
import re
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import numpy_sub_list

from solver.exact.bellman import UnwinnableError, solve_from, solve_state
from solver.exact.book import OpeningBook, cache_directory
from solver.game.feedback import (TableParts, cached_feedback_table, code_to_text, feedback_rows,
                                  feedback_table, table_cache_path)
from solver.game.spec import Game
from solver.game.wordlists import from_words

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty user cache of the test's own."""
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def zero_in_place(path: Path, row: int, columns) -> None:
    """Zero ``table[row, columns]`` in the cached table file ``path``, keeping its size (the
    damage of issue 58: one guess's row over a state's answers)."""
    size = path.stat().st_size
    mapped = np.load(path, mmap_mode="r+")
    mapped[row, np.asarray(columns)] = 0
    mapped.flush()
    del mapped
    assert path.stat().st_size == size


def flip_byte(path: Path, at: int, mask: int = 0xFF) -> None:
    """XOR the byte at offset ``at`` (negative: from the end) of ``path`` with ``mask``."""
    data = bytearray(path.read_bytes())
    data[at] ^= mask
    path.write_bytes(bytes(data))


# -- the table file itself --------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_every_byte_of_a_table_file_is_checked(tmp_path, dtype):
    """A flipped byte anywhere in a table file (header, codes, checksums, seal) is caught: the
    file is not opened, or every read that covers it raises DamagedTableError (the row's, the
    column's, the codes of that row, the whole)."""
    from solver.game.checked_table import CheckedTable, DamagedTableError, write_table

    rng = np.random.default_rng(58)
    table = rng.integers(0, 243, size=(9, 7)).astype(dtype)
    path = tmp_path / "t.npy"
    write_table(path, table)
    intact = path.read_bytes()
    offset = np.load(path, mmap_mode="r").offset
    opened = CheckedTable.open(path, table.shape, dtype)
    assert np.array_equal(opened.whole(), table) and np.array_equal(np.load(path), table)
    for at in range(len(intact)):
        path.write_bytes(intact)
        flip_byte(path, at)
        checked = CheckedTable.open(path, table.shape, dtype)
        if checked is None:
            continue
        assert offset <= at < offset + table.nbytes, f"byte {at} (outside the codes) not checked"
        row, column = divmod((at - offset) // table.itemsize, table.shape[1])
        reads = [("rows", [row]), ("columns", [column]),
                 ("codes", [row], [(column + 1) % table.shape[1]]), ("whole",)]
        for method, *args in reads:
            with pytest.raises(DamagedTableError, match="does not match its checksum"):
                getattr(CheckedTable.open(path, table.shape, dtype), method)(*args)
        # the other rows and columns are still read, checked
        others = [r for r in range(table.shape[0]) if r != row]
        assert np.array_equal(checked.rows(others), table[others])


def test_a_table_file_without_checksums_or_of_another_shape_is_not_opened(tmp_path):
    from solver.game.checked_table import CheckedTable, table_file_bytes

    table = np.arange(12, dtype=np.uint8).reshape(3, 4)
    path = tmp_path / "t.npy"
    np.save(path, table)  # as cached before the checksums
    assert CheckedTable.open(path, (3, 4), np.uint8) is None
    path.write_bytes(table_file_bytes(table))
    assert CheckedTable.open(path, (3, 4), np.uint8) is not None
    assert CheckedTable.open(path, (4, 3), np.uint8) is None
    assert CheckedTable.open(path, (3, 4), np.uint16) is None
    assert CheckedTable.open(tmp_path / "missing.npy", (3, 4), np.uint8) is None
    path.write_bytes(table_file_bytes(table)[:-1])  # cut short
    assert CheckedTable.open(path, (3, 4), np.uint8) is None


# -- the feedback tables: a damaged cache never changes an answer -----------------------------
def _small_game(rule: str):
    word_list, _ = numpy_sub_list(58, 40, 60, use_cache=False)
    return Game(word_list, feedback=rule)


@pytest.mark.kernels
@pytest.mark.parametrize("rule", ["standard", "yellow"])
@pytest.mark.parametrize("read", ["a state's columns", "a history's codes", "rows", "the whole table",
                                  "a file cached before the checksums"])
def test_a_damaged_feedback_table_is_computed_again_and_the_answer_stays_exact(cache, rule, read):
    """The cached table with one guess's row zeroed over a state's answers, its size kept (or,
    so damaged, saved as tables were before the checksums): the exact answer read through the
    cache equals the answer from the intact cache, the parts read equal the fresh table's, and
    the file is replaced by the intact table. The damage matters: the same damaged table, used
    unchecked, gives another answer."""
    game = _small_game(rule)
    word_list = game.word_list
    fresh = feedback_table(word_list, use_cache=False, feedback=rule)
    path = table_cache_path(word_list, rule)
    feedback_table(word_list, feedback=rule)  # cached
    intact = path.read_bytes()

    # a history whose state is the opener's largest class
    opener = word_list.guesses[0]
    codes = fresh[word_list.guess_index(opener)]
    largest = np.bincount(codes).argmax()
    history = [(opener, code_to_text(int(largest)))]
    state = np.flatnonzero(codes == largest)
    assert len(state) > 3

    def answer(table=None):
        """The exact answer after the history, read through the cache unless ``table``."""
        if read == "a history's codes":
            solution = solve_from(game, history, table=table)
            return solution.answers, solution.value, solution.next_guess
        return solve_state(game, state, game.guess_limit - 1, table=table)

    good = answer()
    if read == "a history's codes":  # the opener's row over half the state and every other
        # answer: another state, whatever the class's code
        row = word_list.guess_index(opener)
        columns = np.union1d(state[:len(state) // 2], np.flatnonzero(codes != largest))
    else:  # the best guess's row over the state's answers
        row, columns = word_list.guess_index(good[1]), state
    # the guess's own answer keeps its all-green code: a table without it is refused outright
    # when given (check_given_table), the damage to find here is the kind that looks possible
    columns = columns[word_list.answer_guess_index[columns] != row]
    damaged = fresh.copy()
    damaged[row, columns] = 0
    assert answer(damaged) != good  # unchecked, the damage changes the answer

    if read == "a file cached before the checksums":
        np.save(path, damaged)
    else:
        zero_in_place(path, row, columns)
        assert path.stat().st_size == len(intact)
    if read == "rows":
        assert np.array_equal(feedback_rows(word_list, [row], rule), fresh[[row]])
        assert np.array_equal(TableParts(word_list, rule).codes(row, columns), fresh[row, columns])
    elif read == "the whole table":
        assert np.array_equal(feedback_table(word_list, feedback=rule), fresh)
    assert answer() == good
    # the file was replaced by the intact table, checksums and all
    assert path.read_bytes() == intact
    assert np.array_equal(cached_feedback_table(word_list, rule), fresh)


@pytest.mark.kernels
def test_a_damaged_cache_that_cannot_be_replaced_is_not_read_either(cache, monkeypatch):
    """Where the damaged file cannot be replaced (the write fails), the parts come from the
    table built in memory, never from the file."""
    import solver.game.feedback as feedback_module

    game = _small_game("standard")
    word_list = game.word_list
    fresh = feedback_table(word_list, use_cache=False)
    feedback_table(word_list)
    path = table_cache_path(word_list)
    zero_in_place(path, 3, np.arange(word_list.n_answers))

    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(feedback_module, "write_table", refuse)
    parts = TableParts(word_list)
    assert np.array_equal(parts.rows([3]), fresh[[3]])
    assert np.array_equal(parts.columns(np.arange(5)), fresh[:, :5])


@pytest.mark.kernels
def test_a_damaged_guesses_table_is_computed_again(cache):
    """The belief setting's guesses × guesses table (feedback-guesses-*.npy), a row zeroed in
    part, is computed again and replaced, never served."""
    from solver.policies.belief import guess_feedback_table, guess_table_cache_path

    word_list, _ = numpy_sub_list(58, 40, 60, use_cache=False)
    fresh = guess_feedback_table(word_list, use_cache=False)
    guess_feedback_table(word_list)
    path = guess_table_cache_path(word_list)
    intact = path.read_bytes()
    row = int(np.flatnonzero(fresh.any(axis=1))[0])
    zero_in_place(path, row, np.flatnonzero(fresh[row]))
    assert not np.array_equal(np.load(path), fresh)
    assert np.array_equal(guess_feedback_table(word_list), fresh)
    assert path.read_bytes() == intact


# -- the opening book's files ---------------------------------------------------------------------
@pytest.mark.kernels
def test_a_damaged_cached_tree_is_solved_again(cache):
    """A cached tree with a flipped byte (anywhere: here at the start, the middle and the end)
    is never served: the opener is solved again, to the same tree, and the file rewritten."""
    word_list, _ = numpy_sub_list(11, 30, 60, use_cache=False)
    game = Game(word_list)
    opener = word_list.guesses[1]
    tree = OpeningBook(game).tree(opener, jobs=1)
    path = cache_directory() / OpeningBook(game).file_name(opener)
    intact = path.read_bytes()
    for at in (len(intact) // 7, len(intact) // 2, -40):
        path.write_bytes(intact)
        flip_byte(path, at, 0x01)
        assert OpeningBook(game, solve=False).find(opener) is None
        again = OpeningBook(game).tree(opener, jobs=1)
        assert (again.total, again.tree_sha256) == (tree.total, tree.tree_sha256)
        assert path.read_bytes() == intact


@pytest.mark.kernels
def test_a_damaged_unwinnable_note_is_not_served(cache):
    """The cached note that an opener cannot win (``.unwinnable``) with a letter flipped (its
    size kept, still text) is not read: the opener is solved again, the reason is the true
    one, and the note is rewritten."""
    word_list, _ = numpy_sub_list(11, 30, 60, use_cache=False)
    game = Game(word_list, guess_limit=2)
    opener = word_list.guesses[1]
    with pytest.raises(UnwinnableError) as first:
        OpeningBook(game).tree(opener, jobs=1)
    reason = str(first.value)
    path = cache_directory() / (OpeningBook(game).file_name(opener) + ".unwinnable")
    intact = path.read_bytes()
    assert OpeningBook(game).unwinnable(opener) == reason
    at = intact.index(b"2")  # the guess limit in the reason: "... within 2 guesses"
    path.write_bytes(intact[:at] + b"9" + intact[at + 1:])
    assert OpeningBook(game).unwinnable(opener) is None
    with pytest.raises(UnwinnableError) as again:
        OpeningBook(game).tree(opener, jobs=1)
    assert str(again.value) == reason
    assert path.read_bytes() == intact


# -- issue 58's own case, with the legacy lists, through the play path --------------------------
@pytest.mark.slow
def test_a_searched_state_stays_exact_with_a_damaged_cache(cache):
    """``tools.assist --words legacy pizza:bbbbb`` with TORSE's row zeroed over the state's
    answers in the cached table answered RONTE at 2297 (issue 58); that state is now the opener
    table's, answered without the feedback table, so the same damage is done to a state the
    search reads it for: after PIZZA and LOUND, both all gray (77 answers), TERSE's row zeroed
    (but for TERSE itself),
    it answers TERSE at 182, as with the intact cache, and the table is replaced."""
    from solver.game.wordlists import load_word_list

    HISTORY = ["pizza:bbbbb", "lound:bbbbb"]
    env = dict(os.environ, EXACT_WORDLE_CACHE=str(cache))
    word_list = load_word_list("legacy")
    feedback_table(word_list)  # cached
    path = table_cache_path(word_list)
    intact = path.read_bytes()

    def assist() -> dict:
        proc = subprocess.run([sys.executable, "-m", "tools.assist", "--words", "legacy",
                               *HISTORY, "--top", "0", "--json"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        answer = json.loads(proc.stdout)
        return {key: answer[key] for key in ("status", "next_guess", "value_total", "answers")}

    good = assist()
    assert (good["status"], good["next_guess"], good["value_total"]) == ("exact", "terse", 182)
    # TERSE could be the answer: its own column keeps 242 (a guess always wins on itself, which
    # the search takes as given)
    state = np.array([word_list.answer_index(a) for a in good["answers"] if a != "terse"])
    damaged = np.array(feedback_table(word_list))
    damaged[word_list.guess_index("terse"), state] = 0
    unchecked = solve_from(Game(word_list), [tuple(step.split(":")) for step in HISTORY], table=damaged)
    assert (unchecked.next_guess, unchecked.value) != ("terse", 182)  # the damage matters
    zero_in_place(path, word_list.guess_index("terse"), state)
    assert assist() == good
    assert path.read_bytes() == intact


@pytest.mark.parametrize("damage, message", [
    ("own", "guess 'cigar' against answer 'cigar' has code 0, not all green (242)"),
    ("code", "a code is 243, more than all green (242)"),
    ("shape", "shape (5, 3), dtype uint8; they need shape (6, 3), dtype uint8"),
    ("dtype", "dtype uint16; they need shape (6, 3), dtype uint8"),
])
def test_a_given_table_that_cannot_be_the_lists_is_refused_by_name(damage, message):
    """A feedback table handed to the API is checked once (check_given_table): one whose guess
    does not win on itself, or with a code past all green, made the search read out of bounds
    (a segfault); now solve_state, solve_from and SearchService raise FeedbackError (an
    InputError) saying what does not fit."""
    from solver.exact.service import SearchService
    from solver.game.errors import InputError

    word_list = from_words(["cigar", "rebut", "sissy"], ["cigar", "rebut", "sissy", "humph", "salet", "crane"],
                           "tiny")
    table = feedback_table(word_list, use_cache=False)
    if damage == "own":
        table[word_list.guess_index("cigar"), word_list.answer_index("cigar")] = 0
    elif damage == "code":
        table[word_list.guess_index("salet"), 1] = 243
    elif damage == "shape":
        table = table[:5]
    else:
        table = table.astype(np.uint16)
    game = Game(word_list)
    for call in (lambda: solve_state(game, [0, 1, 2], 5, table=table),
                 lambda: solve_from(game, [("salet", "bbbbb")], table=table),
                 lambda: SearchService(game, table=table, book=False, cache=False, tables=False)):
        with pytest.raises(InputError, match=re.escape(message)):
            call()
