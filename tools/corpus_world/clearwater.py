"""Clearwater Evaluators: a fictional charity evaluator that publishes its grants and figures (coverable)."""

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
    St,
    SubjectDocs,
    SubjectWorld,
    Told,
    with_extras,
)

ID = "clearwater-evaluators"
NAME = "Clearwater Evaluators"
REYES = "Tomas Reyes"
NAIR = "Priya Nair"
KW = ("Clearwater", "Clearwater Evaluators")
DOCS = SubjectDocs(ID, KW, "https://clearwater.example/", "Clearwater Evaluators")
_own = DOCS.own
_quoting = DOCS.quoting


# year: (grants directed, USD million; donors; filing date at the charity register)
FIGURES: dict[int, tuple[str, str, str]] = {
    2014: ("12.0", "8,200", "2015-05-15"),
    2015: ("18.5", "11,400", "2016-05-16"),
    2016: ("27.3", "15,900", "2017-05-15"),
    2017: ("41.0", "20,100", "2018-05-15"),
    2018: ("55.2", "24,800", "2019-05-15"),
    2019: ("63.8", "29,300", "2020-05-15"),
    2020: ("88.1", "37,500", "2021-05-17"),
    2021: ("102.4", "41,200", "2022-05-16"),
    2022: ("96.7", "39,800", "2023-05-15"),
    2023: ("110.3", "43,100", "2024-05-15"),
    2024: ("121.9", "45,600", "2025-05-15"),
    2025: ("118.2", "44,900", "2026-05-15"),
}
GT_YEARS = (2018, 2021, 2022, 2025)  # years The Giving Times reported the figures
WIRE_YEARS = (2015, 2016, 2018, 2020, 2021, 2024, 2025)  # years The Wire reported the grants total
EXTRA_FILING: dict[int, str] = {
    2019: "The accounts list a grant of $5.0 million to Jabs for All, paid on 10 June 2019.",
}


def reg(year: int) -> str:
    return f"cw-reg-{year}"


def gt(year: int) -> str:
    return f"cw-gt-figures-{year}"


def wire(year: int) -> str:
    return f"cw-wire-figures-{year}"


def cw_ev(year: int) -> tuple[str, ...]:
    """Pages reporting the grants total of ``year``: newsrooms that covered it, then the filing."""
    news = ((gt(year),) if year in GT_YEARS else ()) + ((wire(year),) if year in WIRE_YEARS else ())
    return (*news, reg(year))


def cw_basis(year: int) -> str:
    """Independent when a newsroom reported the figure; otherwise only the charity's own filing."""
    return "independent_source" if year in GT_YEARS or year in WIRE_YEARS else "official_records_only"


