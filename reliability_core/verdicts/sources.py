"""Source classes: which kind of source a page is, from the maintained domain
policy (``reliability_core/policy/sources.yaml``) plus page signals ([M] step 7, [R]
"Sources it accepts").

The policy file is part of the method version. Every function here is pure:
the policy is loaded once and passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import get_args
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.models.base import SourceClass
from reliability_core.models.subjects import RegistryEntry
from reliability_core.yaml_files import safe_load

# Shipped inside the package (package data, like the prompts) so an installed copy has it.
DEFAULT_POLICY_PATH = Path(__file__).resolve().parents[1] / "policy" / "sources.yaml"

# [R] "Yes: the official record ..., wire services, and established newsrooms with a
# corrections policy." The subject's ordinary statements are kept (they decide the
# "self-reported only" basis) but can never settle a claim on their own.
RELIABLE_CLASSES: frozenset[SourceClass] = frozenset(
    {"official_record", "wire_service", "established_newsroom"}
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ClassPolicy(_Frozen):
    accepted: bool
    primary: bool
    doc: str


class DomainEntry(_Frozen):
    domain: str
    class_: SourceClass = Field(alias="class")
    publisher: str
    major: bool = False
    filings_of_subject: bool = False  # an exchange or register: pages there are the filer's own records
    note: str = ""


class HostSignal(_Frozen):
    contains: str
    class_: SourceClass = Field(alias="class")


class TextSignal(_Frozen):
    phrase: str
    class_: SourceClass = Field(alias="class")


class SourcePolicy(_Frozen):
    """The parsed policy file."""

    version: int
    classes: dict[SourceClass, ClassPolicy]
    official_record_signals: list[str]
    domains: list[DomainEntry]
    host_signals: list[HostSignal] = Field(default_factory=list)
    text_signals: list[TextSignal] = Field(default_factory=list)


class SourceClassification(_Frozen):
    """What the policy says about one page."""

    source_class: SourceClass
    publisher: str
    accepted: bool
    primary_or_major: bool
    subject_own: bool
    reason: str


def load_source_policy(path: Path = DEFAULT_POLICY_PATH) -> SourcePolicy:
    """Read and validate the domain policy; every source class must be documented."""
    policy = SourcePolicy.model_validate(safe_load(path.read_text(encoding="utf-8"), str(path)))
    missing = set(get_args(SourceClass)) - set(policy.classes)
    if missing:
        raise ValueError(f"source policy {path} does not document classes: {sorted(missing)}")
    return policy


@lru_cache(maxsize=4)
def default_source_policy() -> SourcePolicy:
    """The project's policy file, parsed once per process."""
    return load_source_policy(DEFAULT_POLICY_PATH)


def host_of(url: str) -> str:
    """Lower-case host without a leading ``www.``."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return host[4:] if host.startswith("www.") else host


def host_matches(host: str, domain: str) -> bool:
    """A host belongs to a domain when it is the domain or one of its subdomains."""
    domain = domain.lower().lstrip(".")
    return host == domain or host.endswith("." + domain)


def subject_domains(subject: RegistryEntry | None) -> list[str]:
    """The hosts of the subject's own registry URLs: pages there are the subject's own."""
    if subject is None:
        return []
    return sorted({host_of(url) for url in subject.urls if host_of(url)})


def names_of(subject: RegistryEntry | None) -> list[str]:
    """The subject's name and registry aliases, name first."""
    if subject is None:
        return []
    return [subject.name, *subject.aliases]


def page_names_subject(url: str, title: str, text: str, names: Sequence[str]) -> bool:
    """A filing page is about the subject when its address, title or opening text names it."""
    path = urlsplit(url).path.casefold().replace("-", " ").replace("_", " ")
    haystack = f"{path}\n{title}\n{text[:3000]}".casefold()
    return any(len(name) >= 4 and name.casefold() in haystack for name in names)


def is_subject_page(url: str, own_domains: Sequence[str]) -> bool:
    """A page on one of the subject's own domains is the subject speaking, not an independent source."""
    host = host_of(url)
    return any(host_matches(host, domain) for domain in own_domains)


def classify_source(
    url: str,
    *,
    title: str = "",
    text: str = "",
    own_domains: Sequence[str] = (),
    subject_names: Sequence[str] = (),
    policy: SourcePolicy | None = None,
) -> SourceClassification:
    """[M] step 7: "Source classes, from a maintained, documented domain policy file
    plus page signals". On the subject's own domains a page is an official record
    only when it carries an official-record signal (annual report, filing, audited
    accounts, results announcement); otherwise it is an ordinary statement
    ([M] step 8: "audited or published accounts, regulatory or exchange filings,
    and dated official announcements" versus "an interview, a blog post, a marketing page").
    On an exchange or register (``filings_of_subject``) a page naming the subject is the
    subject's own official record: it counts for its own figures but is not independent."""
    policy = policy or default_source_policy()
    host = host_of(url)
    subject_name = subject_names[0] if subject_names else ""
    if is_subject_page(url, own_domains):
        haystack = f"{url} {title}".lower()
        signal = next((s for s in policy.official_record_signals if s in haystack), None)
        cls: SourceClass = "official_record" if signal else "subject_ordinary_statement"
        reason = (
            f"subject's own domain with official-record signal {signal!r}"
            if signal
            else "subject's own domain, no official-record signal: ordinary statement"
        )
        return _classification(policy, cls, subject_name or host, major=bool(signal), own=True, reason=reason)
    for entry in policy.domains:
        if host_matches(host, entry.domain):
            if entry.filings_of_subject and page_names_subject(url, title, text, subject_names):
                return _classification(
                    policy,
                    "official_record",
                    subject_name or host,
                    major=True,
                    own=True,
                    reason=f"domain policy: {entry.domain} publishes the subject's own filings",
                )
            return _classification(
                policy,
                entry.class_,
                entry.publisher,
                major=entry.major,
                own=False,
                reason=f"domain policy: {entry.domain} is {entry.class_}",
            )
    for host_signal in policy.host_signals:
        if host_signal.contains in host:
            return _classification(
                policy,
                host_signal.class_,
                host,
                major=False,
                own=False,
                reason=f"host signal {host_signal.contains!r}",
            )
    opening = f"{title}\n{text[:2000]}".lower()
    for text_signal in policy.text_signals:
        if text_signal.phrase in opening:
            return _classification(
                policy,
                text_signal.class_,
                host,
                major=False,
                own=False,
                reason=f"page signal {text_signal.phrase!r}",
            )
    return _classification(
        policy, "unknown", host, major=False, own=False, reason="host not in the source policy"
    )


def _classification(
    policy: SourcePolicy, cls: SourceClass, publisher: str, *, major: bool, own: bool, reason: str
) -> SourceClassification:
    rule = policy.classes[cls]
    return SourceClassification(
        source_class=cls,
        publisher=publisher,
        accepted=rule.accepted,
        primary_or_major=rule.accepted and (rule.primary or major),
        subject_own=own,
        reason=reason,
    )


def is_rejected_class(source_class: SourceClass, policy: SourcePolicy | None = None) -> bool:
    """[R] "No: social media, forums, user-edited wikis, prediction markets and forecasting
    sites, content farms and self-interested press releases." Rejected classes are never evidence."""
    policy = policy or default_source_policy()
    return not policy.classes[source_class].accepted


def is_reliable_class(source_class: SourceClass) -> bool:
    """[R] "Yes: the official record ..., wire services, and established newsrooms with a corrections policy"."""
    return source_class in RELIABLE_CLASSES
