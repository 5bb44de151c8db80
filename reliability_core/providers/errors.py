"""Errors of the provider layer.

Providers raise ``TransientProviderError`` for faults worth retrying (429,
5xx, timeouts, dropped connections) and ``PermanentProviderError`` for the
rest; the retry policy turns exhausted retries into ``ProviderCallError``, or
into ``ProviderUnreachableError`` when the provider could not be reached at
all (every attempt a failed connection, or the key refused).
The gateway raises ``ModelOutputError`` when output stays invalid after the
repair attempt, ``ModelRefusalError`` for refusals and empty outputs and
``ModelTruncatedError`` when the answer is still cut off after the retry with
a larger budget (all three are ``ModelAnswerError``, which also names the
model). Every final error names the step and the provider, and the
vendor's request id when there was one.

``ItemFailure`` is the base of the failures that stay with the one document or
claim they hit (issue 14: "a failure stays with the item it hit"): callers
record them on that item with ``reason``. ``ProviderUnreachableError`` is not
one of them: it fails the subject's asset with one clear line.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict, Unpack


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


class CallSite(TypedDict):
    """Where an item's failed call was made: the keywords every ``ItemFailure`` takes."""

    step: str
    provider: str
    request_id: NotRequired[str | None]


class AnswerSite(CallSite):
    """Where a model answered with something that cannot be used: the call and the model."""

    model: str


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

    def __init__(self, message: str, *, attempts: int, **site: Unpack[CallSite]) -> None:
        super().__init__(message, **site)
        self.attempts = attempts


class ModelAnswerError(ItemFailure):
    """The model answered, but not with a record the step can use. The subclasses
    say how; each takes the ``AnswerSite`` keywords and only its own details, so the
    shared fields are set in one place."""

    def __init__(self, message: str, *, model: str, **site: Unpack[CallSite]) -> None:
        super().__init__(message, **site)
        self.model = model


class ModelOutputError(ModelAnswerError):
    """Output was not valid JSON for the schema, even after the one repair attempt."""

    reason = "invalid output"

    def __init__(self, message: str, *, last_error: str, **site: Unpack[AnswerSite]) -> None:
        super().__init__(message, **site)
        self.last_error = last_error


class ModelRefusalError(ModelAnswerError):
    """The model refused, or returned nothing; ``refusal`` says what it said,
    ``category`` and ``explanation`` are the vendor's (Anthropic ``stop_details``)."""

    reason = "refused"

    def __init__(
        self,
        message: str,
        *,
        refusal: str,
        category: str | None = None,
        explanation: str | None = None,
        **site: Unpack[AnswerSite],
    ) -> None:
        super().__init__(message, **site)
        self.refusal = refusal
        self.category = category
        self.explanation = explanation


class ModelTruncatedError(ModelAnswerError):
    """The answer was cut off (output budget or context window) even after one retry
    with a larger budget; what was written is never used."""

    reason = "truncated"

    def __init__(self, message: str, *, stop: str, max_output_tokens: int, **site: Unpack[AnswerSite]) -> None:
        super().__init__(message, **site)
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
