"""The outcome of an opener proof (:class:`ProofResult`, one :class:`OpenerValue` per opener)
and its openers table (CSV, deterministic: committed as an artifact)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from solver.exact.bellman import INF
from solver.game.files import write_atomic
from solver.game.spec import Game, Objective
from solver.game.wording import counted
from solver.game.wordlists import WordList

#: Columns of the openers CSV (deterministic: committed as an artifact).
CSV_COLUMNS = ("opener", "status", "value")
#: Columns of the timings CSV beside it (not deterministic, so never committed).
TIMING_COLUMNS = ("opener", "status", "value", "seconds")


class OpenerStatus(StrEnum):
    """What an opener's value in a proof is (the openers table's ``status`` column)."""

    #: its optimal total (or least worst case)
    EXACT = "exact"
    #: a proven lower bound that rules it out
    LOWER_BOUND = "lower_bound"


@dataclass(frozen=True)
class OpenerValue:
    """One opener's outcome.

    Attributes:
        opener: the guess.
        status: an :class:`OpenerStatus` (a name is read as one): ``EXACT`` (``value`` is its
            optimal total, or least worst case) or ``LOWER_BOUND`` (``value`` is a proven
            lower bound that rules it out).
        value: an int (total guesses over all answers, or the most guesses for the
            worst-case objective); ``INF`` (2**30) for an opener that cannot win every game.
        seconds: wall seconds its search took (0 when it was never searched).
    """

    opener: str
    status: OpenerStatus
    value: int
    seconds: float

    def __post_init__(self):
        object.__setattr__(self, "status", OpenerStatus(self.status))


@dataclass
class ProofResult:
    """The outcome of :func:`prove`.

    Attributes:
        word_list, game: what was solved.
        rank: K; the K best openers' values are exact and every other opener's bound is
            ≥ the K-th value.
        openers: one :class:`OpenerValue` per opener considered, best first (value, then
            exact before bounds, then alphabetical; for the worst case, in the proof's order,
            :mod:`solver.exact.proofs.worst`).
        searched: how many openers were searched (the rest were ruled out by their bound),
            including those whose search came from the journal.
        reused: how many of those searches came from the journal of an interrupted run (for
            the worst case, :mod:`solver.exact.proofs.worst`: the decisions read from it).
        seconds: wall seconds of the run.
        phase_seconds: wall seconds of each phase (``seed``, ``bound``, ``search``).
        top: None for a proof over every opener considered; N when only the N openers with
            the best depth-one bounds were considered (``openers`` lists only those): the
            best of them, not proven over all openers.
    """

    word_list: WordList
    game: Game
    rank: int
    openers: list[OpenerValue]
    searched: int
    reused: int
    seconds: float
    phase_seconds: dict = field(default_factory=dict)
    top: int | None = None

    @property
    def best(self) -> OpenerValue:
        """The best opener (exact)."""
        return self.openers[0]

    @property
    def ranked(self) -> list[OpenerValue]:
        """The exact values, best first (at least ``rank`` of them)."""
        return [o for o in self.openers if o.status is OpenerStatus.EXACT]


def openers_csv(result: ProofResult, seconds: bool = False) -> str:
    """The openers table as CSV text, best first: ``opener,status,value`` (the same for every
    run of the same proof), or with ``seconds`` also each opener's search time."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(TIMING_COLUMNS if seconds else CSV_COLUMNS)
    for row in result.openers:
        value = "inf" if row.value >= INF else row.value
        fields = (row.opener, row.status, value)
        writer.writerow(fields + (f"{row.seconds:.3f}",) if seconds else fields)
    return buffer.getvalue()


def timings_path(path: str | Path) -> Path:
    """The timings CSV beside an openers CSV: ``<stem>.seconds.csv`` (git-ignored under
    artifacts/, since timings differ from run to run)."""
    path = Path(path)
    return path.with_name(path.stem + ".seconds.csv")


def save_openers_csv(result: ProofResult, path: str | Path) -> tuple[Path, Path]:
    """Write :func:`openers_csv` and its timings beside it (:func:`timings_path`), each
    atomically; returns both paths."""
    written = write_atomic(path, openers_csv(result).encode())
    return written, write_atomic(timings_path(path), openers_csv(result, seconds=True).encode())


def default_csv_path(game: Game, directory: str | Path = "artifacts",
                     top: int | None = None) -> Path:
    """``<directory>/<lists>-<mode>[-worst][-top<N>]-openers.csv`` of the
    :class:`~solver.game.spec.Game` (its guess limit, feedback rule and priors are not in the
    name), named by the lists' identity
    (:attr:`solver.game.wordlists.WordList.output_name`: ``legacy``, ``nyt-2024`` or
    ``custom-<hash>``), so a custom list never writes over a shipped list's file; ``-top<N>``
    marks a search of the N openers with the best bounds (not a proof over all openers)."""
    suffix = "" if game.objective is Objective.TOTAL else f"-{game.objective.value}"
    limit = "" if top is None else f"-top{top}"
    return Path(directory) / f"{game.word_list.output_name}-{game.mode.value}{suffix}{limit}-openers.csv"


