"""Issue 24 at step 4-5: rules the classifier's label still decided on the live path, each
tested by scripting exactly that mistake at the Anthropic SDK's transport
(``tests.claims.through_providers``) and run by ``extraction.extract_document``."""

from __future__ import annotations

import pytest

from reliability_core.models import RegistryEntry
from tests.claims.through_providers import classifier_reading, extract_through_providers, statement

OKAFOR = RegistryEntry(
    id="amara-okafor",
    name="Amara Okafor",
    kind="public_figure",
    urls=["https://amaraokafor.example/"],
    aliases=["Dr Amara Okafor"],
)

# --- the subject's own statements are not dropped as another speaker's ---------------------

RATES = "Inflation in the euro area will fall below 2 percent by the end of 2025"


@pytest.mark.parametrize(
    ("page", "context"),
    [
        # The attribution is the quote's own sentence; the extractor's context repeats it.
        (f'"{RATES}," said Amara Okafor, chief economist at Fjord Bank.', "said Amara Okafor"),
        (f'"{RATES}," said Amara Okafor, chief economist at Fjord Bank. Nordic Credit said rates stay.',
         "said Amara Okafor, chief economist at Fjord Bank."),
    ],
)  # fmt: skip
async def test_an_employer_named_after_the_subjects_name_is_not_read_as_the_speaker(
    page: str, context: str
) -> None:
    result, _ = await extract_through_providers(
        page,
        [statement(RATES, context, speaker="Amara Okafor")],
        [classifier_reading(0, speaker="Amara Okafor", claim_type="prediction", deadline="2025-12-31",
                            restatement=f"{RATES}.")],
        entry=OKAFOR,
    )  # fmt: skip
    assert [d.reason for d in result.dropped] == []
    assert [c.quote for c in result.claims] == [RATES]


async def test_another_speaker_in_the_quotes_own_sentence_is_still_dropped() -> None:
    page = f'"{RATES}," said Lars Holm, an analyst at Nordic Credit. Amara Okafor disagreed.'
    result, _ = await extract_through_providers(
        page, [statement(RATES, "said Lars Holm")], [classifier_reading(0, speaker="Amara Okafor")], entry=OKAFOR
    )
    assert [d.reason for d in result.dropped] == ["other_speaker"]
