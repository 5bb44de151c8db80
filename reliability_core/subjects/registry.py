"""The subject registry: ``<data_dir>/subjects.yaml`` as validated ``RegistryEntry`` records.

The registry is the list of subjects the pipeline may be asked about; it is
the input of step 1 ("Confirm who the subject is"), not a decision that a
subject is covered. Each entry's id is slugified with
``reliability_core.ids.slugify_subject_id`` so it is a valid Dagster partition
key. A bad entry is a configuration error and stops loading with a message
naming the entry and the field.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from reliability_core.clock import is_time_zone
from reliability_core.ids import slugify_subject_id
from reliability_core.models import RegistryEntry
from reliability_core.settings import settings
from reliability_core.web.urls import check_fetch_url
from reliability_core.yaml_files import safe_load


class RegistryError(ValueError):
    """The registry file is malformed: a configuration error, raised with the
    entry's position and name so it can be fixed."""


def _entries_of(document: Any) -> Sequence[Any]:
    if document is None:
        return []
    if isinstance(document, Mapping) and "subjects" in document:
        document = document["subjects"]
    if not isinstance(document, list):
        raise RegistryError("the registry must be a list of subjects (or a mapping with a 'subjects' list)")
    return document


def _label(position: int, raw: Any) -> str:
    name = raw.get("name") if isinstance(raw, Mapping) else None
    return f"entry {position}" + (f" ({name!r})" if name else "")


def registry_entry(raw: Any, position: int = 1) -> RegistryEntry:
    """One validated entry. The id (given, or else the name) is slugified; every
    URL must be one the fetcher may read (``web.urls.check_fetch_url``: https, no
    credentials, a host name that is not numeric, internal or a metadata endpoint); a time
    zone, when given, must be one ``zoneinfo`` knows. The name's addresses are not resolved
    here: the fetcher checks every address it resolves, each time it fetches."""
    label = _label(position, raw)
    if not isinstance(raw, Mapping):
        raise RegistryError(f"{label}: expected a mapping of fields, got {type(raw).__name__}")
    data = dict(raw)
    source = data.get("id") or data.get("name")
    if not isinstance(source, str) or not source.strip():
        raise RegistryError(f"{label}: needs a non-empty 'name' (and optionally an 'id')")
    try:
        data["id"] = slugify_subject_id(source)
    except ValueError as exc:
        raise RegistryError(f"{label}: {exc}") from exc
    try:
        entry = RegistryEntry.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'entry'}: {err['msg']}" for err in exc.errors()
        )
        raise RegistryError(f"{label}: {problems}") from exc
    for url in entry.urls:
        # The fetcher's own rule, so a URL it would refuse is refused at the door (issue 26 §10).
        check = check_fetch_url(url)
        if not check.ok:
            raise RegistryError(f"{label}: url {url!r} is not an absolute https URL the fetcher may read: {check.reason}")
    if not entry.name.strip():
        raise RegistryError(f"{label}: 'name' is empty")
    if entry.time_zone is not None and not is_time_zone(entry.time_zone):
        raise RegistryError(f"{label}: time_zone {entry.time_zone!r} is not an IANA time zone (e.g. Europe/Copenhagen)")
    return entry


def parse_registry(document: Any) -> list[RegistryEntry]:
    """Validate a parsed registry document; ids must be unique after slugifying."""
    entries: list[RegistryEntry] = []
    seen: dict[str, int] = {}
    for position, raw in enumerate(_entries_of(document), start=1):
        entry = registry_entry(raw, position)
        if entry.id in seen:
            raise RegistryError(
                f"{_label(position, raw)}: id {entry.id!r} is already used by entry {seen[entry.id]}"
            )
        seen[entry.id] = position
        entries.append(entry)
    return entries


def load_registry(path: Path | None = None) -> list[RegistryEntry]:
    """Read and validate ``path`` (default: the settings' ``<data_dir>/subjects.yaml``)."""
    path = path or settings().registry_path
    return list(_registry_of(path.read_bytes(), str(path)))


@functools.lru_cache(maxsize=8)
def _registry_of(raw: bytes, name: str) -> tuple[RegistryEntry, ...]:
    # Read in every stage of a run: the same bytes give the same (frozen) entries, and a
    # changed file (``subjects add``) is read anew. An error is raised each time, never kept.
    try:
        document = safe_load(raw.decode("utf-8"), name)  # the path names YAML's error marks
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise RegistryError(
            f"{name}: not UTF-8: byte 0x{raw[exc.start]:02x} on line {line} (byte offset {exc.start})"
        ) from exc
    except yaml.YAMLError as exc:
        raise RegistryError(f"{name}: not valid YAML: {exc}") from exc
    try:
        return tuple(parse_registry(document))
    except RegistryError as exc:
        raise RegistryError(f"{name}: {exc}") from exc


def find_entry(entries: Sequence[RegistryEntry], subject_id: str) -> RegistryEntry | None:
    """The entry with this id (slugified before comparing), or None."""
    wanted = slugify_subject_id(subject_id)
    return next((e for e in entries if e.id == wanted), None)


def add_entry(raw: Mapping[str, Any], path: Path | None = None) -> RegistryEntry:
    """Validate one new entry against the registry it joins (fields, https URLs, time
    zone, a unique id) and append it to the file, which is replaced atomically; the file
    is left untouched when anything is wrong (``RegistryError`` says what)."""
    path = path or settings().registry_path
    existing = load_registry(path) if path.exists() else []
    entry = registry_entry(raw, len(existing) + 1)
    if find_entry(existing, entry.id) is not None:
        raise RegistryError(f"a subject with id {entry.id!r} is already in {path}")
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if text and not text.endswith("\n"):
        text += "\n"
    data = entry.model_dump(mode="json", exclude_defaults=False)
    if data.get("time_zone") is None:
        data.pop("time_zone", None)
    text += yaml.safe_dump([data], sort_keys=False, allow_unicode=True)
    parse_registry(yaml.safe_load(text))  # the whole file still validates
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
    return entry
