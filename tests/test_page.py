"""The page as a player meets it: whole games played in headless Chromium (Playwright driving
Debian's chromium) at a desktop size (1280×900, 1280×800) and a phone size (390×844), in the
light, the dark and the high-contrast palette, with the feedback typed (b/y/g, digits), entered
on the on-screen keyboard and set by tapping tiles; the "why" panels, the games kept in the
browser (after a reload, exported and imported), the Tab order, and an accessibility audit
(axe-core, through axe-playwright-python) with no serious violation. The screenshots in
docs/img/ (the README's) are taken here."""

from __future__ import annotations

import json
import math
import os
import random
import re
import time
import urllib.request
from pathlib import Path
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest

from solver.evaluation.scores import luck_score
from webserver import ROOT, serve

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Where the screenshots go: the README's docs/img/ when EXACT_WORDLE_SCREENSHOTS=1 (to renew
#: them), else a scratch folder, so that a test run leaves the work tree as it was.
SHOTS = ROOT / "docs" / "img" if os.environ.get("EXACT_WORDLE_SCREENSHOTS") == "1" else None
DESKTOP, PHONE, LAPTOP = (1280, 900), (390, 844), (1280, 800)
#: A lost game (the answer is HATCH) opened with CATCH, whose tree is not shipped: the server
#: solves it the first time (the page shows the progress) and values the moves past the sixth.
LOST = ["catch", "batch", "latch", "match", "patch", "watch"]
LOST_ANSWER = "hatch"
WON_ANSWER = "crony"
#: How each row of a game is entered: typed letters and b/y/g; the suggestion button and tiles
#: tapped; the on-screen keyboard (letters, colour keys, Enter); typed letters and digits 0/1/2.
WAYS = ["typed", "tiles", "screen keys", "digits"]

pytestmark = [pytest.mark.slow, pytest.mark.timed]


def fmt(x, digits: int = 3) -> str:
    """app.js's ``fmt``: the magnitude rounded half up (as ``Number.toFixed``), U+2212 for minus."""
    if x is None:
        return "?"
    rounded = Decimal(float(x)).copy_abs().quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return ("−" if x < 0 and rounded != 0 else "") + f"{rounded:.{digits}f}"


def signed(x) -> str:
    """app.js's ``signed``: a + before a positive value."""
    text = fmt(x)
    return text if text.startswith("−") or Decimal(text) == 0 else "+" + text


def remaining_text(n: int) -> str:
    return f"{n:,} answer{'s remain' if n != 1 else ' remains'}"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module, with an empty user cache (the feedback tables linked in, not
    the trees): CATCH's tree is solved anew by the first lost game."""
    from solver.game.feedback import feedback_table, table_cache_path
    from solver.game.wordlists import load_word_list

    cache = tmp_path_factory.mktemp("cache")
    for name in ("nyt-2024", "legacy"):
        word_list = load_word_list(name)
        feedback_table(word_list)  # built once and shared, not part of what is tested here
        shared = table_cache_path(word_list)
        (cache / shared.name).symlink_to(shared)
    for url in serve(dict(os.environ, EXACT_WORDLE_CACHE=str(cache))):
        yield {"url": url}


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):  # never a silent skip: a page could break unseen
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM}: `make test` installs "
                    "it (as root), or run: apt-get install chromium fonts-noto-color-emoji")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def tree():
    import policy_tree

    return policy_tree.load(ROOT / "artifacts" / "legacy-normal-salet.msgpack")


@pytest.fixture(scope="module")
def legacy():
    from solver.game.wordlists import load_word_list

    return load_word_list("legacy")


def open_page(browser, url, size, theme, words="legacy"):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, color_scheme=theme)
    # layout shifts, as the browser measures them (https://web.dev/articles/cls)
    context.add_init_script("""window.layoutShifts = [];
        new PerformanceObserver((list) => {
            for (const e of list.getEntries()) window.layoutShifts.push({
                at: e.startTime, value: e.value, input: e.hadRecentInput,
                moved: e.sources.map((s) => s.node ? s.node.id || s.node.className || s.node.nodeName : "")});
        }).observe({type: "layout-shift", buffered: true});""")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    from playwright.sync_api import expect

    # the lists are named for what they are, today's NYT lists first (the server's default)
    expect(page.locator("#words option")).to_have_text(["NYT 2024 lists", "Original 2022 lists"])
    expect(page.locator("#list-note")).to_contain_text("New York Times")
    if words == "legacy":
        page.select_option("#words", "legacy")
        expect(page.locator("#list-note")).to_contain_text("before the NYT edited them")
    return context, page, errors


def enter_row(page, number: int, guess: str, feedback: str, way: str) -> None:
    """Enter ``guess`` with its ``feedback`` (b/y/g) as the ``number``-th row, the ``way`` given."""
    from playwright.sync_api import expect

    if way == "typed":
        page.keyboard.type(guess)
        page.keyboard.type(feedback)
        page.keyboard.press("Enter")
    elif way == "digits":
        page.keyboard.type(guess)
        page.keyboard.type("".join(str("byg".index(c)) for c in feedback))
        page.keyboard.press("Enter")
    elif way == "screen keys":
        for letter in guess:
            page.click(f"#keyboard .key[data-key='{letter}']")
        for colour in feedback:
            page.click(f"#keyboard .key[data-key='colour-{'byg'.index(colour)}']")
        page.click("#keyboard .key[data-key='enter']")
    else:  # tiles: the suggestion (or the letters typed), then each tile tapped to its colour
        if page.locator("#suggestion").inner_text().lower() == guess:
            page.click("#use-suggestion")
        else:
            page.keyboard.type(guess)
        row = page.locator("#board .row").nth(number - 1)
        for i, colour in enumerate(feedback):
            for _ in range("byg".index(colour)):
                row.locator(".tile").nth(i).click()
        expect(row.locator(".tile")).to_have_class([re.compile(rf"\btile\b.*\b{c}\b") for c in feedback])
        page.click("#keyboard .key[data-key='enter']")
    row = page.locator("#board .row").nth(number - 1)
    expect(row).to_have_class(re.compile(r"\bdone\b"))
    expect(row.locator(".tile")).to_have_text(list(guess), ignore_case=True)
    expect(row.locator(".tile")).to_have_class([re.compile(rf"\btile\b.*\b{c}\b") for c in feedback])


def check_phone_layout(page) -> None:
    """No sideways scrolling, and every control at least 44 px tall and wide (the letter keys:
    44 px tall, a tenth of the width, as on every phone keyboard)."""
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("innerWidth")
    small = page.evaluate("""() => [...document.querySelectorAll(
            'button, select, input, textarea, summary')].flatMap((el) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) return [];  // not shown
        const letterKey = el.matches('#keyboard .key') && el.dataset.key.length === 1;
        const tooNarrow = r.width < (letterKey ? 30 : 44);
        return r.height < 44 || tooNarrow ? [`${el.id || el.className || el.tagName} ${r.width}x${r.height}`] : [];
    })""")
    assert small == []
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false; })")


def shot(page, name: str, element: str | None = None, docs: bool = True) -> None:
    """A screenshot of the viewport scrolled to the top, or of just the ``element``; ``docs``
    False: never one of the README's (always to the scratch folder, to be looked at)."""
    import tempfile

    folder = (SHOTS if docs else None) or Path(tempfile.gettempdir()) / "exact-wordle-screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)
    if element is None:
        page.evaluate("scrollTo(0, 0)")
        page.screenshot(path=str(folder / name))
    else:
        page.locator(element).screenshot(path=str(folder / name))


def expected_game_values(tree, game):
    """V* of each position of the tree's ``game`` (the tree is optimal): the mean over the
    answers left of the guesses the tree still takes, and the luck of each move that follows
    the tree (its regret is 0): V*(before) − 1 − V*(after)."""
    values = []
    for t in range(len(game)):
        left = tree.remaining_answers(game[:t])
        values.append(Fraction(sum(len(tree.game(a)) - t for a in left), len(left)))
    values.append(Fraction(0))
    return values[:-1], [values[t] - 1 - values[t + 1] for t in range(len(game))]


