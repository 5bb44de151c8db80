"""Schemathesis against the app's own OpenAPI schema, over ASGI (no network).

Every operation is fuzzed three ways: with everything generated (mostly
unknown ids and missing or wrong tokens), with the ids of the fixture
warehouse's subject and claim and a valid token (so the success paths are
checked against their response schemas too), and with negative data (invalid
bodies and parameters, which must get a documented 4xx, never a 5xx)."""

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from reliability_api.app import ApiSettings, create_app
from reliability_core.clock import FixedClock
from reliability_core.warehouse import Warehouse

_PATHS = create_app(ApiSettings(warehouse_root=str(Path("/nonexistent")))).openapi()["paths"]
_OPERATIONS = [(method.upper(), path) for path, methods in _PATHS.items() for method in methods]
# Operations with something that can be made invalid beyond the path ids (a body or
# constrained query parameters); the negative run covers the id patterns via these too.
_INVALIDATABLE = [
    (method.upper(), path)
    for path, methods in _PATHS.items()
    for method, spec in methods.items()
    if "requestBody" in spec or any(p["in"] == "query" for p in spec.get("parameters", []))
]
_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)


def _schema(warehouse: Warehouse, clock: FixedClock) -> schemathesis.BaseSchema:
    app = create_app(ApiSettings(warehouse_root=warehouse.root, clock=clock, write_burst=1000))
    return schemathesis.openapi.from_asgi("/openapi.json", app)


def _fuzz(strategy: st.SearchStrategy[schemathesis.Case[Any]], **call: Any) -> None:
    @given(case=strategy)
    @_SETTINGS
    def run(case: schemathesis.Case[Any]) -> None:
        case.call_and_validate(**call)

    run()


@pytest.mark.parametrize(("method", "path"), _OPERATIONS)
def test_generated_requests_get_documented_answers_and_no_server_error(
    method: str, path: str, api_warehouse: Warehouse, api_clock: FixedClock
) -> None:
    operation = _schema(api_warehouse, api_clock)[path][method]
    _fuzz(operation.as_strategy())


@pytest.mark.parametrize(("method", "path"), _OPERATIONS)
def test_requests_on_a_known_subject_with_a_valid_token_conform_to_the_schema(
    method: str,
    path: str,
    api_warehouse: Warehouse,
    api_clock: FixedClock,
    subject_token: str,
    steward_token: str,
) -> None:
    operation = _schema(api_warehouse, api_clock)[path][method]
    known = {k: v for k, v in {"subject_id": "acme", "claim_id": "clm_1"}.items() if f"{{{k}}}" in path}
    token = steward_token if "steward" in path or path.endswith("/rulings") else subject_token
    _fuzz(operation.as_strategy(path_parameters=known), headers={"Authorization": f"Bearer {token}"})


@pytest.mark.parametrize(("method", "path"), _INVALIDATABLE)
def test_invalid_requests_are_rejected_with_a_client_error(
    method: str, path: str, api_warehouse: Warehouse, api_clock: FixedClock
) -> None:
    operation = _schema(api_warehouse, api_clock)[path][method]
    _fuzz(operation.as_strategy(generation_mode=GenerationMode.NEGATIVE))
