"""The studies: the reports written from scored runs (gap, classic agents, UCT, vocabulary
variants, Noisy Wordle and Absurdle agents), their journals, tables and plots."""
