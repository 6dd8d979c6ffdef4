"""Word lists: loading, validation and identity (sha256).

A word list is a pair of files, ``answers.txt`` (the words that can be the hidden answer) and
``guesses.txt`` (every word that may be played; it must contain every answer). The project
ships ``legacy`` and ``nyt-2024`` (5 letters) and ``wordfreq-4``, ``wordfreq-6``, ``wordfreq-7``
(4, 6 and 7 letters, built by ``tools/make_wordlists.py``) in ``solver/data/`` (provenance in
``solver/data/README.md``); any directory holding the two files can be loaded too.

Words are lowercased and sorted on load, so a guess's index is its alphabetical rank — the
tie-break rules of the solver and of the heuristics rely on that. The sha256 of each list is
taken over its normalised form (sorted lowercase words, one per line, each ending in ``\\n``),
which for the shipped files equals the sha256 of the file itself.

Identity: files written for a word list (artifacts, reports, caches) are named by what the
lists hold, never by a directory's name: :attr:`WordList.output_name` is the shipped list's
name when the words are exactly a shipped list's, else ``custom-<12 hex of`` :attr:`WordList.identity` ``>``.
A directory that happens to be called ``legacy`` but holds other words is a custom list (its
:attr:`WordList.name` is then its ``output_name`` too, so no file claims to be the shipped list).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from solver.game.errors import UnknownWordError, WordListError, short_repr as _short
from solver.game.files import read_input_file
from solver.game.spec import MAX_WORD_LENGTH, MIN_WORD_LENGTH

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
#: The word lists shipped with the project, by name.
BUILTIN_LISTS = ("legacy", "nyt-2024", "wordfreq-4", "wordfreq-6", "wordfreq-7")
#: The lists the play tools answer on by default (``tools.assist``, ``tools.analyse``,
#: ``tools.tree next``/``play``, the page): today's game, the NYT's lists (solver/data/README.md).
PLAY_LISTS = "nyt-2024"
#: The lists of the published results (SALET, 7920), which ``make solve`` and the research
#: tools keep: Wordle's original 2022 lists; for the play tools, ``--words legacy``.
LEGACY_LISTS = "legacy"
#: Wordle's word length, the default; a list's own length is :attr:`WordList.word_length`.
WORD_LENGTH = 5


def normalised_sha256(words) -> str:
    """sha256 (hex) of the normalised list: the words sorted, one per line, each ending in ``\\n``."""
    words = sorted(words)
    text = "\n".join(words) + "\n" if words else ""
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def lists_identity(answers_sha256: str, guesses_sha256: str) -> str:
    """sha256 (hex) naming a pair of lists: of ``"<answers_sha256>:<guesses_sha256>"``."""
    return hashlib.sha256(f"{answers_sha256}:{guesses_sha256}".encode("ascii")).hexdigest()


@cache
def shipped_identity(name: str) -> str | None:
    """:func:`lists_identity` of the shipped list ``name`` (one of :data:`BUILTIN_LISTS`), from
    the files in ``solver/data/``; None for another name or an unreadable file."""
    if name not in BUILTIN_LISTS:
        return None
    try:
        digests = [normalised_sha256((DATA_DIR / name / f"{kind}.txt").read_text("ascii").lower().split())
                   for kind in ("answers", "guesses")]
    except (OSError, UnicodeDecodeError):
        return None
    return lists_identity(*digests)


@dataclass(frozen=True)
class WordList:
    """An answer list and a guess list, both sorted, with every answer among the guesses.

    Attributes:
        name: a shipped list's name (:data:`BUILTIN_LISTS`) or the directory name of a user's list (never a
            shipped list's name for other words: see the module docstring).
        answers: sorted lowercase answers, a tuple of ``n_answers`` str.
        guesses: sorted lowercase allowed guesses, a tuple of ``n_guesses`` str (⊇ answers).
        source: the directory the files were read from.
    """

    name: str
    answers: tuple[str, ...]
    guesses: tuple[str, ...]
    source: Path | None = None
    _guess_rank: dict = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_guess_rank", {w: i for i, w in enumerate(self.guesses)})

    @property
    def n_answers(self) -> int:
        """Number of answers."""
        return len(self.answers)

    @property
    def files(self) -> tuple[Path, ...]:
        """The files the lists were read from (``answers.txt``, ``guesses.txt`` in
        :attr:`source`), or none for lists made in memory: a writer refuses them as outputs."""
        if self.source is None:
            return ()
        return (Path(self.source) / "answers.txt", Path(self.source) / "guesses.txt")

    @property
    def word_length(self) -> int:
        """Letters per word (every word of both lists has this length)."""
        return len(self.guesses[0])

    @property
    def n_guesses(self) -> int:
        """Number of allowed guesses."""
        return len(self.guesses)

    @cached_property
    def answers_sha256(self) -> str:
        """sha256 (hex) of the normalised answer list (:func:`normalised_sha256`), computed once."""
        return normalised_sha256(self.answers)

    @cached_property
    def guesses_sha256(self) -> str:
        """sha256 (hex) of the normalised guess list (:func:`normalised_sha256`), computed once."""
        return normalised_sha256(self.guesses)

    @cached_property
    def identity(self) -> str:
        """sha256 (hex) of both lists' sha256s (:func:`lists_identity`): equal lists, equal identity."""
        return lists_identity(self.answers_sha256, self.guesses_sha256)

    @cached_property
    def shipped_name(self) -> str | None:
        """The shipped list (one of :data:`BUILTIN_LISTS`) these lists are word for word, or None."""
        # its own name first: a shipped list loaded by name hashes no other list's files
        names = sorted(BUILTIN_LISTS, key=lambda name: name != self.name)
        return next((name for name in names if shipped_identity(name) == self.identity), None)

    @property
    def output_name(self) -> str:
        """What files written for these lists are named by: :attr:`shipped_name`, or
        ``custom-<first 12 hex of identity>`` (e.g. ``artifacts/<output_name>-normal-salet.msgpack``)."""
        return self.shipped_name or f"custom-{self.identity[:12]}"

    @cached_property
    def answer_guess_index(self) -> np.ndarray:
        """int32 array of shape (n_answers,): the guess index of each answer."""
        return np.array([self._guess_rank[a] for a in self.answers], dtype=np.int32)

    @cached_property
    def guess_answer_index(self) -> np.ndarray:
        """int32 array of shape (n_guesses,): the answer index of each guess, or -1."""
        index = np.full(self.n_guesses, -1, dtype=np.int32)
        index[self.answer_guess_index] = np.arange(self.n_answers, dtype=np.int32)
        return index

    def guess_index(self, word: str) -> int:
        """Index of ``word`` among the guesses. Raises :class:`UnknownWordError` if absent or
        not text."""
        if not isinstance(word, str):
            raise UnknownWordError(f"{_short(word)} is not a word (a guess is text, e.g. 'salet') "
                                   f"of the {self.name!r} word list")
        try:
            return self._guess_rank[word.strip().lower()]
        except KeyError:
            raise UnknownWordError(
                f"{word!r} is not an allowed guess in the {self.name!r} word list"
            ) from None

    def answer_index(self, word: str) -> int:
        """Index of ``word`` among the answers. Raises :class:`UnknownWordError` if absent or
        not text."""
        g = self.guess_index(word)
        a = int(self.guess_answer_index[g])
        if a < 0:
            raise UnknownWordError(f"{word!r} is not a possible answer in the {self.name!r} word list")
        return a


def _word_problem(word: str, length: int | None) -> str | None:
    """Why ``word`` cannot be in a list whose words have ``length`` letters (None: any length), or None."""
    if not (word.isascii() and word.isalpha()):
        return "is not a word of ASCII letters"
    if length is None and not MIN_WORD_LENGTH <= len(word) <= MAX_WORD_LENGTH:
        return f"has {len(word)} letters; words of {MIN_WORD_LENGTH} to {MAX_WORD_LENGTH} letters are supported"
    if length is not None and len(word) != length:
        return f"has {len(word)} letters, but the list's words have {length}"
    return None


#: Byte-order marks real editors write, and the encodings they announce (Notepad's "UTF-8 with
#: BOM", Excel's "Unicode text" = UTF-16 LE with a BOM).
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def _decode_word_file(path: Path, data: bytes) -> str:
    """The text of a word file: UTF-8, or the encoding its byte-order mark names (the mark
    dropped). Raises WordListError naming the file for anything else."""
    bom, encoding = next(((b, e) for b, e in _BOMS if data.startswith(b)), (b"", "utf-8"))
    data = data[len(bom):]
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise WordListError(f"{path}: not {encoding.upper()} text ({exc.reason} at byte "
                            f"{exc.start}); save it as UTF-8") from None


def _line_word(line: str) -> str:
    """The word on a line as editors and spreadsheets save it: surrounding whitespace (no-break
    spaces included), the empty cells a spreadsheet's CSV export leaves after it (``crane,``,
    ``crane;``) and one pair of enclosing double quotes dropped. Whatever else is on the line
    stays, for :func:`_word_problem` to refuse (``crane,slate`` is not a word)."""
    word = line.strip().rstrip(",;\t").strip()
    if len(word) >= 2 and word[0] == word[-1] == '"':
        word = word[1:-1].strip()
    return word


def _canonical_words(text: str, length: int | None) -> list[str] | None:
    """The words of ``text`` when it is laid out as the shipped files are (lowercase ASCII
    words of one length, each ending in ``\\n``, no duplicates), checked in one pass of a
    regular expression; None for any other text, which :func:`_read_words` then reads line by
    line (and names the line of any problem). The same words either way: a start-up saving."""
    length = length or len(text.split("\n", 1)[0])
    if not MIN_WORD_LENGTH <= length <= MAX_WORD_LENGTH:
        return None
    if re.fullmatch(f"(?:[a-z]{{{length}}}\n)+", text) is None:
        return None
    words = text.split("\n")[:-1]
    return words if len(set(words)) == len(words) else None


def _read_words(path: Path, length: int | None = None) -> list[str]:
    """Read one word per line, all of one length (``length``, or the first word's);
    raise :class:`WordListError` naming the file and line.

    Accepts the files common editors and spreadsheets write: UTF-8 with or without a BOM,
    UTF-16 with a BOM, any line ending (LF, CRLF, CR), blank lines, surrounding whitespace and
    a one-column CSV export (:func:`_line_word`). Refused before it is read: not a regular
    file, or larger than ``INPUT_LIMITS["word list"]`` (:func:`solver.game.files.read_input_file`)."""
    # a regular file within the word list's size cap, checked before it is read
    data = read_input_file(path, "word list", error=WordListError)
    text = _decode_word_file(path, data)
    words = _canonical_words(text, length)
    if words is not None:
        return words
    words = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        word = _line_word(line)
        if not word:
            continue  # a blank line (editors often leave one at the end)
        problem = _word_problem(word, length)
        if problem is not None:
            shown = line if len(line) <= 60 else line[:60] + "…"
            raise WordListError(f"{path}, line {number}: {shown!r} {problem}")
        length = len(word)
        word = word.lower()
        if word in first_line:
            raise WordListError(
                f"{path}, line {number}: duplicate word {word!r} (first on line {first_line[word]})"
            )
        first_line[word] = number
        words.append(word)
    if not words:
        raise WordListError(f"{path}: the word list is empty")
    return words


def from_words(answers, guesses, name: str = "custom") -> WordList:
    """Build a :class:`WordList` from iterables of words (validated like files).

    Raises :class:`WordListError` for a word that is not ASCII letters, words of different
    lengths, a duplicate, an empty list, or an answer missing from the guesses.
    """
    answers = [str(w).strip().lower() for w in answers]
    guesses = [str(w).strip().lower() for w in guesses]
    length = None
    for kind, words in (("answers", answers), ("guesses", guesses)):
        if not words:
            raise WordListError(f"{name}: the {kind} list is empty")
        for w in words:
            problem = _word_problem(w, length)
            if problem is not None:
                raise WordListError(f"{name}: {kind} word {w!r} {problem}")
            length = len(w)
        if len(set(words)) != len(words):
            raise WordListError(f"{name}: the {kind} list has duplicate words")
    missing = sorted(set(answers) - set(guesses))
    if missing:
        raise WordListError(f"{name}: answers missing from the guesses: {', '.join(missing[:5])}")
    return _not_posing(WordList(name, tuple(sorted(answers)), tuple(sorted(guesses)), None))


def load_word_list(name_or_path: str | Path) -> WordList:
    """Load a shipped list by name (one of :data:`BUILTIN_LISTS`) or a directory's lists.

    The directory must hold ``answers.txt`` and ``guesses.txt``, one word per line, every word
    of both files of one length L (2..10; Wordle's is 5).

    Raises:
        WordListError: unknown name, missing file, a line that is not a word of ASCII letters,
            words of different lengths, a duplicate, an empty list, or an answer missing from
            the guesses; the message names the file and line.
    """
    text = str(name_or_path)
    if not text.strip():  # Path("") is the working directory: never read it by accident
        raise WordListError(f"{text!r}: an empty name is no word list; give a shipped list's name "
                            f"({', '.join(BUILTIN_LISTS)}) or a directory holding answers.txt and "
                            "guesses.txt")
    if text in BUILTIN_LISTS:
        directory, name = DATA_DIR / text, text
    else:
        directory = Path(name_or_path)
        if "\0" in text or not directory.is_dir():
            raise WordListError(
                f"{text!r} is neither a shipped word list ({', '.join(BUILTIN_LISTS)}) "
                "nor a directory holding answers.txt and guesses.txt"
            )
        name = directory.resolve().name
    answers_path, guesses_path = directory / "answers.txt", directory / "guesses.txt"
    answers = _read_words(answers_path)
    guesses = _read_words(guesses_path, len(answers[0]))
    guess_set = set(guesses)
    for number, word in enumerate(answers, start=1):
        if word not in guess_set:
            raise WordListError(
                f"{answers_path}, line {number}: answer {word!r} is missing from {guesses_path}"
            )
    return _not_posing(WordList(name, tuple(sorted(answers)), tuple(sorted(guesses)), directory))


def _not_posing(word_list: WordList) -> WordList:
    """``word_list``, renamed to its :attr:`~WordList.output_name` when it bears a shipped
    list's name without holding that list's words (a directory called ``legacy``)."""
    if word_list.name in BUILTIN_LISTS and word_list.shipped_name != word_list.name:
        return dataclasses.replace(word_list, name=word_list.output_name)
    return word_list
