"""A model on loopback speaking OpenAI's chat-completions API, plain and streamed (as
verifiers' clients ask), answering each conversation with ``answer(messages)``: the
trainers' and evaluators' own clients run against it without a GPU or the network."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web

Answer = Callable[[list[dict[str, Any]]], str]


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-loopback", "object": "chat.completion.chunk",
            "created": int(time.time()), "model": "loopback",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip


USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _app(answer: Answer, asked: list[list[dict[str, Any]]]) -> web.Application:
    async def chat(request: web.Request) -> web.StreamResponse:
        body = await request.json()
        asked.append(body["messages"])
        text = answer(body["messages"])
        if not body.get("stream"):
            return web.json_response({
                "id": "chatcmpl-loopback", "object": "chat.completion",
                "created": int(time.time()), "model": "loopback", "usage": USAGE,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": text}}]})  # fmt: skip
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        pieces = [_chunk({"role": "assistant", "content": ""}), _chunk({"content": text}),
                  _chunk({}, "stop"), {**_chunk({}), "choices": [], "usage": USAGE}]  # fmt: skip
        for piece in pieces:
            await response.write(f"data: {json.dumps(piece)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    app = web.Application()
    app.add_routes([web.post("/v1/chat/completions", chat)])
    return app


@contextmanager
def model_server(answer: Answer) -> Iterator[tuple[str, list[list[dict[str, Any]]]]]:
    """``(base_url, asked)``: the server's ``.../v1`` URL and every conversation sent."""
    loop = asyncio.new_event_loop()
    asked: list[list[dict[str, Any]]] = []
    runner = web.AppRunner(_app(answer, asked), access_log=None)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/v1", asked
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()
