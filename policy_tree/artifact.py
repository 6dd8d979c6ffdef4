"""Writing decision-tree artifacts (format in :mod:`policy_tree.schema`)."""

from __future__ import annotations

import hashlib

import msgpack
import numpy as np

from policy_tree.schema import (CHECKSUMS_KEY, FEEDBACK_KEY, FORMAT, FORMAT_VERSION,
                                OPENER_PROOF_FIELDS, OPENER_PROOF_KEY, PRIORS_FIELDS, PRIORS_KEY,
                                tree_arrays)
from policy_tree.tree import DecisionTree
from solver.game.spec import FeedbackRule


def tree_to_bins(tree: DecisionTree) -> dict[str, bytes]:
    """The tree's arrays as little-endian bytes, in schema order."""
    arrays = tree.arrays()
    return {name: np.ascontiguousarray(arrays[name], dtype=dtype).tobytes()
            for name, dtype in tree_arrays(tree.word_length)}


def tree_sha256(bins: dict[str, bytes]) -> str:
    """The hex sha256 of the four tree arrays' bytes (``bins`` from :func:`tree_to_bins`)
    concatenated in the order node_guess, edge_start, edge_feedback, edge_child: the artifact's
    ``tree_sha256``."""
    digest = hashlib.sha256()
    for name in ("node_guess", "edge_start", "edge_feedback", "edge_child"):
        digest.update(bins[name])
    return digest.hexdigest()


def encode_artifact(*, word_list, tree: DecisionTree, mode: str, objective: str, guess_limit: int,
                    opener: str, total: int, max_guesses: int, histogram, solver_version: str,
                    opener_proof: dict | None = None, priors: dict | None = None,
                    feedback: str = "standard") -> bytes:
    """msgpack bytes of an artifact; the same arguments give the same bytes.

    The artifact holds no timing or other run-dependent field, so two solves of the same
    input write the same file byte for byte (write it with
    :func:`solver.game.files.write_atomic`). ``opener_proof``: the optional proof record
    (:data:`policy_tree.schema.OPENER_PROOF_FIELDS`), stored only when given; ``priors``
    likewise (:data:`policy_tree.schema.PRIORS_FIELDS`); ``feedback``: the feedback rule,
    stored only when it is not ``"standard"`` (:data:`policy_tree.schema.FEEDBACK_KEY`), so a
    standard tree's bytes are those of earlier versions."""
    bins = tree_to_bins(tree)
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "word_list": word_list.name,
        "word_length": word_list.word_length,
        "answers_sha256": word_list.answers_sha256,
        "guesses_sha256": word_list.guesses_sha256,
        "answers": "".join(word_list.answers).encode("ascii"),
        "guesses": "".join(word_list.guesses).encode("ascii"),
        "mode": mode,
        "objective": objective,
        "guess_limit": int(guess_limit),
        "opener": opener,
        "total": int(total),
        "average": float(total) / word_list.n_answers,
        "max_guesses": int(max_guesses),
        "histogram": [int(h) for h in histogram],
        "solver_version": solver_version,
        "tree": bins,
        "tree_sha256": tree_sha256(bins),
    }
    if opener_proof is not None:
        document[OPENER_PROOF_KEY] = {key: opener_proof[key] for key in OPENER_PROOF_FIELDS}
    if feedback != FeedbackRule.STANDARD:
        document[FEEDBACK_KEY] = feedback
    if priors is not None:
        document[PRIORS_KEY] = {key: priors[key] for key in PRIORS_FIELDS}
    return seal(document)


def value_sha256(value) -> str:
    """sha256 (hex) of ``value``'s msgpack bytes, as :func:`seal` writes them."""
    return hashlib.sha256(msgpack.packb(value, use_bin_type=True)).hexdigest()


def seal(document: dict) -> bytes:
    """msgpack bytes of ``document`` (a header map, in key order) with the ``checksums`` record
    (:data:`policy_tree.schema.CHECKSUMS_KEY`) appended as its last key, replacing any there.

    msgpack packs a map's entries one after another in insertion order, so each value's bytes in
    the file are exactly ``msgpack.packb(value)``, which is what the record hashes."""
    body = {key: value for key, value in document.items() if key != CHECKSUMS_KEY}
    body[CHECKSUMS_KEY] = {key: value_sha256(value) for key, value in body.items()}
    return msgpack.packb(body, use_bin_type=True)

