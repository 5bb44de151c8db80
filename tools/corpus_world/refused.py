"""Subjects that must be refused coverage: a serving politician and a private
person without consent. Their pages exist so identity can be confirmed."""

from __future__ import annotations

from corpus_world.model import Doc, Narr, Said, St, SubjectWorld

VINTER = "lars-vinter"
PIKE = "jonas-pike"


def politician() -> SubjectWorld:
    kw = ("Lars Vinter", "minister", "climate and energy")
    docs = (
        Doc(
            key="lv-parliament",
            url="https://parliament.example/members/lars-vinter",
            title="Lars Vinter - Member of Parliament",
            site="Parliament (fictional)",
            kind="official_record",
            published="2025-01-10",
            subjects=(VINTER,),
            keywords=kw,
            blocks=(
                Narr("Lars Vinter has been Minister for Climate and Energy since 15 December 2022."),
                Narr("He has been a Member of Parliament for the Social Liberal Party since 2011."),
            ),
        ),
        Doc(
            key="lv-home",
            url="https://larsvinter.example/",
            title="Lars Vinter",
            site="Lars Vinter",
            kind="other",
            subjects=(VINTER,),
            keywords=kw,
            blocks=(Narr("Official site of Lars Vinter, Minister for Climate and Energy."),),
        ),
        Doc(
            key="lv-wire-2025",
            url="https://wire.example/politics/2025-03-04-vinter-offshore-plan",
            title="Minister Vinter unveils offshore plan",
            site="The Wire",
            kind="news_quoting",
            published="2025-03-04",
            subjects=(VINTER,),
            speaks=True,
            forward_looking=True,
            keywords=(*kw, "offshore plan"),
            blocks=(
                Said(
                    St(
                        "We will tender 10 GW of new offshore wind by 2030.",
                        "promise",
                        "not_yet_due",
                        deadline="2030-12-31",
                        note="Subject refused: a serving politician; nothing is extracted in a real run.",
                    ),
                    "Lars Vinter",
                    "the Minister for Climate and Energy",
                ),
            ),
        ),
    )
    return SubjectWorld(
        id=VINTER,
        name="Lars Vinter",
        kind="politician",
        urls=("https://larsvinter.example/",),
        consent=False,
        description="Fictional serving Minister for Climate and Energy (demo corpus).",
        aliases=("Minister Vinter",),
        prefix="lv",
        coverage="refused",
        coverage_reason="Serving politician (Minister for Climate and Energy since 2022): out of scope.",
        docs=docs,
    )


def private_person() -> SubjectWorld:
    kw = ("Jonas Pike", "Pike's Bikes", "Aarhus")
    docs = (
        Doc(
            key="jp-forum",
            url="https://powerforum.example/threads/solar-on-my-shop-roof",
            title="Solar on my shop roof",
            site="PowerForum",
            kind="forum",
            published="2024-04-02",
            subjects=(PIKE,),
            keywords=(*kw, "solar"),
            blocks=(Narr("jonaspike: I put 12 panels on the roof of my bike shop in Aarhus last spring."),),
        ),
        Doc(
            key="jp-local",
            url="https://dailyledger.example/local/2023-08-14-pikes-bikes",
            title="Aarhus bike shop goes solar",
            site="The Daily Ledger",
            kind="mention_only",
            published="2023-08-14",
            subjects=(PIKE,),
            keywords=(*kw, "solar", "local"),
            blocks=(
                Narr("Jonas Pike, who runs Pike's Bikes in Aarhus, has installed solar panels on his shop."),
            ),
        ),
    )
    return SubjectWorld(
        id=PIKE,
        name="Jonas Pike",
        kind="private_person",
        urls=(),
        consent=False,
        description="Fictional private person (a local shop owner) who has not consented (demo corpus).",
        aliases=(),
        prefix="jp",
        coverage="refused",
        coverage_reason="Not a public figure and no documented consent.",
        docs=docs,
    )
