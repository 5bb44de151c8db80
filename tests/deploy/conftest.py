"""A real S3-compatible server on loopback (moto, ``tests.deploy.s3_server``).

CI (``.ci/run``) starts one and names it in ``RELIABILITY_TEST_S3_ENDPOINT``,
which also makes these tests mandatory; without it a session starts its own on
a free port, and skips with one line if moto is not installed."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import pytest

from tests.conftest import PROJECT_ROOT

S3_ENV = {"AWS_ACCESS_KEY_ID": "reliability-test", "AWS_SECRET_ACCESS_KEY": "reliability-test", "AWS_DEFAULT_REGION": "us-east-1"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_listening(port: int, process: subprocess.Popen[bytes] | None, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the S3 server exited with {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the S3 server did not listen on 127.0.0.1:{port} within {seconds} s")


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    given = os.environ.get("RELIABILITY_TEST_S3_ENDPOINT", "")
    if given:
        yield given
        return
    try:
        import moto  # noqa: F401
    except ImportError:
        pytest.skip("moto is not installed (pip install -e '.[dev]'); CI starts the S3 server")
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.deploy.s3_server", "--port", str(port)],
        cwd=PROJECT_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_until_listening(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        # The server we started, stopped: asked first, then killed if it has not gone within
        # 10 s (on a loaded machine moto's server can take longer; the session's last test
        # must not fail for it).
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture
def s3_root(s3_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh bucket; returns ``s3://<bucket>/warehouse``, with the standard AWS
    variables set so pyarrow and boto3 (and any child process) reach the server."""
    import boto3

    for key, value in {**S3_ENV, "AWS_ENDPOINT_URL_S3": s3_endpoint}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    bucket = f"reliability-{uuid.uuid4().hex[:12]}"
    boto3.client("s3").create_bucket(Bucket=bucket)
    return f"s3://{bucket}/warehouse"
