"""Request body limit as plain ASGI middleware (no per-request overhead on reads).

A declared ``Content-Length`` over the limit is refused before anything is
read; an undeclared (chunked) body is counted as it arrives and refused as
soon as it passes the limit, so an oversize body is never buffered whole."""

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi.responses import JSONResponse

from reliability_api.errors import ApiError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def too_large(max_bytes: int) -> ApiError:
    return ApiError(413, "body_too_large", f"request body over {max_bytes} bytes")


def declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else None
    return None


class BodySizeLimit:
    """Refuse request bodies over ``max_bytes`` with 413 and the API's error body."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in _BODY_METHODS:
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            error = too_large(self.max_bytes)
            response = JSONResponse(
                status_code=413, content={"error": {"code": error.code, "message": error.message}}
            )
            await response(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # An HTTPException passes through FastAPI's body parsing unchanged
                    # and is turned into the 413 error body by the app's handler.
                    raise too_large(self.max_bytes)
            return message

        await self.app(scope, counted, send)
