"""Compiled regular expressions kept on disk beside the data they come from, checked by hash
(issue 29).

The concept lexicons compile to a few very large alternations (half a megabyte of pattern
text in all); Python's ``re`` spends about a second of every process parsing them. What
``re`` builds from a pattern is a list of integers (its matching program), which
``_sre.compile`` turns back into a pattern object at once. ``compile_patterns`` keeps those
programs in one file per set of patterns and reuses them only when the file was written for
exactly these patterns, these flags and this Python (``_key``): a changed lexicon entry, a
changed rule for writing patterns, or a new interpreter makes a new key, and the patterns
are compiled again and the file rewritten. ``_sre`` validates a program before it runs it,
and any failure to read the file (missing, truncated, another format, another Python's
internals) falls back to ``re.compile``: the file can only save time, never change a match.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# The fields ``re._compiler.compile`` hands to ``_sre.compile``: pattern, flags, program,
# number of groups - 1, group index, index group.
_Program = tuple[str, int, list[int], int, dict[str, int], tuple[str | None, ...]]
_FORMAT = 1


def _key(patterns: Mapping[str, str], flags: int) -> str:
    """What a stored file must have been written for: the patterns (names and text), the
    flags, and the interpreter whose ``re`` internals wrote the programs."""
    import _sre

    digest = hashlib.sha256()
    for part in (str(_FORMAT), sys.version, str(_sre.MAGIC), str(_sre.CODESIZE), str(int(flags))):
        digest.update(part.encode() + b"\0")
    for name in sorted(patterns):
        digest.update(name.encode() + b"\0" + patterns[name].encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def _program(pattern: str, flags: int) -> tuple[re.Pattern[str], _Program]:
    """Compile ``pattern`` as ``re.compile`` does, keeping the program it builds."""
    import _sre
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    program: _Program = (
        pattern,
        int(flags | parsed.state.flags),
        code,
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )
    return _sre.compile(*program), program


def _load(store: Path, key: str, names: set[str]) -> dict[str, re.Pattern[str]] | None:
    import _sre

    try:
        data: Any = marshal.loads(store.read_bytes())
        if not isinstance(data, dict) or data.get("key") != key or set(data["programs"]) != names:
            return None
        return {name: _sre.compile(*program) for name, program in data["programs"].items()}
    except Exception:  # any unreadable file is only a miss (module docstring)
        return None


def _save(store: Path, key: str, programs: dict[str, _Program]) -> None:
    """Write atomically (a process reading it sees the old file or the new one); a folder
    that cannot be written (a read-only install) only means compiling again next time."""
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=store.parent, prefix=store.name, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(marshal.dumps({"key": key, "programs": programs}))
        os.chmod(temporary, 0o644)  # readable by every user of the install, as the lexicon is
        os.replace(temporary, store)
    except OSError:
        return


def compile_patterns(patterns: Mapping[str, str], flags: int, store: Path) -> dict[str, re.Pattern[str]]:
    """Each of ``patterns`` (name -> pattern text) compiled with ``flags``, from ``store``
    when it was written for exactly these patterns (module docstring), else compiled now and
    written there. A pattern that does not compile raises ``re.error`` as ``re.compile`` does."""
    key = _key(patterns, flags)
    loaded = _load(store, key, set(patterns))
    if loaded is not None:
        return loaded
    compiled: dict[str, re.Pattern[str]] = {}
    programs: dict[str, _Program] = {}
    for name, pattern in patterns.items():
        try:
            compiled[name], programs[name] = _program(pattern, flags)
        except re.error:
            raise
        except Exception:  # re's internals differ here: compile the ordinary way
            compiled[name] = re.compile(pattern, flags)
    if len(programs) == len(compiled):
        _save(store, key, programs)
    return compiled
