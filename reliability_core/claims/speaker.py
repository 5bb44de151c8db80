"""Who is speaking, and which statements are dropped for it ([M] step 4: "Statements by
other people are dropped, as are reported paraphrases"; [#15] rule 5: reported speech and
other named speakers are caught by code as well as by the classifier).

The classifier proposes; the functions here decide. ``drop_reason_for`` is the one place a
classified statement is dropped, so the privacy drop (``is_about_private_life``) lives here
too: it is checked first, so a private statement is never recorded under another reason.
The page-level privacy mask is lower down, in ``text.privacy``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from reliability_core.claims.classification import StatementClassification
from reliability_core.models.claims import DropReason
from reliability_core.text.lexicon import AreaLexicon, LexiconHit, area_lexicon, normalise_for_lexicon
from reliability_core.text.privacy import mentions_private_life
from reliability_core.text.sentences import split_sentences

# --- Privacy -------------------------------------------------------------------------


def is_about_private_life(flagged_by_model: bool, quote: str, context: str = "") -> bool:
    """[M] step 4: "Statements about anyone's private life, family, health, home or
    location are dropped before anything is stored." Dropped when the model says
    so OR the keyword backstop matches the quote (the context is checked too, so a
    quote like "it was hard for all of us" after "my wife's illness" is caught)."""
    return flagged_by_model or mentions_private_life(quote) or mentions_private_life(context)


# --- Speaker and paraphrase ---------------------------------------------------------


def is_other_speaker(classification: StatementClassification) -> bool:
    """[M] step 4: "Statements by other people ... are dropped"."""
    return not classification.is_subject


def is_reported_paraphrase(classification: StatementClassification) -> bool:
    """[M] step 4: "... as are reported paraphrases"."""
    return classification.paraphrase


_NAME = r"[A-Z][\w'’&.-]*(?:\s+(?:[A-Z][\w'’&.-]*|de|van|von|der|af))*"
_SPEECH_VERB = (
    r"(?:said|says|stated|states|told|tells|added|adds|explained|explains|argued|argues|noted|notes|"
    r"announced|announces|claimed|claims|wrote|writes|insisted|insists|warned|warns|promised|promises)"
)
_REPORTED_SPEECH = re.compile(
    rf"(?:\b{_NAME}|\b(?:[Hh]e|[Ss]he|[Ii]t|[Tt]hey|[Tt]he\s+(?:company|group|firm|charity|organisation|"
    rf"organization|minister|chief\s+executive|ceo|spokesperson|spokesman|spokeswoman)))"
    rf"\s+{_SPEECH_VERB}\s+(?:that\b|it\s+would\b|they\s+would\b|it\s+will\b|they\s+will\b)"
)
# Capitalised words that open a sentence or title a person: never a speaker's name (and
# never a new named entity in a restatement).
NOT_A_NAME = frozenset(
    {"The", "This", "That", "These", "Those", "It", "He", "She", "They", "We", "I", "Our", "A", "An", "In",
     "On", "At", "But", "And", "As", "When", "While", "If", "So", "According", "Mr", "Ms", "Mrs", "Dr"}
)  # fmt: skip
# "told"/"tells" name the listener when the verb comes first ("Freja Lund told The Wire"), so
# an inverted attribution ("said Anna Berg") never takes them.
_INVERTED_SPEECH_VERB = _SPEECH_VERB.replace("told|tells|", "")
_ATTRIBUTIONS = (
    re.compile(rf"\b{_INVERTED_SPEECH_VERB}\s+(?P<name>{_NAME})"),
    # Only the phrase is read in any case: a name keeps its capitals ("according to the annual
    # report" names no one).
    re.compile(rf"\b(?i:according\s+to)\s+(?P<name>{_NAME})"),
    re.compile(rf"(?P<name>{_NAME})(?:,\s+[^,]{{1,80}},)?\s+{_SPEECH_VERB}\b"),
)


# --- Speech in every language the subjects write (issue 25) -----------------------------
# The words are data (``text/lexicon/speech/<lang>.json``, written from the concept list):
# ``said_that`` a speech verb with its "that" ("sagde, at", "a déclaré que", "заявил, что",
# "と述べた", "-dığını söyledi"); ``speech_verb`` the verb alone and ``according_to`` the
# attribution phrase ("ifølge", "laut", "по словам", "によると"), beside which a speaker's
# name stands; ``first_person`` the speaker's own "we"/"I"; ``not_a_name`` the words that
# stand where a name would and are none (pronouns, "the company", "the report");
# ``person_title`` the titles that mark a person ("CEO", "社長", "대표", "السيد").

# A clause ends at these: a first-person subject before one belongs to another clause.
_CLAUSE_BREAK = re.compile(
    r"[.!?;:\u3002\uff01\uff1f\u061f\u061b\n\"\u201c\u201d\u00ab\u00bb\u201e\u300c\u300d]"
)


def _speech_lexicon() -> AreaLexicon:
    return area_lexicon("speech")


def _spoken_by_first_person(text: str, hit: LexiconHit) -> bool:
    """Is the speaker of ``hit`` the writer ("wir haben gesagt, dass", "мы заявили, что",
    "私たちは...と述べた")? A first-person word in the same clause, before the verb."""
    # The clause up to the verb's end, so "I" is read with the verb after it ("I said").
    clause = _CLAUSE_BREAK.split(text[: hit.start])[-1] + text[hit.start : hit.end]
    return _speech_lexicon().has(clause, "first_person")


def reports_speech_in_any_language(quote: str) -> bool:
    """A speech verb with its "that" in any of ``text.lexicon.WEB_LANGUAGES``, said by
    someone other than the writer: "Selskabet sagde, at ...", "Il a déclaré que ...",
    "Компания заявила, что ...", "同社は...と述べた". "Wir haben gesagt, dass wir ..." is the
    subject's own speech and is not caught."""
    text = normalise_for_lexicon(quote)
    return any(not _spoken_by_first_person(text, hit) for hit in _speech_lexicon().find(text, "said_that"))


