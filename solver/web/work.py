"""What the web server's worker processes do (solver.web.lanes runs these functions in them).

Each worker process loads the offered word lists and a search service per list and mode once
(:func:`start`), then answers tasks: a *lookup* (:func:`lookup`: answers only what the
decision trees answer within :data:`LOOKUP_SECONDS`, else says the request needs a search,
and which opener has no tree yet), a *search* (:func:`search`: ``advise`` or ``analyse_game``
within the request's budget: the state asked is searched, never an opener's whole tree first)
or a background *build* (:func:`build`: an opener's whole tree into the user cache, so that
later questions on it, a game's analysis above all, are lookups).

The requests reaching these functions are already checked for shape by solver.web.app; the
words, feedback and hard-mode rules are checked here by the service, whose InputError
(pickled back to the server) becomes a 400.
"""

from __future__ import annotations

import os

from solver.exact.advice import EXACT, SOLVED
from solver.game.spec import Mode

#: The most seconds a lookup may spend ranking the alternatives (an on-tree lookup takes a
#: few milliseconds; the alternatives of a large state can take seconds to prove). A request's
#: first lookup spends none (the next guess at once); the alternatives are then ranked this
#: long in the background, on the lookup lane, before a search is asked.
LOOKUP_SECONDS = 0.1

_games: dict = {}
_warmed: list = []  # the role, once this process's kernels are loaded


class OfferedList:
    """One offered word list in a worker: its search service per mode (the game itself is a
    :class:`solver.game.spec.Game` per mode).

    The services read the parts of the feedback table each question needs
    (:class:`solver.game.feedback.TableParts`): a lookup the rows of the history's guesses, a
    search the state's columns, from the cached table when there is one (memory-mapped, its
    pages shared by the workers), else computed. No worker builds the whole table at its
    start: with an empty cache that was a second or more of every worker's start, all at once
    on the same cores; a build (an opener's whole tree) builds and caches it, and the services
    read it from then on."""

    def __init__(self, name: str):
        from solver.exact.service import SearchService
        from solver.game.spec import Game
        from solver.game.wordlists import load_word_list

        self.word_list = load_word_list(name)
        self.services = {mode: SearchService(Game(self.word_list, mode=mode)) for mode in Mode}


def start(lists, role: str) -> None:
    """Worker initialiser: armed to die with the process that forked it (the lanes'
    forkserver), load ``lists`` (names), lower the priority of the search role
    (``os.nice`` 5) and the build role (10), so that lookups, then searches, get the cores
    first. A lookup worker also loads its kernels (:func:`warm`) before its first task: one
    that replaces a worker killed or stopped (a lookup past LOOKUP_TIMEOUT) would otherwise
    pay for them in a lookup, time out and be replaced again. A search worker does not: one
    is replaced each time a client hangs up, and the replacement's CPU would be spent on every
    abandoned search (its first search pays for the kernels, within its budget)."""
    from solver.exact.executor import die_with_parent

    # killed with the forkserver that started it, which ends with the server: a worker still
    # busy when the server stops (its pool's stop waits only so long) does not outlive it
    die_with_parent(os.getppid())
    if role != "lookup":
        os.nice(5 if role == "search" else 10)
    for name in lists:
        _games[name] = OfferedList(name)
    if role == "lookup":
        warm(role)


def warm(role: str) -> str:
    """Load (or, with a cold numba cache, compile) the search kernels now, with no deadline,
    so that no request's budget pays for them (once per process); returns ``role``."""
    if _warmed:
        return role
    _warmed.append(role)
    game = next(iter(_games.values()))
    service = game.services[Mode.NORMAL]
    if role == "build":  # a build forks the solver's workers, which load their own kernels
        return role
    service.advise([], top=0, splits=True)  # the partition kernel too (the page's "why")
    # an on-tree state's alternatives, as a lookup values them: the first such call loads
    # kernels that took 16 s on a loaded machine, past LOOKUP_TIMEOUT, when left to a request
    from solver.game.feedback import code_to_text, feedback_code

    opener = service.advise([], top=0).next_guess
    for answer in game.word_list.answers[:2]:
        history = [(opener, code_to_text(feedback_code(opener, answer), len(opener)))]
        service.advise(history, top=5, budget=2.0, alternatives_budget=2.0, splits=True)
    state = service.state_after(service.normalise([(game.word_list.guesses[0], "bbbbb")]))
    if state.size:
        from solver.exact.anytime import rank_guesses

        rank_guesses(service.game, state[:3], 5, top=2, table=service.parts, in_process=True)
    if role == "search":  # an analysis loads the exact kernels' other specialisations
        from solver.evaluation.analysis import analyse_game

        answer = game.word_list.answers[0]
        opener = service.advise([], top=0).next_guess
        history = [(opener, code_to_text(feedback_code(opener, answer), len(opener))), (answer, "g" * len(answer))]
        analyse_game(service.game, history, service=service, splits=True)
    return role


