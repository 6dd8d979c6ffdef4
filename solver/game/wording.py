"""How the tools write a count with its noun: ``counted(1, "guess")`` is ``"1 guess"``,
``counted(3, "guess")`` ``"3 guesses"``. Plain Python, no imports: every layer may use it."""

from __future__ import annotations

#: Plurals that are not the noun with an ``s``.
_PLURALS = {"guess": "guesses", "leaf": "leaves", "remains": "remain"}


def plural(n: int, noun: str) -> str:
    """``noun`` as it goes with the count ``n``: as given for 1 (and -1), plural otherwise
    (``guess`` → ``guesses``, ``answer`` → ``answers``)."""
    return noun if abs(n) == 1 else _PLURALS.get(noun, noun + "s")


def counted(n: int, noun: str) -> str:
    """``"1 guess"``, ``"2 guesses"``, ``"0 answers"``: the count and the noun that goes with it."""
    return f"{n} {plural(n, noun)}"
