"""Saving a solve's decision tree: the artifact's bytes (schema :mod:`policy_tree.schema`),
its default name (:func:`solver.runs.naming.artifact_path`) and the atomic write that keeps
the opener proof an earlier artifact recorded."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from solver.exact.results import SolveResult
from solver.exact.versions import SOLVER_VERSION
from solver.game.files import write_atomic
from solver.runs.naming import artifact_path

def default_artifact_path(result: SolveResult, directory: str | Path = "artifacts") -> Path:
    """:func:`artifact_path` of a solve's result."""
    return artifact_path(result.game, result.opener, directory=directory)


def artifact_bytes(result: SolveResult) -> bytes:
    """``result`` as msgpack artifact bytes (schema: :mod:`policy_tree.schema`)."""
    from policy_tree.artifact import encode_artifact

    game = result.game
    priors = game.priors
    return encode_artifact(
        word_list=game.word_list, tree=result.tree, mode=game.mode.value,
        objective=game.objective.value, guess_limit=game.guess_limit, opener=result.opener,
        total=result.total, max_guesses=result.max_guesses, histogram=result.histogram,
        solver_version=SOLVER_VERSION, opener_proof=result.opener_proof,
        feedback=game.feedback.value,
        priors=None if priors is None else {
            "source": priors.source, "sha256": priors.sha256,
            "weights": np.ascontiguousarray(priors.weights, dtype="<i8").tobytes(),
            "weighted_total": result.weighted_total},
    )


def save_artifact(result: SolveResult, path: str | Path) -> Path:
    """Write ``result`` as a msgpack artifact with :func:`solver.game.files.write_atomic`
    (temporary file, fsync, rename); returns the path. A journal the solve kept
    (``keep_journal=True``) is discarded once the file is written, never before: when the
    write raises (OSError), the journal stays and a rerun reads every root class back."""
    path = write_atomic(path, artifact_bytes(result))
    if result.journal is not None:
        result.journal.discard()
        result.journal = None
    return path


def _kept_proof(path: Path, result: SolveResult) -> dict | None:
    """The opener proof recorded in the artifact already at ``path``, if that artifact is for
    the same lists, opener, objective and guess limit: re-solving a proven opener's tree does
    not lose the record that the opener is optimal (the proof is about the opener)."""
    if not path.exists():
        return None
    import policy_tree
    from policy_tree.errors import ArtifactError

    try:
        old = policy_tree.load(path)
    except (ArtifactError, OSError):
        return None
    same = (old.header["answers_sha256"] == result.word_list.answers_sha256
            and old.header["guesses_sha256"] == result.word_list.guesses_sha256
            and old.opener == result.opener and old.objective == result.game.objective
            and old.guess_limit == result.game.guess_limit and old.mode == result.game.mode
            and result.game.priors is None and old.priors is None
            and old.feedback == result.game.feedback)
    return old.opener_proof if same else None