def is_reported_speech(form: str, quote: str) -> bool:
    """[#15] rule 5 "Reported speech ... caught by code as well as by the classifier": the
    extractor's reported form, or a quote that itself reports what someone said ("Northwind
    said that it would ...", "the company said it will ...", "selskabet sagde, at",
    "a déclaré que", "заявил, что", in every language of ``text.lexicon.WEB_LANGUAGES``), is
    a reported paraphrase, not the subject's own words. First-person speech ("we said that
    we would", "wir haben gesagt, dass wir") is not caught."""
    if form == "reported":
        return True
    if any(match.group(0).split()[0] not in ("I", "We") for match in _REPORTED_SPEECH.finditer(quote)):
        return True
    return reports_speech_in_any_language(quote)


def _name_tokens(name: str) -> set[str]:
    return {t.casefold() for t in re.findall(r"[\w'’&-]+", name) if len(t) > 1}


# A name's case ending ("Ivana Petrova" for "Ivan Petrov", "Jana Kowalskiego" for "Jan
# Kowalski", "Yılmaz'a"): a word that extends another by at most this many letters is the
# same name in another case.
_CASE_ENDING_LETTERS: Final = 4
_MIN_STEM_LETTERS: Final = 3


def _same_name_word(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long = sorted((a.split("'")[0], b.split("'")[0]), key=len)
    return (
        len(short) >= _MIN_STEM_LETTERS
        and long.startswith(short)
        and len(long) - len(short) <= _CASE_ENDING_LETTERS
    )


def _words_within(words: set[str], other: set[str]) -> bool:
    return all(any(_same_name_word(w, o) for o in other) for w in words)


def is_subject_name(name: str, subject_names: Sequence[str]) -> bool:
    """Is ``name`` one of the subject's names or aliases (or a part or extension of one:
    "Northwind" for "Northwind Energy A/S", "Henrik Dahl" for "Henrik Dahl"), in any case
    ending ("Петрова" for "Петров", "Kowalskiego" for "Kowalski", "Yılmaz'a")?"""
    tokens = _name_tokens(name) - {"a/s", "inc", "ltd", "plc", "ag", "as"}
    if not tokens:
        return True
    for alias in subject_names:
        alias_tokens = _name_tokens(alias)
        if alias_tokens and (_words_within(tokens, alias_tokens) or _words_within(alias_tokens, tokens)):
            return True
    return False


def named_other_speaker(sentence: str, quote: str, subject_names: Sequence[str]) -> str | None:
    """[#15] rule 5 "a speaker named in the quote's sentence who is not the subject": the
    attribution around the quote ("..., said Anna Berg, an analyst"; "according to the
    regulator's Jens Holm") names someone who is not the subject or one of its aliases.
    Returns the name, or None when the sentence names no other speaker."""
    around = sentence.replace(quote, " ") if quote and quote in sentence else sentence
    for pattern in _ATTRIBUTIONS:
        for match in pattern.finditer(around):
            words = [w for w in match.group("name").split() if w not in NOT_A_NAME]
            name = " ".join(words)
            if name and not is_subject_name(name, subject_names):
                return name
    for name in names_beside_attributions(around):
        if not is_subject_name(name, subject_names):
            return name
    return None


# --- The name beside an attribution, in any script ---------------------------------------
# Latin, Cyrillic and Greek names are capitalised words; Arabic, Hebrew and Persian names are
# the words right after the attribution (those languages put it first: "قال أحمد", "לדברי
# יוסי", "به گفته علی"), and the words before it only with a person's title; Chinese,
# Japanese and Korean names are read beside a person's title ("田中社長", "张伟先生",
# "김철수 대표") or between "据" and its verb ("据张伟称").
_NAME_PARTICLES = frozenset(
    {"de", "da", "di", "do", "dos", "van", "von", "der", "den", "af", "bin", "ibn", "al", "la", "le"}
)
_MAX_NAME_WORDS: Final = 4
_RTL_NAME_WORDS: Final = 3
_SKIP = (
    " \t,:\u00a0\u202f\"'\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e\u300c\u300d\u3001\uff0c-\u2013\u2014()"
)
_HAN_KANA = r"\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff"
_HANGUL = r"\uac00-\ud7a3"
_RTL = r"\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\ufb1d-\ufdff\ufe70-\ufeff"
_ARTICLE_PREFIX = re.compile(r"^(?:ال|لل|بال|وال|فال|كال|ה|וה|שה|מה|בה|לה)")
# Japanese and Korean particles after a name ("田中社長は", "김 대표는").
_PARTICLES = "はがもにのとをで은는이가도의에"


def _is_upper_start(word: str) -> bool:
    return word[:1].isupper()


def _not_a_name(word: str) -> bool:
    """A pronoun, the speaker's own "we", a title or a generic word ("Unternehmen", "وی")."""
    lexicon = _speech_lexicon()
    folded = word.casefold()
    return word in NOT_A_NAME or any(
        lexicon.pattern(concept).fullmatch(folded)
        for concept in ("not_a_name", "person_title", "first_person")
    )


def _clean_name(words: Sequence[str]) -> str | None:
    """The name in ``words`` without titles, pronouns or generic words ("Konzernchef Müller"
    is "Müller"), and without a case suffix after an apostrophe ("Yılmaz'a" is "Yılmaz")."""
    kept = [
        w.rstrip(".,")
        for w in words
        if (w.islower() and w.casefold() in _NAME_PARTICLES) or not _not_a_name(w.rstrip(".,"))
    ]
    kept = [re.sub(r"['’][a-zçğıöşü]{1,4}$", "", w) for w in kept]
    while kept and kept[-1].casefold() in _NAME_PARTICLES:
        kept.pop()
    while kept and kept[0].casefold() in _NAME_PARTICLES:
        kept.pop(0)
    return " ".join(kept) or None


def _name_word(word: str) -> bool:
    """A capitalised word that can be part of a name: no figures, not an acronym or unit
    ("GW", "EBITDA", "Q3")."""
    return (
        _is_upper_start(word)
        and not any(c.isdigit() for c in word)
        and not (len(word) > 1 and word.isupper())
    )


_OWNER_PHRASE = re.compile(r"\s+(?:[^\W\d_]+\s+){0,2}[^\W\d_]+['’]s\s(?=\s*[^\W\d_])")


def _cased_name_after(text: str, pos: int) -> str | None:
    """The capitalised words right after an attribution ("sagde Anna Berg", "ifølge Jens
    Holm"), titles before the name skipped ("theo ông Nguyễn Văn An"). Only white space may
    stand between: after a comma the words are the statement ("sagte, Deutschland werde")."""
    if not text[pos : pos + 1].isspace():
        return None
    # "according to the regulator's Jens Holm": the name after an owner's phrase.
    owner = _OWNER_PHRASE.match(text, pos)
    if owner is not None:
        pos = owner.end() - 1
    words: list[str] = []
    tokens = text[pos:].split()
    for n, raw in enumerate(tokens):
        word = raw.strip(_SKIP)
        if not word:
            break
        if (_name_word(word) and len(words) < _MAX_NAME_WORDS) or (
            words and word.casefold() in _NAME_PARTICLES
        ):
            words.append(word)
        elif (
            not words
            and raw == word
            and (_is_title(word) or _article_before_title(word, tokens[n + 1 : n + 2]))
        ):
            continue  # a title before the name ("ông", "PDG"), or its article ("le PDG")
        else:
            break
        if raw.rstrip()[-1:] in ",;:.!?":
            break
    return _clean_name(words) if words else None


def _is_title(word: str) -> bool:
    return bool(_speech_lexicon().pattern("person_title").fullmatch(word.casefold()))


_ARTICLE_LETTERS: Final = 3


def _article_before_title(word: str, following: Sequence[str]) -> bool:
    """A short lower-case word right before a title ("selon le PDG Jean Dupont")."""
    return (
        word.islower()
        and len(word) <= _ARTICLE_LETTERS
        and bool(following)
        and _is_title(following[0].strip(_SKIP))
    )


def _cased_name_before(text: str, pos: int) -> str | None:
    """The capitalised words right before an attribution ("Anna Berg sagde", "Ahmet
    Yılmaz'a göre"), with only white space between: a word before a comma is the end of the
    statement, not its speaker. One capitalised word opening the sentence may be any word
    ("Selskabet sagde"), so it is not read as a name."""
    before = text[:pos]
    if not before[-1:].isspace():
        return None
    raw = before.split()
    words: list[str] = []
    while raw and len(words) < _MAX_NAME_WORDS:
        word = raw[-1]
        if word != word.strip(_SKIP + ".;!?"):
            break
        if _name_word(word) or (words and word.casefold() in _NAME_PARTICLES):
            words.insert(0, word)
            raw.pop()
        else:
            break
    if not words or (not raw and len(words) == 1):
        return None
    return _clean_name(words)


_APPOSITION = re.compile(r",\s+[^,]{1,80},\s*$")


def _cased_name_before_apposition(text: str, pos: int) -> str | None:
    """The name before a phrase between commas that stands before the verb ("Bà Lê Thị Hoa,
    chuyên gia phân tích, cho biết")."""
    apposition = _APPOSITION.search(text[:pos])
    if apposition is None:
        return None
    return _cased_name_before(text[: apposition.start()] + " ", apposition.start() + 1)


_RTL_STOP = re.compile(r"[\u060c\u061b\u061f\u06d4,.;:!?]")


def _rtl_name_after(text: str, pos: int) -> str | None:
    """Arabic, Hebrew and Persian: the words right after the attribution, up to a comma, a
    pronoun or generic word, or a word with the definite article ("للشركة", "החברה")."""
    words: list[str] = []
    rest = _RTL_STOP.split(text[pos:], maxsplit=1)[0]
    for word in rest.split()[: _RTL_NAME_WORDS + 2]:
        word = word.strip("\"'")
        if not re.match(rf"[{_RTL}]", word):
            break
        if not words and _is_title(word):
            continue  # a title before the name ("السيد", "מר", "آقای")
        if _not_a_name(word) or (not words and _ARTICLE_PREFIX.match(word)):
            break
        words.append(word)
        if len(words) == _RTL_NAME_WORDS:
            break
    return " ".join(words) or None


def _titled_names(text: str) -> list[str]:
    """Names beside a person's title in scripts without capitals ("田中社長", "张伟先生",
    "董事长张伟", "김철수 대표", "آقای رضایی")."""
    names: list[str] = []
    for title in _speech_lexicon().find(text, "person_title"):
        if not re.search(rf"[{_HAN_KANA}{_HANGUL}{_RTL}]", title.text):
            continue
        before = text[: title.start].rstrip(" ")
        run = re.search(rf"([{_HAN_KANA}{_HANGUL}]{{1,4}})$", before)
        if run and run.group(1).rstrip(_PARTICLES) and not _not_a_name(run.group(1)):
            last = re.split(rf"[{_PARTICLES}]", run.group(1))[-1]
            if last and not _not_a_name(last):
                names.append(last)
                continue
        after = re.match(rf"\s?([{_HAN_KANA}{_HANGUL}{_RTL}]{{2,12}})", text[title.end :])
        if after:
            word = after.group(1).split()[0] if re.match(rf"[{_RTL}]", after.group(1)) else after.group(1)
            word = re.sub(rf"[{_PARTICLES}].*$", "", word) if not re.match(rf"[{_RTL}]", word) else word
            for verb in _speech_lexicon().find(word, "speech_verb"):
                word = word[: verb.start]
                break
            if word and not _not_a_name(word) and not _ARTICLE_PREFIX.match(word):
                names.append(word[:4] if re.match(rf"[{_HAN_KANA}]", word) else word)
    return names


def _between_ju_and_verb(text: str, hit: LexiconHit) -> str | None:
    """Chinese "据张伟称": the name between "据" and its speech verb."""
    if not re.fullmatch(rf"[{_HAN_KANA}]+", hit.text):
        return None
    for verb in _speech_lexicon().find(text[hit.end : hit.end + 12], "speech_verb"):
        name = text[hit.end : hit.end + verb.start].strip()
        if name and re.fullmatch(rf"[{_HAN_KANA}]{{2,6}}", name) and not _not_a_name(name):
            return name
        break
    return None


def names_beside_attributions(sentence: str) -> list[str]:
    """Issue 25: the names that stand beside an attribution ("..., sagde Anna Berg",
    "ifølge Jens Holm", "по словам Ивана Петрова", "قال أحمد الخالدي", "לדברי יוסי כהן",
    "田中社長は...と述べた") in any language of ``text.lexicon.WEB_LANGUAGES``, nearest first.
    Pronouns, titles and generic words ("the company", "laut Unternehmen") are no names."""
    lexicon = _speech_lexicon()
    text = normalise_for_lexicon(sentence)
    hits = sorted(
        [
            *lexicon.find(text, "speech_verb"),
            *lexicon.find(text, "according_to"),
            *lexicon.find(text, "said_that"),
        ],
        key=lambda h: h.start,
    )
    if not hits:
        return []
    names: list[str] = []
    for hit in hits:
        # After "said that" comes the statement, never its speaker.
        after = _cased_name_after(text, hit.end) if hit.concept != "said_that" else None
        for candidate in (
            after,
            _cased_name_before(text, hit.start),
            # "Anna Berg, cheføkonom i Fjord Bank, vurderer": only when no name follows the verb,
            # where a phrase between commas before it may end the statement instead.
            _cased_name_before_apposition(text, hit.start) if after is None else None,
            _rtl_name_after(text, hit.end) if hit.concept != "said_that" else None,
            _between_ju_and_verb(text, hit),
        ):
            if candidate and candidate not in names:
                names.append(candidate)
    names.extend(n for n in _titled_names(text) if n not in names)
    return names


def attributed_to_another_speaker(
    sentence: str, context: str, quote: str, subject_names: Sequence[str]
) -> str | None:
    """Issue 24 "Attribution is decided on the quote's own sentence and its attribution,
    never across a sentence break": ``named_other_speaker`` reads the quote's sentence on
    its own, then each sentence of the extractor's attribution on its own. Joining them
    made "..., chief economist at Fjord Bank." followed by "said Amara Okafor" read as
    "Fjord Bank said". Returns the other speaker's name, or None."""
    texts = [sentence, *split_sentences(context)] if sentence else split_sentences(context)
    for text in texts:
        name = named_other_speaker(text, quote, subject_names)
        if name is not None:
            return name
    return None


def drop_reason_for(
    classification: StatementClassification,
    quote: str,
    context: str = "",
    *,
    form: str = "",
    sentence: str = "",
    subject_names: Sequence[str] = (),
) -> DropReason | None:
    """Why a classified statement is dropped, or None when it is kept. Privacy is
    checked first so a private statement is never recorded under another reason. The
    classifier's flags drop other speakers and paraphrases, and so does code: the
    extractor's reported form and reported wording (``is_reported_speech``), and another
    speaker named in the quote's sentence or its attribution (``attributed_to_another_speaker``)."""
    if is_about_private_life(classification.private_life, quote, context):
        return "private_life"
    if is_other_speaker(classification):
        return "other_speaker"
    if subject_names and attributed_to_another_speaker(sentence, context, quote, subject_names):
        return "other_speaker"
    if is_reported_paraphrase(classification) or is_reported_speech(form, quote):
        return "paraphrase"
    return None