@pytest.mark.parametrize("size,theme", [(DESKTOP, "light"), (PHONE, "dark")], ids=["1280-light", "390-dark"])
def test_a_won_game(server, browser, tree, size, theme):
    """CRONY played as the shipped SALET tree plays it, each row entered another way: every
    suggestion is the tree's next guess, proven exact; the answers left and the alternatives
    (the best first, whether each could be the answer) are shown; the analysis has one row per
    move with the tree's V*, regret 0 and the luck of each feedback, the summary adds up, and
    the text result is spoiler-free."""
    from playwright.sync_api import expect

    from solver.game.feedback import code_to_text

    game = [(guess, code_to_text(code)) for guess, code in tree.game(WON_ANSWER)]
    context, page, errors = open_page(browser, server["url"], size, theme)
    expect(page.locator("#suggestion")).to_have_text(game[0][0], timeout=20_000)
    started = page.evaluate("performance.now()")
    for number, (guess, feedback) in enumerate(game, start=1):
        history = game[:number - 1]
        expect(page.locator("#suggestion")).to_have_text(tree.next_guess(history), timeout=20_000)
        assert guess == tree.next_guess(history)
        expect(page.locator("#status")).to_have_text("Exact (decision tree) · Original 2022 lists · normal")
        left = tree.remaining_answers(history)
        expect(page.locator("#remaining-count")).to_have_text(remaining_text(len(left)))
        expect(page.locator("#alternatives-section")).not_to_have_class(re.compile("waiting"), timeout=20_000)
        rows = page.locator("#alternatives tbody tr:not(.blank)")
        expect(rows.nth(0).locator("td").nth(1)).to_have_text(guess)
        for row in rows.all():
            alternative, could_be = (cell.inner_text().strip().lower() for cell in row.locator("td").all()[1::2])
            assert could_be == ("yes" if alternative in left else "no"), (alternative, left)
        if number == 2:
            assert rows.count() == 5
            expect(page.locator("#remaining-details")).not_to_have_attribute("open", "")
            shot(page, f"page-{theme}-{size[0]}.png")
            if size == PHONE:
                check_phone_layout(page)  # opens and closes the <details>: shifts not counted
                started = page.evaluate("performance.now()")
        if number == len(game):  # nothing moved while the answers were awaited (the player's own
            # typing aside): the places of the next guess, its value and the tables are kept
            shifts = page.evaluate(f"layoutShifts.filter((s) => s.at > {started} && !s.input)")
            assert sum(s["value"] for s in shifts) < 0.01, shifts
        enter_row(page, number, guess, feedback, WAYS[(number - 1) % len(WAYS)])
    expect(page.locator("#analysis tbody tr")).to_have_count(len(game), timeout=30_000)
    expect(page.locator("#suggestion")).to_have_text(WON_ANSWER)
    expect(page.locator("#status")).to_have_text(f"Won in {len(game)} guesses.")
    v_star, luck = expected_game_values(tree, tree.game(WON_ANSWER))
    table = page.locator("#analysis tbody")
    expect(table.locator("td.v")).to_have_text([fmt(v) for v in v_star])
    expect(table.locator("td.q")).to_have_text([fmt(v) for v in v_star])
    expect(table.locator("td.regret")).to_have_text(["0.000"] * len(game))
    expect(table.locator("td.skill")).to_have_text(["99"] * len(game))
    expect(table.locator("td.luck")).to_have_text([signed(x) for x in luck])
    expect(table.locator("td.luck-score")).to_have_text([str(luck_score(x)) for x in luck])
    expect(table.locator("td.guess .in-words").nth(0)).to_contain_text("whatever the colours")
    total_luck = sum(luck)
    summary = page.locator("#summary")
    expect(summary).to_contain_text(
        f"Won in {len(game)} guesses. Skill: 99/99 (perfect play: 0 guesses lost to your choices).")
    expect(summary).to_contain_text(f"Luck: {luck_score(total_luck)}/99 ({signed(total_luck)} guesses")
    expect(summary).to_contain_text(f"{fmt(v_star[0])} (perfect play's average) + 0.000 (skill) "
                                    f"{'−' if total_luck > 0 else '+'} {fmt(abs(total_luck))} (luck) = {len(game)}.")
    result = page.locator("#result-text").input_value().splitlines()
    squares = {"b": "⬜", "y": "🟨", "g": "🟩"}
    assert result[0] == f"exact-wordle {len(game)}/6 · Original 2022 lists"
    assert result[1:1 + len(game)] == [
        f"{''.join(squares[c] for c in feedback)} skill 99 · luck {luck_score(x)} (regret 0.000 · luck {signed(x)})"
        for (_, feedback), x in zip(game, luck)]
    assert result[1 + len(game)] == (f"Skill 99/99 · Luck {luck_score(total_luck)}/99 "
                                     f"(regret 0.000 · luck {signed(total_luck)})")
    assert WON_ANSWER not in "\n".join(result).lower()
    # the explanations: a tap on a column's header shows what it means
    page.click("#analysis th button[data-term='regret']")
    expect(page.locator("#analysis-term")).to_contain_text("Regret is Q* − V*")
    page.click("#analysis th button[data-term='luck']")
    expect(page.locator("#analysis-term")).to_contain_text("Luck is how much better (+) or worse (−)")
    expect(page.locator("#analysis th button[data-term='v']")).to_have_attribute(
        "title", re.compile("counting the next one"))
    if size == DESKTOP:
        shot(page, f"analysis-{theme}-{size[0]}.png", element="#analysis-section")
    else:
        check_phone_layout(page)
    # undo answers at once (the tree), and the suggestion is again the last move
    page.click("#undo")
    expect(page.locator("#suggestion")).to_have_text(game[-1][0], timeout=5_000)
    expect(page.locator("#analysis-section")).to_be_hidden()
    assert errors == []
    context.close()


