"""The API as ``reliability-api`` serves it, plus one trivial endpoint, for
``bench_api_latency``: the same app (same middleware), the same uvicorn server
and process, so the two endpoints' server CPU and throughput compare the
report-read path against the framework's own floor.

Run by the benchmark as ``python -m benchmarks.api_bench_server --port N``;
the environment names the warehouse and the clock as for the real server."""

import argparse

import uvicorn

from reliability_api.server import app_from_environment

TRIVIAL_PATH = "/bench/trivial"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The API plus a trivial endpoint, for the latency benchmark")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    app = app_from_environment()

    @app.get(TRIVIAL_PATH, include_in_schema=False)
    def trivial() -> dict[str, bool]:
        return {"ok": True}

    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
