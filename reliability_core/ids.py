"""Content-derived identifiers: the same content gives the same id on any
machine and in any run, so re-runs overwrite rather than duplicate."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any

_SLUG_BAD = re.compile(r"[^a-z0-9]+")
# Latin letters that Unicode decomposition (NFKD) does not split into an ASCII letter and
# a mark, so encoding to ASCII would drop them ("Ørsted" became "rsted"): each is written
# the way the languages that use it transliterate it. Only letters that NFKD alone loses
# are listed, so every name that slugified whole before keeps its id.
_NOT_DECOMPOSED = str.maketrans(
    {
        "Ø": "O", "ø": "o",  # Danish, Norwegian, Faroese
        "Æ": "AE", "æ": "ae",  # Danish, Norwegian, Icelandic
        "Œ": "OE", "œ": "oe",  # French
        "ß": "ss", "ẞ": "SS",  # German
        "Ł": "L", "ł": "l",  # Polish
        "Đ": "D", "đ": "d",  # Croatian, Serbian, Vietnamese
        "Ð": "D", "ð": "d",  # Icelandic, Faroese
        "Þ": "TH", "þ": "th",  # Icelandic
        "Ħ": "H", "ħ": "h",  # Maltese
        "ı": "i",  # Turkish dotless i (its capital, I, is ASCII)
        "Ŋ": "NG", "ŋ": "ng",  # Sami
        "Ŧ": "T", "ŧ": "t",  # Sami
    }
)  # fmt: skip


def stable_id(kind: str, *parts: Any, length: int = 16) -> str:
    """``kind`` + a SHA-256 prefix of the JSON-encoded parts, e.g. ``clm_3f2a...``."""
    payload = json.dumps([kind, *parts], sort_keys=True, ensure_ascii=False, default=str)
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:length]
    return f"{kind}_{digest}"


def sha256_hex(data: bytes | str) -> str:
    """SHA-256 of bytes (or UTF-8 text), hex encoded."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def slugify_subject_id(raw: str) -> str:
    """A Dagster-safe partition key: lowercase ASCII, digits and hyphens only
    (no commas, pipes or brackets, which Dagster's partition ranges reserve).

    Accents are dropped by decomposition ("Müller" -> "muller"); Latin letters that do
    not decompose are transliterated ("Ørsted" -> "orsted", "Łódź" -> "lodz", "Straße"
    -> "strasse"). Letters of other scripts are still dropped: a name with none left is
    refused, so give such a subject an ASCII ``id``."""
    latin = raw.translate(_NOT_DECOMPOSED)
    ascii_text = unicodedata.normalize("NFKD", latin).encode("ascii", "ignore").decode("ascii")
    slug = _SLUG_BAD.sub("-", ascii_text.lower()).strip("-")
    if not slug:
        raise ValueError(f"subject id {raw!r} has no usable characters")
    return slug[:64]