def post(url: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


@pytest.mark.parametrize("size,theme", [(PHONE, "light"), (DESKTOP, "dark")], ids=["390-light", "1280-dark"])
def test_a_lost_game(server, browser, tree, legacy, size, theme):
    """CATCH, BATCH, ... WATCH (the answer: HATCH), each row entered another way: CATCH has no
    tree, so each row is answered from its state at once (the page never shows the previous
    answer as the new one, and never waits for CATCH's tree, which the server builds in the
    background); every row is answered although the game can no longer be won, the answers left
    counted; once the tree is built, the analysis shows six rows with every value exact (the
    last moves marked +1: valued as if the game went past the sixth guess) and V* at the start
    is the shipped tree's."""
    from playwright.sync_api import expect

    from solver.game.feedback import code_to_text, feedback_code

    game = [(guess, code_to_text(feedback_code(guess, LOST_ANSWER))) for guess in LOST]
    left = [sum(all(feedback_code(g, a) == feedback_code(g, LOST_ANSWER) for g in LOST[:k]) for a in legacy.answers)
            for k in range(1, 7)]
    context, page, errors = open_page(browser, server["url"], size, theme)
    expect(page.locator("#suggestion")).to_have_text("salet", timeout=20_000)
    for number, (guess, feedback) in enumerate(game, start=1):
        enter_row(page, number, guess, feedback, WAYS[(number + 1) % len(WAYS)])
        expect(page.locator("#remaining-count")).to_have_text(remaining_text(left[number - 1]), timeout=30_000)
        expect(page.locator("#suggestion")).not_to_have_text("…")
        expect(page.locator("#progress-text")).to_have_text("")
        expect(page.locator("#error")).to_have_text("")
        if number == 2:
            expect(page.locator("#alternatives-section")).not_to_have_class(re.compile("waiting"), timeout=20_000)
            expect(page.locator("#alternatives tbody tr:not(.blank)")).not_to_have_count(0)
            shot(page, f"page-{theme}-{size[0]}.png")
    expect(page.locator("#analysis tbody tr")).to_have_count(6, timeout=120_000)
    expect(page.locator("#advice .label")).to_have_text("the answer")
    expect(page.locator("#suggestion")).to_have_text(LOST_ANSWER)
    waited = time.monotonic() + 300
    while True:  # CATCH's tree, built in the background: then every value of the analysis is exact
        analysis = post(server["url"], "/api/analyse", {"words": "legacy", "budget": 2.0, "history": [
            {"guess": g, "feedback": f} for g, f in game]})
        moves = analysis["moves"]
        if all(m["value_exact"] and m["regret_finite"] is not None and m["luck"] is not None for m in moves):
            break
        assert time.monotonic() < waited, "CATCH's tree was not built in the background in 300 s"
        time.sleep(2)
    page.reload()  # the game is kept; its analysis asked again, now from CATCH's tree
    expect(page.locator("#analysis tbody tr")).to_have_count(6, timeout=60_000)
    assert moves[0]["value_total"] == tree.total  # V* at the start: the optimum's 7920
    table = page.locator("#analysis tbody")
    extra = [f" +{m['extra_guesses']}" if m["extra_guesses"] else "" for m in moves]
    # move 5 (PATCH, of hatch, patch, watch with two guesses left) gives up the sure win:
    # its Q* one guess past the limit (+1) and its finite regret (!); move 6 is past the limit
    assert extra[:5] == [""] * 5 and extra[5:] == [" +1"]
    assert [m["q_loses"] for m in moves] == [False] * 4 + [True, False]
    expect(table.locator("td.v")).to_have_text([fmt(m["v_star"]) + e for m, e in zip(moves, extra)])
    expect(table.locator("td.q")).to_have_text([
        f"{fmt(m['relaxed_q_total'] / m['answers_before'])} +{m['q_extra_guesses']}" if m["q_loses"]
        else fmt(m["q_star"]) + e for m, e in zip(moves, extra)])
    expect(table.locator("td.regret")).to_have_text([fmt(m["regret_finite"]) + ("!" if m["q_loses"] else "")
                                                     for m in moves])
    expect(table.locator("td.skill")).to_have_text([str(m["skill_score"]) for m in moves])
    expect(table.locator("td.luck")).to_have_text([signed(m["luck"]) for m in moves])
    expect(table.locator("td.luck-score")).to_have_text([str(m["luck_score"]) for m in moves])
    expect(table.locator("td.v").nth(0)).to_have_text(fmt(Fraction(tree.total, len(legacy.answers))))
    expect(table.locator("td.guess .best-guess").nth(0)).to_have_text("best: salet")
    assert "?" not in table.inner_text() and "∞" not in table.inner_text()
    summary = page.locator("#summary")
    expect(summary).to_contain_text(f"Not won in six guesses: the game is over. Skill: {analysis['skill_score']}/99 "
                                    f"({fmt(analysis['total_regret_finite'])} guesses lost")
    expect(summary).to_contain_text(f"Luck: {analysis['luck_score']}/99 ({signed(analysis['total_luck'])} guesses")
    expect(summary).to_contain_text(
        f"= 6 + {fmt(analysis['final_expected'])} (what the answers left would still take).")
    expect(page.locator("#analysis-note")).to_contain_text("+N: valued as if the game went on N guesses past the sixth")
    result = page.locator("#result-text").input_value().splitlines()
    assert result[0] == "exact-wordle X/6 · Original 2022 lists" and len(result) == 9
    assert result[6] == (f"⬜🟩🟩🟩🟩 skill {moves[5]['skill_score']} · luck {moves[5]['luck_score']} "
                         f"(regret {fmt(moves[5]['regret'])} · luck {signed(moves[5]['luck'])})")
    if size == PHONE:
        check_phone_layout(page)
    else:
        shot(page, f"analysis-{theme}-{size[0]}.png", element="#analysis-section")
    assert errors == []
    context.close()


def test_a_pasted_grid_and_the_theme_switch(server, browser):
    """A game pasted as the grid Wordle shares (with its guesses; the header's * means hard
    mode) fills the board, switches to hard mode and is analysed; the theme button switches to
    dark and the choice outlives a reload."""
    from playwright.sync_api import expect

    context, page, errors = open_page(browser, server["url"], PHONE, "light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    page.click("#paste summary")
    page.fill("#paste-grid", "Wordle 1,234 3/6*\n\n⬜⬜🟨🟨⬜\n🟨🟨🟩🟨⬜\n🟩🟩🟩🟩🟩")
    page.fill("#paste-guesses", "salet olden lodge")
    page.click("#paste-form button[type=submit]")
    expect(page.locator("#analysis tbody tr")).to_have_count(3, timeout=60_000)
    expect(page.locator("#mode input[value=hard]")).to_be_checked()
    expect(page.locator("#board .row.done")).to_have_count(3)
    expect(page.locator("#board .row").nth(1).locator(".tile")).to_have_class(
        [re.compile(rf"\b{c}\b") for c in "yygyb"])
    # move 1 is on the shipped hard-mode tree: V* = 8122 / 2315, SALET optimal, regret 0
    expect(page.locator("#analysis td.v").nth(0)).to_have_text(fmt(Fraction(8122, 2315)))
    expect(page.locator("#analysis td.regret").nth(0)).to_have_text("0.000")
    expect(page.locator("#summary")).to_contain_text("Won in 3 guesses.")
    expect(page.locator("#result-text")).to_have_value(re.compile(r"^exact-wordle 3/6\* · Original 2022 lists"))
    page.click("#theme")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 19)"
    page.reload()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 19)"
    expect(page.locator("#board .row.done")).to_have_count(3)  # the game is kept too
    assert errors == []
    context.close()


def test_an_opener_that_gives_up_winning_shows_a_finite_regret(server, browser):
    """In hard mode no SLATE tree wins every answer within six guesses (artifacts/book/
    legacy-hard-slate.msgpack.unwinnable), so a hard-mode game opened with SLATE has a strict
    regret of ∞ on its first move (the analysis's ``q_loses``); the page shows its finite
    regret instead (docs/algorithms.md §15.4: Q* 8124 one guess past the limit, plus the six
    answers with no sure win: 8/2315, marked !), its scores, and a note says why; nothing is ∞
    or ?. The game is pasted as the grid Wordle shares."""
    from playwright.sync_api import expect

    game = [{"guess": "slate", "feedback": "bbbbg"}, {"guess": "crane", "feedback": "bgbgg"},
            {"guess": "brine", "feedback": "ggggg"}]
    analysis = post(server["url"], "/api/analyse", {"words": "legacy", "mode": "hard", "budget": 5.0,
                                                    "history": game})
    first = analysis["moves"][0]
    assert first["q_loses"] and first["regret"] is None and analysis["total_regret"] is None
    assert first["regret_finite_fraction"] == "8/2315" and first["skill_score"] == 98
    context, page, errors = open_page(browser, server["url"], DESKTOP, "light")
    page.click("#paste summary")
    page.fill("#paste-grid", "Wordle 1,234 3/6*\n\n⬜⬜⬜⬜🟩\n⬜🟩⬜🟩🟩\n🟩🟩🟩🟩🟩")
    page.fill("#paste-guesses", "slate crane brine")
    page.click("#paste-form button[type=submit]")
    table = page.locator("#analysis tbody")
    expect(table.locator("tr")).to_have_count(3, timeout=60_000)
    expect(page.locator("#mode input[value=hard]")).to_be_checked()
    expect(table.locator("td.v").nth(0)).to_have_text(fmt(first["v_star"]))
    expect(table.locator("td.q").nth(0)).to_have_text(f"{fmt(Fraction(8124, 2315))} +1")
    expect(table.locator("td.regret")).to_have_text([fmt(Fraction(8, 2315)) + "!"]
                                                    + [fmt(m["regret"]) for m in analysis["moves"][1:]])
    expect(table.locator("td.skill").nth(0)).to_have_text("98")
    expect(table.locator("td.luck").nth(0)).to_have_text(signed(first["luck"]))
    expect(page.locator("#summary")).to_contain_text(f"Skill: {analysis['skill_score']}/99 (")
    expect(page.locator("#summary")).to_contain_text("a guess gave up winning every answer in time")
    expect(page.locator("#analysis-note")).to_contain_text(
        "!: the guess gave up winning every answer within six guesses")
    assert "∞" not in table.inner_text() and "?" not in table.inner_text()
    assert page.locator("#result-text").input_value().splitlines()[1].startswith("⬜⬜⬜⬜🟩 skill 98 · luck")
    assert errors == []
    context.close()


