"""Dr Amara Okafor: a fictional energy economist and commentator who gives
interviews and makes forecasts (coverable public figure)."""

from __future__ import annotations

from corpus_world.enrich import LAST_YEAR, bound_for, enrich, fmt, numeric_verdict, target_year
from corpus_world.model import (
    Ask,
    Block,
    Doc,
    Narr,
    Own,
    Para,
    Said,
    SaidColon,
    St,
    SubjectDocs,
    SubjectWorld,
    Told,
    with_extras,
)

ID = "amara-okafor"
NAME = "Amara Okafor"
KW = ("Amara Okafor", "Okafor")
DOCS = SubjectDocs(ID, KW, "https://amaraokafor.example/notes/", "Amara Okafor's Notes")
_blog = DOCS.own
_quoting = DOCS.quoting


# World energy figures as the (fictional) statistics office publishes them, one review per year.
# year: solar GW added, battery $/kWh, Brent $/bbl, EV sales m, wind+solar %, coal %, Europe EV share %
STATS: dict[int, tuple[str, str, str, str, str, str, str]] = {
    2015: ("50", "380", "52.4", "0.5", "4.6", "39.3", "1.2"),
    2016: ("75", "290", "43.7", "0.7", "5.5", "38.4", "1.3"),
    2017: ("98", "220", "54.2", "1.2", "6.4", "38.1", "1.7"),
    2018: ("104", "180", "71.3", "2.0", "7.3", "38.0", "2.5"),
    2019: ("115", "155", "64.2", "2.2", "8.4", "36.7", "3.6"),
    2020: ("139", "137", "41.8", "3.1", "9.4", "35.1", "10.5"),
    2021: ("175", "132", "70.9", "6.6", "10.3", "36.0", "17.8"),
    2022: ("239", "151", "99.0", "10.5", "12.1", "35.7", "21.0"),
    2023: ("420", "139", "82.5", "14.0", "13.4", "35.5", "21.6"),
    2024: ("560", "115", "80.1", "17.3", "15.0", "34.4", "20.2"),
    2025: ("610", "108", "69.4", "20.6", "16.8", "33.0", "25.4"),
}
EXTRA_STATS: dict[int, tuple[str, ...]] = {
    2021: ("Europe imported 155 bcm of Russian pipeline gas in 2021.",),
    2023: ("UK offshore wind capacity was 14.7 GW at the end of 2023.",),
    2024: (
        "The European benchmark gas price averaged EUR 34 per MWh in 2024 and did not fall below EUR 20 per MWh "
        "in any month.",
    ),
}


def stats(year: int) -> str:
    return f"ok-stats-{year}"


def wire_review(year: int) -> str:
    return f"ok-wire-review-{year}"


def both(year: int) -> tuple[str, ...]:
    """The statistics office's review and the wire's year-in-review: two publishers."""
    return (stats(year), wire_review(year))


def _wire_reviews() -> list[Doc]:
    """The Wire's energy year in review: the same figures in its own words (a second publisher)."""
    docs = []
    for year, (solar, battery, brent, ev, ws, coal, eu) in STATS.items():
        published = f"{year + 1}-02-10"
        sentences = (
            f"The world installed {solar} GW of new solar panels in {year}, official statistics show.",
            f"Battery packs averaged ${battery} per kWh in {year}.",
            f"Brent, the oil benchmark, averaged ${brent} a barrel in {year}.",
            f"Buyers worldwide took {ev} million electric cars in {year}.",
            f"Wind turbines and solar panels supplied {ws}% of the world's power in {year}, and coal {coal}%.",
            f"Electric models made up {eu}% of new cars sold in Europe in {year}.",
            "Economists including Amara Okafor have tracked these numbers for years.",
        )
        docs.append(
            Doc(
                key=wire_review(year),
                url=f"https://wire.example/world/{published}-energy-year-in-review-{year}",
                title=f"Energy in {year}: the year in review",
                site="The Wire",
                kind="wire_service",
                published=published,
                subjects=(ID,),
                keywords=(
                    *KW,
                    "year in review",
                    str(year),
                    "solar",
                    "battery prices",
                    "Brent",
                    "oil",
                    "electric cars",
                    "EV sales",
                    "coal",
                    "wind and solar",
                ),
                blocks=tuple(Narr(s) for s in sentences),
            )
        )
    return docs


def _reviews() -> list[Doc]:
    docs = []
    for year, (solar, battery, brent, ev, ws, coal, eu) in STATS.items():
        published = f"{year + 1}-01-31"
        sentences = (
            f"World Energy Review {year}, published {published} by the Energy Statistics Office (fictional).",
            f"Solar capacity additions worldwide totalled {solar} GW in {year}.",
            f"Lithium-ion battery packs cost an average of ${battery} per kWh in {year}.",
            f"In {year} the price of Brent crude oil averaged ${brent} a barrel.",
            f"Electric car sales worldwide reached {ev} million in {year}.",
            f"Wind and solar power together generated {ws}% of the world's electricity in {year}.",
            f"Coal-fired plants generated {coal}% of the world's electricity in {year}.",
            f"In Europe, electric cars accounted for {eu}% of new car registrations in {year}.",
            *EXTRA_STATS.get(year, ()),
            "Forecasters such as Amara Okafor are often measured against these figures.",
        )
        docs.append(
            Doc(
                key=stats(year),
                url=f"https://energystats.example/reviews/world-energy-review-{year}",
                title=f"World Energy Review {year}",
                site="Energy Statistics Office (fictional)",
                kind="official_record",
                published=published,
                subjects=(ID,),
                keywords=(
                    *KW,
                    "world energy review",
                    str(year),
                    "solar",
                    "battery prices",
                    "Brent",
                    "oil",
                    "electric cars",
                    "EV sales",
                    "coal",
                    "wind and solar",
                    "gas",
                ),
                blocks=tuple(Narr(s) for s in sentences),
            )
        )
    return docs


