"""Build the app from the environment and serve it: ``make api``."""

import argparse
import os
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI

from reliability_api.app import ApiSettings, create_app
from reliability_core.clock import Clock, parse_clock_override
from reliability_core.settings import project_root, settings
from reliability_core.stand_in.web import offline_fetcher
from reliability_core.web.fetch import SafeFetcher, live_fetcher


def _describe_models() -> dict[str, str]:
    """The model assigned to each step under this environment (or offline-rules)."""
    from reliability_core.wiring import build_gateway

    return build_gateway(os.environ, cache_dir=settings().cache_dir, settings=settings()).describe()


def _fetcher_factory(corpus_dir: Path) -> Callable[[Clock], SafeFetcher]:
    """The pipeline's safe fetcher: the live web with a search key, else the demo corpus."""
    if os.environ.get("PERPLEXITY_API_KEY"):
        return live_fetcher
    return lambda clock: offline_fetcher(corpus_dir, clock)


def app_from_environment() -> FastAPI:
    chosen = settings()
    return create_app(
        ApiSettings(
            warehouse_root=chosen.warehouse,
            changelog_path=project_root() / "docs" / "CHANGELOG-METHOD.md",
            clock=parse_clock_override(chosen.now),
            describe_models=_describe_models,
            offline="ANTHROPIC_API_KEY" not in os.environ and "OPENAI_API_KEY" not in os.environ,
            registry_path=chosen.registry_path,
            fetcher_factory=_fetcher_factory(chosen.corpus_dir),
        )
    )


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description="Serve the Reliability API")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"]
    )
    args = parser.parse_args(argv)
    uvicorn.run(app_from_environment(), host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()
