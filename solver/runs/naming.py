"""The names of the files long runs write: journals in the user cache, decision-tree artifacts.

A name is a function of the run's inputs only, so a rerun finds its journal and a shipped
artifact is never overwritten by another list's tree. Plain Python; no solver import (the
callers pass the inputs).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from solver.game.errors import OutputError
from solver.game.files import cache_dir
from solver.game.spec import GUESS_LIMIT, MODES, FeedbackRule, Objective


def journal_path(kind: str, *inputs, directory: str | Path | None = None) -> Path:
    """Where a long run journals its finished work (:mod:`solver.runs.journal`), the one name
    of every journal of the project.

    - In the user cache (solves, proofs): ``cache_dir()/journals/<kind>-<key>.journal``,
      ``<key>`` the first 20 hex digits of the sha256 of the ``inputs`` (each turned to
      ``str``) joined by ``:`` — for a game, :func:`game_inputs` first. The journal's
      fingerprint (:func:`solver.runs.journal.run_fingerprint`) still decides whether a file
      found there is reused: the name only keeps runs with other inputs apart.
    - Beside a study's outputs (``directory`` given, no ``inputs``):
      ``<directory>/<kind>.journal``.
    """
    if directory is not None:
        if inputs:
            raise ValueError("a journal in a study's directory is named by its kind alone")
        return Path(directory) / f"{kind}.journal"
    key = hashlib.sha256(":".join(str(part) for part in inputs).encode()).hexdigest()[:20]
    return cache_dir() / "journals" / f"{kind}-{key}.journal"


def game_inputs(game) -> tuple:
    """What names a :class:`~solver.game.spec.Game` in a journal's key: the lists' sha256s,
    the guess limit, the objective and the mode, then the priors' sha256 (with priors) and
    the feedback rule (other than the standard one)."""
    word_list = game.word_list
    inputs = (word_list.answers_sha256, word_list.guesses_sha256, game.guess_limit,
              game.objective.value, game.mode.value)
    if game.priors is not None:
        inputs += (game.priors.sha256,)
    if game.feedback is not FeedbackRule.STANDARD:
        inputs += (f"feedback={game.feedback.value}",)
    return inputs


def artifact_path(game, opener: str, *, directory: str | Path = "artifacts") -> Path:
    """Where a solve's artifact goes by default: ``<directory>/<name>-<mode>-<opener>.msgpack``
    (mode ``normal``, ``hard`` or ``ultra``),
    ``<name>-<mode>-worst-<opener>.msgpack`` for the worst-case objective (the objective's
    name with ``-`` for ``,`` for a lexicographic one: ``legacy-normal-total-tail-salet``), with
    ``-limit<N>`` before ``.msgpack`` for a guess limit other than 6, ``yellow-`` before the
    objective for Yellow Wordle (``legacy-normal-yellow-salet-limit8.msgpack``). ``<name>`` is the lists'
    :attr:`~solver.game.wordlists.WordList.output_name`: ``legacy``/``nyt-2024`` for the
    shipped lists, ``custom-<12 hex of their identity>`` for any other, never a directory's name.
    ``game``: the :class:`~solver.game.spec.Game`."""
    priors = game.priors
    kind = "" if game.feedback is FeedbackRule.STANDARD else f"{game.feedback.value}-"
    kind += "" if game.objective is Objective.TOTAL else f"{game.objective.value.replace(',', '-')}-"
    if priors is not None:  # named by the weights: "wordfreq-", or "priors-<12 hex of sha256>-"
        kind += "wordfreq-" if priors.source == "wordfreq" else f"priors-{priors.sha256[:12]}-"
    limit = "" if game.guess_limit == GUESS_LIMIT else f"-limit{game.guess_limit}"
    opener = opener.strip().lower()
    return Path(directory) / f"{game.word_list.output_name}-{game.mode.value}-{kind}{opener}{limit}.msgpack"


def check_artifact_name(word_list, path: str | Path) -> None:
    """Refuse (:class:`~solver.game.errors.OutputError`) an artifact file name that claims a
    shipped list (``legacy-normal-…``, ``nyt-2024-normal-…``) for lists that are not that
    list, so a custom list never writes over a shipped artifact."""
    from solver.game.wordlists import BUILTIN_LISTS

    name = Path(path).name
    for shipped in BUILTIN_LISTS:
        if (name.startswith(tuple(f"{shipped}-{mode}-" for mode in MODES))
                and word_list.shipped_name != shipped):
            raise OutputError(
                f"{path} is named for the shipped {shipped!r} list, but {word_list.name!r} holds "
                f"other words; write it elsewhere, e.g. "
                f"{Path(path).with_name(name.replace(shipped, word_list.output_name, 1))}")
