"""Every answer's security headers, and a JSON 500 for an unexpected error, as one plain
ASGI middleware outside all the others.

Why one middleware and not an ``exception_handler(Exception)``: Starlette sends the
answer of such a handler from its outermost ``ServerErrorMiddleware``, outside every
middleware the app adds, so that 500 would carry none of these headers. Here the error
is caught inside, answered with the API's error body (no traceback leaves the process:
it goes to the log), and the headers are set on it like on any other answer.

The headers (OWASP Secure Headers Project's recommendations for an API):
``X-Content-Type-Options: nosniff`` (a browser never guesses a type, e.g. runs a JSON
body as script), ``X-Frame-Options: DENY`` with CSP ``frame-ancestors 'none'`` (no page
frames the API), ``Referrer-Policy: no-referrer``, and a ``Content-Security-Policy``
that lets nothing load (``default-src 'none'``) except on the offline docs pages, which
need their own scripts and styles (fastapi-offline serves Swagger UI and ReDoc from the
app itself), the inline script that starts them, ``data:`` images (Swagger UI's icons)
and a ``blob:`` worker (ReDoc's search)."""

import logging

from fastapi.responses import JSONResponse

from reliability_api.limits import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
_COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


def content_security_policy(path: str, docs_paths: frozenset[str]) -> str:
    """The policy for an answer at ``path``: the docs pages' or the API's strict one."""
    return DOCS_CSP if path in docs_paths else API_CSP


def single_vary(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The headers with one ``Vary`` naming each field once (case-insensitively, first
    spelling kept). Why: an endpoint that picks its own encoding says ``Vary:
    Accept-Encoding`` and the gzip middleware appends the same again."""
    fields: list[str] = []
    for name, value in headers:
        if name.lower() == b"vary":
            for field in value.decode("latin-1").split(","):
                field = field.strip()
                if field and field.lower() not in {f.lower() for f in fields}:
                    fields.append(field)
    if not fields:
        return headers
    others = [(n, v) for n, v in headers if n.lower() != b"vary"]
    return [*others, (b"vary", ", ".join(fields).encode("latin-1"))]


class HeadAsGet:
    """HEAD answered wherever GET is (RFC 9110 §9.3.2): the request goes in as GET and the
    answer goes out with the GET's status and headers (``Content-Length`` of the body a GET
    would get) and no body. FastAPI routes declared with ``@app.get`` answer only GET."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_without_body)


class SecurityHeaders:
    """Set the security headers on every answer; answer an unexpected error with a JSON 500."""

    def __init__(self, app: ASGIApp, docs_paths: frozenset[str]) -> None:
        self.app = app
        self.docs_paths = docs_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = content_security_policy(str(scope.get("path", "")), self.docs_paths).encode("latin-1")
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = single_vary(list(message.get("headers", [])))
                names = {name.lower() for name, _ in headers}
                extra = [(n, v) for n, v in [*_COMMON, (b"content-security-policy", csp)] if n not in names]
                message["headers"] = [*headers, *extra]
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            log.exception("unexpected error answering %s %s", scope.get("method"), scope.get("path"))
            if started:  # the status line is out: nothing better to do than end the answer
                raise
            response = JSONResponse(
                status_code=500,
                content={"error": {"code": "internal_error", "message": "an unexpected error; it has been logged"}},
            )
            await response(scope, receive, send_with_headers)
