"""The search service's one door to the search kernel (:mod:`solver.exact._search_kernel`):
the only module outside the kernels that imports it (import-linter contract
``search-kernel-door`` in pyproject.toml). The solver (:mod:`solver.exact.bellman`), the
service (:mod:`solver.exact.service`), the anytime search (:mod:`solver.exact.anytime`) and
the proofs (:mod:`solver.exact.proofs`) call these names:

- :func:`solve_state` — a state's exact value and first optimal guess (:func:`search_state`
  the same on a search the caller keeps);
- :func:`solve_subtree` — a state's exact value and its optimal subtree (tree arrays);
  :func:`search_subtree` the same on memory kept across states (:func:`new_search`,
  :func:`reset_search`);
- :func:`evaluate_guess` — a guess's Q-value against a cut-off (exact below it, else a
  proven lower bound), over a search kept by :func:`new_search` and readied for the state by
  :func:`prepare_search`;
- :func:`reset_shared_keys`, :func:`share_search`, :func:`shared_winner`, :func:`shared_best`,
  :func:`shared_width` — one root searched by several processes together
  (docs/algorithms.md §4.5); :func:`family_wanted` — whether such a root's search builds the
  letter family, which its shares then build together;
- :func:`guess_bounds` — every guess's lower bound on a state, and its order term
  (:func:`guess_bounds_of` — the same for a list of guesses; :func:`weighted_guess_bounds`,
  :func:`weighted_guess_bounds_of` — under priors).

Shapes, dtypes and errors: each kernel's docstring. Importing this module loads (or
compiles) the kernels, so callers that must stay light import it inside the function that
searches, as they did the kernel.
"""

from solver.exact._search_kernel import (NO_SHARED_KEY, evaluate_guess, family_wanted,
                                         guess_bounds, guess_bounds_of, new_search, prepare_search,
                                         reset_search, reset_shared_keys, search_state,
                                         search_subtree, share_search, shared_best, shared_width,
                                         shared_winner, solve_state, solve_subtree,
                                         weighted_guess_bounds, weighted_guess_bounds_of)

__all__ = ["NO_SHARED_KEY", "evaluate_guess", "family_wanted", "guess_bounds", "guess_bounds_of",
           "new_search", "prepare_search", "reset_search", "reset_shared_keys", "search_state",
           "search_subtree", "share_search", "shared_best", "shared_width", "shared_winner",
           "solve_state", "solve_subtree", "weighted_guess_bounds", "weighted_guess_bounds_of"]
