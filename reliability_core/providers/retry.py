"""Retries for model and search calls.

429, 5xx, timeouts and dropped connections are retried with exponential
backoff and full jitter, honouring ``Retry-After`` (seconds or an HTTP date),
bounded both in attempts and in total waiting time; then one clear error that
names the step and the provider. When nothing could be reached at all
(every attempt a failed connection, or the key refused with 401/403) the
error is ``ProviderUnreachableError``, which fails the subject; otherwise it
is a ``ProviderCallError`` that stays with the one item. ``sleep`` and the
random source are injectable so tests neither sleep nor flake.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TypeVar

from reliability_core.providers.errors import (
    UNREACHABLE_STATUSES,
    PermanentProviderError,
    ProviderCallError,
    ProviderUnreachableError,
    TransientProviderError,
)

T = TypeVar("T")

# Statuses worth retrying: request timeout, conflict/lock, rate limit, server faults.
RETRYABLE_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})


def is_retryable_status(status: int) -> bool:
    """429 and 5xx (and the two timeout/lock statuses) are retried; other 4xx are not."""
    return status in RETRYABLE_STATUSES or status >= 500


def http_status_error(
    provider: str, status: int, detail: str, *, headers: Mapping[str, str], request_id: str | None
) -> TransientProviderError | PermanentProviderError:
    """A vendor's HTTP error answer as a provider error: transient, with the server's
    ``retry-after``, for a status worth retrying (``is_retryable_status``), permanent
    otherwise. The message names the provider, the status and the request id, so every
    vendor's errors read alike."""
    message = f"{provider} HTTP {status}" + (f" (request id {request_id})" if request_id else "") + f": {detail}"
    if is_retryable_status(status):
        return TransientProviderError(
            message, status=status, retry_after=retry_after_from_headers(headers), request_id=request_id
        )
    return PermanentProviderError(message, status=status, request_id=request_id)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date.
    Unparseable or absent gives ``None``; a date in the past gives 0."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = now or datetime.now(UTC)
    return max(0.0, (when - current).total_seconds())


def retry_after_from_headers(headers: Mapping[str, str]) -> float | None:
    """``retry-after-ms`` (OpenAI) wins over ``Retry-After``."""
    lowered = {k.lower(): v for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    return parse_retry_after(lowered.get("retry-after"))


@dataclass
class RetryPolicy:
    """Bounded exponential backoff with full jitter.

    Attempt ``n`` (from 1) waits ``uniform(0, min(max_delay, base_delay * 2**(n-1)))``
    unless the server sent ``Retry-After``, which is honoured up to ``max_delay``.
    Gives up after ``max_attempts`` calls or when the next wait would take the
    total waited beyond ``max_total_seconds``.
    """

    max_attempts: int = 5
    base_delay: float = 1.0
    max_delay: float = 60.0
    max_total_seconds: float = 180.0
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    rng: random.Random = field(default_factory=random.Random)

    def delay_for(self, attempt: int, retry_after: float | None) -> float:
        """How long to wait after failed attempt number ``attempt``."""
        if retry_after is not None:
            return min(retry_after, self.max_delay)
        ceiling = min(self.max_delay, self.base_delay * (2 ** (attempt - 1)))
        return self.rng.uniform(0.0, ceiling)

    async def call(self, func: Callable[[], Awaitable[T]], *, step: str, provider: str) -> T:
        """Run ``func`` with retries; raise ``ProviderCallError`` (or
        ``ProviderUnreachableError``) naming step and provider."""
        waited = 0.0
        attempt = 0
        every_attempt_unconnected = True
        while True:
            attempt += 1
            try:
                return await func()
            except PermanentProviderError as exc:
                if exc.status in UNREACHABLE_STATUSES:
                    raise ProviderUnreachableError(
                        f"provider {provider!r} cannot be reached: it refused the credentials "
                        f"(HTTP {exc.status}) at step {step!r}: {exc}",
                        step=step,
                        provider=provider,
                        attempts=attempt,
                    ) from exc
                raise ProviderCallError(
                    f"step {step!r}: provider {provider!r} failed permanently: {exc}",
                    step=step,
                    provider=provider,
                    attempts=attempt,
                    request_id=exc.request_id,
                ) from exc
            except TransientProviderError as exc:
                every_attempt_unconnected = every_attempt_unconnected and exc.connection
                delay = self.delay_for(attempt, exc.retry_after)
                if attempt >= self.max_attempts or waited + delay > self.max_total_seconds:
                    if every_attempt_unconnected:
                        raise ProviderUnreachableError(
                            f"provider {provider!r} cannot be reached: {attempt} connection attempts "
                            f"failed at step {step!r}: {exc}",
                            step=step,
                            provider=provider,
                            attempts=attempt,
                        ) from exc
                    raise ProviderCallError(
                        f"step {step!r}: provider {provider!r} still failing after {attempt} attempts "
                        f"and {waited:.1f}s of backoff: {exc}",
                        step=step,
                        provider=provider,
                        attempts=attempt,
                        request_id=exc.request_id,
                    ) from exc
                waited += delay
                await self.sleep(delay)
