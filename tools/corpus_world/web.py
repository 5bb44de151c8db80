"""Pages that exercise the web layer: robots.txt, redirects, errors, a PDF, an
oversized page and a page whose bytes do not match its declared charset."""

from __future__ import annotations

from corpus_world.model import Doc, Narr

NW = "northwind-energy"

ROBOTS: dict[str, str] = {
    "dailyledger.example": "User-agent: *\nDisallow: /members/\n",
    "slowpost.example": "User-agent: *\nCrawl-delay: 60\nAllow: /\n",
    "wire.example": "User-agent: *\nAllow: /\n",
}


def tiny_pdf(lines: list[str]) -> bytes:
    """A minimal valid one-page PDF (correct xref offsets) showing ``lines``."""
    text_ops = ["BT", "/F1 11 Tf", "72 720 Td", "14 TL"]
    for line in lines:
        safe = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        text_ops.append(f"({safe}) Tj T*")
    text_ops.append("ET")
    stream = "\n".join(text_ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref_at = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n".encode()
    return bytes(out)


BROKEN_CHARSET_HTML = (
    '<!doctype html>\n<html lang="da">\n<head>\n<meta charset="utf-8">\n<title>Northwind og Sea Lynx</title>\n'
    "</head>\n<body>\n<article>\n<h1>Northwind og Sea Lynx</h1>\n"
    "<p>Northwind Energy fik tilladelse til Sea Lynx i 2021. K\xf8benhavn, \xc6r\xf8 og S\xf8nderborg.</p>\n"
    "</article>\n<footer><p>Fictional page of the Reliability demo corpus.</p></footer>\n</body>\n</html>\n"
).encode("latin-1")  # declared utf-8, but the bytes are Latin-1: invalid UTF-8 sequences


def web_docs() -> list[Doc]:
    return [
        # robots.txt disallows /members/ on dailyledger.example: good evidence, but must not be fetched.
        Doc(
            key="nw-members-review",
            url="https://dailyledger.example/members/2026-01-15-northwind-2025-review",
            title="Members only: Northwind's 2025 in review",
            site="The Daily Ledger",
            kind="established_newsroom",
            published="2026-01-15",
            subjects=(NW,),
            traps=("robots_disallowed",),
            keywords=("Northwind", "Northwind Energy", "15 GW", "2025", "review"),
            blocks=(
                Narr("Northwind Energy ended 2025 with 13.1 GW of offshore wind, short of its 15 GW target."),
            ),
        ),
        Doc(
            key="nw-redirect-members",
            url="https://dailyledger.example/r/northwind-2025-review",
            title="",
            site="The Daily Ledger",
            kind="other",
            status=301,
            redirect_to="nw-members-review",
            subjects=(NW,),
            searchable=True,
            traps=("redirect_into_disallowed",),
            content_type="text/html",
            keywords=("Northwind", "2025", "review"),
        ),
        Doc(
            key="nw-redirect-ok",
            url="https://wire.example/story/northwind-results-2024",
            title="",
            site="The Wire",
            kind="other",
            status=301,
            redirect_to="nw-wire-results-2024",
            subjects=(NW,),
            traps=("redirect",),
            content_type="text/html",
            keywords=("Northwind", "results", "2024"),
        ),
        Doc(
            key="nw-slowpost",
            url="https://slowpost.example/energy/2025-12-30-sea-lynx-2-delay",
            title="Sea Lynx 2 slips to 2027",
            site="The Slow Post",
            kind="established_newsroom",
            published="2025-12-30",
            subjects=(NW,),
            traps=("crawl_delay_over_limit",),
            keywords=("Northwind", "Northwind Energy", "Sea Lynx 2", "grid connection", "2025", "delay"),
            blocks=(
                Narr(
                    "Northwind Energy's Sea Lynx 2 did not get its grid connection in 2025; the connection is now "
                    "planned for the second half of 2027."
                ),
            ),
        ),
        Doc(
            key="nw-404",
            url="https://wire.example/business/2019-04-01-northwind-removed-story",
            title="Not found",
            site="The Wire",
            kind="wire_service",
            status=404,
            subjects=(NW,),
            traps=("http_404",),
            keywords=("Northwind", "2019", "15 GW"),
            blocks=(Narr("This story is no longer available."),),
        ),
        Doc(
            key="nw-500",
            url="https://energyregulator.example/notices/2025-northwind-capacity-register",
            title="Server error",
            site="Danish Energy Regulator (fictional)",
            kind="official_record",
            status=500,
            subjects=(NW,),
            traps=("http_500",),
            keywords=("Northwind", "capacity register", "2025"),
            blocks=(Narr("Internal server error."),),
        ),
        Doc(
            key="nw-pdf",
            url="https://energyregulator.example/reports/sea-lynx-consent-2021.pdf",
            title="Sea Lynx consent decision (PDF)",
            site="Danish Energy Regulator (fictional)",
            kind="official_record",
            published="2021-03-15",
            subjects=(NW,),
            traps=("pdf",),
            content_type="application/pdf",
            keywords=("Northwind", "Northwind Energy", "Sea Lynx", "consent", "2021"),
            raw_body=tiny_pdf(
                [
                    "Danish Energy Regulator (fictional) - consent decision",
                    "On 15 March 2021 the regulator granted Northwind Energy consent to build Sea Lynx.",
                ]
            ),
        ),
        Doc(
            key="nw-oversize",
            url="https://contentmill.example/northwind-energy-everything",
            title="Everything about Northwind Energy",
            site="ContentMill",
            kind="content_farm",
            published="2026-06-01",
            subjects=(NW,),
            traps=("oversize",),
            oversize_bytes=8_000_000,
            keywords=("Northwind", "Northwind Energy", "everything"),
            notes="Served as oversize_bytes of filler (the file is only the page it stands for).",
            blocks=(Narr("Everything about Northwind Energy, in one very long page."),),
        ),
        Doc(
            key="nw-bad-charset",
            url="https://nordiskenergi.example/artikler/northwind-sea-lynx",
            title="Northwind og Sea Lynx",
            site="Nordisk Energi",
            kind="established_newsroom",
            language="da",
            published="2021-03-20",
            subjects=(NW,),
            traps=("broken_charset",),
            keywords=("Northwind", "Sea Lynx", "2021", "consent"),
            raw_body=BROKEN_CHARSET_HTML,
        ),
    ]


WEB_BEHAVIOUR: list[tuple[str, str]] = [
    ("https://dailyledger.example/members/2026-01-15-northwind-2025-review", "refused_by_robots"),
    ("https://dailyledger.example/r/northwind-2025-review", "redirect_into_robots_refused"),
    ("https://wire.example/story/northwind-results-2024", "redirect_then_ok"),
    ("https://slowpost.example/energy/2025-12-30-sea-lynx-2-delay", "skipped_crawl_delay"),
    ("https://wire.example/business/2019-04-01-northwind-removed-story", "http_404"),
    ("https://energyregulator.example/notices/2025-northwind-capacity-register", "http_500"),
    ("https://energyregulator.example/reports/sea-lynx-consent-2021.pdf", "pdf"),
    ("https://contentmill.example/northwind-energy-everything", "too_large"),
    ("https://nordiskenergi.example/artikler/northwind-sea-lynx", "bad_charset"),
]