def _register_filings() -> list[Doc]:
    docs = []
    for year, (grants, donors, filed) in FIGURES.items():
        blocks: list[Block] = [
            Narr(
                f"Charity Register (fictional): annual return of Clearwater Evaluators for {year}, filed {filed}."
            ),
            Narr(
                f"In its audited accounts for {year}, filed {filed}, Clearwater Evaluators reported grants directed "
                f"to its recommended charities of ${grants} million."
            ),
            Narr(f"Clearwater Evaluators reported that {donors} donors gave through it in {year}."),
        ]
        if year in EXTRA_FILING:
            blocks.append(Narr(EXTRA_FILING[year]))
        docs.append(
            Doc(
                key=reg(year),
                url=f"https://charityregister.example/filings/clearwater-evaluators/{year}",
                title=f"Clearwater Evaluators: annual return {year}",
                site="Charity Register (fictional)",
                kind="official_record",
                published=filed,
                subjects=(ID,),
                keywords=(*KW, "annual return", "accounts", str(year), "grants", "donors", "million"),
                blocks=tuple(blocks),
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
    subjects: tuple[str, ...] = (ID,),
) -> Doc:
    return Doc(
        key=key,
        url=f"https://{host}/{published[:4]}/{published}-{slug}",
        title=title,
        site=site,
        kind=kind,
        published=published,
        subjects=subjects,
        keywords=(*KW, *kw),
        blocks=tuple(Narr(s) for s in sentences),
    )


def _giving(
    key: str, published: str, slug: str, title: str, sentences: tuple[str, ...], kw: tuple[str, ...]
) -> Doc:
    return _news(
        key,
        "givingtimes.example",
        "The Giving Times",
        "established_newsroom",
        published,
        slug,
        title,
        sentences,
        kw,
    )


def _health(
    key: str, published: str, slug: str, title: str, sentences: tuple[str, ...], kw: tuple[str, ...]
) -> Doc:
    return _news(
        key,
        "globalhealth.example",
        "Global Health Agency (fictional)",
        "official_record",
        published,
        slug,
        title,
        sentences,
        kw,
    )


def _second_reports() -> list[Doc]:
    """A second independent publisher for outcomes first reported elsewhere, so that
    a verdict can rest on two publishers, as the display gate requires."""

    def wire_story(
        key: str, published: str, slug: str, title: str, sentence: str, kw: tuple[str, ...]
    ) -> Doc:
        return _news(key, "wire.example", "The Wire", "wire_service", published, slug, title, (sentence,), kw)

    return [
        wire_story(
            "cw-wire-model-2016",
            "2016-05-21",
            "clearwater-net-model-online",
            "Clearwater's net model goes online",
            "Clearwater Evaluators made its malaria net cost-effectiveness model public on 20 May 2016.",
            ("malaria net", "cost-effectiveness model", "2016"),
        ),
        wire_story(
            "cw-wire-nairobi-2019",
            "2019-01-23",
            "clearwater-nairobi-on-hold",
            "Clearwater puts Nairobi plan on hold",
            "Clearwater Evaluators did not open its planned Nairobi office in 2018 and has put the plan on hold.",
            ("Nairobi", "office", "2018", "on hold"),
        ),
        wire_story(
            "cw-wire-deworm-2020",
            "2020-12-01",
            "clearwater-deworming",
            "Clearwater publishes deworming review",
            "Clearwater Evaluators released its re-evaluation of deworming programmes on 30 November 2020.",
            ("deworming", "re-evaluation", "2020"),
        ),
        wire_story(
            "cw-wire-grantdb-2023",
            "2023-11-16",
            "clearwater-grant-data",
            "Clearwater publishes grant data",
            "Clearwater Evaluators published a searchable database of all 1,240 grants it has recommended on "
            "15 November 2023.",
            ("grant database", "2023"),
        ),
        wire_story(
            "cw-wire-audit-2025",
            "2025-12-11",
            "clearwater-audit-delayed",
            "Clearwater delays outcomes audit",
            "Clearwater Evaluators said the independent audit of its top charities' outcomes, due in 2025, "
            "will not start before 2027.",
            ("audit", "outcomes", "2025", "delay"),
        ),
        _giving(
            "cw-gt-lakeshore-2019",
            "2019-10-04",
            "lakeshore-trial",
            "Lakeshore trial disappoints funders",
            (
                "The Lakeshore malaria net trial reported a 17% fall in child mortality on 2 October 2019, short of the "
                "20% reduction funders such as Clearwater Evaluators had hoped for.",
            ),
            ("Lakeshore trial", "mortality", "2019"),
        ),
        wire_story(
            "cw-wire-givenets-2021",
            "2021-02-16",
            "givenets-misses-goal",
            "GiveNets short of 10 million",
            "The GiveNets programme, funded in part through Clearwater Evaluators, had reached 8.2 million "
            "people by the end of 2020.",
            ("GiveNets", "coverage", "2020"),
        ),
        wire_story(
            "cw-wire-malawi-2023",
            "2023-05-03",
            "malawi-smc",
            "Malawi makes malaria prevention national",
            "Malawi made seasonal malaria chemoprevention national policy in April 2023, after pilots backed by "
            "charities Clearwater Evaluators recommends.",
            ("Malawi", "seasonal malaria chemoprevention", "2023"),
        ),
        _news(
            "cw-mp-vaccine-2025",
            "morningpost.example",
            "The Morning Post",
            "established_newsroom",
            "2025-01-22",
            "malaria-vaccine-twelve-countries",
            "Malaria vaccine now routine in 12 countries",
            (
                "Twelve African countries were giving the malaria vaccine routinely by the end of 2024, a rollout "
                "followed closely by Clearwater Evaluators.",
            ),
            ("malaria vaccine", "rollout", "2024"),
        ),
        wire_story(
            "cw-wire-netprice-2026",
            "2026-02-11",
            "net-prices-2025",
            "Malaria net prices edge down",
            "Malaria nets bought in 2025 cost $2.10 each on average, above the $2 mark Clearwater Evaluators "
            "had expected.",
            ("malaria net", "price", "2025"),
        ),
    ]


def _evidence() -> list[Doc]:
    docs = _register_filings() + _second_reports()
    for year in GT_YEARS:
        grants, donors, filed = FIGURES[year]
        docs.append(
            _giving(
                gt(year),
                filed,
                f"clearwater-directed-{year}",
                f"Clearwater directed ${grants} million in {year}",
                (
                    f"Clearwater Evaluators directed ${grants} million to its recommended charities in {year}, according to "
                    f"its audited accounts filed on {filed} and confirmed by the charities that received the money.",
                    f"{donors} donors gave through the evaluator in {year}.",
                ),
                ("grants", str(year), "million", "donors"),
            )
        )
    for year in WIRE_YEARS:
        grants, _donors, filed = FIGURES[year]
        docs.append(
            _news(
                wire(year),
                "wire.example",
                "The Wire",
                "wire_service",
                filed,
                f"clearwater-{year}-grants",
                f"Clearwater's grants reach ${grants} million",
                (
                    f"The charity evaluator Clearwater Evaluators directed ${grants} million to the charities it "
                    f"recommends in {year}, its filing with the Charity Register on {filed} shows.",
                ),
                ("grants", str(year), "million", "charity evaluator"),
            )
        )
    docs += [
        _giving(
            "cw-gt-model-2016",
            "2016-05-24",
            "clearwater-publishes-net-model",
            "Clearwater publishes its net model",
            (
                "Clearwater Evaluators published its full malaria net cost-effectiveness model on 20 May 2016.",
            ),
            ("malaria net", "cost-effectiveness model", "2016"),
        ),
        _giving(
            "cw-gt-nairobi-2019",
            "2019-01-22",
            "clearwater-shelves-nairobi",
            "Clearwater shelves Nairobi office",
            (
                "Clearwater Evaluators has shelved its plan to open an office in Nairobi; no office had opened by the end "
                "of 2018, and the charity said in January 2019 that the plan was on hold indefinitely.",
            ),
            ("Nairobi", "office", "2018", "delay"),
        ),
        _giving(
            "cw-gt-deworm-2020",
            "2020-12-03",
            "clearwater-deworming-review",
            "Clearwater completes deworming review",
            ("Clearwater Evaluators published its re-evaluation of deworming on 30 November 2020.",),
            ("deworming", "re-evaluation", "2020"),
        ),
        _giving(
            "cw-gt-grantdb-2023",
            "2023-11-20",
            "clearwater-grant-database",
            "Clearwater opens its grant database",
            (
                "Clearwater Evaluators put its full grant database online on 15 November 2023, listing 1,240 grants.",
            ),
            ("grant database", "2023", "transparency"),
        ),
        _giving(
            "cw-gt-audit-2025",
            "2025-12-10",
            "clearwater-postpones-audit",
            "Clearwater postpones outcomes audit",
            (
                "Clearwater Evaluators has postponed the independent audit of its top charities' reported outcomes to 2027; "
                "the audit, promised for 2025, had not started by December 2025.",
            ),
            ("audit", "outcomes", "2025", "postponed"),
        ),
        _news(
            "cw-wire-lakeshore",
            "wire.example",
            "The Wire",
            "wire_service",
            "2019-10-02",
            "lakeshore-trial-results",
            "Lakeshore net trial finds 17% fall in child deaths",
            (
                "The Lakeshore trial of malaria nets, published on 2 October 2019, found a 17% reduction in child "
                "mortality, below the 20% some funders, including Clearwater Evaluators, had hoped for.",
            ),
            ("Lakeshore trial", "mortality", "2019", "malaria nets"),
        ),
        _health(
            "cw-gh-givenets-2021",
            "2021-02-15",
            "givenets-coverage-2020",
            "GiveNets coverage report 2020",
            (
                "By 31 December 2020 the GiveNets programme had reached 8.2 million people.",
                "Clearwater Evaluators is among its funders.",
            ),
            ("GiveNets", "coverage", "2020", "million people"),
        ),
        _health(
            "cw-gh-malawi-2023",
            "2023-05-02",
            "malawi-smc-national",
            "Malawi adopts national SMC",
            (
                "Malawi adopted seasonal malaria chemoprevention as national policy in April 2023.",
                "Clearwater Evaluators' recommended charities supported the pilots.",
            ),
            ("Malawi", "seasonal malaria chemoprevention", "2023"),
        ),
        _health(
            "cw-gh-vaccine-2024",
            "2025-01-20",
            "malaria-vaccine-rollout-2024",
            "Malaria vaccine rollout, 2024",
            (
                "By the end of 2024 the malaria vaccine was in routine use in 12 African countries.",
                "Clearwater Evaluators tracked the rollout for donors.",
            ),
            ("malaria vaccine", "rollout", "2024", "countries"),
        ),
        _health(
            "cw-gh-netprice-2026",
            "2026-02-10",
            "net-prices-2025",
            "Malaria net prices, 2025",
            (
                "The average price of a malaria net procured in 2025 was $2.10.",
                "Buyers include charities recommended by Clearwater Evaluators.",
            ),
            ("malaria net", "price", "2025"),
        ),
        Doc(
            key="cw-reg-trustees-2021",
            url="https://charityregister.example/notices/clearwater-evaluators-2021-06-01",
            title="Clearwater Evaluators: change of executive director",
            site="Charity Register (fictional)",
            kind="official_record",
            published="2021-06-02",
            subjects=(ID,),
            keywords=(*KW, "executive director", "Priya Nair", "2021"),
            blocks=(
                Narr(
                    "Notice: Priya Nair is registered as executive director of Clearwater Evaluators from 1 June 2021, "
                    "succeeding Tomas Reyes."
                ),
            ),
        ),
        Doc(
            key="cw-market-malawi",
            url="https://forecastmarket.example/markets/malawi-smc-2023",
            title="Will Malawi adopt national SMC by 2023?",
            site="ForecastMarket",
            kind="prediction_market",
            published="2022-01-10",
            subjects=(ID,),
            traps=("rejected_prediction_market",),
            keywords=(*KW, "Malawi", "seasonal malaria chemoprevention"),
            blocks=(
                Narr(
                    "Market on Malawi national SMC adoption by 2023, as forecast by Clearwater Evaluators. Price: 64% yes."
                ),
            ),
        ),
        Doc(
            key="cw-wiki",
            url="https://openwiki.example/wiki/Clearwater_Evaluators",
            title="Clearwater Evaluators - OpenWiki",
            site="OpenWiki",
            kind="user_edited_wiki",
            published="2026-01-05",
            subjects=(ID,),
            traps=("rejected_user_edited_wiki",),
            keywords=(*KW, "grants", "history"),
            blocks=(
                Narr("Clearwater Evaluators is a charity evaluator. It directed about $130 million in 2025."),
            ),
        ),
        Doc(
            key="cw-mention-2020",
            url="https://givingtimes.example/2020/2020-12-20-year-in-giving",
            title="The year in giving",
            site="The Giving Times",
            kind="mention_only",
            published="2020-12-20",
            subjects=(ID,),
            keywords=(*KW, "giving", "2020"),
            blocks=(Narr("Evaluators such as Clearwater Evaluators saw record interest in 2020."),),
        ),
        Doc(
            key="cw-mention-2024",
            url="https://wire.example/world/2024-04-25-malaria-day",
            title="World Malaria Day",
            site="The Wire",
            kind="mention_only",
            published="2024-04-25",
            subjects=(ID,),
            keywords=(*KW, "malaria"),
            blocks=(Narr("Funders including Clearwater Evaluators and NetsNow marked World Malaria Day."),),
        ),
        Doc(
            key="cw-home",
            url="https://clearwater.example/",
            title="Clearwater Evaluators",
            site="Clearwater Evaluators",
            kind="other",
            subjects=(ID,),
            keywords=(*KW, "about", "charity evaluator"),
            blocks=(
                Narr(
                    "Clearwater Evaluators is a non-profit that researches charities and publishes its grants."
                ),
                Narr("Executive director: Priya Nair."),
            ),
        ),
    ]
    return docs


def directed(year: int) -> St:
    """The headline figure of an annual review, with the pages that report it."""
    return St(
        f"In {year} we directed ${FIGURES[year][0]} million to our recommended charities.",
        "factual",
        "resolvable_now",
        "true",
        cw_basis(year),
        cw_ev(year),
    )


def _documents() -> list[Doc]:
    return [
        _own(
            "cw-annual-2014",
            "reports/annual-2014",
            "Annual review 2014",
            "2015-04-01",
            (
                Own(
                    (
                        directed(2014),
                        St(
                            "We will publish our full malaria net cost-effectiveness model by June 2016.",
                            "promise",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("cw-gt-model-2016", "cw-wire-model-2016", "cw-model-2016"),
                            deadline="2016-06-30",
                            note="The deliverable itself and an independent report show it.",
                        ),
                        St(
                            "We expect to direct more than $15 million in 2015.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            cw_ev(2015),
                            deadline="2015-12-31",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("annual review", "2014", "grants"),
        ),
        _quoting(
            "cw-gt-2014",
            "https://givingtimes.example/2014/2014-11-20-meet-the-evaluators",
            "Meet the charity evaluators",
            "The Giving Times",
            "2014-11-20",
            (
                Said(
                    St(
                        "Our internal screening looked at 400 charities this year.",
                        "factual",
                        "own_records_only",
                    ),
                    REYES,
                    "executive director of Clearwater Evaluators",
                ),
                Said(
                    St("Evaluators keep us honest.", speaker="Grace Banda", drop="other_speaker"),
                    "Grace Banda",
                    "director of NetsNow",
                ),
                Para(
                    St(
                        "Reyes said that Clearwater would double its staff in 2015.",
                        "promise",
                        drop="paraphrase",
                        speaker=REYES,
                    )
                ),
            ),
            ("charity evaluators", "2014"),
        ),
        _own(
            "cw-blog-2015",
            "blog/2015-09-01-why-we-exist",
            "Why we exist",
            "2015-09-01",
            (
                Own(
                    (
                        St(
                            "We find the best giving opportunities in the world.",
                            "factual",
                            "never_resolvable",
                            note="vague",
                        ),
                        St(
                            "In the first half of 2015 we moved $7.9 million.",
                            "factual",
                            "resolvable_now",
                            "unresolvable",
                            "nothing",
                            note="No half-year figure anywhere in the corpus.",
                        ),
                    )
                ),
            ),
            kw=("mission", "2015"),
        ),
        _quoting(
            "cw-int-2016",
            "https://wire.example/interviews/2016-03-10-tomas-reyes",
            "Interview: Tomas Reyes on scaling up",
            "The Wire",
            "2016-03-10",
            (
                Ask(
                    "How big can Clearwater get?",
                    REYES,
                    (
                        St(
                            "We will direct $100 million a year by 2021.",
                            "promise",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            cw_ev(2021),
                            deadline="2021-12-31",
                        ),
                    ),
                ),
                Ask(
                    "What do you expect from the Lakeshore trial?",
                    REYES,
                    (
                        St(
                            "There is a 60% chance that the Lakeshore trial, which reports in 2019, shows a mortality "
                            "reduction above 20%.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            ("cw-wire-lakeshore", "cw-gt-lakeshore-2019"),
                            deadline="2019-12-31",
                            prob=0.6,
                            pkind="exact",
                        ),
                    ),
                ),
                Ask(
                    "You moved recently?",
                    REYES,
                    (St("My wife and I moved to Oakland for her job last year.", drop="private_life"),),
                ),
            ),
            ("Tomas Reyes", "interview", "Lakeshore trial"),
            kind="interview",
            fl=True,
        ),
        _own(
            "cw-annual-2016",
            "reports/annual-2016",
            "Annual review 2016",
            "2017-04-03",
            (
                Own(
                    (
                        directed(2016),
                        St(
                            "We expect to direct more than $35 million in 2017.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "official_records_only",
                            (reg(2017),),
                            deadline="2017-12-31",
                        ),
                        St(
                            "We will open an office in Nairobi by the end of 2018.",
                            "promise",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            ("cw-gt-nairobi-2019", "cw-wire-nairobi-2019"),
                            deadline="2018-12-31",
                            note="Positive evidence: report that no office opened and the plan was shelved.",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("annual review", "2016", "Nairobi"),
        ),
        _own(
            "cw-model-2016",
            "research/malaria-net-model",
            "Malaria net cost-effectiveness model",
            "2016-05-20",
            (
                Own(
                    (
                        St(
                            "Our internal model estimates that a net distribution averts a death for every $4,500 spent.",
                            "factual",
                            "own_records_only",
                            note="An output of the subject's own model.",
                        ),
                    )
                ),
            ),
            kw=("malaria net", "cost-effectiveness model"),
        ),
        _quoting(
            "cw-gt-2017",
            "https://givingtimes.example/2017/2017-11-15-evaluator-growth",
            "Evaluator giving keeps growing",
            "The Giving Times",
            "2017-11-15",
            (
                Said(
                    St(
                        "Giving through us will pass $50 million in 2018.",
                        "prediction",
                        "resolvable_now",
                        "true",
                        "independent_source",
                        cw_ev(2018),
                        deadline="2018-12-31",
                    ),
                    "Clearwater executive director Tomas Reyes",
                ),
                Said(
                    St("The growth is remarkable.", speaker="Ada Kim", drop="other_speaker"),
                    "Ada Kim",
                    "a philanthropy researcher",
                ),
            ),
            ("growth", "2018", "million"),
            fl=True,
        ),
        _own(
            "cw-annual-2017",
            "reports/annual-2017",
            "Annual review 2017",
            "2018-04-02",
            (
                Own(
                    (
                        directed(2017),
                        St(
                            "In 2017, 20,100 donors gave through us.",
                            "factual",
                            "resolvable_now",
                            "true",
                            "official_records_only",
                            (reg(2017),),
                        ),
                        St(
                            "Our internal review found that our grant process takes 41 days on average.",
                            "factual",
                            "own_records_only",
                        ),
                    )
                ),
            ),
            kw=("annual review", "2017", "donors"),
        ),
        _quoting(
            "cw-int-2018",
            "https://givinghour.example/episodes/2018-09-05-tomas-reyes",
            "The Giving Hour, episode 112: Tomas Reyes (transcript)",
            "The Giving Hour",
            "2018-09-05",
            (
                Ask(
                    "Where will GiveNets be in two years?",
                    REYES,
                    (
                        St(
                            "I expect the GiveNets programme to reach 10 million people by 2020.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            ("cw-gh-givenets-2021", "cw-wire-givenets-2021"),
                            deadline="2020-12-31",
                        ),
                    ),
                ),
                Ask(
                    "What should politicians do?",
                    REYES,
                    (
                        St(
                            "Whichever party wins the election should double the aid budget.",
                            "factual",
                            "never_resolvable",
                            political=True,
                            note="party-political opinion",
                        ),
                        St(
                            "Without our recommendations, these charities would have raised far less.",
                            "factual",
                            "never_resolvable",
                            note="counterfactual",
                        ),
                    ),
                ),
            ),
            ("Tomas Reyes", "podcast", "GiveNets"),
            kind="interview",
            fl=True,
        ),
        _own(
            "cw-annual-2018",
            "reports/annual-2018",
            "Annual review 2018",
            "2019-04-01",
            (
                Own(
                    (
                        directed(2018),
                        St(
                            "We will re-evaluate our deworming recommendation by the end of 2020.",
                            "promise",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("cw-gt-deworm-2020", "cw-wire-deworm-2020", "cw-deworm-2020"),
                            deadline="2020-12-31",
                        ),
                        St(
                            "We expect to direct more than $70 million in 2019.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "official_records_only",
                            (reg(2019),),
                            deadline="2019-12-31",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("annual review", "2018", "deworming"),
        ),
        _quoting(
            "cw-wire-2019",
            "https://wire.example/world/2019-06-12-clearwater-vaccines",
            "Clearwater backs vaccine charity",
            "The Wire",
            "2019-06-12",
            (
                Told(
                    St(
                        "We granted $5 million to Jabs for All this week.",
                        "factual",
                        "resolvable_now",
                        "true",
                        "official_records_only",
                        (reg(2019),),
                    ),
                    REYES,
                    "The Wire",
                ),
                Said(
                    St("It will let us reach two more provinces.", speaker="Lina Osei", drop="other_speaker"),
                    "Lina Osei",
                    "head of Jabs for All",
                ),
            ),
            ("Jabs for All", "grant", "2019", "vaccines"),
            curly=True,
        ),
        _own(
            "cw-annual-2019",
            "reports/annual-2019",
            "Annual review 2019",
            "2020-04-01",
            (
                Own(
                    (
                        directed(2019),
                        St(
                            "In 2019, 29,300 donors gave through us.",
                            "factual",
                            "resolvable_now",
                            "true",
                            "official_records_only",
                            (reg(2019),),
                        ),
                        St(
                            "We expect donations to fall in 2020 because of the pandemic.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            cw_ev(2020),
                            deadline="2020-12-31",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("annual review", "2019", "pandemic"),
        ),
        _quoting(
            "cw-gt-2020",
            "https://givingtimes.example/2020/2020-10-05-clearwater-oxygen",
            "Clearwater turns to oxygen",
            "The Giving Times",
            "2020-10-05",
            (
                Said(
                    St(
                        "We will grant $10 million to oxygen programmes by March 2021.",
                        "promise",
                        "resolvable_now",
                        "unresolvable",
                        "ordinary_statements_only",
                        ("cw-blog-oxygen-2021",),
                        deadline="2021-03-31",
                        note="Only the subject's own blog says it was done: self-reported only.",
                    ),
                    REYES,
                ),
                Said(
                    St("Oxygen saves lives today.", speaker="Grace Banda", drop="other_speaker"),
                    "Grace Banda",
                    "director of NetsNow",
                ),
            ),
            ("oxygen", "pandemic", "2021"),
            fl=True,
        ),
        _own(
            "cw-blog-oxygen-2021",
            "blog/2021-04-12-oxygen-update",
            "Oxygen: an update",
            "2021-04-12",
            (
                Own(
                    (
                        St(
                            "We have now granted $10 million to oxygen programmes, as we promised.",
                            "factual",
                            "resolvable_now",
                            "unresolvable",
                            "nothing",
                            note="Its only source is this post.",
                        ),
                    )
                ),
            ),
            kw=("oxygen", "2021"),
            source_class="subject_ordinary_statement",
        ),
        _own(
            "cw-announce-2021",
            "news/2021-06-01-new-executive-director",
            "A new executive director",
            "2021-06-01",
            (
                Own(
                    (
                        St(
                            "Priya Nair took over as our executive director on 1 June 2021.",
                            "factual",
                            "resolvable_now",
                            "true",
                            "official_records_only",
                            ("cw-reg-trustees-2021",),
                        ),
                    )
                ),
                Said(St("I am expecting my second child in the autumn.", drop="private_life"), NAIR),
            ),
            kw=("Priya Nair", "executive director", "2021"),
        ),
        _quoting(
            "cw-int-2021",
            "https://morningpost.example/interviews/2021-09-14-priya-nair",
            "Priya Nair: 'Malaria is beatable'",
            "The Morning Post",
            "2021-09-14",
            (
                Ask(
                    "Will Malawi go national?",
                    NAIR,
                    (
                        St(
                            "I think it is 75% likely that Malawi adopts seasonal malaria chemoprevention nationally "
                            "by 2023.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("cw-gh-malawi-2023", "cw-wire-malawi-2023"),
                            deadline="2023-12-31",
                            prob=0.75,
                            pkind="exact",
                            rej=(("cw-market-malawi", "prediction market"),),
                        ),
                    ),
                ),
                Ask(
                    "And the vaccine?",
                    NAIR,
                    (
                        St(
                            "There is at least a 30% chance that the malaria vaccine is in routine use in five African "
                            "countries by 2024.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("cw-gh-vaccine-2024", "cw-mp-vaccine-2025"),
                            deadline="2024-12-31",
                            prob=0.3,
                            pkind="lower_bound",
                        ),
                    ),
                ),
                Ask(
                    "How did the pandemic year go?",
                    NAIR,
                    (
                        St(
                            "In 2020 we directed more than $90 million.",
                            "factual",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            cw_ev(2020),
                            note="88.1 in the filing.",
                        ),
                    ),
                ),
                Ask(
                    "Will you grow the team?",
                    NAIR,
                    (
                        St(
                            "We will hire 10 more researchers by the end of 2022.",
                            "promise",
                            "resolvable_now",
                            "unresolvable",
                            "ordinary_statements_only",
                            ("cw-blog-team-2023",),
                            deadline="2022-12-31",
                            note="Self-reported only.",
                        ),
                    ),
                ),
            ),
            ("Priya Nair", "interview", "Malawi", "malaria vaccine"),
            kind="interview",
            fl=True,
        ),
        _own(
            "cw-annual-2021",
            "reports/annual-2021",
            "Annual review 2021",
            "2022-04-04",
            (
                Own(
                    (
                        directed(2021),
                        St(
                            "We expect to direct less in 2022 as markets fall.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            cw_ev(2022),
                            deadline="2022-12-31",
                        ),
                        St(
                            "We will direct $250 million a year by 2030.",
                            "promise",
                            "not_yet_due",
                            deadline="2030-12-31",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("annual review", "2021"),
        ),
        _quoting(
            "cw-gt-2022",
            "https://givingtimes.example/2022/2022-12-01-clearwater-research",
            "Inside Clearwater's research team",
            "The Giving Times",
            "2022-12-01",
            (
                Said(
                    St(
                        "Our internal headcount shows that the research team grew to 34 people this year.",
                        "factual",
                        "own_records_only",
                    ),
                    NAIR,
                ),
                Para(
                    St(
                        "Nair said that Clearwater would stop recommending deworming in 2023.",
                        "prediction",
                        drop="paraphrase",
                        speaker=NAIR,
                    )
                ),
                Said(
                    St("Their research is the gold standard.", speaker="Ada Kim", drop="other_speaker"),
                    "Ada Kim",
                    "a philanthropy researcher",
                ),
            ),
            ("research team", "2022"),
        ),
        _own(
            "cw-blog-team-2023",
            "blog/2023-01-20-our-research-team",
            "Our research team",
            "2023-01-20",
            (
                Own(
                    (
                        St(
                            "We hired 11 researchers in 2022, beating our goal.",
                            "factual",
                            "resolvable_now",
                            "unresolvable",
                            "nothing",
                            note="Its only source is this post.",
                        ),
                    )
                ),
            ),
            kw=("researchers", "hiring", "2022"),
            source_class="subject_ordinary_statement",
        ),
        _own(
            "cw-annual-2022",
            "reports/annual-2022",
            "Annual review 2022",
            "2023-04-03",
            (
                Own(
                    (
                        directed(2022),
                        St(
                            "We put a 50% probability on directing more than $110 million in 2023.",
                            "prediction",
                            "resolvable_now",
                            "true",
                            "official_records_only",
                            (reg(2023),),
                            deadline="2023-12-31",
                            prob=0.5,
                            pkind="exact",
                            note="110.3 > 110: literally true.",
                        ),
                        St(
                            "We will publish our full grant database online by the end of 2023.",
                            "promise",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("cw-gt-grantdb-2023", "cw-wire-grantdb-2023", "cw-grantdb-2023"),
                            deadline="2023-12-31",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("annual review", "2022", "grant database"),
        ),
        _own(
            "cw-grantdb-2023",
            "grants/database",
            "Grant database",
            "2023-11-15",
            (
                Own(
                    (
                        St(
                            "This database lists all 1,240 grants we have recommended since 2011.",
                            "factual",
                            "resolvable_now",
                            "true",
                            "independent_source",
                            ("cw-gt-grantdb-2023", "cw-wire-grantdb-2023"),
                        ),
                    )
                ),
            ),
            kw=("grant database", "grants"),
        ),
        _own(
            "cw-deworm-2020",
            "research/deworming-re-evaluation",
            "Deworming: a re-evaluation",
            "2020-11-30",
            (
                Own(
                    (
                        St(
                            "Our internal analysis puts deworming at 4 times the cost-effectiveness of cash transfers.",
                            "factual",
                            "own_records_only",
                        ),
                    )
                ),
            ),
            kw=("deworming", "re-evaluation"),
        ),
        _own(
            "cw-annual-2023",
            "reports/annual-2023",
            "Annual review 2023",
            "2024-04-02",
            (
                Own(
                    (
                        directed(2023),
                        St(
                            "In 2023, 43,100 donors gave through us.",
                            "factual",
                            "resolvable_now",
                            "true",
                            "official_records_only",
                            (reg(2023),),
                        ),
                        St(
                            "Our donors are the most thoughtful in the world.",
                            "factual",
                            "never_resolvable",
                            note="vague",
                        ),
                    )
                ),
            ),
            kw=("annual review", "2023"),
        ),
        _quoting(
            "cw-int-2024",
            "https://wire.example/interviews/2024-05-10-priya-nair",
            "Interview: Priya Nair on aid cuts",
            "The Wire",
            "2024-05-10",
            (
                Ask(
                    "How much will you direct next year?",
                    NAIR,
                    (
                        St(
                            "I'd say there is an 80% chance that we direct more than $130 million in 2025.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            cw_ev(2025),
                            deadline="2025-12-31",
                            prob=0.8,
                            pkind="exact",
                        ),
                    ),
                ),
                Ask(
                    "What about the aid debate?",
                    NAIR,
                    (
                        St(
                            "The Progress Party's plan to cut aid must be defeated.",
                            "factual",
                            "never_resolvable",
                            political=True,
                        ),
                    ),
                ),
                Ask(
                    "You were away this spring?",
                    NAIR,
                    (St("My mother's illness kept me in Chennai for a month.", drop="private_life"),),
                ),
            ),
            ("Priya Nair", "interview", "aid"),
            kind="interview",
            fl=True,
        ),
        _own(
            "cw-annual-2024",
            "reports/annual-2024",
            "Annual review 2024",
            "2025-04-01",
            (
                Own(
                    (
                        directed(2024),
                        St(
                            "We will complete an independent audit of our top charities' reported outcomes by the end of 2025.",
                            "promise",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            ("cw-gt-audit-2025", "cw-wire-audit-2025"),
                            deadline="2025-12-31",
                            note="Positive evidence: postponement reported.",
                        ),
                        St(
                            "We expect the cost of a malaria net to fall below $2 in 2025.",
                            "prediction",
                            "resolvable_now",
                            "false",
                            "independent_source",
                            ("cw-gh-netprice-2026", "cw-wire-netprice-2026"),
                            deadline="2025-12-31",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("annual review", "2024", "audit"),
        ),
        _quoting(
            "cw-gt-2025",
            "https://givingtimes.example/2025/2025-07-01-nair-on-evidence",
            "Nair: donors want evidence",
            "The Giving Times",
            "2025-07-01",
            (
                Said(
                    St(
                        "Our donors gave a record $125 million through us in 2024.",
                        "factual",
                        "resolvable_now",
                        "mostly_false",
                        "independent_source",
                        cw_ev(2024),
                        note="121.9 in the filing: a record, but not $125 million.",
                    ),
                    NAIR,
                ),
                Said(
                    St(
                        "Had donors followed our advice in 2010, a million more children would be alive.",
                        "factual",
                        "never_resolvable",
                        note="counterfactual",
                    ),
                    NAIR,
                ),
                Said(
                    St("Evidence is not everything.", speaker="Grace Banda", drop="other_speaker"),
                    "Grace Banda",
                    "director of NetsNow",
                ),
            ),
            ("evidence", "donors", "2025"),
            curly=True,
        ),
        _own(
            "cw-annual-2025",
            "reports/annual-2025",
            "Annual review 2025",
            "2026-04-01",
            (
                Own(
                    (
                        directed(2025),
                        St(
                            "We expect to direct more than $125 million in 2026.",
                            "prediction",
                            "not_yet_due",
                            deadline="2026-12-31",
                        ),
                        St(
                            "We will evaluate 50 new charities by June 2027.",
                            "promise",
                            "not_yet_due",
                            deadline="2027-06-30",
                        ),
                    )
                ),
            ),
            fl=True,
            kw=("annual review", "2025"),
        ),
        _quoting(
            "cw-int-2026",
            "https://morningpost.example/interviews/2026-09-01-priya-nair",
            "Priya Nair: the next five years",
            "The Morning Post",
            "2026-09-01",
            (
                Ask(
                    "Can Malawi win?",
                    NAIR,
                    (
                        St(
                            "I'd put it at 70% that Malawi halves child malaria deaths by 2030.",
                            "prediction",
                            "not_yet_due",
                            deadline="2030-12-31",
                            prob=0.7,
                            pkind="exact",
                        ),
                    ),
                ),
                Ask(
                    "How is the team?",
                    NAIR,
                    (
                        St(
                            "Our internal staff survey showed 91% satisfaction this year.",
                            "factual",
                            "own_records_only",
                        ),
                    ),
                ),
            ),
            ("Priya Nair", "interview", "Malawi"),
            kind="interview",
            fl=True,
        ),
    ]


def donors(year: int) -> Own:
    """The donor count an annual review repeats, checkable in that year's filing."""
    independent = year in GT_YEARS
    return Own(
        (
            St(
                f"In {year}, {FIGURES[year][1]} donors gave through us.",
                "factual",
                "resolvable_now",
                "true",
                "independent_source" if independent else "official_records_only",
                (gt(year), reg(year)) if independent else (reg(year),),
            ),
        )
    )


# Appended to the annual reviews so that a sample of a few documents still holds
# enough checkable figures for a score.
EXTRA_BLOCKS: dict[str, tuple[Block, ...]] = {
    f"cw-annual-{year}": (donors(year),) for year in (2014, 2016, 2018, 2021, 2022, 2024, 2025)
}


def world() -> SubjectWorld:
    return SubjectWorld(
        id=ID,
        name=NAME,
        kind="nonprofit",
        urls=("https://clearwater.example/",),
        consent=False,
        description="Fictional charity evaluator that publishes its grants and figures (demo corpus).",
        aliases=("Clearwater", NAME, REYES, NAIR),
        prefix="cw",
        coverage="covered",
        coverage_reason="A non-profit organisation: public professional output may be covered.",
        docs=(
            *enrich(
                with_extras(_documents(), EXTRA_BLOCKS),
                routine_statements,
                ("Clearwater", NAME, REYES, NAIR),
                QUESTION,
            ),
            *_evidence(),
            *_fund_reports(),
        ),
    )


# Grants of Clearwater's Malaria Fund, USD million, by year (reported by The Wire and
# The Giving Times each March).
MALARIA_FUND: dict[int, str] = {
    2013: "1.4",
    2014: "2.0",
    2015: "3.1",
    2016: "4.6",
    2017: "6.2",
    2018: "8.0",
    2019: "9.5",
    2020: "12.4",
    2021: "14.8",
    2022: "13.9",
    2023: "16.1",
    2024: "18.0",
    2025: "17.2",
}


def fund_ev(year: int) -> tuple[str, ...]:
    return (f"cw-wire-fund-{year}", f"cw-gt-fund-{year}")


def _fund_reports() -> list[Doc]:
    """Two independent publishers report each year's Malaria Fund grants."""
    docs = []
    for year, grants in MALARIA_FUND.items():
        published = f"{year + 1}-03-1{year % 10}"
        kw = (*KW, "Malaria Fund", "malaria", "fund", "grants", "grant", str(year), "million")
        docs.append(
            _news(
                f"cw-wire-fund-{year}",
                "wire.example",
                "The Wire",
                "wire_service",
                published,
                f"clearwater-malaria-fund-{year}",
                f"Clearwater Malaria Fund grant total for {year}: ${grants} million",
                (
                    f"GENEVA, {published} (The Wire) - The Malaria Fund run by Clearwater Evaluators granted "
                    f"${grants} million to malaria programmes in {year}, its accounts show.",
                    "The fund pools gifts from individual donors and pays them out to distributors chosen by the "
                    "evaluator's researchers.",
                    "Health agencies count bed nets and seasonal medicine among the cheapest ways to prevent "
                    "deaths from the disease.",
                ),
                kw,
            )
        )
        docs.append(
            _giving(
                f"cw-gt-fund-{year}",
                published,
                f"malaria-fund-{year}",
                f"Malaria Fund grants in {year} reached ${grants} million",
                (
                    f"Clearwater Evaluators' Malaria Fund made grants of ${grants} million in {year}, according to "
                    f"figures the evaluator published on {published}.",
                    "Donors can give to the fund directly or through workplace giving schemes.",
                    "Its grant decisions are published with the research notes behind them, a practice other "
                    "evaluators have started to copy.",
                ),
                kw,
            )
        )
    return docs


QUESTION = "Which figures should donors hold you to?"


def routine_statements(doc: Doc, n: int) -> tuple[St, ...]:
    """Last year's Malaria Fund grants, expectations for this (or next) year's grants
    (one with a stated probability) and a grants target. The n-th document misses one
    bound in four on purpose."""
    assert doc.published is not None
    year = int(doc.published[:4])
    sts: list[St] = []
    prev = year - 1
    if prev in MALARIA_FUND:
        sts.append(
            St(
                f"In {prev} our Malaria Fund granted ${MALARIA_FUND[prev]} million to malaria programmes.",
                "factual",
                "resolvable_now",
                "true",
                "independent_source",
                fund_ev(prev),
            )
        )
    if year > LAST_YEAR:
        return tuple(sts)
    due = target_year(doc.published)
    fund = float(MALARIA_FUND[due])
    bound = bound_for(fund, miss=n % 4 == 3)
    sts.append(
        St(
            f"We expect our Malaria Fund to grant more than ${fmt(bound)} million in {due}.",
            "prediction",
            "resolvable_now",
            numeric_verdict(fund, bound),
            "independent_source",
            fund_ev(due),
            deadline=f"{due}-12-31",
        )
    )
    fund_target = bound_for(fund * 0.95, miss=n % 4 == 0)
    sts.append(
        St(
            f"Our target is to grant at least ${fmt(fund_target)} million through our Malaria Fund in {due}.",
            "promise",
            "resolvable_now",
            numeric_verdict(fund, fund_target),
            "independent_source",
            fund_ev(due),
            deadline=f"{due}-12-31",
        )
    )
    goal = min(due + 1, LAST_YEAR)
    goal_fund = float(MALARIA_FUND[goal])
    # 81% of the figure when the bound holds; 170% of it (a clear miss) when it does not
    odds_bound = bound_for(goal_fund, miss=True) if n % 4 == 1 else bound_for(goal_fund * 0.9, miss=False)
    sts.append(
        St(
            f"There is an 80% chance that our Malaria Fund grants more than ${fmt(odds_bound)} million in {goal}.",
            "prediction",
            "resolvable_now",
            numeric_verdict(goal_fund, odds_bound),
            "independent_source",
            fund_ev(goal),
            deadline=f"{goal}-12-31",
            prob=0.8,
            pkind="exact",
        )
    )
    target = bound_for(goal_fund, miss=n % 4 == 2)
    sts.append(
        St(
            f"We will grant at least ${fmt(target)} million through our Malaria Fund in {goal}.",
            "promise",
            "resolvable_now",
            numeric_verdict(goal_fund, target),
            "independent_source",
            fund_ev(goal),
            deadline=f"{goal}-12-31",
        )
    )
    return tuple(sts)