def _news(
    key: str,
    host: str,
    site: str,
    kind: str,
    published: str,
    slug: str,
    title: str,
    sentences: tuple[str, ...],
    kw: tuple[str, ...],
) -> Doc:
    return Doc(
        key=key,
        url=f"https://{host}/news/{published}-{slug}",
        title=title,
        site=site,
        kind=kind,
        published=published,
        subjects=(ID,),
        keywords=(*KW, *kw),
        blocks=tuple(Narr(s) for s in sentences),
    )


def _second_reports() -> list[Doc]:
    """A second independent publisher for outcomes first reported elsewhere."""

    def story(
        key: str,
        host: str,
        site: str,
        published: str,
        slug: str,
        title: str,
        sentence: str,
        kw: tuple[str, ...],
    ) -> Doc:
        kind = "wire_service" if host == "wire.example" else "established_newsroom"
        return _news(key, host, site, kind, published, slug, title, (sentence,), kw)

    return [
        story(
            "ok-dl-edition-2019",
            "dailyledger.example",
            "The Daily Ledger",
            "2019-11-08",
            "cheap-power-again",
            "Cheap Power returns",
            "Amara Okafor's Cheap Power came out in a second edition on 1 November 2019.",
            ("Cheap Power", "second edition", "2019"),
        ),
        story(
            "ok-wire-dataset-2018",
            "wire.example",
            "The Wire",
            "2018-12-11",
            "okafor-dataset-public",
            "Okafor publishes household energy data",
            "The economist Amara Okafor made her household energy "
            "dataset, covering 12,400 households in 9 countries, public on 10 December 2018.",
            ("household energy dataset", "open data", "2018"),
        ),
        story(
            "ok-mp-commission-2020",
            "morningpost.example",
            "The Morning Post",
            "2020-05-01",
            "okafor-leaves-commission",
            "Okafor hands over the energy commission",
            "Amara Okafor left the chair of the National Energy Commission on 30 April 2020, after it "
            "delivered its final report with 40 recommendations on 2 March 2020; she had been appointed on "
            "19 April 2018.",
            ("National Energy Commission", "chair", "report", "2020"),
        ),
        story(
            "ok-wire-grid-2025",
            "wire.example",
            "The Wire",
            "2025-03-02",
            "no-mega-blackout",
            "Europe avoided a mega-blackout",
            "No European power cut between 2020 and 2024 hit more than 2 million "
            "customers, the statistics office reported, despite warnings from Amara Okafor and others.",
            ("blackout", "outage", "Europe", "2024"),
        ),
        story(
            "ok-wire-model-2021",
            "wire.example",
            "The Wire",
            "2021-07-02",
            "okafor-model-late",
            "Okafor's open-source model is late",
            "Amara Okafor's open-source energy forecasting model, promised "
            "for June 2021, had not been released by 1 July 2021.",
            ("forecasting model", "open source", "2021"),
        ),
    ]


def _evidence() -> list[Doc]:
    return [
        *_reviews(),
        *_wire_reviews(),
        *_second_reports(),
        _news(
            "ok-grid-2025",
            "energystats.example",
            "Energy Statistics Office (fictional)",
            "official_record",
            "2025-03-01",
            "european-grid-reliability-2020-2024",
            "European grid reliability 2020-2024",
            (
                "Between 2020 and 2024 no power outage in Europe affected more than 2 million customers.",
                "The largest, in March 2023, affected 1.6 million customers for four hours.",
                "Commentators including Amara Okafor had warned of larger blackouts.",
            ),
            ("blackout", "outage", "Europe", "2024", "grid reliability"),
        ),
        Doc(
            key="ok-parliament-commission",
            url="https://parliament.example/commissions/national-energy-commission",
            title="National Energy Commission",
            site="Parliament (fictional)",
            kind="official_record",
            published="2020-05-04",
            subjects=(ID,),
            keywords=(*KW, "National Energy Commission", "chair", "report"),
            blocks=(
                Narr("On 19 April 2018 Amara Okafor was appointed chair of the National Energy Commission."),
                Narr(
                    "The commission laid its final report, with 40 recommendations, before Parliament on 2 March 2020."
                ),
                Narr("Amara Okafor stepped down as chair on 30 April 2020."),
            ),
        ),
        _news(
            "ok-mp-edition-2019",
            "morningpost.example",
            "The Morning Post",
            "established_newsroom",
            "2019-11-05",
            "cheap-power-second-edition",
            "Review: Cheap Power, second edition",
            ("The second edition of Amara Okafor's Cheap Power was published on 1 November 2019.",),
            ("Cheap Power", "second edition", "book", "2019"),
        ),
        _news(
            "ok-dl-dataset-2018",
            "dailyledger.example",
            "The Daily Ledger",
            "established_newsroom",
            "2018-12-12",
            "okafor-household-dataset",
            "Okafor opens her household energy data",
            (
                "Amara Okafor released her household energy dataset to the public on 10 December 2018; it covers "
                "12,400 households in 9 countries.",
            ),
            ("household energy dataset", "open data", "2018"),
        ),
        _news(
            "ok-dl-model-2021",
            "dailyledger.example",
            "The Daily Ledger",
            "established_newsroom",
            "2021-09-20",
            "okafor-model-postponed",
            "Okafor's forecasting model delayed",
            (
                "Amara Okafor has postponed the launch of her open-source energy forecasting model to 2022; it had "
                "not been released by the June 2021 date she set.",
            ),
            ("forecasting model", "open source", "2021", "delay"),
        ),
        Doc(
            key="ok-chirp",
            url="https://chirp.example/amaraokafor/status/2022111501",
            title="@amaraokafor on Chirp",
            site="Chirp",
            kind="social_media",
            published="2022-11-15",
            subjects=(ID,),
            traps=("rejected_social_media",),
            keywords=(*KW, "EV sales", "2022"),
            blocks=(Narr("Called it: EV sales will pass 10 million this year. #energy"),),
        ),
        Doc(
            key="ok-contentfarm",
            url="https://contentmill.example/amara-okafor-predictions",
            title="Amara Okafor's predictions: all correct!",
            site="ContentMill",
            kind="content_farm",
            published="2025-01-01",
            subjects=(ID,),
            traps=("rejected_content_farm", "repeats_claim_only"),
            keywords=(*KW, "predictions", "solar", "EV sales"),
            blocks=(
                Narr(
                    "Amara Okafor said global EV sales would pass 10 million in 2022. Amara Okafor said solar "
                    "additions would exceed 200 GW in 2022."
                ),
            ),
        ),
        Doc(
            key="ok-mention-2021",
            url="https://wire.example/business/2021-11-01-climate-summit-speakers",
            title="Who is speaking at the climate summit",
            site="The Wire",
            kind="mention_only",
            published="2021-11-01",
            subjects=(ID,),
            keywords=(*KW, "climate summit"),
            blocks=(Narr("Speakers include the economist Amara Okafor and the minister for energy."),),
        ),
        Doc(
            key="ok-mention-2024",
            url="https://morningpost.example/culture/2024-06-01-summer-reading",
            title="Summer reading",
            site="The Morning Post",
            kind="mention_only",
            published="2024-06-01",
            subjects=(ID,),
            keywords=(*KW, "Cheap Power", "books"),
            blocks=(Narr("Cheap Power by Amara Okafor remains a favourite with readers."),),
        ),
        Doc(
            key="ok-home",
            url="https://amaraokafor.example/",
            title="Amara Okafor",
            site="Amara Okafor",
            kind="other",
            subjects=(ID,),
            keywords=(*KW, "economist", "about"),
            blocks=(Narr("Amara Okafor is an energy economist, author of Cheap Power and a commentator."),),
        ),
    ]


