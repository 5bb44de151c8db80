"""Errors of the provider layer.

Providers raise ``TransientProviderError`` for faults worth retrying (429,
5xx, timeouts, dropped connections) and ``PermanentProviderError`` for the
rest; the retry policy turns exhausted retries into ``ProviderCallError``.
The gateway raises ``ModelOutputError`` when output stays invalid after the
repair attempt and ``ModelRefusalError`` for refusals and empty outputs.
Every final error names the step and the provider.
"""

from __future__ import annotations


class ProviderError(RuntimeError):
    """Base of every provider-layer error."""


class TransientProviderError(ProviderError):
    """A fault that may go away on retry; ``retry_after`` is the server's hint in seconds."""

    def __init__(self, message: str, *, status: int | None = None, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class PermanentProviderError(ProviderError):
    """A fault retrying will not fix (bad request, bad key, unknown model)."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class ProviderCallError(ProviderError):
    """A call failed for good: retries exhausted or a permanent fault."""

    def __init__(self, message: str, *, step: str, provider: str, attempts: int) -> None:
        super().__init__(message)
        self.step = step
        self.provider = provider
        self.attempts = attempts


class ModelOutputError(ProviderError):
    """Output was not valid JSON for the schema, even after the one repair attempt."""

    def __init__(self, message: str, *, step: str, provider: str, model: str, last_error: str) -> None:
        super().__init__(message)
        self.step = step
        self.provider = provider
        self.model = model
        self.last_error = last_error


class ModelRefusalError(ProviderError):
    """The model refused, or returned nothing; ``refusal`` says what it said."""

    def __init__(self, message: str, *, step: str, provider: str, model: str, refusal: str) -> None:
        super().__init__(message)
        self.step = step
        self.provider = provider
        self.model = model
        self.refusal = refusal


class ConfigurationError(ProviderError):
    """A model assignment, price table or prompt template is missing or malformed."""
