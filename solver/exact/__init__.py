"""The exact solver: the Bellman recursion and its search (docs/algorithms.md §2–§7), the
decision-tree solves and their artifacts, the opening book, the search service that answers from
any position (§15), the opener proofs (:mod:`solver.exact.proofs`, §9) and Absurdle (§13)."""
