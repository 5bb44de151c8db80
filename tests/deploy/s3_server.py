"""A real S3-compatible server on loopback for the object-storage tests: moto's
server, handling one request at a time.

``python -m tests.deploy.s3_server --port 5990`` (what ``.ci/run`` starts).
moto checks ``If-None-Match: *`` and then stores the object in two separate
Python statements; on its stock threaded server two racing PUTs could both
pass the check. Real S3 makes the conditional PUT atomic; one lock around the
application gives moto the same guarantee (connections stay threaded, so HTTP
keep-alive and ``Expect: 100-continue`` work as with S3)."""

from __future__ import annotations

import argparse
import os
import threading
from collections.abc import Callable, Iterable
from typing import Any

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from moto.server import MotoRequestHandler
from werkzeug.serving import run_simple


class OneAtATime:
    """A WSGI application that lets one request at a time into ``inner``."""

    def __init__(self, inner: Callable[..., Iterable[bytes]]) -> None:
        self.inner = inner
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        with self.lock:
            return list(self.inner(environ, start_response))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="moto's S3 server, one request at a time")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5990)
    args = parser.parse_args(argv)
    os.environ.setdefault("MOTO_PORT", str(args.port))
    application = OneAtATime(DomainDispatcherApplication(create_backend_app))
    run_simple(args.host, args.port, application, threaded=True, request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()
