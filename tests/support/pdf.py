"""A minimal PDF writer for fixtures: one Helvetica text page per list of lines, no dependencies.

The fixture PDF is committed; this module keeps it reproducible (`python -m tests.support.pdf`)
and lets tests build PDFs with known page texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(pages: Sequence[Sequence[str]], title: str = "") -> bytes:
    """A valid PDF whose page n shows pages[n] line by line (latin-1 text only)."""
    objects: list[bytes] = []
    n = len(pages)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(n))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for lines in pages:
        page_no = len(objects) + 1
        ops = ["BT", "/F1 12 Tf", "14 TL", "72 760 Td"]
        ops += [f"({_escape(line)}) Tj T*" for line in lines]
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            f"/Contents {page_no + 1} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    info = len(objects) + 1
    objects.append(f"<< /Title ({_escape(title)}) >>".encode("latin-1"))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{off:010d} 00000 n \n".encode() for off in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {info} 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


BETA_TERMS = [
    [
        "Beta Feeds license terms",
        "Section 1. Commercial use",
        "Beta Plus and Beta Realtime subscribers may display Beta Feeds datafeed data",
        "in commercial products and SaaS applications for their customers.",
        "Beta Basic is licensed for internal use only.",
    ],
    [
        "Section 2. Redistribution",
        "Redistribution of raw Beta Feeds datafeed records to third parties is prohibited",
        "on every package, including Beta Realtime.",
        "Section 3. Caching",
        "Subscribers may cache Beta Feeds data for up to 7 days.",
    ],
]


def main() -> None:
    target = Path(__file__).resolve().parent.parent / "fixtures/site/research/beta/terms.pdf"
    target.write_bytes(make_pdf(BETA_TERMS, title="Beta Feeds license terms"))


if __name__ == "__main__":
    main()
