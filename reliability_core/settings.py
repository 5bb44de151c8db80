"""The process's settings: every ``RELIABILITY_*`` environment variable, read once,
typed and validated, with its default.

Where the data lives (``RELIABILITY_DATA_DIR``, the warehouse, the response cache),
the pinned clock, the offline and cache switches, per-step model overrides, the model
ids allowed beyond the SDKs' catalogues, provider concurrency, batch jobs and the
AVeriTeC file were each read from
``os.environ`` by whichever module needed them, with the data directory's default
worked out nine times. They are read here, once per process (``settings()``), and
passed on: the CLI, the API server and the Dagster resources take their defaults
from this object (the resources show them as config in the UI).

Not here: API keys and vendor base URLs (``ANTHROPIC_API_KEY``, ``OPENAI_BASE_URL``,
...). They are credentials and the vendors' own variables, passed to Dagster as
``EnvVar`` so the UI shows them as "environment variable" and never their values;
keeping them out means this object can be printed, logged and shown whole.

The module sits at the bottom of the core's layers (it imports nothing from the
core) so every layer, ``version`` included, may read it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

ENV_PREFIX = "RELIABILITY_"
# Families of variables gathered into one mapping each: the suffix names the key.
MODEL_PREFIX = f"{ENV_PREFIX}MODEL_"
CONCURRENCY_PREFIX = f"{ENV_PREFIX}CONCURRENCY_"
_PACKAGE_PARENT = Path(__file__).resolve().parent.parent


def source_checkout() -> Path | None:
    """The source checkout this package runs from (the directory holding its
    ``pyproject.toml``), or None when it is installed (site-packages has none)."""
    return _PACKAGE_PARENT if (_PACKAGE_PARENT / "pyproject.toml").is_file() else None


def project_root() -> Path:
    """The project the process works for: the source checkout, else the working directory."""
    return source_checkout() or Path.cwd()


def default_data_dir() -> Path:
    """The data directory when ``RELIABILITY_DATA_DIR`` is unset: the checkout's
    ``data/`` when running from a source checkout, otherwise ``./data`` of the working
    directory (an installed package carries no data: the registry, corpus and gold sets
    are the operator's)."""
    return project_root() / "data"


def default_averitec_path() -> Path:
    """``../shared/data/averitec/dev.json`` beside the project (CC BY-NC 4.0: read in
    place, never copied into the project)."""
    return project_root().parent / "shared" / "data" / "averitec" / "dev.json"


class SettingsError(ValueError):
    """An environment variable holds a value the settings refuse; the message names it."""


class Settings(BaseSettings):
    """Every ``RELIABILITY_*`` variable. A field ``x`` is ``RELIABILITY_X``; an empty
    variable counts as unset. Paths left unset derive from ``data_dir``."""

    # The prefix for readers of the config; ``_Environment`` names each variable with ``env_name``.
    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, frozen=True, extra="forbid")

    data_dir: Path = Field(
        default_factory=default_data_dir,
        description="Where the registry (subjects.yaml), corpus, gold sets, warehouse and cache live. "
        "Default: the checkout's data/ from a source checkout, else ./data of the working directory",
    )
    warehouse: str = Field(
        description="Warehouse root: a local path or a pyarrow.fs URL (s3://, gs://). Default: <data_dir>/warehouse"
    )
    cache_dir: Path = Field(description="Durable content-addressed response cache. Default: <data_dir>/cache")
    now: str = Field(
        default="",
        description="Pins the clock for the whole run (ISO 8601, e.g. 2026-11-30T12:00:00Z; a time without "
        "a zone is UTC). Default: the system clock (the Dagster code location pins offline runs to the corpus date)",
    )
    offline: bool = Field(default=False, description="Every step on the offline stand-in, even with keys set")
    cache_bypass: bool = Field(default=False, description="Make fresh model and search calls (still writing the cache)")
    models: dict[str, str] = Field(
        default_factory=dict,
        description="Per-step model overrides from RELIABILITY_MODEL_<STEP>=<provider>:<model>[@<base_url>], "
        "keyed by step (judge_b); parsed by providers/assignment",
    )
    concurrency: dict[str, int] = Field(
        default_factory=dict,
        description="Concurrent calls per provider from RELIABILITY_CONCURRENCY_<PROVIDER>=n "
        "(ANTHROPIC, OPENAI, OPENAI_COMPATIBLE, OFFLINE_RULES). Default: the gateway's table",
    )
    batch_jobs: list[str] = Field(
        default_factory=list,
        description="Comma-separated jobs whose model calls go through the vendors' batch APIs at batch prices",
    )
    allowed_models: list[str] = Field(
        default_factory=list,
        description="Comma-separated model ids to accept although the installed anthropic/openai SDK does not "
        "list them (a model released after the SDK); any other id an Anthropic or OpenAI step is assigned is "
        "refused at start-up",
    )
    averitec: Path = Field(
        default_factory=default_averitec_path,
        description="The AVeriTeC dev set (read in place). Default: ../shared/data/averitec/dev.json beside the project",
    )
    experiment_same_family_judges: bool = Field(
        default=False,
        description="Run judges of one model family as a recorded experiment (the method version says so)",
    )
    git_url: str = Field(
        default="",
        description="The repository the UI's code references link to (e.g. https://github.com/<org>/reliability); "
        "empty: this machine's files",
    )
    git_branch: str = Field(default="main", description="The branch those links point at")
    debug: bool = Field(
        default=False,
        description="The `reliability` command shows the Python traceback of an error (as its --debug flag does) "
        "instead of the one-line message",
    )

    @model_validator(mode="before")
    @classmethod
    def _paths_under_the_data_dir(cls, values: Any) -> Any:
        if not isinstance(values, dict):
            return values
        data_dir = Path(values.get("data_dir") or default_data_dir())
        return {
            "warehouse": str(data_dir / "warehouse"),
            "cache_dir": data_dir / "cache",
            **{k: v for k, v in values.items() if v not in (None, "")},
            "data_dir": data_dir,
        }

    @field_validator("now")
    @classmethod
    def _now_is_a_time(cls, value: str) -> str:
        if value:
            try:
                datetime.fromisoformat(value)
            except ValueError:
                raise ValueError("expected an ISO 8601 time, e.g. 2026-11-30T12:00:00Z") from None
        return value

    @field_validator("batch_jobs", "allowed_models", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        return [job.strip() for job in value.split(",") if job.strip()] if isinstance(value, str) else value

    @property
    def registry_path(self) -> Path:
        """The subject registry: ``<data_dir>/subjects.yaml``."""
        return self.data_dir / "subjects.yaml"

    @property
    def corpus_dir(self) -> Path:
        """The offline demo corpus: ``<data_dir>/corpus``."""
        return self.data_dir / "corpus"

    @property
    def gold_dir(self) -> Path:
        """The gold sets: ``<data_dir>/gold``."""
        return self.data_dir / "gold"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Arguments first, then the process environment; no .env or secrets files.
        return (init_settings, _Environment(settings_cls, os.environ))

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Settings:
        """The settings an environment mapping gives (a test's explicit values), without
        reading the process environment; a bad value raises ``SettingsError``."""
        try:
            return cls.model_validate(_Environment(cls, environ)())
        except ValidationError as exc:
            raise SettingsError(_explain(exc)) from None


class _Environment(PydanticBaseSettingsSource):
    """``RELIABILITY_<FIELD>`` for each field, and the ``RELIABILITY_MODEL_<STEP>`` and
    ``RELIABILITY_CONCURRENCY_<PROVIDER>`` families gathered into their mappings."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        self.environ = environ

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        key = env_name(field_name)
        return self.environ.get(key) or None, key, False

    def __call__(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name, field in self.settings_cls.model_fields.items():
            if name not in ("models", "concurrency"):
                value, _, _ = self.get_field_value(field, name)
                if value is not None:
                    values[name] = value
        models = _family(self.environ, MODEL_PREFIX, lambda suffix: suffix.lower())
        concurrency = _family(self.environ, CONCURRENCY_PREFIX, lambda suffix: suffix.lower().replace("_", "-"))
        return values | ({"models": models} if models else {}) | ({"concurrency": concurrency} if concurrency else {})


def _family(environ: Mapping[str, str], prefix: str, key: Callable[[str], str]) -> dict[str, str]:
    return {key(name.removeprefix(prefix)): value for name, value in environ.items() if name.startswith(prefix) and value}


def env_name(field_name: str, key: str = "") -> str:
    """The environment variable behind a field (and a key of its mapping)."""
    if field_name == "models":
        return f"{MODEL_PREFIX}{key.upper()}"
    if field_name == "concurrency":
        return f"{CONCURRENCY_PREFIX}{key.upper().replace('-', '_')}"
    return f"{ENV_PREFIX}{field_name.upper()}"


def _explain(exc: ValidationError) -> str:
    lines = []
    for error in exc.errors():
        field, *rest = [str(part) for part in error["loc"]] or ["?"]
        shown = env_name(field, rest[0] if rest else "")
        lines.append(f"{shown}={error.get('input')!r}: {error['msg']}")
    return "bad settings: " + "; ".join(lines)


@lru_cache(maxsize=1)
def settings() -> Settings:
    """The process's settings, read from the environment on first use. Tests that
    change the environment call ``settings.cache_clear()``."""
    try:
        return Settings()
    except ValidationError as exc:
        raise SettingsError(_explain(exc)) from None