def lookup(kind: str, words: str, mode: Mode, history, top: int, budget: float,
           rank_seconds: float = LOOKUP_SECONDS):
    """A request answered from the trees alone, if it can be; the alternatives are ranked for
    at most ``rank_seconds`` (0: not at all unless trivial, so that the answer is at once).

    Returns ``(route, json, opener)``: route ``"answer"`` (exact, alternatives complete or, for
    the empty history, the book's openers: all a search would find),
    ``"partial"`` (the next guess and its value exact, the alternatives the best found in
    ``rank_seconds``) or ``"search"`` (json None: off every tree, or an analysis); and the
    history's opener when the book has no tree of it (one that wins every game), else None.
    Raises InputError for a history the rules reject (an unknown word, impossible feedback, a
    hard-mode violation)."""
    game = _games[words]
    service = game.services[mode]
    steps = service.normalise(history)  # raises InputError naming the guess at fault
    opener = None
    if steps and service.book.find(steps[0][0]) is None and service.book.unwinnable(steps[0][0]) is None:
        opener = steps[0][0]
    if kind != "next":
        return "search", None, opener
    if steps and service.state_after(steps).size and steps[-1][1] != service.game.all_green:
        where = service.position(steps, solve=False)
        in_table = len(steps) == 1 and service.table_class(
            steps[0][0], steps[0][1], service.state_after(steps)) is not None
        if where.tree is None and not in_table:  # off every tree and table: a search
            return "search", None, opener
    seconds = min(budget, LOOKUP_SECONDS)
    ranking = min(seconds, rank_seconds) if rank_seconds > 0 else 0.001  # 0.001 s: not started
    advice = service.advise(history, top=top, budget=seconds, alternatives_budget=ranking,
                            splits=True)
    if advice.status != EXACT and advice.status != SOLVED:
        return "search", None, opener
    complete = advice.alternatives_complete or top == 0 or advice.next_guess is None
    # the empty history's alternatives are the book's openers, whatever the budget
    # (ExactService._root; the opener proof ranks the rest): a search would add nothing
    final = complete or not steps
    return ("answer" if final else "partial"), with_opener(advice.to_json(), words, mode, steps), opener


def with_opener(answer: dict, words: str, mode: Mode, steps) -> dict:
    """``answer`` with ``opener_report``: how good the history's first guess is (its exact
    value, rank and gap from the opener tables, :func:`solver.evaluation.openers.opener_report`
    without a search), or None (no guess yet, a mode or list without a table, or an opener
    the table has not decided)."""
    report = None
    if steps and mode in (Mode.NORMAL, Mode.HARD):
        from solver.evaluation.openers import opener_report

        service = _games[words].services[mode]
        found = opener_report(service.word_list, mode.value, steps[0][0], search=False,
                              table=service.opener_table)
        report = found.as_dict() if found.value is not None else None
    answer["opener_report"] = report
    return answer


def search(kind: str, words: str, mode: Mode, history, top: int, budget: float) -> dict:
    """``advise`` (kind ``"next"``) or ``analyse_game`` (``"analyse"``) within ``budget``
    seconds; returns the JSON answer."""
    game = _games[words]
    service = game.services[mode]
    steps = service.normalise(history)
    if kind == "next":
        return with_opener(service.advise(history, top=top, budget=budget, alternatives_budget=budget,
                                          splits=True).to_json(), words, mode, steps)
    from solver.evaluation.analysis import analyse_game

    return with_opener(analyse_game(service.game, history, budget=budget, service=service,
                                    splits=True).to_json(), words, mode, steps)


def build(words: str, mode: Mode, opener: str) -> str:
    """Solve ``opener``'s tree into the user cache (one worker process: the build runs beside
    the searches, at a lower priority); returns the opener. An opener with no tree that wins
    every game is recorded by the book (its states are then searched one by one)."""
    from solver.exact.bellman import UnwinnableError

    try:
        _games[words].services[mode].book.tree(opener, jobs=1)
    except UnwinnableError:
        pass
    return opener
