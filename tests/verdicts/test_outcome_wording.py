"""The quote's own words and dates, in the subjects' languages: what is never an outcome
(``evidence_rules.never_an_outcome_reading``), what only repeats the claim
(``duplicates.repeats_claim``), and what reports a cancellation or a delay
(``outcome_wording``). Sentences written for each concept, not taken from the demo corpus."""

from __future__ import annotations

from datetime import date

import pytest

from reliability_core.models.claims import CriteriaLevels, NumericCriteria
from reliability_core.verdicts.duplicates import repeats_claim
from reliability_core.verdicts.evidence_rules import never_an_outcome_reading
from reliability_core.verdicts.outcome_wording import (
    reports_cancellation,
    reports_delay_or_cancellation,
    times_named_in,
)
from reliability_core.verdicts.verdict_rules import (
    cancelled_event_verdict,
    criteria_say_what_happens_if_cancelled,
    deadline_day_open,
)
from tests.verdicts.factories import LEVELS, make_item

OCTOBER = date(2024, 10, 2)


@pytest.mark.parametrize(
    ("quote", "kind"),
    [
        ("Analysts expect the utility's profit to reach 4 billion euros.", "analyst_expectation"),
        ("Analytikerne regner med et overskud på 4 mia. kr.", "analyst_expectation"),
        ("Die Analysten rechnen mit einem Gewinn von 4 Milliarden Euro.", "analyst_expectation"),
        ("A poll for the broadcaster put the party at 31 percent.", "poll"),
        ("Laut einer Umfrage liegt die Partei bei 31 Prozent.", "poll"),
        ("Selon un sondage, le parti obtiendrait 31 %.", "poll"),
        ("Según una encuesta, el partido tendría el 31 %.", "poll"),
        ("Produktionen forventes at nå 3 TWh.", "forecast"),
        ("Die Produktion wird voraussichtlich 3 TWh erreichen.", "forecast"),
        ("La production devrait atteindre 3 TWh.", "forecast"),
        ("La producción alcanzará 3 TWh según las previsiones.", "forecast"),
        ("La produzione raggiungerà 3 TWh.", "forecast"),
        ("Output will reach 3 TWh.", "forecast"),
        ("Produktionen kommer att nå 3 TWh.", "forecast"),
        ("De productie zal 3 TWh bereiken.", "forecast"),
        ("Estimates put output at 3 TWh.", "forecast"),
    ],
)
def test_forecast_poll_and_expectation_wording_is_never_an_outcome_in_the_subjects_languages(
    quote: str, kind: str
) -> None:
    reading = never_an_outcome_reading(quote, quote_date=None)
    assert reading is not None and reading[0] == kind


@pytest.mark.parametrize(
    "quote",
    [
        "Output rose to 3.2 TWh in 2023, higher than expected.",
        "Produktionen steg til 3,2 TWh i 2023.",
        "Die Produktion stieg 2023 auf 3,2 TWh, mehr als erwartet.",
        "La production a atteint 3,2 TWh en 2023.",
        "La producción fue de 3,2 TWh en 2023.",
        # A decision already taken is an outcome, though it speaks of the future.
        "The opening has been postponed and will now take place in 2026.",
        "Åbningen er udskudt og vil først ske i 2026.",
    ],
)
def test_an_account_of_what_happened_is_not_read_as_a_forecast(quote: str) -> None:
    assert never_an_outcome_reading(quote, quote_date=date(2024, 3, 1)) is None


@pytest.mark.parametrize(
    "quote",
    [
        "Offshore capacity at the end of 2024: 8.1 GW.",
        "Kapaciteten ved udgangen af 2024: 8,1 GW.",
        "Kapazität Ende 2024: 8,1 GW.",
        "Capacité fin 2024 : 8,1 GW.",
        "Capacidad a finales de 2024: 8,1 GW.",
        "Capacity on 31 December 2024: 8.1 GW.",
        "Capacity in Q1 2025: 8.1 GW.",
    ],
)
def test_a_quote_dated_before_the_time_it_speaks_of_is_not_an_outcome_of_it(quote: str) -> None:
    reading = never_an_outcome_reading(quote, quote_date=OCTOBER)
    assert reading is not None and reading[0] == "forecast"
    # The same words dated after that time are an account of it.
    assert never_an_outcome_reading(quote, quote_date=date(2025, 6, 1)) is None


