"""``croupier web`` (issue 32): its own process serving the pages over the bot's database
opened read-only, on the port asked for; clear refusals for a database the bot has not
made and for a port already taken; and ``croupier run`` serving the pages in-process
when ``CROUPIER_WEB_PORT`` is set."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from pydantic import ValidationError

from bot.cli import WebRefused, run_with_web
from bot.config import Settings
from bot.settings.service import Manager, ServerConfig
from bot.web.app import CONTENT_SECURITY_POLICY
from storage import Store
from tests.e2e import make_bot

ROOT = Path(__file__).resolve().parent.parent
MOD = Manager(1, "mod", manages_server=True)
GUILD = 31


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def made_store(path: Path) -> str:
    """A store with one server's web on; its slug."""
    store = await Store.open(path)
    try:
        return (await ServerConfig(store).set_web(MOD, GUILD, True)).slug
    finally:
        await store.close()


def croupier(tmp_path: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    # In a folder of its own: no .env of the developer's is read.
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "web", *args], cwd=tmp_path, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env})


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


async def test_croupier_web_serves_the_pages(tmp_path: Path, processes: list) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    slug = await made_store(database)
    port = free_port()
    web = croupier(tmp_path, CROUPIER_DATABASE=str(database), CROUPIER_WEB_PORT=str(port))
    processes.append(web)
    assert web.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(web.stdout.readline), 30)
    assert line.startswith(f"Serving the web pages at http://127.0.0.1:{port}/"), line
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/s/{slug}/") as response:
            assert response.status == 200
            assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
            assert "<h1>" in await response.text()
        async with session.get(f"http://127.0.0.1:{port}/s/{'x' * 22}/") as response:
            assert response.status == 404
    web.send_signal(signal.SIGINT)
    assert await asyncio.to_thread(web.wait, 30) == 0
    assert "Traceback" not in (web.stderr.read() if web.stderr else "")


async def test_croupier_web_refuses_a_database_the_bot_has_not_made(
        tmp_path: Path, processes: list) -> None:
    missing = tmp_path / "none.sqlite3"
    web = croupier(tmp_path, "--port", str(free_port()), CROUPIER_DATABASE=str(missing))
    processes.append(web)
    _, err = await asyncio.to_thread(web.communicate, timeout=30)
    assert web.returncode == 1 and "No web pages:" in err and "Traceback" not in err
    assert not missing.exists()


async def test_croupier_web_refuses_a_port_taken(tmp_path: Path, processes: list) -> None:
    database = tmp_path / "bot.sqlite3"
    await made_store(database)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        web = croupier(tmp_path, "--port", str(port), CROUPIER_DATABASE=str(database))
        processes.append(web)
        _, err = await asyncio.to_thread(web.communicate, timeout=30)
    assert web.returncode == 1 and f"cannot listen at 127.0.0.1:{port}" in err
    assert "Traceback" not in err


async def test_croupier_run_serves_the_pages_in_process(fake_discord, tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    slug = await made_store(database)
    bot = make_bot(database)
    port = free_port()
    fake_discord.add_guild("Casino")
    running = asyncio.create_task(
        run_with_web(bot, fake_discord.token, bot.settings, port))
    try:
        for _ in range(1500):  # the bot logs in to the fake Discord, the web listens
            if bot.is_ready() or running.done():
                break
            await asyncio.sleep(0.02)
        assert bot.is_ready()
        async with aiohttp.ClientSession() as session, \
                session.get(f"http://127.0.0.1:{port}/s/{slug}/") as response:
            assert response.status == 200
    finally:
        await bot.close()
        await asyncio.wait_for(running, 30)
    # Both stopped together: the port is free again.
    with socket.socket() as again:
        again.bind(("127.0.0.1", port))


def test_the_web_settings_read_blank_as_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    # As .env.example leaves them.
    monkeypatch.setenv("CROUPIER_WEB_PORT", "")
    monkeypatch.setenv("CROUPIER_WEB_URL", " ")
    settings = Settings(_env_file=None)
    assert settings.web_port is None and settings.web_url is None
    assert settings.web_host == "127.0.0.1"
    monkeypatch.setenv("CROUPIER_WEB_PORT", "70000")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


async def test_croupier_run_refuses_a_web_port_taken_before_connecting(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    await made_store(database)
    bot = make_bot(database)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(WebRefused) as refused:
            await run_with_web(bot, "no token needed", bot.settings, taken.getsockname()[1])
    assert isinstance(refused.value.__cause__, OSError)
    assert not bot.is_ready()