@dataclass(frozen=True)
class Standing:
    """What a proof's rows establish about its K best openers: the table and the "proven"
    sentence of ``tools.prove`` are built from this, so that they say only what the rows (the
    CSV) hold, ties at the K-th place included.

    Attributes:
        shown: ``(rank, row)`` pairs, best first: every ``exact`` row whose value is at most
            the K-th best exact value (so every opener tied with the K-th is shown, and the
            table may be longer than K); ``rank`` is one plus the number of rows with a
            smaller value (tied rows share it).
        kth: the K-th best exact value (``INF`` when fewer than K rows are exact).
        others: the rows not shown, in the result's order (``exact`` rows worse than the
            K-th and ``lower_bound`` rows).
        others_least: the least value of ``others`` (exact or a proven lower bound): every
            opener not shown has at least this value; None when every opener is shown.
        undecided_ties: how many of ``others`` are ``lower_bound`` rows whose bound equals
            ``kth`` (not shown to be worse than the K-th: their exact value may tie with it;
            0 in a total-objective proof, whose cut-off is the K-th value plus one).
    """

    shown: list[tuple[int, OpenerValue]]
    kth: int
    others: list[OpenerValue]
    others_least: int | None
    undecided_ties: int


def standing(result: ProofResult) -> Standing:
    """The :class:`Standing` of ``result``'s rows (for ``result.rank`` = K)."""
    exact = sorted(row.value for row in result.openers if row.status is OpenerStatus.EXACT)
    kth = exact[result.rank - 1] if len(exact) >= result.rank else INF
    chosen = [row for row in result.openers if row.status is OpenerStatus.EXACT and row.value <= kth]
    chosen.sort(key=lambda row: row.value)  # stable: the result's order among ties
    shown = [(1 + sum(1 for other in chosen if other.value < row.value), row) for row in chosen]
    picked = {id(row) for row in chosen}
    others = [row for row in result.openers if id(row) not in picked]
    least = min((row.value for row in others), default=None)
    undecided = sum(1 for row in others if row.status is not OpenerStatus.EXACT and row.value <= kth)
    return Standing(shown, kth, others, least, undecided)


def least_worst_case_counts(result: ProofResult) -> dict[int, int] | None:
    """For a worst-case proof of every opener (``prove(..., all_openers=True)``: every row
    ``exact``): how many openers have each least worst case, ``{value: openers}`` in
    increasing value (``INF``: cannot win every game within the guess limit); None when some
    row is only a bound."""
    if result.game.objective is not Objective.WORST or \
            any(row.status is not OpenerStatus.EXACT for row in result.openers):
        return None
    counts: dict[int, int] = {}
    for row in result.openers:
        counts[row.value] = counts.get(row.value, 0) + 1
    return dict(sorted(counts.items()))


def proof_sentences(result: ProofResult) -> list[str]:
    """The sentences ``tools.prove`` prints under its table (before the summary of the run),
    each derived from the rows of ``result`` (:func:`standing`): what is proven about the
    openers the table shows and every other one. A ``top`` search says it proves nothing
    about the openers outside the N it considered."""
    stand = standing(result)
    n = len(result.openers)
    scope = "" if len(result.openers) == result.word_list.n_guesses else f" of the {n} considered"
    if result.game.objective is Objective.WORST:
        least = min(row.value for row in result.openers)  # every row: exact, or a bound
        winners = [row for row in result.openers if row.status is OpenerStatus.EXACT and row.value == least]
        text = "proven: "
        if least > 1:
            text += (f"no opener{scope} wins every game within {least - 1} "
                     f"guess{'es' if least - 1 != 1 else ''}; ")
        text += f"{winners[0].opener} wins every game within {least}"
        if len(winners) > 1:
            others = len(winners) - 1
            text += (", as does the other opener ranked 1" if others == 1 else
                     f", as do the {others} other openers ranked 1")
        lines = [text]
        counts = least_worst_case_counts(result)
        if counts is not None:  # every opener's value is exact: say how many have each
            parts = []
            for value, openers in counts.items():
                who = f"{counted(openers, 'opener')} {'wins' if openers == 1 else 'win'}"
                if value >= INF:
                    who = f"{counted(openers, 'opener')} {'does' if openers == 1 else 'do'} not"
                    parts.append(f"{who} win every game within "
                                 f"{counted(result.game.guess_limit, 'guess')}")
                else:
                    parts.append(f"{who} every game within {value}"
                                 + (f" but not {value - 1}" if value > 1 else ""))
            lines.append(f"proven for every opener{scope}: " + "; ".join(parts))
            return lines
        if stand.others_least is not None:
            lines.append(f"proven: every other opener{scope} needs at least {stand.others_least} "
                         "guesses in some game" + _ties(stand))
        return lines
    if result.top is not None:
        text = f"best of the top {n} openers by depth-one bound, not proven over all openers"
        if stand.others_least is not None:
            text += f": each other of these {n} is at least {stand.others_least}" + _ties(stand)
        return [text]
    if stand.others_least is None:
        return [f"proven: every opener{scope} is solved exactly (the table lists them all)"]
    who = "every other opener's value" if not scope else \
        f"of the {n} openers considered, every other one's value"
    return [f"proven: {who} is at least {stand.others_least}" + _ties(stand)]


def _ties(stand: Standing) -> str:
    if not stand.undecided_ties:
        return ""
    return (f" ({stand.undecided_ties} of them, not decided further, may tie with the "
            f"K-th value {stand.kth})")
