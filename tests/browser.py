"""A real headless browser for the tests: Debian's chromium, driven over the DevTools
protocol (a websocket, with aiohttp's client) to open a page, read it and shoot it."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import shutil
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium; .ci/run installs it"
)
# As the machine's notes say: headless, and no calls home (this network refuses them).
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1920,1080",
    "--remote-debugging-port=0",
)  # fmt: skip


class Page:
    def __init__(self, socket: aiohttp.ClientWebSocketResponse, session: str) -> None:
        self.socket = socket
        self.session = session
        self.ids = itertools.count(1000)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        await self.socket.send_json(
            {"id": number, "method": method, "params": params, "sessionId": self.session}
        )
        async for message in self.socket:
            answer = json.loads(message.data)
            if answer.get("id") == number:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result
        raise RuntimeError("the browser closed the connection")

    async def evaluate(self, expression: str) -> Any:
        found = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return found["result"].get("value")

    async def text(self, selector: str = "body") -> str:
        found = await self.evaluate(
            f"(document.querySelector({json.dumps(selector)}) || {{}}).innerText || ''"
        )
        return str(found)

    async def wait_for_text(self, needle: str, timeout: float, selector: str = "body") -> float:
        """Seconds until ``needle`` shows in ``selector``'s text."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        async with asyncio.timeout(timeout):
            while needle not in await self.text(selector):
                await asyncio.sleep(0.05)
        return loop.time() - started

    async def screenshot(self, path: Path) -> None:
        shot = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory() as profile:
        process = await asyncio.create_subprocess_exec(
            CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert process.stderr is not None
        try:
            async with asyncio.timeout(30):
                while True:
                    line = (await process.stderr.readline()).decode()
                    assert line, "chromium ended before it listened"
                    if line.startswith("DevTools listening on "):
                        address = line.split(" on ", 1)[1].strip()
                        break
            # Keep reading its stderr, or a chatty browser fills the pipe and stalls.
            drain = asyncio.get_running_loop().create_task(process.stderr.read())
            async with (
                aiohttp.ClientSession() as http,
                http.ws_connect(address, max_msg_size=64 * 1024 * 1024) as socket,
            ):
                yield Browser(socket)
            drain.cancel()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()


class Browser:
    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.root = Page(socket, "")

    async def _send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.root.ids)
        await self.socket.send_json({"id": number, "method": method, "params": params})
        async for message in self.socket:
            answer = json.loads(message.data)
            if answer.get("id") == number:
                result: dict[str, Any] = answer.get("result", {})
                return result
        raise RuntimeError("the browser closed the connection")

    async def open(self, url: str, zone: str | None = None) -> Page:
        """A new tab on ``url``, loaded; ``zone``: the viewer's time zone (IANA)."""
        target = await self._send("Target.createTarget", url="about:blank")
        attached = await self._send(
            "Target.attachToTarget", targetId=target["targetId"], flatten=True
        )
        page = Page(self.socket, attached["sessionId"])
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            width=1920,
            height=1080,
            deviceScaleFactor=1,
            mobile=False,
        )  # a TV's 1080p
        if zone is not None:
            await page.send("Emulation.setTimezoneOverride", timezoneId=zone)
        await page.send("Page.enable")
        await page.send("Page.navigate", url=url)
        async with asyncio.timeout(15):
            while await page.evaluate("document.readyState") != "complete":
                await asyncio.sleep(0.05)
        return page