# -- a game after a random opener: why, the history, the Tab order, the audit ------------------
#: axe-core's impacts that fail the audit.
SERIOUS = ("serious", "critical")


def audit(page, label: str) -> None:
    """axe-core's checks of the whole page as it is (every rule, WCAG 2.x A and AA and best
    practice): no serious or critical violation."""
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    violations = Axe().run(page).response["violations"]
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false; })")
    serious = [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations
               if v["impact"] in SERIOUS]
    assert serious == [], (label, serious)


def check_tab_order(page, size) -> None:
    """Tab goes through the page in the order it is seen: one column on a phone (each stop
    below the one before, or right of it on the same line); on a wide screen the left column
    (the next guess, the board and its buttons) before the right one (the settings, the
    tables), each from top to bottom."""
    page.evaluate("document.activeElement && document.activeElement.blur(); scrollTo(0, 0)")
    page.mouse.click(2, 2)  # Tab starts from the top (the header's corner), as on a fresh page
    stops = []
    for _ in range(30):
        page.keyboard.press("Tab")
        box = page.evaluate("""(() => { const el = document.activeElement;
            if (!el || el === document.body) return null;
            const r = el.getBoundingClientRect();
            // where it lies in its page, not where a scrolled box (a wide table) shows it now
            let dx = 0, dy = 0;
            const top = [document.body, document.documentElement];
            for (let p = el.parentElement; p && !top.includes(p); p = p.parentElement) {
              dx += p.scrollLeft; dy += p.scrollTop;
            }
            return {id: el.id || el.className || el.tagName, x: r.left + scrollX + dx, y: r.top + scrollY + dy,
                    w: r.width, h: r.height, header: !!el.closest("header")}; })()""")
        if box is None:
            break
        if not box["header"]:  # the header's buttons (palette, theme) come first, at the top right
            stops.append(box)
    assert len(stops) >= 8, stops
    column = (lambda b: 0) if size == PHONE else (lambda b: 0 if b["x"] + b["w"] / 2 < size[0] * 0.4 else 1)
    for before, after in zip(stops, stops[1:]):
        if column(after) != column(before):
            assert column(after) > column(before), (before, after)
            continue
        same_line = abs(after["y"] - before["y"]) < max(before["h"], after["h"]) / 2
        assert after["y"] > before["y"] or (same_line and after["x"] > before["x"]), (before, after)


def nyt_state(word_list, steps):
    """The answers of ``word_list`` consistent with ``steps`` ((guess, b/y/g) pairs)."""
    from solver.game.feedback import code_to_text, feedback_code

    return [a for a in word_list.answers if all(code_to_text(feedback_code(g, a)) == f for g, f in steps)]


def class_sizes(guess: str, answers) -> list[int]:
    """How ``guess`` splits ``answers``, by the plain feedback rule: sizes, largest first."""
    from collections import Counter

    from solver.game.feedback import feedback_code

    return sorted(Counter(feedback_code(guess, a) for a in answers).values(), reverse=True)


def check_why(panel, guess: str, answers, role: str) -> None:
    """A "why" panel's side for ``guess``: its bar has one part per class, and its words say
    how many colourings there are and the most answers one leaves."""
    from playwright.sync_api import expect

    sizes = class_sizes(guess, answers)
    side = panel.locator(".why-guess").filter(has=panel.page.locator("h3", has_text=guess))
    expect(side.locator("h3")).to_contain_text(f"{guess} ({role}")
    expect(side.locator(".split-bar span")).to_have_count(len(sizes))
    colourings = f"{len(sizes)} possible colouring{'s' if len(sizes) != 1 else ''}"
    expect(side.locator("li").nth(0)).to_have_text(
        f"{colourings}: it leaves at most {sizes[0]:,} answer{'s' if sizes[0] != 1 else ''} whatever the colours")
    expect(side.locator(".split-bar")).to_have_attribute(
        "aria-label", f"{guess.upper()} splits the {len(answers):,} answers into {len(sizes)} "
                      f"group{'s' if len(sizes) != 1 else ''} by the colours; the largest has {sizes[0]:,}")


