"""[#27] "The offline stand-in knows only the demo corpus": which registry entries its world
holds. A subject is known by the pages about its id or by the name the offline search finds
its pages under; a real subject outside the corpus is not, whatever its id."""

from __future__ import annotations

import pytest

from reliability_core.models import RegistryEntry
from reliability_core.stand_in.corpus import corpus_subject_names, corpus_subjects
from reliability_core.subjects.coverage import StandInWorld, stand_in_cannot_decide
from tests.conftest import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus"


@pytest.fixture(scope="module")
def world() -> StandInWorld:
    return StandInWorld(subject_ids=corpus_subjects(CORPUS), names=corpus_subject_names(CORPUS))


@pytest.mark.parametrize(
    "entry",
    [
        RegistryEntry(id="jonas-pike", name="Jonas Pike", kind="public_figure"),
        # The same subject registered under another id: the offline search finds its pages by name.
        RegistryEntry(id="pool-3", name="Jonas Pike", kind="public_figure"),
        RegistryEntry(id="nw-copy", name="Northwind Energy A/S", kind="company", aliases=["Northwind Energy"]),
    ],
)
def test_a_subject_the_corpus_holds_is_decided_by_the_stand_in(world: StandInWorld, entry: RegistryEntry) -> None:
    assert not stand_in_cannot_decide(entry, world)


@pytest.mark.parametrize(
    "entry",
    [
        RegistryEntry(id="orsted", name="Ørsted A/S", kind="company", urls=["https://orsted.com/"], aliases=["Orsted"]),
        RegistryEntry(id="siemens", name="Siemens AG", kind="company", aliases=["Siemens"]),
        RegistryEntry(id="toyota", name="トヨタ自動車", kind="company", aliases=["Toyota"]),
    ],
)
def test_a_subject_outside_the_corpus_gets_no_decision_from_the_stand_in(
    world: StandInWorld, entry: RegistryEntry
) -> None:
    assert stand_in_cannot_decide(entry, world)


def test_live_providers_decide_every_subject() -> None:
    assert not stand_in_cannot_decide(RegistryEntry(id="orsted", name="Ørsted A/S", kind="company"), None)
