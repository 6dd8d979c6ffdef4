"""How good is an opener: its exact value, rank and least worst case, from the opener tables
(:mod:`policy_tree.opener_table`), with a search for an opener the table lacks.

:func:`opener_report` is what ``wordle opener``, the page and the analysis read. The lookup
imports no kernel (a cold process answers in milliseconds); only an opener outside the
shipped table's decided rows is searched (:func:`solver.exact.proofs.table.recompute`, one
process), and its report says so (``source``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path

from solver.game.values import INF
from solver.game.spec import Mode


class ValueSource(StrEnum):
    """Where an opener's value comes from."""

    #: the shipped opener table (exact, or proven unwinnable)
    TABLE = "table"
    #: searched now, because the table lacks the opener (exact)
    SEARCH = "search"
    #: not known: the table lacks it and no search was asked for
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class OpenerReport:
    """One opener's standing.

    Attributes:
        words, mode: the lists' name and the mode.
        opener: the word.
        value: the least total guesses over the ``answers`` answers (``INF``: no policy that
            plays it wins every game within the guess limit; None: unknown).
        source: a :class:`ValueSource`.
        answers: the number of answers.
        rank: 1 + the openers of the table with a lower value (None unless known); ``tied``:
            other openers with the same value; ``decided``: the table's openers decided,
            ``openers``: all of them (the rank is among all openers only when equal).
        best, best_value: the table's best opener and its value (None if none decided).
        least_worst: the least worst case in guesses (None: not decided);
            ``least_worst_exact``: False when it is only a proven lower bound.
    """

    words: str
    mode: str
    opener: str
    value: int | None
    source: ValueSource
    answers: int
    rank: int | None = None
    tied: int = 0
    decided: int = 0
    openers: int = 0
    best: str | None = None
    best_value: int | None = None
    least_worst: int | None = None
    least_worst_exact: bool = False

    @property
    def average(self) -> float | None:
        """Expected guesses per game under optimal play after it (None if unknown or ∞)."""
        return None if self.value is None or self.value >= INF else self.value / self.answers

    @property
    def gap(self) -> int | None:
        """Guesses over all answers above the best opener (None if either is unknown)."""
        if self.value is None or self.value >= INF or self.best_value is None:
            return None
        return self.value - self.best_value

    def as_dict(self) -> dict:
        """Plain JSON-ready fields (``value`` ``None`` for unknown, ``"inf"`` for unwinnable),
        with ``average`` and ``gap``."""
        fields = asdict(self)
        fields["source"] = self.source.value
        if self.value is not None and self.value >= INF:
            fields["value"] = "inf"
        fields["average"] = self.average
        fields["gap"] = self.gap
        return fields

    def sentences(self) -> str:
        """The report in a few plain lines."""
        head = f"{self.opener} ({self.words}, {self.mode})"
        if self.value is None:
            where = ("there is no opener table for these lists and mode" if not self.decided else
                     f"not in the opener table yet ({self.decided:,} of {self.openers:,} openers "
                     "decided)")
            return f"{head}: {where}; run without --no-search to search it"
        if self.value >= INF:
            lines = [f"{head}: no policy that opens with it wins every game within 6 guesses"]
        else:
            lines = [f"{head}: {self.value} guesses over {self.answers} answers, "
                     f"{self.average:.5f} per game with optimal play"
                     + (" (searched now: the table lacks it)" if self.source is ValueSource.SEARCH
                        else "")]
        if self.rank is not None:
            among = (f"of {self.openers:,} openers" if self.decided == self.openers
                     else f"among the {self.decided:,} openers of {self.openers:,} the table has "
                          "decided so far")
            tie = f", tied with {self.tied} other{'s' if self.tied != 1 else ''}" if self.tied else ""
            lines.append(f"rank {self.rank} {among}{tie}")
        if self.best is not None and self.gap is not None:
            if self.gap == 0:
                lines.append("the best opener" + (" (with the others tied)" if self.tied else ""))
            else:
                lines.append(f"best: {self.best}, {self.best_value} ({self.best_value / self.answers:.5f}); "
                             f"gap +{self.gap} guesses, +{self.gap / self.answers:.5f} per game")
        if self.least_worst is not None:
            if self.least_worst >= INF:
                lines.append("least worst case: more than 6 guesses")
            elif self.least_worst_exact:
                lines.append(f"least worst case: {self.least_worst} guesses (some policy opening "
                             f"with it wins every game within {self.least_worst})")
            else:
                lines.append(f"least worst case: at least {self.least_worst} guesses")
        return "\n".join(lines)