@pytest.fixture(scope="module")
def nyt():
    from solver.game.wordlists import load_word_list

    return load_word_list("nyt-2024")


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["390x844", "1280x800"])
def test_a_game_after_a_random_opener(server, browser, nyt, size):
    """Today's lists (the page's default), a random opener (seeded), then the page's guesses
    to the answer: each row's suggestion is played; at move 2 an alternative's "why" opens
    (its classes as a bar, against the plain rule's); the analysis's first row opens its
    "why" for the opener and the best guess; the page passes the audit in the light, the
    high-contrast (light and dark) and the dark palette; after a reload the palette is kept
    and the game is in the history; the Tab order follows the screen, and on a phone the next
    guess is shown above the keyboard."""
    from playwright.sync_api import expect

    from solver.game.feedback import code_to_text, feedback_code

    rng = random.Random(f"page-{size[0]}")
    answer = rng.choice(nyt.answers)
    opener = rng.choice([w for w in nyt.guesses if w != answer])
    context, page, errors = open_page(browser, server["url"], size, "light", words="nyt-2024")
    expect(page.locator("#suggestion")).to_have_text("tarse", timeout=20_000)
    if size == PHONE:  # the next guess above the board and the keyboard
        advice, keyboard = (page.locator(f"#{x}").bounding_box() for x in ("advice", "keyboard"))
        assert advice["y"] + advice["height"] <= keyboard["y"]
    # the order of the settled page: the alternatives come twice when some are still being
    # proven, and the second list replaces the first (a focused button with it)
    expect(page.locator("#alternatives-section")).not_to_have_class(re.compile("waiting"), timeout=30_000)
    check_tab_order(page, size)
    steps = []
    guess = opener
    why_checked = False
    while True:
        feedback = code_to_text(feedback_code(guess, answer))
        enter_row(page, len(steps) + 1, guess, feedback, "typed")
        steps.append((guess, feedback))
        if feedback == "ggggg" or len(steps) == 6:
            break
        expect(page.locator("#alternatives-section")).not_to_have_class(re.compile("waiting"), timeout=30_000)
        expect(page.locator("#error")).to_have_text("")
        guess = page.locator("#suggestion").inner_text().strip().lower()
        assert re.fullmatch("[a-z]{5}", guess), guess
        rows = page.locator("#alternatives tbody tr:not(.blank):not(.why-row)")
        if not why_checked and rows.count():  # an alternative's why (the first move with some in
            # time, as a large state's search may find none within the budget): against the best
            why_checked = True
            left = nyt_state(nyt, steps)
            last = rows.nth(rows.count() - 1)
            alternative = last.locator("button.pick").inner_text().strip().lower()
            last.locator("button.why").click()
            panel = page.locator("#alternatives tr.why-row .why-panel")
            expect(panel).to_be_visible()
            expect(last.locator("button.why")).to_have_attribute("aria-expanded", "true")
            check_why(panel, alternative, left, "the best guess" if alternative == guess else "this guess")
            if alternative != guess:
                check_why(panel, guess, left, "the best guess")
            audit(page, "light, an alternative's why open")
    assert why_checked or len(steps) <= 2, "no alternatives were shown for a whole game"
    won = steps[-1][1] == "ggggg"
    expect(page.locator("#analysis > tbody > tr:not(.why-row)")).to_have_count(len(steps), timeout=60_000)
    # what a screen reader hears: each tile's letter and colour, each key's letter and what is known
    words = {"b": "gray: not in the word", "y": "yellow: in the word, elsewhere", "g": "green: in place"}
    for number, (guess, feedback) in enumerate(steps):
        row = page.locator("#board .row").nth(number)
        expect(row).to_have_attribute("aria-label", f"guess {number + 1}: {guess.upper()}")
        for i, (letter, colour) in enumerate(zip(guess, feedback)):
            expect(row.locator(".tile").nth(i)).to_have_attribute("aria-label", f"{letter.upper()}, {words[colour]}")
    known = {}
    for guess, feedback in steps:
        for letter, colour in zip(guess, feedback):
            known[letter] = max(known.get(letter, 0), "byg".index(colour) + 1)
    heard = [", ".join([letter.upper(), *([["ruled out", "present", "placed"][known[letter] - 1]]
                                         if letter in known else [])]) for letter in "qwertyuiopasdfghjklzxcvbnm"]
    keys = page.locator("#keyboard .key-row:not(.colours) .key:not(.wide)")
    assert [keys.nth(i).get_attribute("aria-label") for i in range(keys.count())] == heard
    # the analysis's first row: why the opener, against the best opener when it is not one
    first = page.locator("#analysis tbody tr").first
    first.locator("button.why").click()
    panel = page.locator("#analysis tr.why-row .why-panel")
    everything = list(nyt.answers)
    best = first.locator(".best-guess")
    check_why(panel, opener, everything, "your guess")
    if best.count():
        check_why(panel, best.inner_text().removeprefix("best: ").strip(), everything, "the best guess")
    audit(page, "light, the analysis with a why open")
    if size == LAPTOP:
        shot(page, "why-light-1280.png", element="#analysis-section")
    page.click("#palette")  # high contrast: orange for placed, blue for present
    expect(page.locator("#palette")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("getComputedStyle(document.querySelector('.tile.g')).backgroundColor") == "rgb(245, 121, 58)" \
        if won else True
    audit(page, "high contrast, light")
    shot(page, f"page-contrast-{size[0]}.png")
    page.click("#theme")
    audit(page, "high contrast, dark")
    page.reload()  # the palette and the theme kept; the game kept, analysed again and in the history
    expect(page.locator("html")).to_have_attribute("data-palette", "contrast")
    expect(page.locator("#analysis > tbody > tr")).to_have_count(len(steps), timeout=60_000)
    page.click("#palette")
    expect(page.locator("html")).not_to_have_attribute("data-palette", "contrast")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 19)"
    audit(page, "dark")
    page.click("#history-details summary")
    played = " ".join(g for g, _ in steps)
    history = page.locator("#history-list tbody tr")
    expect(history.filter(has_text=played)).to_have_count(1)
    expect(history.filter(has_text=played).locator("td").nth(2)).to_have_text(
        f"{len(steps) if won else 'X'}/6")
    averages = page.locator("#history-averages tbody tr")
    expect(averages.nth(1).locator("td").nth(0)).to_have_text("all")
    assert int(averages.nth(1).locator("td").nth(1).inner_text()) >= 1
    if size == PHONE:
        check_phone_layout(page)
    check_tab_order(page, size)
    assert errors == []
    context.close()


def test_the_history_exports_imports_and_clears(server, browser, tmp_path):
    """The games kept in the browser: exported as a JSON file, refused on import when the file
    is not ours or a game in it is malformed (a message says what, nothing is changed), cleared
    (after a confirmation), imported back; and the trend chart once there are two games."""
    from playwright.sync_api import expect

    context, page, errors = open_page(browser, server["url"], DESKTOP, "light")
    page.click("#paste summary")
    page.fill("#paste-guesses", "salet courd anion crony")
    page.fill("#paste-answer", "crony")
    page.click("#paste-form button[type=submit]")
    expect(page.locator("#analysis tbody tr")).to_have_count(4, timeout=60_000)
    page.fill("#paste-guesses", "salet north birth")
    page.fill("#paste-answer", "birth")
    page.click("#paste-form button[type=submit]")
    expect(page.locator("#analysis tbody tr")).to_have_count(3, timeout=60_000)
    expect(page.locator("#history-list tbody tr")).to_have_count(2)
    expect(page.locator("#history-trend svg polyline")).to_have_count(2)
    page.click("#history-details summary")
    shot(page, "history-light-1280.png", element="#history-section")
    page.click("#history-details summary")
    with page.expect_download() as download:
        page.click("#history-export")
    exported = tmp_path / "games.json"
    download.value.save_as(exported)
    doc = json.loads(exported.read_text())
    assert doc["format"] == "exact-wordle-history" and doc["version"] == 1
    games = {" ".join(g["history"]): g for g in doc["games"]}
    assert set(games) == {"salet:bbbbb courd:gybyb anion:bybyb crony:ggggg",
                          "salet:bbbby north:bbggg birth:ggggg"}
    assert all(g["words"] == "legacy" and g["mode"] == "normal" and g["won"] for g in games.values())
    assert games["salet:bbbby north:bbggg birth:ggggg"]["regret"] == 0
    bad = [(b"not json", "Not imported: this file is not JSON."),
           (b'{"format": "other"}', "Not imported: this is not a file of games exported from this page"),
           (json.dumps({**doc, "games": [{**doc["games"][0], "history": ["salet:bbbbq"]}]}).encode(),
            "Not imported: game 1 of the file: history: expected 1 to 6 guesses like \"salet:bbbby\".")]
    for content, message in bad:
        page.set_input_files("#history-import", files=[{"name": "games.json", "mimeType": "application/json",
                                                        "buffer": content}])
        expect(page.locator("#history-status")).to_contain_text(message)
        expect(page.locator("#history-list tbody tr")).to_have_count(2)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#history-clear")
    expect(page.locator("#history-status")).to_have_text("All games cleared.")
    expect(page.locator("#history-list tbody tr")).to_have_count(0)
    expect(page.locator("#history-trend")).to_be_hidden()
    page.set_input_files("#history-import", str(exported))
    expect(page.locator("#history-status")).to_have_text("Imported 2 games.")
    expect(page.locator("#history-list tbody tr")).to_have_count(2)
    page.set_input_files("#history-import", str(exported))
    expect(page.locator("#history-status")).to_have_text("Imported 0 games (2 already here).")
    averages = page.locator("#history-averages tbody tr").nth(1).locator("td")
    if all("skill_score" in g and "luck_score" in g for g in games.values()):  # 0-99 scores kept
        skill = sum(g["skill_score"] for g in games.values()) / 2
        luck = sum(g["luck_score"] for g in games.values()) / 2
        assert skill == 99  # both games played the tree's guesses
        shown = [str(math.floor(x + 0.5)) for x in (skill, luck)]  # as JS's Math.round
        expect(averages).to_have_text(["all", "2", "100%", fmt(3.5, 2), *shown])
    else:
        regret = sum(g["regret"] for g in games.values()) / 2
        luck = sum(g["luck"] for g in games.values()) / 2
        expect(averages).to_have_text(["all", "2", "100%", fmt(3.5, 2), fmt(regret), signed(luck)])
    assert errors == []
    context.close()


def _games_file(games) -> bytes:
    return json.dumps({"format": "exact-wordle-history", "version": 1, "games": games}).encode()


