"""Building blocks of the offline world: statements, paragraphs and documents.

Every page of ``data/corpus`` and every row of the answer key is generated from
these objects, so a quote in the answer key is the same Python string that was
written into the page."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class St:
    """One statement as a careful person would label it.

    ``text`` is the exact sentence as it appears in the page (ending in a full
    stop, which the answer key strips). ``speaker`` None means the document's
    subject speaks. ``ev`` and ``rej`` name evidence documents by their key."""

    text: str
    type: str | None = None  # factual / promise / prediction / None (not a claim)
    triage: str | None = None
    verdict: str | None = None
    basis: str | None = None
    ev: tuple[str, ...] = ()
    rej: tuple[tuple[str, str], ...] = ()  # (document key, reason the page is not evidence)
    deadline: str | None = None
    prob: float | None = None
    pkind: str | None = None  # exact / lower_bound / upper_bound
    political: bool = False
    drop: str | None = None  # other_speaker / paraphrase / private_life
    speaker: str | None = None  # None: the subject; otherwise the other person's name
    altered: str | None = None  # the quote as (mis)transcribed; must fail verification
    tag: str | None = None  # stable id for cross references
    note: str = ""

    @property
    def quote(self) -> str:
        return self.text[:-1] if self.text.endswith(".") else self.text


# Paragraph forms. Each renders to one <p> (or two for an interview question).
@dataclass(frozen=True)
class Narr:
    """A sentence of the author's own (journalist, register, statistician)."""

    text: str


@dataclass(frozen=True)
class Said:
    """``"QUOTE," said NAME[, ROLE].`` ; the subject or another speaker (``st.speaker``)."""

    st: St
    name: str
    role: str = ""
    tail: str = ""  # narration appended after the attribution, same paragraph


@dataclass(frozen=True)
class SaidColon:
    """``NAME said: "QUOTE."``"""

    name: str
    st: St


@dataclass(frozen=True)
class Told:
    """``"QUOTE," NAME told OUTLET.``"""

    st: St
    name: str
    outlet: str


@dataclass(frozen=True)
class Para:
    """Reported paraphrase, unquoted: ``NAME said that CLAUSE.`` The whole
    sentence is ``st.text``; it must be dropped as a paraphrase."""

    st: St


@dataclass(frozen=True)
class Own:
    """Sentences of the subject's own document, one paragraph."""

    sts: tuple[St, ...]


@dataclass(frozen=True)
class Ask:
    """An interview exchange: question, then the answer paragraph of ``name``."""

    question: str
    name: str
    sts: tuple[St, ...]


@dataclass(frozen=True)
class Raw:
    """Literal HTML (hidden text, steering traps). Not escaped."""

    html: str


Block = Narr | Said | SaidColon | Told | Para | Own | Ask | Raw


@dataclass
class Doc:
    """One URL of the offline world."""

    key: str
    url: str
    title: str
    site: str
    kind: str
    published: str | None = None
    subjects: tuple[str, ...] = ()
    blocks: tuple[Block, ...] = ()
    keywords: tuple[str, ...] = ()
    forward_looking: bool = False
    speaks: bool = False  # the subject speaks in it (a candidate document)
    language: str = "en"
    curly: bool = False  # render quotes with curly quotation marks
    searchable: bool = True
    status: int = 200
    redirect_to: str | None = None
    content_type: str = "text/html; charset=utf-8"
    raw_body: bytes | None = None  # served as is (PDF, broken charset)
    oversize_bytes: int | None = None
    source_class: str | None = None
    traps: tuple[str, ...] = ()
    notes: str = ""
    extra_head: str = ""
    statements: list[tuple[St, str]] = field(default_factory=list)  # filled by the renderer


@dataclass(frozen=True)
class SubjectWorld:
    """Everything one subject contributes: registry entry, coverage label, pages."""

    id: str
    name: str
    kind: str
    urls: tuple[str, ...]
    consent: bool
    description: str
    aliases: tuple[str, ...]
    prefix: str
    coverage: str  # covered / refused
    coverage_reason: str
    docs: tuple[Doc, ...]


def with_extras(docs: list[Doc], extras: dict[str, tuple[Block, ...]]) -> list[Doc]:
    """Append extra paragraphs to the documents named in ``extras`` (by key)."""
    for doc in docs:
        doc.blocks = doc.blocks + extras.get(doc.key, ())
    return docs


@dataclass(frozen=True)
class SubjectDocs:
    """Builds the documents in which one subject speaks, with its id and keywords filled in."""

    subject_id: str
    keywords: tuple[str, ...]
    own_base_url: str  # e.g. "https://northwind.example/" (the subject's own site)
    own_site: str

    def own(
        self,
        key: str,
        slug: str,
        title: str,
        published: str,
        blocks: tuple[Block, ...],
        fl: bool = False,
        kw: tuple[str, ...] = (),
        source_class: str | None = None,
    ) -> Doc:
        """A document on the subject's own site: every sentence is the subject's."""
        return Doc(
            key=key,
            url=f"{self.own_base_url}{slug}",
            title=title,
            site=self.own_site,
            kind="subject_own",
            published=published,
            subjects=(self.subject_id,),
            keywords=(*self.keywords, *kw),
            blocks=blocks,
            forward_looking=fl,
            speaks=True,
            source_class=source_class,
        )

    def quoting(
        self,
        key: str,
        url: str,
        title: str,
        site: str,
        published: str,
        blocks: tuple[Block, ...],
        kw: tuple[str, ...],
        kind: str = "news_quoting",
        fl: bool = False,
        curly: bool = False,
    ) -> Doc:
        """A news report or interview elsewhere in which the subject speaks."""
        return Doc(
            key=key,
            url=url,
            title=title,
            site=site,
            kind=kind,
            published=published,
            subjects=(self.subject_id,),
            keywords=(*self.keywords, *kw),
            blocks=blocks,
            speaks=True,
            forward_looking=fl,
            curly=curly,
        )
