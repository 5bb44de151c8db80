"""Generate the offline world under ``data/corpus`` from the structured data in
``tools/corpus_world``: pages, robots files, ``manifest.yaml``, ``answer_key.yaml``
and the subject registry ``data/subjects.yaml``.

Deterministic: the same data gives byte-identical output. Run from the project root:

    .venv/bin/python tools/build_corpus.py            # write
    .venv/bin/python tools/build_corpus.py --check    # fail if the committed output is stale
"""

from __future__ import annotations

import argparse
import hashlib
import html
import shutil
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from corpus_world.model import (  # noqa: E402
    Ask,
    Block,
    Doc,
    Narr,
    Own,
    Para,
    Raw,
    Said,
    SaidColon,
    St,
    SubjectWorld,
    Told,
)
from corpus_world.world import NOW, ROBOTS, SUBJECTS, TRAP_CLASSES, WEB_BEHAVIOUR, shared_docs  # noqa: E402

CORPUS_DIR = ROOT / "data" / "corpus"
REGISTRY_PATH = ROOT / "data" / "subjects.yaml"


def file_for(url: str) -> str:
    """``https://host.example/a/b`` -> ``host.example/a/b.html`` (relative to pages/)."""
    parts = urlsplit(url)
    path = parts.path.strip("/") or "index"
    if "." not in path.rsplit("/", 1)[-1]:
        path += ".html"
    return f"{parts.netloc}/{path}"


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _quoted(doc: Doc, inner: str) -> str:
    return f"“{inner}”" if doc.curly else f'"{inner}"'


def _attr_quote(st: St) -> str:
    """The quote as it stands before an attribution: ``QUOTE,`` (comma inside)."""
    return st.quote + ","


def render_block(doc: Doc, block: Block) -> str:
    """Render one paragraph form and record its statements on the document."""
    if isinstance(block, Narr):
        return f"<p>{_esc(block.text)}</p>"
    if isinstance(block, Raw):
        return block.html
    if isinstance(block, Said):
        doc.statements.append((block.st, block.name))
        role = f", {block.role}" if block.role else ""
        tail = f" {block.tail}" if block.tail else ""
        return (
            f"<p>{_esc(_quoted(doc, _attr_quote(block.st)))} said {_esc(block.name + role)}.{_esc(tail)}</p>"
        )
    if isinstance(block, SaidColon):
        doc.statements.append((block.st, block.name))
        return f"<p>{_esc(block.name)} said: {_esc(_quoted(doc, block.st.text))}</p>"
    if isinstance(block, Told):
        doc.statements.append((block.st, block.name))
        return f"<p>{_esc(_quoted(doc, _attr_quote(block.st)))} {_esc(block.name)} told {_esc(block.outlet)}.</p>"
    if isinstance(block, Para):
        doc.statements.append((block.st, ""))
        return f"<p>{_esc(block.st.text)}</p>"
    if isinstance(block, Own):
        for st in block.sts:
            doc.statements.append((st, ""))
        return "<p>" + " ".join(_esc(st.text) for st in block.sts) + "</p>"
    if isinstance(block, Ask):
        for st in block.sts:
            doc.statements.append((st, block.name))
        answer = " ".join(_esc(st.text) for st in block.sts)
        return (
            f"<p><b>Interviewer:</b> {_esc(block.question)}</p>\n<p><b>{_esc(block.name)}:</b> {answer}</p>"
        )
    raise TypeError(f"unknown block {block!r}")


def render_html(doc: Doc) -> str:
    """A plain, valid HTML page. The footer says the page is fictional."""
    doc.statements.clear()
    body = "\n".join(render_block(doc, block) for block in doc.blocks)
    dateline = (
        f'<p class="dateline">Published <time datetime="{doc.published}">{doc.published}</time></p>\n'
        if doc.published
        else ""
    )
    return (
        "<!doctype html>\n"
        f'<html lang="{doc.language}">\n<head>\n<meta charset="utf-8">\n<title>{_esc(doc.title)}</title>\n{doc.extra_head}'
        "</head>\n<body>\n"
        f'<header><p class="site">{_esc(doc.site)}</p></header>\n'
        f"<article>\n<h1>{_esc(doc.title)}</h1>\n{dateline}{body}\n</article>\n"
        '<footer><p class="fiction">Fictional page of the Reliability demo corpus.</p></footer>\n'
        "</body>\n</html>\n"
    )


