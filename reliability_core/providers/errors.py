"""Errors of the provider layer.

Providers raise ``TransientProviderError`` for faults worth retrying (429,
5xx, timeouts, dropped connections) and ``PermanentProviderError`` for the
rest; the retry policy turns exhausted retries into ``ProviderCallError``, or
into ``ProviderUnreachableError`` when the provider could not be reached at
all (every attempt a failed connection, or the key refused).
The gateway raises ``ModelOutputError`` when output stays invalid after the
repair attempt, ``ModelRefusalError`` for refusals and empty outputs and
``ModelTruncatedError`` when the answer is still cut off after the retry with
a larger budget. Every final error names the step and the provider, and the
vendor's request id when there was one.

``ItemFailure`` is the base of the failures that stay with the one document or
claim they hit (issue 14: "a failure stays with the item it hit"): callers
record them on that item with ``reason``. ``ProviderUnreachableError`` is not
one of them: it fails the subject's asset with one clear line.
"""

from __future__ import annotations


class ProviderError(RuntimeError):
    """Base of every provider-layer error."""


class TransientProviderError(ProviderError):
    """A fault that may go away on retry; ``retry_after`` is the server's hint in seconds.
    ``connection`` marks a failed connection (nothing answered), which the retry
    policy reports as an unreachable provider when every attempt failed that way."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        connection: bool = False,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.connection = connection
        self.request_id = request_id


class PermanentProviderError(ProviderError):
    """A fault retrying will not fix (bad request, bad key, unknown model)."""

    def __init__(self, message: str, *, status: int | None = None, request_id: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.request_id = request_id


# A refused key or a forbidden account fails every call, not one item.
UNREACHABLE_STATUSES = frozenset({401, 403})


class ItemFailure(ProviderError):
    """A model call that failed for one item (document, claim): recorded on that item
    with ``reason``, counted in the report; the subject goes on."""

    reason: str = "provider error"

    def __init__(self, message: str, *, step: str, provider: str, request_id: str | None = None) -> None:
        super().__init__(message)
        self.step = step
        self.provider = provider
        self.request_id = request_id


class ProviderCallError(ItemFailure):
    """A call failed for good: retries exhausted or a permanent fault."""

    reason = "provider error"

    def __init__(
        self, message: str, *, step: str, provider: str, attempts: int, request_id: str | None = None
    ) -> None:
        super().__init__(message, step=step, provider=provider, request_id=request_id)
        self.attempts = attempts


class ModelOutputError(ItemFailure):
    """Output was not valid JSON for the schema, even after the one repair attempt."""

    reason = "invalid output"

    def __init__(
        self,
        message: str,
        *,
        step: str,
        provider: str,
        model: str,
        last_error: str,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message, step=step, provider=provider, request_id=request_id)
        self.model = model
        self.last_error = last_error


class ModelRefusalError(ItemFailure):
    """The model refused, or returned nothing; ``refusal`` says what it said,
    ``category`` and ``explanation`` are the vendor's (Anthropic ``stop_details``)."""

    reason = "refused"

    def __init__(
        self,
        message: str,
        *,
        step: str,
        provider: str,
        model: str,
        refusal: str,
        category: str | None = None,
        explanation: str | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message, step=step, provider=provider, request_id=request_id)
        self.model = model
        self.refusal = refusal
        self.category = category
        self.explanation = explanation


class ModelTruncatedError(ItemFailure):
    """The answer was cut off (output budget or context window) even after one retry
    with a larger budget; what was written is never used."""

    reason = "truncated"

    def __init__(
        self,
        message: str,
        *,
        step: str,
        provider: str,
        model: str,
        stop: str,
        max_output_tokens: int,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message, step=step, provider=provider, request_id=request_id)
        self.model = model
        self.stop = stop
        self.max_output_tokens = max_output_tokens


class ProviderUnreachableError(ProviderError):
    """The provider could not be reached at all (no connection, or the key refused):
    every item would fail the same way, so the subject's asset fails with this one line."""

    def __init__(self, message: str, *, step: str, provider: str, attempts: int) -> None:
        super().__init__(message)
        self.step = step
        self.provider = provider
        self.attempts = attempts


class ConfigurationError(ProviderError):
    """A model assignment, price table or prompt template is missing or malformed."""
