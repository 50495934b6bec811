"""The HTTP wire format: JSON answers exactly as discord.py expects them, and request
bodies (JSON, or multipart with ``payload_json`` and ``files[n]``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .errors import DiscordAPIError


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON response with exactly ``Content-Type: application/json``.

    discord.py only decodes bodies whose content-type header *equals* that string, and
    aiohttp's ``json_response`` would append ``; charset=utf-8``.
    """
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    """204, what Discord answers for actions without a body."""
    return web.Response(status=204)


@dataclass
class Upload:
    """A file part of a multipart request (``files[n]``)."""

    index: int
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class RequestRecord:
    """One REST request the bot made, for debugging and assertions."""

    method: str
    path: str
    status: int


async def read_body(request: web.Request) -> tuple[dict[str, Any], dict[int, Upload]]:
    """JSON body, or multipart with ``payload_json`` and ``files[n]`` parts."""
    uploads: dict[int, Upload] = {}
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
            elif match := re.fullmatch(r"files\[(\d+)\]", name):
                index = int(match.group(1))
                data = await part.read(decode=False)  # type: ignore[union-attr]
                uploads[index] = Upload(
                    index,
                    getattr(part, "filename", None) or f"file{index}",
                    part.headers.get("Content-Type"),
                    bytes(data),
                )
            else:
                raise DiscordAPIError(400, 50035, f"Invalid Form Body: unexpected part {name!r}")
        return payload, uploads
    body = await read_json(request)
    if body is None:
        return {}, uploads
    if not isinstance(body, dict):
        raise DiscordAPIError(400, 50035, "Invalid Form Body", {"_errors": "expected an object"})
    return body, uploads


async def read_json(request: web.Request) -> Any:
    """The JSON body, ``None`` if there is none."""
    if not request.can_read_body:
        return None
    try:
        return await request.json()
    except json.JSONDecodeError as exc:
        raise DiscordAPIError(400, 50109, "The request body contains invalid JSON.") from exc