def test_the_times_a_quote_names_are_read_in_common_written_forms() -> None:
    assert times_named_in("31.12.2024") == [date(2024, 12, 31)]
    assert times_named_in("31 de diciembre de 2024") == [date(2024, 12, 31)]
    assert times_named_in("December 31, 2024") == [date(2024, 12, 31)]
    assert times_named_in("by June 2025") == [date(2025, 6, 30)]
    assert times_named_in("in juin 2025") == [date(2025, 6, 1)]
    assert times_named_in("in 2024") == [date(2024, 1, 1)]


CLAIM = "We will have 8 GW of offshore wind installed by the end of 2024."
NAMES = ["Northwind Energy", "Northwind"]


@pytest.mark.parametrize(
    "quote",
    [
        "Northwind said it will have 8 GW of offshore wind installed by 2024.",
        "Northwind told investors it would reach 8 GW offshore by 2024.",
        "Northwind announced plans to install 8 GW of offshore wind by 2024.",
        "Northwind sagde, at selskabet vil have 8 GW havvind i 2024.",
        "Northwind erklärte, das Unternehmen werde bis 2024 8 GW Offshore-Wind installieren.",
        "Northwind a déclaré qu'il atteindra 8 GW d'éolien en mer d'ici 2024.",
        "Northwind dijo que alcanzará 8 GW de eólica marina en 2024.",
        "Northwind uppgav att bolaget kommer att ha 8 GW havsvind 2024.",
    ],
)
def test_a_report_that_the_subject_said_it_will_only_repeats_the_claim(quote: str) -> None:
    assert repeats_claim(quote, [CLAIM], speaker_names=NAMES)


@pytest.mark.parametrize(
    "quote",
    [
        "The register listed 7.4 GW of Northwind offshore capacity on 31 December 2024.",
        "Northwind said the 8 GW goal had been postponed to 2026.",
        "Northwind sagde, at målet på 8 GW er udskudt til 2026.",
    ],
)
def test_an_account_of_the_outcome_does_not_repeat_the_claim(quote: str) -> None:
    assert not repeats_claim(quote, [CLAIM], speaker_names=NAMES)


@pytest.mark.parametrize(
    "quote",
    [
        "The auction was cancelled.",
        "Auktionen er aflyst.",
        "Die Auktion wurde abgesagt.",
        "L'enchère a été annulée.",
        "La subasta fue cancelada.",
        "L'asta è stata annullata.",
        "De veiling is geannuleerd.",
        "Auktionen ställdes in.",
    ],
)
def test_a_cancellation_is_read_in_the_subjects_languages(quote: str) -> None:
    assert reports_cancellation(quote) and reports_delay_or_cancellation(quote)


@pytest.mark.parametrize(
    "quote",
    ["The launch was delayed.", "Lanceringen er udskudt.", "Der Start wurde verschoben.", "Le lancement a été reporté.",
     "El lanzamiento fue aplazado.", "The summit ended without an agreement."],
)  # fmt: skip
def test_a_delay_or_an_event_over_without_the_outcome_is_read_in_the_subjects_languages(quote: str) -> None:
    assert reports_delay_or_cancellation(quote) and not reports_cancellation(quote)


def test_the_deadline_day_is_open_until_it_ends_in_the_claims_time_zone() -> None:
    assert deadline_day_open(date(2024, 12, 31), date(2024, 12, 31)) == date(2025, 1, 1)
    assert deadline_day_open(date(2024, 12, 31), date(2025, 1, 1)) is None
    assert deadline_day_open(None, date(2025, 1, 1)) is None


def test_criteria_that_say_what_happens_on_cancellation_decide_as_written() -> None:
    levels = LEVELS.model_copy(update={"false": "The auction is cancelled or raises less than DKK 2 billion."})
    assert criteria_say_what_happens_if_cancelled(levels)
    numeric = NumericCriteria(quantity="auction proceeds", unit="DKK billion", operator="ge", threshold=5.0)
    report = [make_item("a", quote="The 2024 auction was cancelled.", published_date=date(2024, 11, 5))]
    assert cancelled_event_verdict(levels=levels, numeric=numeric, deciding=report, observed=None) == ""
    assert cancelled_event_verdict(levels=LEVELS, numeric=numeric, deciding=report, observed=None) != ""
    # A claim that the thing happens (no figure, no result): the cancellation is a "did not happen".
    happens = CriteriaLevels(**{**LEVELS.model_dump(), "true": "The plant opens by the end of 2024."})
    assert cancelled_event_verdict(levels=happens, numeric=None, deciding=report, observed=None) == ""
