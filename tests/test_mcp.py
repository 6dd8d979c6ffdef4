"""``wordle mcp`` (solver.cli.mcp): the server run as a subprocess and driven by the official
MCP SDK's own client over stdio, offline: a scripted agent plays full games with the tools."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[1]


async def _session_run(body, *args):
    env = {key: value for key, value in os.environ.items() if key.startswith(("EXACT_WORDLE", "NUMBA"))}
    params = StdioServerParameters(command=sys.executable, args=["-m", "tools.mcp", *args], cwd=str(ROOT),
                                   env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await body(session)


def call(session, name, **arguments):
    return session.call_tool(name, arguments)


@pytest.mark.slow
def test_a_scripted_agent_plays_full_games_over_stdio():
    """The optimal agent (best_guess, then guess) gets regret 0 on every move and wins; a
    fixed suboptimal agent gets analyse's regret for the same game; bad words are tool
    errors that use no guess."""

    async def body(session):
        tools = {tool.name for tool in (await session.list_tools()).tools}
        assert tools == {"start_game", "guess", "best_guess", "analyse"}
        started = (await call(session, "start_game", answer="gland")).structured_content
        assert (started["words"], started["word_length"], started["guess_limit"]) == ("nyt-2024", 5, 6)
        game_id, moves = started["game_id"], []
        while True:
            best = (await call(session, "best_guess", game_id=game_id, top=3)).structured_content
            assert best["status"] == "exact" and len(best["alternatives"]) >= 1
            move = (await call(session, "guess", game_id=game_id, word=best["next_guess"])).structured_content
            moves.append(move)
            if move["over"]:
                break
        assert [m["guess"] for m in moves] == ["tarse", "colin", "bland", "gland"]
        assert [m["regret_fraction"] for m in moves] == ["0"] * 4 and moves[-1]["won"]
        assert moves[0]["feedback"] == "XYXXX" and moves[-1]["answer"] == "gland"
        over = await call(session, "guess", game_id=game_id, word="crane")
        assert over.is_error and "is over" in over.content[0].text
        # the fixed suboptimal agent of the worked example: crane, then gland
        game_id = (await call(session, "start_game", answer="gland")).structured_content["game_id"]
        bad = await call(session, "guess", game_id=game_id, word="qzxvw")
        assert bad.is_error and "not an allowed guess" in bad.content[0].text
        fixed = [(await call(session, "guess", game_id=game_id, word=w)).structured_content
                 for w in ("crane", "gland")]
        assert [m["regret_fraction"] for m in fixed] == ["19/2309", "1/4"] and fixed[-1]["won"]
        analysis = (await call(session, "analyse", guesses=["crane", "gland"], answer="gland")).structured_content
        assert [m["regret_finite_fraction"] for m in analysis["moves"]] == ["19/2309", "1/4"]
        assert [m["luck"] for m in analysis["moves"]] == [m["luck"] for m in fixed]
        by_feedback = (await call(session, "analyse", guesses=["tarse", "bucko"],
                                  feedback=["XXYGX", "XXYXX"])).structured_content
        assert [m["regret_finite_fraction"] for m in by_feedback["moves"]] == ["0", "0"]
        history = (await call(session, "best_guess", history="tarse:bybbb", top=0)).structured_content
        assert history["next_guess"] == "colin"

    asyncio.run(_session_run(body))


def test_bad_lists_are_status_2_before_the_server_starts():
    import subprocess

    done = subprocess.run([sys.executable, "-m", "tools.mcp", "--words", "no-such-list"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "no-such-list" in done.stderr
    from solver.cli.wordle import COMMANDS

    assert COMMANDS["mcp"][0] == "mcp"
