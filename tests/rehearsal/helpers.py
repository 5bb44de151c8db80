"""Shared builders for the rehearsal tests: servers with chosen mistake rates, the
environment that points the live provider classes at them, a Northwind page input."""

from __future__ import annotations

from datetime import date

from reliability_core.claims.extraction import ExtractInput
from reliability_rehearsal import FaultRates, MistakeRates, RehearsalServers, ScriptedModel
from tests.conftest import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus"


def rehearsal_servers(rates: MistakeRates | None = None) -> RehearsalServers:
    """Servers whose scripted model makes only the given mistakes, with no faults."""
    return RehearsalServers(
        corpus_dir=CORPUS, model=ScriptedModel(rates=rates or MistakeRates.none()), faults=FaultRates.none()
    )


def rehearsal_env(servers: RehearsalServers) -> dict[str, str]:
    """Keys and base URLs for ``build_gateway``: Anthropic and OpenAI steps run live, on the servers."""
    return {
        "ANTHROPIC_API_KEY": "k",
        "OPENAI_API_KEY": "k",
        "ANTHROPIC_BASE_URL": servers.anthropic_url,
        "OPENAI_BASE_URL": servers.openai_url,
    }


def northwind_page(page: str, n: int = 1, *, published: date = date(2020, 2, 4)) -> ExtractInput:
    """The extraction input of one wire story about Northwind Energy."""
    return ExtractInput(
        subject_id="northwind-energy",
        subject_name="Northwind Energy A/S",
        aliases=["Northwind", "Freja Lund"],
        subject_kind="company",
        subject_urls=["https://northwind.example/"],
        document_id=f"doc-{n}",
        url=f"https://wire.example/business/northwind-{n}",
        title="Northwind results",
        published_date=published,
        own_document=False,
        page_text=page,
    )