def all_docs() -> list[tuple[SubjectWorld | None, Doc]]:
    out: list[tuple[SubjectWorld | None, Doc]] = []
    for subject in SUBJECTS:
        out.extend((subject, doc) for doc in subject.docs)
    out.extend((None, doc) for doc in shared_docs())
    return out


def build(corpus_dir: Path = CORPUS_DIR) -> dict[str, Any]:
    """Render everything into memory: {relative path: bytes}, plus the YAML documents."""
    files: dict[str, bytes] = {}
    pages: list[dict[str, Any]] = []
    docs = all_docs()
    url_of: dict[str, str] = {}
    for _, doc in docs:
        if doc.key in url_of:
            raise ValueError(f"duplicate document key {doc.key}")
        if doc.url in url_of.values():
            raise ValueError(f"duplicate url {doc.url}")
        url_of[doc.key] = doc.url

    for _, doc in docs:
        entry: dict[str, Any] = {"url": doc.url}
        if doc.redirect_to is not None:
            entry["file"] = None
        else:
            rel = file_for(doc.url)
            if doc.raw_body is not None:
                files[f"pages/{rel}"] = doc.raw_body
                render_html(doc)  # still collect statements (none expected)
            else:
                files[f"pages/{rel}"] = render_html(doc).encode("utf-8")
            entry["file"] = rel
        entry["content_type"] = doc.content_type
        entry["status"] = doc.status
        entry["redirect_to"] = url_of.get(doc.redirect_to, doc.redirect_to) if doc.redirect_to else None
        entry["title"] = doc.title
        entry["site"] = doc.site
        entry["published"] = doc.published
        entry["kind"] = doc.kind
        entry["subject_ids"] = list(doc.subjects)
        entry["language"] = doc.language
        entry["keywords"] = list(doc.keywords)
        entry["forward_looking"] = doc.forward_looking
        entry["searchable"] = doc.searchable
        entry["oversize_bytes"] = doc.oversize_bytes
        entry["source_class"] = doc.source_class
        entry["notes"] = doc.notes
        pages.append(entry)

    for host, body in sorted(ROBOTS.items()):
        files[f"robots/{host}.txt"] = body.encode("utf-8")
    manifest = {"pages": pages, "robots": {host: f"robots/{host}.txt" for host in sorted(ROBOTS)}}

    key = answer_key(docs, url_of)
    registry = [
        {
            "id": s.id,
            "name": s.name,
            "kind": s.kind,
            "urls": list(s.urls),
            "consent": s.consent,
            "description": s.description,
            "aliases": list(s.aliases),
        }
        for s in SUBJECTS
    ]
    return {"files": files, "manifest": manifest, "answer_key": key, "registry": registry}


def _opt(mapping: dict[str, Any], name: str, value: Any) -> None:
    mapping[name] = value


