"""Issue 24 at step 4-5: rules the classifier's label still decided on the live path, each
tested by scripting exactly that mistake at the Anthropic SDK's transport
(``tests.claims.through_providers``) and run by ``extraction.extract_document``."""

from __future__ import annotations

from datetime import date

import pytest

from reliability_core.claims.sampling import sample_claims
from reliability_core.claims.wording import harm_to_person_wording
from reliability_core.models import RegistryEntry
from reliability_core.scores.report import claim_counts
from reliability_core.scores.scoring import reason_not_scored
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


# --- [R] v1.2: claims about someone dying or being hurt are handed back ---------------------

HARM = [
    "Our founder will die before the Gull Reef farm is finished in 2027",
    "Three technicians were injured at the Esbjerg yard in 2024",
    "Drei Techniker wurden 2024 in der Werft in Esbjerg verletzt",
    "Le directeur sera blessé avant la fin de 2026",
    "To pracownicy zginęli w 2024 roku na farmie wiatrowej",
    "Tre teknikere kom til skade på værftet i 2024",
    "שלושה טכנאים נפצעו במספנה ב-2024",
]


@pytest.mark.parametrize("quote", HARM)
async def test_a_claim_about_someone_dying_or_being_hurt_is_handed_back_without_searching(quote: str) -> None:
    # The classifier's mistake: an ordinary factual claim, no harm flag.
    result, _ = await extract_through_providers(
        f"Northwind Energy said: \"{quote}.\"", [statement(quote)], [classifier_reading(0, restatement=quote)]
    )
    (claim,) = result.claims
    assert claim.harm_to_person and claim.triage == "never_resolvable"
    assert "dying or being hurt" in claim.triage_reason
    assert any("dying or being hurt" in note for note in claim.classifier_overruled)
    # Counted and shown as not checked, with the reason; never sampled for research.
    assert "dying or being hurt" in (reason_not_scored(claim, False, None) or "")
    counts = claim_counts(result.statements, result.dropped, result.claims, [], [])
    assert counts.harm_to_person == 1 and counts.never_resolvable == 1
    (membership,) = sample_claims(result.claims, seed=1)
    assert not membership.sampled


async def test_the_classifiers_harm_flag_hands_a_claim_back_too() -> None:
    quote = "Our chief executive will not see the end of 2027"
    result, _ = await extract_through_providers(
        quote, [statement(quote)], [classifier_reading(0, harm_to_person=True, restatement=quote)]
    )
    (claim,) = result.claims
    assert claim.harm_to_person and claim.triage == "never_resolvable"


@pytest.mark.parametrize(
    "quote",
    ["Malawi halves child malaria deaths by 2030", "Our internal safety audit found zero lost-time injuries in 2019",
     "Die Regierung wird die Windparks bis 2030 ausbauen", "Sales were hurt by the strike in 2023"],
)  # fmt: skip
def test_a_statistic_or_a_figure_of_speech_is_no_ones_harm(quote: str) -> None:
    assert not harm_to_person_wording(quote)


# --- triage flags the classifier got wrong: the quote's words decide ------------------------


@pytest.mark.parametrize(
    ("quote", "reading", "state", "why"),
    [
        ("Had we not sold the trading arm in 2019, profits would have been DKK 2 billion higher",
         {}, "never_resolvable", "counterfactual"),
        ("Hätten wir 2019 nicht verkauft, wäre der Gewinn um 2 Milliarden höher gewesen",
         {}, "never_resolvable", "counterfactual"),
        ("Wir sind der weltweit führende Entwickler von Offshore-Wind", {}, "never_resolvable", "too vague"),
        ("Nous sommes le meilleur développeur éolien d'Europe", {}, "never_resolvable", "too vague"),
        ("Our internal audit found that 98 percent of turbines were inspected in 2021",
         {}, "own_records_only", "own records only"),
        ("Notre enquête interne montre que 87 % des salariés sont satisfaits", {}, "own_records_only",
         "own records only"),
        ("We hope to grow our business in Asia by 2030",
         {"claim_type": "promise", "names_deliverable_or_target": True, "deadline": "2030-12-31"},
         "never_resolvable", "names a deliverable or target"),
        ("Wir möchten bis 2030 in Asien wachsen",
         {"claim_type": "promise", "names_deliverable_or_target": True, "deadline": "2030-12-31"},
         "never_resolvable", "names a deliverable or target"),
    ],
)  # fmt: skip
async def test_a_flag_the_classifier_missed_is_read_from_the_quote_and_the_disagreement_recorded(
    quote: str, reading: dict[str, object], state: str, why: str
) -> None:
    result, _ = await extract_through_providers(
        quote, [statement(quote)], [classifier_reading(0, restatement=quote, **reading)]
    )
    (claim,) = result.claims
    assert claim.triage == state, claim.triage_reason
    assert any(note.startswith(why) for note in claim.classifier_overruled), claim.classifier_overruled


@pytest.mark.parametrize(
    ("quote", "proposed", "written"),
    [
        ("We will open the Esbjerg service hub by June 2027", "2030-12-31", date(2027, 6, 30)),
        ("Wir werden das Servicezentrum bis Ende Juni 2027 eröffnen", "2027-12-31", date(2027, 6, 30)),
        ("Nous ouvrirons le centre d'ici 2028", "2027-06-30", date(2028, 12, 31)),
        ("Vi åbner servicecentret inden 1. marts 2027", "2027-12-31", date(2027, 3, 1)),
        ("Abriremos el centro antes de 2027", "2027-12-31", date(2026, 12, 31)),
    ],
)
async def test_the_deadline_is_the_date_the_quote_writes(quote: str, proposed: str, written: date) -> None:
    reading = classifier_reading(0, claim_type="promise", names_deliverable_or_target=True, deadline=proposed,
                                 restatement=quote)  # fmt: skip
    result, _ = await extract_through_providers(quote, [statement(quote)], [reading])
    (claim,) = result.claims
    assert claim.deadline == written
    assert any(note.startswith("deadline") for note in claim.classifier_overruled)


async def test_a_deadline_the_quote_does_not_write_is_refused() -> None:
    quote = "We will open the Esbjerg service hub"
    reading = classifier_reading(0, claim_type="promise", names_deliverable_or_target=True, deadline="2027-12-31",
                                 restatement=quote)  # fmt: skip
    result, _ = await extract_through_providers(quote, [statement(quote)], [reading])
    (claim,) = result.claims
    assert claim.deadline is None and claim.triage == "never_resolvable" and "date" in claim.triage_reason


async def test_a_relative_date_keeps_the_classifiers_deadline() -> None:
    quote = "We will open the Esbjerg service hub next year"
    reading = classifier_reading(0, claim_type="promise", names_deliverable_or_target=True, deadline="2023-12-31",
                                 restatement=quote)  # fmt: skip
    result, _ = await extract_through_providers(quote, [statement(quote)], [reading])
    (claim,) = result.claims
    assert claim.deadline == date(2023, 12, 31) and claim.classifier_overruled == []