def _won_games(n: int, year: int, first: int = 0) -> list[dict]:
    """``n`` well-formed records of games won at the first guess (distinct words), saved in
    ``year``."""
    def word(k: int) -> str:
        return "".join(chr(97 + (k // 26 ** i) % 26) for i in range(5))

    return [{"words": "legacy", "mode": "normal", "history": [f"{word(first + k)}:ggggg"], "won": True,
             "saved": f"{year}-01-01T{k // 60 % 24:02d}:{k % 60:02d}:00.000Z", "regret": 0.5, "luck": 0.25}
            for k in range(n)]


def test_an_import_past_the_cap_says_what_was_kept_and_values_out_of_range_are_refused(server, browser):
    """5,000 games imported into a history of 5,000 said "Imported 5,000 games" while the
    5,000 older ones were dropped unsaid; a regret of ±1e308 (finite, so accepted) drew NaN in
    the trend chart. Now the message says what was kept and dropped, and such a value refuses
    the file, naming the game and the field."""
    from playwright.sync_api import expect

    context, page, errors = open_page(browser, server["url"], DESKTOP, "light")
    here = _won_games(5000, 2022)
    page.evaluate("games => localStorage.setItem('exact-wordle-history', JSON.stringify(games))", here)
    page.reload()
    expect(page.locator("#history-details summary")).to_have_text("All your games (5,000)")
    newer = _won_games(5000, 2024, first=5000)
    page.set_input_files("#history-import", files=[{"name": "games.json", "mimeType": "application/json",
                                                    "buffer": _games_file(newer)}])
    expect(page.locator("#history-status")).to_have_text(
        "Imported 5,000 games; this browser keeps the newest 5,000 games, so the 5,000 oldest games "
        "were dropped (0 from the file, 5,000 kept here before).")
    expect(page.locator("#history-details summary")).to_have_text("All your games (5,000)")
    kept = page.evaluate("JSON.parse(localStorage.getItem('exact-wordle-history'))")
    assert sorted(g["history"] for g in kept) == sorted(g["history"] for g in newer)  # the newest
    older = _won_games(10, 2020, first=20000)  # older than all: imported, then dropped at once
    page.set_input_files("#history-import", files=[{"name": "games.json", "mimeType": "application/json",
                                                    "buffer": _games_file(older)}])
    expect(page.locator("#history-status")).to_have_text(
        "Imported 0 games; this browser keeps the newest 5,000 games, so the 10 oldest games were "
        "dropped (10 from the file, 0 kept here before).")
    page.evaluate("localStorage.removeItem('exact-wordle-history')")
    page.reload()
    for field, value, message in (("regret", 1e308, "regret: not from 0 to 1000 guesses"),
                                  ("regret", -1.0, "regret: not from 0 to 1000 guesses"),
                                  ("luck", -1e308, "luck: not from −1000 to 1000 guesses")):
        games = _won_games(3, 2024)
        games[1][field] = value
        page.set_input_files("#history-import", files=[{"name": "games.json", "mimeType": "application/json",
                                                        "buffer": _games_file(games)}])
        expect(page.locator("#history-status")).to_have_text(f"Not imported: game 2 of the file: {message}.")
        expect(page.locator("#history-list tbody tr")).to_have_count(0)
    page.set_input_files("#history-import", files=[{"name": "games.json", "mimeType": "application/json",
                                                    "buffer": _games_file(_won_games(3, 2024))}])
    expect(page.locator("#history-status")).to_have_text("Imported 3 games.")
    assert "NaN" not in page.locator("#history-trend").inner_html()
    assert errors == []
    context.close()


def test_a_position_not_proven_in_time_can_be_searched_longer(server, browser):
    """After FUZZY then XYLYL, both all gray (946 answers: a state of the second guess, which no
    opener table holds), the position is not proven within the page's 2 s: the advice says so
    and offers to search longer, and the alternatives' note says why none is listed (no guess
    valued exactly in time; not "one guess is left"); the button asks the same position again
    with the server's longest budget (5 s), says so while it waits, then shows that position's
    advice within the 5 s and the server's grace (one request: the next guess with its
    alternatives, not two searches of 5 s each), and is not offered again for it (a new position
    offers it anew)."""
    from playwright.sync_api import expect

    from solver.web.lanes import GRACE_SECONDS

    context, page, errors = open_page(browser, server["url"], PHONE, "light")
    expect(page.locator("#suggestion")).to_have_text("salet", timeout=20_000)
    expect(page.locator("#longer-line")).to_be_hidden()  # exact, from the tree
    budgets = []
    page.on("request", lambda r: budgets.append(json.loads(r.post_data)["budget"])
            if r.url.endswith("/api/next") and r.method == "POST" else None)
    enter_row(page, 1, "fuzzy", "bbbbb", "typed")
    expect(page.locator("#remaining-count")).to_have_text(remaining_text(1352), timeout=30_000)
    expect(page.locator("#status")).to_have_text(re.compile("^Exact"))  # the opener table's
    budgets.clear()
    enter_row(page, 2, "xylyl", "bbbbb", "typed")
    expect(page.locator("#status")).to_have_text(re.compile("^Best found, not proven"), timeout=30_000)
    button = page.locator("#search-longer")
    expect(button).to_be_visible()
    expect(button).to_have_text("Search longer (up to 5 s)")
    expect(page.locator("#alternatives-section")).not_to_have_class(re.compile("waiting"), timeout=30_000)
    note = page.locator("#alternatives-note")
    expect(note).not_to_contain_text("one guess is left")
    if page.locator("#alternatives tbody tr:not(.blank)").count() == 0:  # none valued exactly in 2 s
        expect(note).to_have_text("No guess was valued exactly within the time budget: the next guess "
                                  "above is the best found.")
    audit(page, "light, search longer offered (the long list of answers open: it scrolls, by keyboard too)")
    assert budgets == [2], budgets
    budgets.clear()
    started = time.monotonic()
    button.click()
    expect(page.locator("#progress-text")).to_have_text("Searching this position (at most 5 s)…")
    expect(button).to_be_hidden()
    expect(page.locator("#alternatives-section")).not_to_have_class(re.compile("waiting"), timeout=30_000)
    took = time.monotonic() - started
    assert took <= 5 + GRACE_SECONDS, f"searching 'at most 5 s' took {took:.1f} s"
    expect(page.locator("#status")).to_have_text(re.compile("(^Best found, not proven|^Exact)"))
    expect(page.locator("#remaining-count")).to_have_text(remaining_text(946))
    expect(button).to_be_hidden()  # once per position
    assert budgets == [5], budgets
    enter_row(page, 3, "torse", "bbbbb", "typed")
    expect(page.locator("#remaining-count")).not_to_have_text(remaining_text(946), timeout=30_000)
    assert errors == []
    context.close()


# -- numbers that mean one thing (issue 58) ------------------------------------------------------
def check_table_fits(page, table: str) -> None:
    """Every column of ``table`` in view: its box does not scroll sideways, and every cell shown
    lies inside the box (a header may wrap, a number never needs a scroll)."""
    fit = page.evaluate("""(selector) => {
        const table = document.querySelector(selector), box = table.closest('.scroll') || table.parentElement;
        const edge = box.getBoundingClientRect().right;
        const cells = [...table.querySelectorAll('th, td')].filter((c) => c.getBoundingClientRect().width > 0);
        return {scroll: box.scrollWidth, width: box.clientWidth,
                outside: cells.filter((c) => c.getBoundingClientRect().right > edge + 0.5)
                              .map((c) => c.textContent.trim())};
    }""", table)
    assert fit["scroll"] <= fit["width"] and fit["outside"] == [], (table, fit)


def check_analysis_columns(page, size) -> None:
    """The analysis shows every column: all nine at 1280 px; at 390 px the move number goes
    (the rows are in order) and the answers are shown under each guess; none cut off."""
    from playwright.sync_api import expect

    heads = ["#", "guess", "answers", "V*", "Q*", "regret", "skill", "luck", "luck score"]
    shown = page.evaluate("""[...document.querySelectorAll('#analysis thead th')]
        .filter((th) => th.getBoundingClientRect().width > 0).map((th) => th.textContent.trim())""")
    assert shown == (heads if size != PHONE else [h for h in heads if h not in ("#", "answers")])
    if size == PHONE:
        for inline in page.locator("#analysis tbody .answers-inline").all():
            expect(inline).to_be_visible()
    check_table_fits(page, "#analysis")


def history_file(games) -> dict:
    return {"format": "exact-wordle-history", "version": 1, "exported": "2025-01-02T12:00:00.000Z", "games": games}


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390x844", "1280x900"])
def test_the_history_counts_every_game(server, browser, size):
    """The history's averages count every game, each by its 0–99 scores: an older page's game
    with no score (scored from its finite regret and luck), a lost game whose strict regret
    is ∞ and a hard-mode SLATE game (a guess that gave up a sure win: its finite regret) are
    all counted, none shown as "—", and the rule is said; the guesses per game (1–6 and X)
    and the streaks of wins are shown. A game whose analysis fails is kept at once (counted
    as not analysed yet), and the analysis panel shows no earlier game's rows, only what
    failed, with a button to analyse again. Every table fits the page, every column of the
    analysis in view, at 390 and at 1280 px."""
    from playwright.sync_api import expect

    from solver.evaluation.scores import skill_score

    older = [{"words": "legacy", "mode": "normal", "won": False, "saved": "2025-01-01T10:00:00.000Z",
              "history": [f"{g}:bgggg" for g in LOST], "regret": None, "luck": None,
              "skill_score": 31, "luck_score": 20},
             {"words": "legacy", "mode": "normal", "won": True, "saved": "2025-01-02T10:00:00.000Z",
              "history": ["salet:bbbbb", "courd:gybyb", "anion:bybyb", "crony:ggggg"], "regret": 0.25, "luck": -0.1}]
    skills, lucks = [31, skill_score(Fraction(1, 4))], [20, luck_score(Fraction(-1, 10))]
    context, page, errors = open_page(browser, server["url"], size, "light")
    page.set_input_files("#history-import", files=[{"name": "games.json", "mimeType": "application/json",
                                                    "buffer": json.dumps(history_file(older)).encode()}])
    expect(page.locator("#history-status")).to_have_text("Imported 2 games.")
    page.click("#paste summary")
    def steps(*pairs):
        return [{"guess": g, "feedback": f} for g, f in pairs]

    pasted = [({"grid": "Wordle 1,234 3/6*\n\n⬜⬜⬜⬜🟩\n⬜🟩⬜🟩🟩\n🟩🟩🟩🟩🟩", "guesses": "slate crane brine"},
               {"mode": "hard", "history": steps(("slate", "bbbbg"), ("crane", "bgbgg"), ("brine", "ggggg"))}),
              ({"answer": "birth", "guesses": "salet crane birth"},
               {"history": steps(("salet", "bbbby"), ("crane", "bybbb"), ("birth", "ggggg"))})]
    for fields, body in pasted:
        analysis = post(server["url"], "/api/analyse", {"words": "legacy", "budget": 2.0, **body})
        skills.append(analysis["skill_score"])
        lucks.append(analysis["luck_score"])
        page.fill("#paste-grid", fields.get("grid", ""))
        page.fill("#paste-guesses", fields["guesses"])
        page.fill("#paste-answer", fields.get("answer", ""))
        page.click("#paste-form button[type=submit]")
        expect(page.locator("#analysis tbody tr")).to_have_count(3, timeout=60_000)
        expect(page.locator("#analysis td.skill")).to_have_text([str(m["skill_score"]) for m in analysis["moves"]])
        check_analysis_columns(page, size)
    assert analysis["skill_score"] < min(m["skill_score"] for m in analysis["moves"])
    expect(page.locator("#summary .skill-note")).to_have_text(
        "Game skill is scored from the total regret of the game, not averaged over moves "
        "(game luck likewise from the total luck).")
    if size == DESKTOP:
        shot(page, "analysis-fits-1280.png", element="#analysis-section", docs=False)
    # a game played on the board whose analysis fails (the server's search past its budget)
    page.route("**/api/analyse", lambda route: route.fulfill(
        status=503, content_type="application/json",
        body=json.dumps({"error": "the search ran past its budget of 2 s and was stopped"})))
    page.click("#new-game")
    expect(page.locator("#suggestion")).to_have_text("salet", timeout=20_000)
    north = [("salet", "bbbby"), ("north", "bbggg"), ("birth", "ggggg")]
    for number, (guess, feedback) in enumerate(north, start=1):
        enter_row(page, number, guess, feedback, "typed")
    expect(page.locator("#summary")).to_have_text(
        "The analysis failed: the search ran past its budget of 2 s and was stopped.", timeout=30_000)
    expect(page.locator("#analysis tbody tr")).to_have_count(0)  # never the previous game's rows
    expect(page.locator("#result-text")).to_have_value("")
    expect(page.locator("#analysis-retry")).to_be_visible()
    expect(page.locator("#history-list tbody tr")).to_have_count(5)  # kept at once
    expect(page.locator("#history-unit")).to_contain_text(
        "1 game is not analysed yet (Open it in the list to analyse it): counted in games, won and guesses only.")
    page.unroute("**/api/analyse")
    analysis = post(server["url"], "/api/analyse", {"words": "legacy", "budget": 2.0, "history": [
        {"guess": g, "feedback": f} for g, f in north]})
    skills.append(analysis["skill_score"])
    lucks.append(analysis["luck_score"])
    page.click("#analysis-retry")
    expect(page.locator("#analysis tbody tr")).to_have_count(3, timeout=60_000)
    expect(page.locator("#analysis-retry")).to_be_hidden()
    unit = page.locator("#history-unit")
    expect(unit).to_have_text("skill and luck: 0–99, 99 best. Every game counts: a guess that gave up a sure "
                              "win (!) counts by its finite regret.")
    rounded = [str(math.floor(sum(x) / len(x) + 0.5)) for x in (skills, lucks)]  # as JS's Math.round
    for row in page.locator("#history-averages tbody tr").all():
        expect(row.locator("td")).to_have_text([re.compile("last 14|all"), "5", "80%", "3.25", *rounded])
    page.click("#history-details summary")
    list_rows = page.locator("#history-list tbody tr")
    expect(list_rows).to_have_count(5)
    shown = [[row.locator("td").nth(i).inner_text() for i in (3, 4)] for row in list_rows.all()]
    assert sorted(shown) == sorted([[str(s), str(x)] for s, x in zip(skills, lucks)]), shown
    expect(page.locator("#history-streaks")).to_have_text("Current streak: 4 · Max streak: 4 (games won in a row)")
    expect(page.locator("#history-distribution tbody th")).to_have_text(["1", "2", "3", "4", "5", "6", "X"])
    expect(page.locator("#history-distribution tbody td.n")).to_have_text(["0", "0", "3", "1", "0", "0", "1"])
    expect(page.locator("#history-trend svg polyline.chart-a")).to_have_attribute(
        "points", re.compile(r"^(\S+ ){4}\S+$"))  # all five games on the line
    for table in ("#history-averages", "#history-list", "#history-distribution"):
        check_table_fits(page, table)
    if size == PHONE:
        check_phone_layout(page)
    shot(page, f"history-counts-{size[0]}.png", element="#history-section", docs=False)
    audit(page, "light, the history with every game")
    assert errors == []
    context.close()


def test_a_keyboard_only_game_in_high_contrast(server, browser, tree):
    """A game played with the keyboard alone: Tab to *Use it*, Enter, the colours typed, Enter
    again submits the row (the focus left *Use it*: Enter does not press it again and wipe the
    row). In the high-contrast palette every colour is named as it is drawn (blue for present,
    orange for placed: the colour keys, the tiles, the analysis's squares), and named yellow
    and green again once the palette is switched back."""
    from playwright.sync_api import expect

    from solver.game.feedback import code_to_text

    game = [(guess, code_to_text(code)) for guess, code in tree.game(WON_ANSWER)]
    context, page, errors = open_page(browser, server["url"], DESKTOP, "light")
    page.click("#palette")
    expect(page.locator("html")).to_have_attribute("data-palette", "contrast")
    keys = page.locator("#keyboard .key.colour")
    expect(keys).to_have_text(["gray b", "blue y", "orange g"])
    assert [keys.nth(i).get_attribute("aria-label") for i in range(3)] == [
        "next tile gray (b or 0)", "next tile blue (y or 1)", "next tile orange (g or 2)"]
    names = {"b": "gray: not in the word", "y": "blue: in the word, elsewhere", "g": "orange: in place"}
    for number, (guess, feedback) in enumerate(game, start=1):
        expect(page.locator("#suggestion")).to_have_text(guess, timeout=20_000)
        expect(page.locator("#use-suggestion")).to_be_enabled()
        page.evaluate("document.activeElement && document.activeElement.blur(); scrollTo(0, 0)")
        page.mouse.click(2, 2)
        for _ in range(12):  # Tab to Use it, as a keyboard-only player does
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "use-suggestion":
                break
        assert page.evaluate("document.activeElement.id") == "use-suggestion"
        page.keyboard.press("Enter")
        row = page.locator("#board .row").nth(number - 1)
        expect(row.locator(".tile")).to_have_text(list(guess), ignore_case=True)
        assert page.evaluate("document.activeElement.id") == "board"
        page.keyboard.type(feedback)
        expect(row.locator(".tile").nth(0)).to_have_attribute(
            "aria-label", f"{guess[0]}, {names[feedback[0]].split(':')[0]}: tap to change the colour")
        page.keyboard.press("Enter")
        expect(row).to_have_class(re.compile(r"\bdone\b"))
        for i, (letter, colour) in enumerate(zip(guess, feedback)):
            expect(row.locator(".tile").nth(i)).to_have_attribute("aria-label", f"{letter.upper()}, {names[colour]}")
    expect(page.locator("#analysis tbody tr")).to_have_count(len(game), timeout=30_000)
    colour = {"b": "gray", "y": "blue", "g": "orange"}
    squares = page.locator("#analysis .mini")
    assert [squares.nth(i).get_attribute("aria-label") for i in range(len(game))] == [
        " ".join(colour[c] for c in feedback) for _, feedback in game]
    page.click("#palette")  # back to yellow and green, named so
    expect(keys).to_have_text(["gray b", "yellow y", "green g"])
    plain = {"b": "gray: not in the word", "y": "yellow: in the word, elsewhere", "g": "green: in place"}
    (second, colours) = game[1]
    expect(page.locator("#board .row").nth(1).locator(".tile").nth(0)).to_have_attribute(
        "aria-label", f"{second[0].upper()}, {plain[colours[0]]}")
    assert squares.nth(len(game) - 1).get_attribute("aria-label") == "green green green green green"
    assert errors == []
    context.close()


def test_a_lost_game_names_the_answers_it_may_have_been(server, browser, legacy):
    """Lost with two answers left (CATCH, BATCH, LATCH, MATCH, HATCH, DUTCH; the answer:
    WATCH): the word shown where the answer goes is every answer it may have been, "patch /
    watch", under "the answer was one of" (not the best seventh guess, PATCH, as if it were
    the answer)."""
    from playwright.sync_api import expect

    from solver.game.feedback import code_to_text, feedback_code

    guesses = ["catch", "batch", "latch", "match", "hatch", "dutch"]
    game = [(g, code_to_text(feedback_code(g, "watch"))) for g in guesses]
    left = [sum(all(feedback_code(g, a) == feedback_code(g, "watch") for g in guesses[:k]) for a in legacy.answers)
            for k in range(1, 7)]
    assert left[-1] == 2
    context, page, errors = open_page(browser, server["url"], PHONE, "light")
    expect(page.locator("#suggestion")).to_have_text("salet", timeout=20_000)
    for number, (guess, feedback) in enumerate(game, start=1):
        enter_row(page, number, guess, feedback, "typed")
        expect(page.locator("#remaining-count")).to_have_text(remaining_text(left[number - 1]), timeout=30_000)
    expect(page.locator("#advice .label")).to_have_text("the answer was one of")
    expect(page.locator("#suggestion")).to_have_text("patch / watch")
    expect(page.locator("#status")).to_have_text("Not won in six guesses: 2 answers were still possible.")
    expect(page.locator("#analysis tbody tr")).to_have_count(6, timeout=120_000)
    check_analysis_columns(page, PHONE)
    shot(page, "lost-two-left-390.png", docs=False)
    assert errors == []
    context.close()


def test_an_odd_opener_is_scored_from_the_opener_table(server, browser, legacy):
    """A game opened with the poorest opener the shipped legacy table has decided (QAJAQ once
    the table is complete), then the page's own suggestions to the answer: after the first row
    the page says how good the opener is (from the table: value, rank, the best), the next
    guess is exact from the table, and the analysis scores moves 1 and 2 with exact 0–99
    values within the page's default budget, equal to the command line's (its JSON)."""
    import subprocess
    import sys

    from playwright.sync_api import expect

    from policy_tree.opener_table import OpenerTable, TableStatus
    from solver.evaluation.scores import skill_score
    from solver.game.feedback import code_to_text, feedback_code

    table = OpenerTable.open(legacy, "normal", directory=ROOT / "artifacts" / "tables")
    exact = [row for row in table.rows if row.status is TableStatus.EXACT]
    opener = next(row for row in reversed(exact)
                  if not (ROOT / "artifacts" / "book" / f"legacy-normal-{row.opener}.msgpack").exists())
    standing = table.standing(opener.opener)
    answer = random.Random(55).choice(legacy.answers)
    context, page, errors = open_page(browser, server["url"], DESKTOP, "light")
    expect(page.locator("#suggestion")).to_have_text("salet", timeout=20_000)
    steps = []
    guess = opener.opener
    while True:
        feedback = code_to_text(feedback_code(guess, answer))
        enter_row(page, len(steps) + 1, guess, feedback, "typed")
        steps.append((guess, feedback))
        if feedback == "ggggg" or len(steps) == 6:
            break
        expect(page.locator("#error")).to_have_text("")
        if len(steps) == 1:
            expect(page.locator("#status")).to_contain_text("Exact (opener table)", timeout=20_000)
            line = page.locator("#opener-line")
            expect(line).to_contain_text(f"Opener {opener.opener.upper()}: "
                                         f"{fmt(opener.value / legacy.n_answers, 5)} guesses per game")
            expect(line).to_contain_text(f"rank {standing.rank} ")
            expect(line).to_contain_text(f"the best, SALET, {fmt(7920 / legacy.n_answers, 5)}")
        expect(page.locator("#alternatives-section")).not_to_have_class(re.compile("waiting"), timeout=30_000)
        guess = page.locator("#suggestion").inner_text().strip().lower()
    expect(page.locator("#analysis > tbody > tr:not(.why-row)")).to_have_count(len(steps), timeout=60_000)
    skills = page.locator("#analysis tbody td.skill")
    history = " ".join(f"{g}:{f}" for g, f in steps)
    done = subprocess.run([sys.executable, "-m", "tools.analyse", "--words", "legacy", "--json",
                           *history.split()], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    cli = json.loads(done.stdout)
    for number in range(min(2, len(steps))):
        move = cli["moves"][number]
        assert move["value_exact"] and move["q_total"] is not None, move
        expect(skills.nth(number)).to_have_text(str(move["skill_score"]))
        assert skill_score(Fraction(move["regret_fraction"])) == move["skill_score"]
    assert errors == []
    context.close()
