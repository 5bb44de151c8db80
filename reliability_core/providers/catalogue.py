"""Which model ids the vendors list: the installed SDKs' model catalogues, read at run time.

An assigned model id that the vendor does not serve fails every call of its step with a
404, and for the reviewer that means no verdict can be shown. A typo or a model that was
never released is a setup mistake, so ``build_gateway`` refuses it at start-up
(``check_models_are_listed``), before any call is made.

The catalogue is the SDK's own list of model ids (the ``Literal`` members of the model
parameter types the SDKs generate from the vendors' API specifications), read with
``typing.get_args`` from the installed version, so upgrading the SDK updates it. New
models appear before an SDK release lists them: such an id passes when it is named in
``RELIABILITY_ALLOWED_MODELS`` (``Settings.allowed_models``). OpenAI-compatible servers
(any model their operator loads) and the offline stand-in are not checked.
"""

from __future__ import annotations

import typing
from collections.abc import Collection, Mapping
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

from reliability_core.providers.errors import ConfigurationError
from reliability_core.settings import env_name

# The SDK type that names the model ids each provider class sends: Anthropic's Messages
# API takes ``ModelParam``; the OpenAI provider calls the Responses API, whose
# ``ResponsesModel`` is ``ChatModel`` plus the Responses-only models.
CATALOGUE_TYPES: dict[str, tuple[str, str]] = {
    "anthropic": ("anthropic.types.model_param", "ModelParam"),
    "openai": ("openai.types.shared.responses_model", "ResponsesModel"),
}
ALLOWED_MODELS_VARIABLE = env_name("allowed_models")


def _literal_members(annotation: object) -> set[str]:
    """Every string of every ``Literal`` inside ``annotation`` (through unions and aliases)."""
    if typing.get_origin(annotation) is typing.Literal:
        return {value for value in typing.get_args(annotation) if isinstance(value, str)}
    members: set[str] = set()
    for argument in typing.get_args(annotation):
        members |= _literal_members(argument)
    return members


def sdk_model_catalogue(provider: str) -> frozenset[str]:
    """The model ids the installed SDK of ``provider`` (``anthropic`` or ``openai``) lists.

    Imports the SDK (a few seconds of CPU the first time), so callers ask only for a
    provider whose steps run live, which imports it anyway."""
    module_name, type_name = CATALOGUE_TYPES[provider]
    return frozenset(_literal_members(getattr(import_module(module_name), type_name)))


def sdk_version(provider: str) -> str:
    """The installed version of ``provider``'s SDK, for messages."""
    try:
        return version(provider)
    except PackageNotFoundError:
        return "not installed"


def check_models_are_listed(models: Mapping[str, tuple[str, str]], allowed: Collection[str]) -> None:
    """Refuse, in one line, every step whose model id its vendor's SDK does not list and
    ``RELIABILITY_ALLOWED_MODELS`` does not name.

    ``models`` maps a step to ``(provider, model id)`` for the steps that will call a
    vendor (``anthropic`` or ``openai``); other providers are not checked. The line names
    each step and id, the SDK version read, and the setting that allows the id."""
    catalogues: dict[str, frozenset[str]] = {}
    refused: list[tuple[str, str, str]] = []
    for step, (provider, model) in sorted(models.items()):
        if provider not in CATALOGUE_TYPES or model in allowed:
            continue
        if provider not in catalogues:
            catalogues[provider] = sdk_model_catalogue(provider)
        if model not in catalogues[provider]:
            refused.append((step, provider, model))
    if not refused:
        return
    named = "; ".join(
        f"step {step}: model {model!r} is not in the {provider} SDK's model catalogue "
        f"({provider} {sdk_version(provider)})"
        for step, provider, model in refused
    )
    ids = ",".join(sorted({model for _, _, model in refused}))
    raise ConfigurationError(
        f"{named}; if the vendor lists it, allow it with {ALLOWED_MODELS_VARIABLE}={ids}"
    )
