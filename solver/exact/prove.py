"""The opener proof's public names, kept where they have always been imported from; the code
is in :mod:`solver.exact.proofs` (:mod:`~solver.exact.proofs.total` for :func:`prove`,
:mod:`~solver.exact.proofs.results` for the result types and the openers table)."""

from solver.exact.proofs.results import (CSV_COLUMNS, TIMING_COLUMNS, OpenerStatus, OpenerValue, ProofResult,
                                         Standing, default_csv_path, least_worst_case_counts, openers_csv,
                                         proof_sentences, save_openers_csv, standing, timings_path)
from solver.exact.proofs.runner import BACKENDS
from solver.exact.proofs.total import (discard_journal, proof_journal, prove, save_proven_tree)

__all__ = ["BACKENDS", "CSV_COLUMNS", "TIMING_COLUMNS", "OpenerStatus", "OpenerValue", "ProofResult", "Standing",
           "default_csv_path", "discard_journal", "least_worst_case_counts", "openers_csv", "proof_journal",
           "proof_sentences", "prove", "save_openers_csv", "save_proven_tree", "standing", "timings_path"]