def opener_report(word_list, mode: str, word: str, *, search: bool = True,
                  directory=None, table=False) -> OpenerReport:
    """The :class:`OpenerReport` of ``word`` on ``word_list`` in ``mode`` (normal or hard):
    from the opener table under ``directory`` (default: the shipped ``tables/``), searched
    when the table lacks it and ``search``. ``table``: the
    :class:`~policy_tree.opener_table.OpenerTable` to read, already open (None: there is
    none), instead of opening it.

    Raises:
        UnknownWordError: ``word`` is not an allowed guess.
        InputError: a mode the tables do not cover.
        ArtifactError: the table's files do not check (naming the file)."""
    from policy_tree.opener_table import OpenerTable, TableStatus
    from solver.game.errors import InputError

    if mode not in (Mode.NORMAL.value, Mode.HARD.value):
        raise InputError(f"opener values are for normal and hard mode, not {mode!r}")
    opener = word_list.guesses[word_list.guess_index(word)]
    if table is False:
        table = OpenerTable.open(word_list, mode, directory=directory, missing_ok=True)
    fields = {"words": word_list.name, "mode": mode, "opener": opener,
              "answers": word_list.n_answers, "openers": word_list.n_guesses}
    fields.update(_least_worst(word_list, mode, opener))
    if table is not None:
        standing = table.standing(opener)
        fields.update(decided=standing.decided,
                      best=None if standing.best is None else standing.best.opener,
                      best_value=None if standing.best is None else standing.best.value)
        if standing.row.status is not TableStatus.PENDING:
            return OpenerReport(value=standing.row.value, source=ValueSource.TABLE,
                                rank=standing.rank, tied=standing.tied, **fields)
    if not search:
        return OpenerReport(value=None, source=ValueSource.UNKNOWN, **fields)
    from solver.exact.proofs.table import recompute
    from solver.game.spec import Game

    entry, = recompute(Game(word_list, mode=mode), [opener], jobs=1, memory_gb=1.0)
    rank = tied = None
    if table is not None and entry.value < INF:
        values = [row.value for row in table.rows if row.status is TableStatus.EXACT
                  and row.opener != opener]
        rank = 1 + sum(1 for v in values if v < entry.value)
        tied = sum(1 for v in values if v == entry.value)
    return OpenerReport(value=entry.value, source=ValueSource.SEARCH, rank=rank, tied=tied or 0,
                        **fields)


def _least_worst(word_list, mode: str, opener: str) -> dict:
    """The opener's least worst case from the worst-case proof's CSV, where it has one."""
    from solver.exact.proofs.results import OpenerStatus
    from solver.game.files import read_input_file, shipped_artifacts_dir

    path = Path(shipped_artifacts_dir()) / f"{word_list.output_name}-{mode}-worst-openers.csv"
    if not path.exists():
        return {}
    text = read_input_file(path, "openers table").decode("utf-8")
    for row in csv.DictReader(io.StringIO(text)):
        if row["opener"] == opener:
            value = INF if row["value"] == "inf" else int(row["value"])
            exact = OpenerStatus(row["status"]) is OpenerStatus.EXACT
            return {"least_worst": value, "least_worst_exact": exact}
    return {}