def _fact(text: str, year: int, verdict: str = "true", note: str = "") -> St:
    return St(text, "factual", "resolvable_now", verdict, "independent_source", both(year), note=note)


def _documents() -> list[Doc]:
    return [
        _blog(
            "ok-blog-2014",
            "2014-03-03-the-solar-decade",
            "The solar decade",
            "2014-03-03",
            (
                Own(
                    (
                        St(
                            "Solar will be the cheapest source of new electricity in most countries within a decade.",
                            "prediction",
                            "never_resolvable",
                            note="too vague to check",
                        ),
                        St(
                            "Global solar additions will exceed 60 GW in 2016.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2016),
                            deadline="2016-12-31",
                        ),
                        St(
                            "In 2013 coal produced about 40% of the world's electricity.",
                            "factual",
                            "resolvable_now",
                            "unresolvable",
                            "nothing",
                            note="No 2013 figure in the corpus.",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("solar", "forecast", "2016"),
        ),
        _quoting(
            "ok-mp-book-2015",
            "https://morningpost.example/books/2015-10-12-cheap-power",
            "Amara Okafor's Cheap Power",
            "The Morning Post",
            "2015-10-12",
            (
                Said(_fact("Battery pack prices fell below $400 per kWh in 2015.", 2015), NAME),
                Said(
                    St("It is the book of the year.", speaker="Nora Field", drop="other_speaker"),
                    "Nora Field",
                    "her publisher",
                ),
                SaidColon(
                    NAME,
                    St(
                        "I wrote most of it at my parents' home in Enugu while my father was ill.",
                        drop="private_life",
                    ),
                ),
            ),
            ("Cheap Power", "book", "battery prices"),
        ),
        _blog(
            "ok-blog-2015",
            "2015-12-20-oil-in-2016",
            "Oil in 2016",
            "2015-12-20",
            (
                Own(
                    (
                        St(
                            "Oil will average below $60 a barrel in 2016.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2016),
                            deadline="2016-12-31",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("oil", "Brent", "2016", "forecast"),
        ),
        _quoting(
            "ok-int-2016",
            "https://wire.example/interviews/2016-06-01-amara-okafor",
            "Interview: Amara Okafor on batteries and oil",
            "The Wire",
            "2016-06-01",
            (
                Ask(
                    "How cheap will batteries get?",
                    NAME,
                    (
                        St(
                            "I think it is 80% likely that battery pack prices fall below $150 per kWh by 2020.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2020),
                            deadline="2020-12-31",
                            prob=0.8,
                            pkind="exact",
                        ),
                    ),
                ),
                Ask(
                    "And oil?",
                    NAME,
                    (
                        St(
                            "There is less than a 20% chance that oil averages above $120 a barrel in 2022.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2022),
                            deadline="2022-12-31",
                            prob=0.2,
                            pkind="upper_bound",
                            note="Brent averaged $99.0 in 2022: the unlikely event did not happen. Bound: no Brier.",
                        ),
                        St(
                            "It is 40% likely that oil averages above $100 a barrel in 2019.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            both(2019),
                            deadline="2019-12-31",
                            prob=0.4,
                            pkind="exact",
                        ),
                        St(
                            "If we had priced carbon in 2000, we would have solved this already.",
                            "factual",
                            "never_resolvable",
                            note="counterfactual",
                        ),
                    ),
                ),
            ),
            ("interview", "battery prices", "oil"),
            kind="interview",
            fl=True,
        ),
        _blog(
            "ok-blog-2016",
            "2016-11-20-where-we-are",
            "Where we are",
            "2016-11-20",
            (
                Own(
                    (
                        _fact("Wind and solar produced 4.6% of global electricity in 2015.", 2015),
                        St(
                            "According to my own mailing-list records, my newsletter now has 20,000 subscribers.",
                            "factual",
                            "own_records_only",
                        ),
                    )
                ),
            ),
            kw=("wind and solar", "2015"),
        ),
        _quoting(
            "ok-pod-2017",
            "https://energypod.example/episodes/2017-05-10-amara-okafor",
            "The Energy Pod: Amara Okafor (transcript)",
            "The Energy Pod",
            "2017-05-10",
            (
                Ask(
                    "When do electric cars take off?",
                    NAME,
                    (
                        St(
                            "Global EV sales will pass 2 million in 2018.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            both(2018),
                            deadline="2018-12-31",
                            note="Sales were exactly 2.0 million: 'pass' is strict, a tie is a no.",
                        ),
                    ),
                ),
                Ask(
                    "And coal?",
                    NAME,
                    (
                        St(
                            "Coal's share of world power will be below 37% by 2020.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2020),
                            deadline="2020-12-31",
                        ),
                    ),
                ),
            ),
            ("podcast", "EV sales", "coal"),
            kind="interview",
            fl=True,
        ),
        _quoting(
            "ok-dl-2017",
            "https://dailyledger.example/business/2017-09-01-coal-debate",
            "The coal debate heats up",
            "The Daily Ledger",
            "2017-09-01",
            (
                Said(
                    _fact("Coal produced 38.4% of the world's electricity in 2016.", 2016),
                    NAME,
                    "an energy economist",
                ),
                Said(
                    St("Coal will be with us for decades.", speaker="Ron Hale", drop="other_speaker"),
                    "Ron Hale",
                    "of the Coal Council",
                ),
                Para(
                    St(
                        "Okafor said that oil demand would peak before 2025.",
                        "prediction",
                        drop="paraphrase",
                        speaker=NAME,
                    )
                ),
            ),
            ("coal", "2016"),
        ),
        _blog(
            "ok-blog-2018",
            "2018-01-15-plans-for-2018",
            "Plans for 2018 and 2019",
            "2018-01-15",
            (
                Own(
                    (
                        St(
                            "I will publish a second edition of Cheap Power by the end of 2019.",
                            "promise",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("ok-mp-edition-2019", "ok-dl-edition-2019"),
                            deadline="2019-12-31",
                        ),
                        St(
                            "I will release my household energy dataset to the public by the end of 2018.",
                            "promise",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("ok-dl-dataset-2018", "ok-wire-dataset-2018", "ok-dataset-2018"),
                            deadline="2018-12-31",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("plans", "Cheap Power", "dataset"),
        ),
        _quoting(
            "ok-wire-commission-2018",
            "https://wire.example/politics/2018-04-20-okafor-commission",
            "Okafor to chair energy commission",
            "The Wire",
            "2018-04-20",
            (
                Said(
                    St(
                        "On 19 April 2018 I was appointed to chair the National Energy Commission.",
                        "factual",
                        "resolvable_now",
                        "true",
                        "independent_source",
                        ("ok-parliament-commission", "ok-mp-commission-2020"),
                    ),
                    NAME,
                ),
                Said(
                    St(
                        "We will deliver the commission's final report by March 2020.",
                        "promise",
                        "resolvable_now",
                        "true",
                        "independent_source",
                        ("ok-parliament-commission", "ok-mp-commission-2020"),
                        deadline="2020-03-31",
                    ),
                    NAME,
                ),
            ),
            ("National Energy Commission", "chair", "2018"),
            fl=True,
        ),
        _blog(
            "ok-dataset-2018",
            "2018-12-10-household-energy-dataset",
            "The household energy dataset",
            "2018-12-10",
            (
                Own(
                    (
                        St(
                            "The dataset covers 12,400 households in 9 countries.",
                            "factual",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("ok-dl-dataset-2018", "ok-wire-dataset-2018"),
                        ),
                    )
                ),
            ),
            kw=("household energy dataset", "open data"),
        ),
        _quoting(
            "ok-mp-int-2019",
            "https://morningpost.example/interviews/2019-02-10-amara-okafor",
            "Amara Okafor: 'Solar will surprise everyone'",
            "The Morning Post",
            "2019-02-10",
            (
                Ask(
                    "How fast will solar grow?",
                    NAME,
                    (
                        St(
                            "There is a 70% chance that global solar additions exceed 200 GW in 2022.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2022),
                            deadline="2022-12-31",
                            prob=0.7,
                            pkind="exact",
                            rej=(("ok-contentfarm", "content farm; repeats the claim"),),
                        ),
                    ),
                ),
                Ask(
                    "And offshore wind in Britain?",
                    NAME,
                    (
                        St(
                            "I expect UK offshore wind capacity to reach 15 GW by 2023.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            (stats(2023),),
                            deadline="2023-12-31",
                            note="14.7 GW: short of 15.",
                        ),
                    ),
                ),
                Ask(
                    "Who wins the election?",
                    NAME,
                    (
                        St(
                            "The Labour-Green coalition will win the 2019 election.",
                            "prediction",
                            "resolvable_now",
                            political=True,
                            note="party-political: counted, never scored",
                        ),
                    ),
                ),
                Ask(
                    "What after the commission?",
                    NAME,
                    (
                        St(
                            "I will step down as chair of the commission once the report is delivered in 2020.",
                            "promise",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("ok-parliament-commission", "ok-mp-commission-2020"),
                            deadline="2020-12-31",
                        ),
                    ),
                ),
            ),
            ("interview", "solar", "offshore wind"),
            kind="interview",
            fl=True,
        ),
        _blog(
            "ok-blog-2019",
            "2019-07-01-numbers",
            "Numbers worth knowing",
            "2019-07-01",
            (
                Own(
                    (
                        _fact(
                            "Brent crude averaged $71 a barrel in 2018.",
                            2018,
                            "mostly_true",
                            note="71.3: close but not exact.",
                        ),
                        _fact("Electric cars were 2.5% of new car sales in Europe in 2018.", 2018),
                        St(
                            "I will teach a free online course on energy economics by the end of 2019.",
                            "promise",
                            "resolvable_now",
                            "unresolvable",
                            "ordinary_statements_only",
                            ("ok-blog-course-2020",),
                            deadline="2019-12-31",
                            note="Only her own blog says the course ran: self-reported only.",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("Brent", "electric cars", "course"),
        ),
        _blog(
            "ok-blog-course-2020",
            "2020-01-10-course-report",
            "How the course went",
            "2020-01-10",
            (
                Own(
                    (
                        St(
                            "My own enrolment records show that more than 30,000 students took my course in autumn 2019.",
                            "factual",
                            "own_records_only",
                        ),
                    )
                ),
            ),
            kw=("course", "students", "2019"),
            source_class="subject_ordinary_statement",
        ),
        _quoting(
            "ok-wire-2020",
            "https://wire.example/politics/2020-03-02-energy-commission-report",
            "Energy commission delivers its report",
            "The Wire",
            "2020-03-02",
            (
                Told(
                    St(
                        "Our report sets out 40 recommendations.",
                        "factual",
                        "resolvable_now",
                        "true",
                        "independent_source",
                        ("ok-parliament-commission", "ok-mp-commission-2020"),
                    ),
                    NAME,
                    "The Wire",
                ),
                Said(
                    St("The report is a wish list.", speaker="Lars Vinter", drop="other_speaker"),
                    "Lars Vinter",
                    "an opposition MP",
                ),
            ),
            ("National Energy Commission", "report", "2020"),
        ),
        _quoting(
            "ok-int-2020",
            "https://wire.example/interviews/2020-09-15-amara-okafor",
            "Interview: Amara Okafor on the pandemic and power",
            "The Wire",
            "2020-09-15",
            (
                Ask(
                    "Will electric cars keep growing?",
                    NAME,
                    (
                        St(
                            "There is a 90% chance that global EV sales pass 10 million in 2022.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2022),
                            deadline="2022-12-31",
                            prob=0.9,
                            pkind="exact",
                            rej=(("ok-chirp", "social media"),),
                        ),
                    ),
                ),
                Ask(
                    "Is the grid at risk?",
                    NAME,
                    (
                        St(
                            "There is more than a 10% chance of a European blackout affecting over 10 million people "
                            "before 2025.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            ("ok-grid-2025", "ok-wire-grid-2025"),
                            deadline="2024-12-31",
                            prob=0.1,
                            pkind="lower_bound",
                            note="Positive evidence: dated account of 2020-2024. Bound: left out of Brier.",
                        ),
                    ),
                ),
                Ask(
                    "What are you building?",
                    NAME,
                    (
                        St(
                            "I will launch an open-source energy forecasting model by June 2021.",
                            "promise",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            ("ok-dl-model-2021", "ok-wire-model-2021"),
                            deadline="2021-06-30",
                        ),
                    ),
                ),
                Ask(
                    "Where are you these days?",
                    NAME,
                    (St("I now live on a houseboat in Amsterdam.", drop="private_life"),),
                ),
            ),
            ("interview", "EV sales", "blackout", "forecasting model"),
            kind="interview",
            fl=True,
        ),
        _blog(
            "ok-blog-2021",
            "2021-02-01-2020-in-numbers",
            "2020 in numbers",
            "2021-02-01",
            (
                Own(
                    (
                        _fact("Battery pack prices fell to $137 per kWh in 2020.", 2020),
                        _fact("Wind and solar produced 9.4% of global electricity in 2020.", 2020),
                        _fact(
                            "Electric cars were 12% of new car sales in Europe in 2020.",
                            2020,
                            "mostly_false",
                            note="10.5% in the review.",
                        ),
                        _fact(
                            "Global solar additions were 150 GW in 2020.",
                            2020,
                            "false",
                            note="139 GW in the review.",
                        ),
                    )
                ),
            ),
            kw=("battery prices", "wind and solar", "2020"),
        ),
        _quoting(
            "ok-mp-2022",
            "https://morningpost.example/business/2022-03-15-okafor-gas",
            "Okafor: Europe must wean itself off Russian gas",
            "The Morning Post",
            "2022-03-15",
            (
                Said(
                    St(
                        "Europe imported 155 bcm of Russian gas in 2021.",
                        "factual",
                        "resolvable_now",
                        "true",
                        "independent_source",
                        (stats(2021),),
                    ),
                    NAME,
                ),
                Said(
                    St(
                        "There's a 25% chance that European gas prices fall back below EUR 20 per MWh by 2024.",
                        "prediction",
                        "resolvable_now",
                        "false",
                        "independent_source",
                        (stats(2024),),
                        deadline="2024-12-31",
                        prob=0.25,
                        pkind="exact",
                    ),
                    NAME,
                ),
            ),
            ("gas", "Russia", "2021", "gas prices"),
            fl=True,
        ),
        _quoting(
            "ok-pod-2022",
            "https://energypod.example/episodes/2022-10-01-amara-okafor",
            "The Energy Pod: Amara Okafor returns (transcript)",
            "The Energy Pod",
            "2022-10-01",
            (
                Ask(
                    "Electric cars in Europe?",
                    NAME,
                    (
                        St(
                            "Electric cars will be more than 20% of new car sales in Europe in 2023.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2023),
                            deadline="2023-12-31",
                        ),
                    ),
                ),
                Ask(
                    "Oil next year?",
                    NAME,
                    (
                        St(
                            "I'd say it is 60% likely that Brent averages above $90 in 2023.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            both(2023),
                            deadline="2023-12-31",
                            prob=0.6,
                            pkind="exact",
                        ),
                        St(
                            "The energy transition is unstoppable.",
                            "factual",
                            "never_resolvable",
                            note="vague",
                        ),
                    ),
                ),
            ),
            ("podcast", "electric cars", "Brent"),
            kind="interview",
            fl=True,
        ),
        _blog(
            "ok-blog-2023",
            "2023-04-01-2022-in-numbers",
            "2022 in numbers",
            "2023-04-01",
            (
                Own(
                    (
                        _fact("Global solar additions reached 239 GW in 2022.", 2022),
                        _fact("Global electric car sales were 10.5 million in 2022.", 2022),
                    )
                ),
            ),
            kw=("solar", "EV sales", "2022"),
        ),
        _quoting(
            "ok-dl-2023",
            "https://dailyledger.example/business/2023-11-20-okafor-new-book",
            "Okafor plans a third edition",
            "The Daily Ledger",
            "2023-11-20",
            (
                Said(
                    St(
                        "I will publish a third edition of Cheap Power by 2027.",
                        "promise",
                        "not_yet_due",
                        deadline="2027-12-31",
                    ),
                    NAME,
                ),
                Said(
                    St("Readers keep asking for updates.", speaker="Nora Field", drop="other_speaker"),
                    "Nora Field",
                    "her publisher",
                ),
            ),
            ("Cheap Power", "third edition"),
            fl=True,
            curly=True,
        ),
        _quoting(
            "ok-int-2024",
            "https://wire.example/interviews/2024-03-12-amara-okafor",
            "Interview: Amara Okafor on the solar flood",
            "The Wire",
            "2024-03-12",
            (
                Ask(
                    "How much solar this year?",
                    NAME,
                    (
                        St(
                            "There's an 85% chance that the world adds more than 500 GW of solar in 2024.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2024),
                            deadline="2024-12-31",
                            prob=0.85,
                            pkind="exact",
                        ),
                    ),
                ),
                Ask(
                    "And coal?",
                    NAME,
                    (
                        St(
                            "Coal will produce less than a third of the world's electricity in 2025.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            both(2025),
                            deadline="2025-12-31",
                            note="33.0% is below one third (33.3%).",
                        ),
                    ),
                ),
                Ask(
                    "Who should govern?",
                    NAME,
                    (
                        St(
                            "The Greens should lead the next government.",
                            "factual",
                            "never_resolvable",
                            political=True,
                        ),
                    ),
                ),
            ),
            ("interview", "solar", "coal"),
            kind="interview",
            fl=True,
        ),
        _blog(
            "ok-blog-2024",
            "2024-08-01-notes-from-summer",
            "Notes from summer",
            "2024-08-01",
            (
                Own(
                    (
                        St(
                            "According to my own mailing-list records, my newsletter now has 120,000 subscribers.",
                            "factual",
                            "own_records_only",
                        ),
                        _fact("Wind and solar produced 13.4% of global electricity in 2023.", 2023),
                    )
                ),
            ),
            kw=("newsletter", "wind and solar", "2023"),
        ),
        _quoting(
            "ok-mp-2025",
            "https://morningpost.example/business/2025-05-05-okafor-batteries",
            "Okafor: batteries are the story",
            "The Morning Post",
            "2025-05-05",
            (
                Said(_fact("Battery pack prices fell to $115 per kWh in 2024.", 2024), NAME),
                Said(
                    St("Batteries are overhyped.", speaker="Ron Hale", drop="other_speaker"),
                    "Ron Hale",
                    "of the Coal Council",
                ),
                SaidColon(
                    NAME,
                    St("My doctor told me to cut back on travel after my heart scare.", drop="private_life"),
                ),
            ),
            ("battery prices", "2024"),
        ),
        _quoting(
            "ok-pod-2025",
            "https://energypod.example/episodes/2025-10-10-amara-okafor",
            "The Energy Pod: Amara Okafor on 2030 (transcript)",
            "The Energy Pod",
            "2025-10-10",
            (
                Ask(
                    "Solar in 2027?",
                    NAME,
                    (
                        St(
                            "I'd put it at 65% that global solar additions exceed 700 GW in 2027.",
                            "prediction",
                            "not_yet_due",
                            deadline="2027-12-31",
                            prob=0.65,
                            pkind="exact",
                        ),
                    ),
                ),
                Ask(
                    "And 2030?",
                    NAME,
                    (
                        St(
                            "By 2030, renewables will produce over half of the world's electricity.",
                            "prediction",
                            "not_yet_due",
                            deadline="2030-12-31",
                        ),
                    ),
                ),
            ),
            ("podcast", "solar", "2030"),
            kind="interview",
            fl=True,
        ),
        _blog(
            "ok-blog-2026",
            "2026-02-15-2025-in-numbers",
            "2025 in numbers",
            "2026-02-15",
            (
                Own(
                    (
                        _fact("Brent crude averaged $69.4 a barrel in 2025.", 2025),
                        _fact("Electric cars were 25.4% of new car sales in Europe in 2025.", 2025),
                    )
                ),
            ),
            kw=("Brent", "electric cars", "2025"),
        ),
        _quoting(
            "ok-int-2026",
            "https://wire.example/interviews/2026-06-20-amara-okafor",
            "Interview: Amara Okafor on the next boom",
            "The Wire",
            "2026-06-20",
            (
                Ask(
                    "Electric cars in 2027?",
                    NAME,
                    (
                        St(
                            "There is a 55% chance that global EV sales exceed 30 million in 2027.",
                            "prediction",
                            "not_yet_due",
                            deadline="2027-12-31",
                            prob=0.55,
                            pkind="exact",
                        ),
                    ),
                ),
                Ask(
                    "Any regrets?",
                    NAME,
                    (
                        St(
                            "Had governments listened in 2010, we would be at 50% renewables today.",
                            "factual",
                            "never_resolvable",
                            note="counterfactual",
                        ),
                    ),
                ),
            ),
            ("interview", "EV sales", "2027"),
            kind="interview",
            fl=True,
        ),
    ]


# Appended to the "numbers" posts so that a sample of a few documents still holds
# enough checkable figures for a score.
EXTRA_BLOCKS: dict[str, tuple[Block, ...]] = {
    "ok-blog-2016": (Own((_fact("Global electric car sales were 0.5 million in 2015.", 2015),)),),
    "ok-blog-2019": (Own((_fact("Coal produced 38.0% of the world's electricity in 2018.", 2018),)),),
    "ok-blog-2023": (Own((_fact("Battery pack prices rose to $151 per kWh in 2022.", 2022),)),),
    "ok-blog-2024": (
        Own(
            (
                _fact("Global electric car sales were 14.0 million in 2023.", 2023),
                _fact(
                    "Brent crude averaged $90 a barrel in 2023.", 2023, "false", note="$82.5 in the review."
                ),
            )
        ),
    ),
    "ok-blog-2026": (Own((_fact("Solar additions reached 610 GW in 2025.", 2025),)),),
}


def world() -> SubjectWorld:
    return SubjectWorld(
        id=ID,
        name=NAME,
        kind="public_figure",
        urls=("https://amaraokafor.example/",),
        consent=False,
        description="Fictional energy economist, author and commentator (demo corpus).",
        aliases=("Dr Amara Okafor",),
        prefix="ok",
        coverage="covered",
        coverage_reason="Public figure (economist and commentator, not a serving politician): public professional "
        "output may be covered.",
        docs=(
            *enrich(
                with_extras(_documents(), EXTRA_BLOCKS),
                routine_statements,
                (NAME, "Okafor", "Dr Amara Okafor"),
                QUESTION,
            ),
            *_evidence(),
            *_series_reports(),
        ),
    )


# Yearly series behind Amara Okafor's routine figures and forecasts (all fictional):
# year: (solar capacity installed in Nigeria, GW; heat pumps' share of new heating
# systems sold in Germany, %; money raised by the Okafor Energy Access Fund, USD million)
SERIES: dict[int, tuple[str, str, str]] = {
    2013: ("0.11", "10.5", "0.6"),
    2014: ("0.14", "11.2", "0.8"),
    2015: ("0.19", "12.0", "1.1"),
    2016: ("0.23", "13.1", "1.4"),
    2017: ("0.31", "14.5", "1.9"),
    2018: ("0.42", "15.8", "2.3"),
    2019: ("0.55", "17.2", "2.8"),
    2020: ("0.64", "21.5", "3.5"),
    2021: ("0.83", "24.0", "4.1"),
    2022: ("1.02", "28.6", "4.6"),
    2023: ("1.31", "36.4", "5.2"),
    2024: ("1.74", "27.1", "5.9"),
    2025: ("2.26", "31.9", "6.5"),
}


def solar_ev(year: int) -> tuple[str, ...]:
    return (f"ok-stats-solar-{year}", f"ok-wire-solar-{year}")


def heat_ev(year: int) -> tuple[str, ...]:
    return (f"ok-stats-heat-{year}", f"ok-dl-heat-{year}")


def fund_ev(year: int) -> tuple[str, ...]:
    return (f"ok-mp-fund-{year}", f"ok-wire-fund-{year}")


def _series_reports() -> list[Doc]:
    """Each year's figures from two independent publishers: a statistics office and The
    Wire for Nigeria's solar build-out, the statistics office and The Daily Ledger for
    German heat pumps, The Morning Post and The Wire for the Okafor Energy Access Fund."""
    docs = []
    for year, (solar, heat, fund) in SERIES.items():
        published = f"{year + 1}-03-2{year % 10}"
        solar_kw = ("Nigeria", "solar", "capacity", "installed", "install", str(year), "GW")
        heat_kw = ("Germany", "heat pumps", "heating systems", "sold", str(year), "share")
        fund_kw = ("Okafor Energy Access Fund", "fund", "raised", "raise", str(year), "million")
        docs += [
            _news(
                f"ok-stats-solar-{year}",
                "energystats.example",
                "European Energy Statistics Office (fictional)",
                "official_record",
                published,
                f"world-solar-nigeria-{year}",
                f"World solar statistics {year}: Nigeria",
                (
                    f"In {year} solar installations in Nigeria added {solar} GW of capacity, the office reported.",
                    "Most of the new capacity was in mini-grids and rooftop systems rather than utility-scale plants.",
                    "The office compiles its figures from customs records and developer surveys.",
                ),
                solar_kw,
            ),
            _news(
                f"ok-wire-solar-{year}",
                "wire.example",
                "The Wire",
                "wire_service",
                published,
                f"nigeria-solar-{year}",
                f"Nigeria installs {solar} GW of solar in {year}",
                (
                    f"LAGOS, {published} (The Wire) - Nigeria installed {solar} GW of new solar capacity in {year}.",
                    "Developers said falling panel prices and unreliable grid power drove demand from businesses.",
                    "Diesel generators still supply a large share of the country's commercial electricity.",
                ),
                solar_kw,
            ),
            _news(
                f"ok-stats-heat-{year}",
                "energystats.example",
                "European Energy Statistics Office (fictional)",
                "official_record",
                published,
                f"heating-germany-{year}",
                f"Heating market statistics {year}: Germany",
                (
                    f"Heat pumps accounted for {heat}% of all heating systems sold in Germany in {year}.",
                    "Gas boilers remained the most common choice, while sales of oil boilers kept falling.",
                    "The statistics cover both new buildings and replacements in existing homes.",
                ),
                heat_kw,
            ),
            _news(
                f"ok-dl-heat-{year}",
                "dailyledger.example",
                "The Daily Ledger",
                "established_newsroom",
                published,
                f"german-heat-pumps-{year}",
                f"Heat pumps' share of German heating systems sold in {year}",
                (
                    f"Industry figures show that the heat pump's share of heating sales in Germany was {heat}% in {year}.",
                    "Installers reported long waiting lists in several regions.",
                    "Subsidy rules for replacing fossil boilers changed several times over the decade.",
                ),
                heat_kw,
            ),
            _news(
                f"ok-mp-fund-{year}",
                "morningpost.example",
                "The Morning Post",
                "established_newsroom",
                published,
                f"okafor-energy-access-fund-{year}",
                f"Okafor Energy Access Fund raised ${fund} million in {year}: accounts",
                (
                    f"The Okafor Energy Access Fund, set up by Amara Okafor, raised ${fund} million from donors in "
                    f"{year}, its audited accounts show.",
                    "The charity pays for solar lamps and small home systems in villages without grid power.",
                    "Its trustees publish a list of every grant on the charity's website.",
                ),
                fund_kw,
            ),
            _news(
                f"ok-wire-fund-{year}",
                "wire.example",
                "The Wire",
                "wire_service",
                published,
                f"okafor-fund-raised-{year}",
                f"Okafor's energy access charity raised ${fund} million in {year}",
                (
                    f"LONDON, {published} (The Wire) - Donations to the Okafor Energy Access Fund, the charity founded "
                    f"by economist Amara Okafor, came to ${fund} million in {year}.",
                    "Most of the money came from small individual gifts, the charity's filing shows.",
                    "Okafor does not take a salary from the charity.",
                ),
                fund_kw,
            ),
        ]
    return docs


QUESTION = "Which of your numbers should readers check?"


def routine_statements(doc: Doc, n: int) -> tuple[St, ...]:
    """Last year's figures she tracks, forecasts for this (or next) year (one with a
    stated probability) and a fundraising target for her fund. The n-th document
    misses one bound in four on purpose."""
    assert doc.published is not None
    year = int(doc.published[:4])
    sts: list[St] = []
    prev = year - 1
    if prev in SERIES:
        solar, heat, _fund = SERIES[prev]
        sts.append(
            St(
                f"In {prev} Nigeria installed {solar} GW of solar capacity.",
                "factual",
                "resolvable_now",
                "true",
                "independent_source",
                solar_ev(prev),
            )
        )
        sts.append(
            St(
                f"In {prev} heat pumps made up {heat}% of heating systems sold in Germany.",
                "factual",
                "resolvable_now",
                "true",
                "independent_source",
                heat_ev(prev),
            )
        )
    if year > LAST_YEAR:
        return tuple(sts)
    due = target_year(doc.published)
    solar_due = float(SERIES[due][0])
    solar_bound = bound_for(solar_due, miss=n % 4 == 3, decimals=2)
    sts.append(
        St(
            f"I expect Nigeria to install more than {fmt(solar_bound, 2)} GW of solar capacity in {due}.",
            "prediction",
            "resolvable_now",
            numeric_verdict(solar_due, solar_bound),
            "independent_source",
            solar_ev(due),
            deadline=f"{due}-12-31",
        )
    )
    heat_due = float(SERIES[due][1])
    heat_bound = bound_for(heat_due, miss=n % 4 == 1)
    sts.append(
        St(
            f"There is a 70% chance that heat pumps make up more than {fmt(heat_bound)}% of heating systems "
            f"sold in Germany in {due}.",
            "prediction",
            "resolvable_now",
            numeric_verdict(heat_due, heat_bound),
            "independent_source",
            heat_ev(due),
            deadline=f"{due}-12-31",
            prob=0.7,
            pkind="exact",
        )
    )
    fund_due = float(SERIES[due][2])
    fund_target = bound_for(fund_due * 0.95, miss=n % 4 == 0)
    sts.append(
        St(
            f"I aim to raise at least ${fmt(fund_target)} million for the Okafor Energy Access Fund in {due}.",
            "promise",
            "resolvable_now",
            numeric_verdict(fund_due, fund_target),
            "independent_source",
            fund_ev(due),
            deadline=f"{due}-12-31",
        )
    )
    goal = min(due + 1, LAST_YEAR)
    fund_goal = float(SERIES[goal][2])
    target = bound_for(fund_goal, miss=n % 4 == 2)
    sts.append(
        St(
            f"I will raise at least ${fmt(target)} million for the Okafor Energy Access Fund in {goal}.",
            "promise",
            "resolvable_now",
            numeric_verdict(fund_goal, target),
            "independent_source",
            fund_ev(goal),
            deadline=f"{goal}-12-31",
        )
    )
    return tuple(sts)