def answer_key(docs: list[tuple[SubjectWorld | None, Doc]], url_of: dict[str, str]) -> dict[str, Any]:
    """The labels a careful person gives the corpus (schema in data/corpus/README.md)."""
    subjects: list[dict[str, Any]] = []
    statements: list[dict[str, Any]] = []
    traps: list[dict[str, Any]] = []
    seen_ids: set[str] = set()
    for subject in SUBJECTS:
        speaking = [d for d in subject.docs if d.speaks]
        subjects.append(
            {
                "subject_id": subject.id,
                "kind": subject.kind,
                "expected_coverage": subject.coverage,
                "reason": subject.coverage_reason,
                "documents": [d.url for d in speaking],
                "forward_looking_documents": [d.url for d in speaking if d.forward_looking],
                "mention_only_documents": [d.url for d in subject.docs if d.kind == "mention_only"],
            }
        )
    for owner, doc in docs:
        for trap in doc.traps:
            traps.append(
                {"trap": trap, "url": doc.url, "subject_id": doc.subjects[0] if doc.subjects else None}
            )
        if owner is None or not doc.statements:
            continue
        for st, name in doc.statements:
            # Content-derived ids stay stable when statements are added elsewhere.
            digest = hashlib.sha256(f"{doc.url}\n{st.quote}".encode()).hexdigest()[:8]
            sid = st.tag or f"{owner.prefix}-{digest}"
            if sid in seen_ids:
                raise ValueError(f"duplicate statement id {sid}")
            seen_ids.add(sid)
            row: dict[str, Any] = {
                "id": sid,
                "subject_id": owner.id,
                "document_url": doc.url,
                "made_on": doc.published,
                "quote": st.altered if st.altered else st.quote,
                "expect_verified": st.altered is None,
            }
            if st.altered:
                row["page_form"] = st.quote
            row["speaker"] = st.speaker if st.speaker else owner.id
            row["attributed_name"] = name
            row["kept"] = st.drop is None
            row["drop_reason"] = st.drop
            row["type"] = st.type
            row["party_political"] = st.political
            row["deadline"] = st.deadline
            row["stated_probability"] = st.prob
            row["probability_kind"] = st.pkind
            row["triage"] = st.triage
            row["verdict"] = st.verdict
            row["basis"] = st.basis
            row["evidence_urls"] = [url_of[k] for k in st.ev]
            row["not_evidence"] = [{"url": url_of[k], "reason": r} for k, r in st.rej]
            row["notes"] = st.note
            statements.append(row)
    for row in subjects:
        row["expected_counts"] = expected_counts(
            [s for s in statements if s["subject_id"] == row["subject_id"]]
        )
    return {
        "now": NOW,
        "trap_classes": list(TRAP_CLASSES),
        "subjects": subjects,
        "statements": statements,
        "traps": traps,
        "web_behaviour": [{"url": url, "expect": expect} for url, expect in WEB_BEHAVIOUR],
    }


def expected_counts(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Summary counts of one subject's labelled statements, for end-to-end assertions."""
    kept = [r for r in rows if r["kept"]]
    by_type: dict[str, dict[str, int]] = {}
    for r in kept:
        if r["type"] is None:
            continue
        triage = by_type.setdefault(r["type"], {})
        triage[r["triage"]] = triage.get(r["triage"], 0) + 1
    scorable: dict[str, int] = {}
    for r in kept:
        if (
            r["triage"] == "resolvable_now"
            and not r["party_political"]
            and r["verdict"] not in (None, "unresolvable")
        ):
            scorable[r["type"]] = scorable.get(r["type"], 0) + 1
    dropped: dict[str, int] = {}
    for r in rows:
        if r["drop_reason"]:
            dropped[r["drop_reason"]] = dropped.get(r["drop_reason"], 0) + 1
    return {
        "statements": len(rows),
        "kept": len(kept),
        "dropped": dict(sorted(dropped.items())),
        "triage_by_type": {t: dict(sorted(v.items())) for t, v in sorted(by_type.items())},
        "with_expected_verdict_by_type": dict(sorted(scorable.items())),
        "party_political": sum(1 for r in kept if r["party_political"]),
    }


def _dump(data: Any) -> bytes:
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return text.encode("utf-8")


def outputs() -> dict[Path, bytes]:
    built = build()
    out: dict[Path, bytes] = {CORPUS_DIR / rel: body for rel, body in built["files"].items()}
    out[CORPUS_DIR / "manifest.yaml"] = (
        b"# Generated by tools/build_corpus.py; do not edit by hand.\n" + _dump(built["manifest"])
    )
    out[CORPUS_DIR / "answer_key.yaml"] = (
        b"# Generated by tools/build_corpus.py; schema in README.md.\n" + _dump(built["answer_key"])
    )
    out[REGISTRY_PATH] = b"# Generated by tools/build_corpus.py. Every subject is fictional.\n" + _dump(
        built["registry"]
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the files on disk, write nothing")
    args = parser.parse_args(argv)
    wanted = outputs()
    generated_dirs = [CORPUS_DIR / "pages", CORPUS_DIR / "robots"]
    if args.check:
        on_disk = {p for d in generated_dirs for p in d.rglob("*") if p.is_file()}
        stale = [str(p) for p, body in wanted.items() if not p.exists() or p.read_bytes() != body]
        extra = sorted(str(p) for p in on_disk - set(wanted))
        if stale or extra:
            print("stale:", *stale, "extra:", *extra, sep="\n  ")
            return 1
        return 0
    for directory in generated_dirs:
        if directory.exists():
            shutil.rmtree(directory)
    for path, body in sorted(wanted.items()):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
    print(f"wrote {len(wanted)} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
