"""The solver's version: part of every journal fingerprint and artifact the solver writes, so
a journal or cached tree of an older solver is refused rather than reused. Bump it when a
change alters any value, tree or proof the solver computes."""

SOLVER_VERSION = "0.2.0"
