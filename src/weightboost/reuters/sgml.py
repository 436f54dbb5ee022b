"""Parsing the Reuters-21578 SGML files (docs/algorithms.md §6.1).

The files are not valid XML: they are read as Latin-1 (reut2-017 holds one 0xFC byte),
entities and character references are decoded as HTML does (``&lt;`` becomes ``<``; references
to control characters such as ``&#2;``, ``&#3;`` and ``&#27;`` become nothing), and documents
are cut out with regular expressions. Every ``<REUTERS`` opening tag is accounted for: a
document that cannot be read is recorded with the reason, never dropped silently.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

_OPEN = re.compile(r"<REUTERS\b")
_DOC = re.compile(r"<REUTERS(?P<attrs>[^>]*)>(?P<body>.*?)</REUTERS>", re.S)
_ATTR = re.compile(r'(\w+)="([^"]*)"')
_TOPICS = re.compile(r"<TOPICS>(.*?)</TOPICS>", re.S)
_D = re.compile(r"<D>(.*?)</D>", re.S)
_TEXT = re.compile(r"<TEXT(?P<attrs>[^>]*)>(?P<text>.*?)</TEXT>", re.S)
_TITLE = re.compile(r"<TITLE>(.*?)</TITLE>", re.S)
_BODY = re.compile(r"<BODY>(.*?)</BODY>", re.S)


@dataclass
class Document:
    newid: int
    lewissplit: str
    topics_flag: str
    topics: list[str]
    title: str
    body: str
    text_type: str  # NORM, BRIEF or UNPROC

    @property
    def text(self) -> str:
        """TITLE + BODY (docs/protocol.md §1.3); a document without BODY contributes its title."""
        return f"{self.title}\n{self.body}"


@dataclass
class ParseReport:
    documents: list[Document] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)  # {"file", "position", "reason"}
    opening_tags: int = 0


def decode_entities(text: str) -> str:
    """Entities and character references decoded as HTML does (``&lt;`` -> ``<``)."""
    return html.unescape(text)


def parse_file(raw: bytes, source: str, report: ParseReport) -> None:
    """Parse one SGML file's bytes into ``report``."""
    text = raw.decode("latin-1")
    openings = [m.start() for m in _OPEN.finditer(text)]
    report.opening_tags += len(openings)
    matched = set()
    for match in _DOC.finditer(text):
        matched.add(match.start())
        attrs = dict(_ATTR.findall(match.group("attrs")))
        body = match.group("body")
        try:
            newid = int(attrs["NEWID"])
        except (KeyError, ValueError):
            report.skipped.append({"file": source, "position": match.start(),
                                   "reason": "no numeric NEWID attribute"})
            continue
        topics_block = _TOPICS.search(body)
        topics = [decode_entities(t).strip() for t in _D.findall(topics_block.group(1))] \
            if topics_block else []
        text_match = _TEXT.search(body)
        title = body_text = ""
        text_type = "NORM"
        if text_match:
            text_attrs = dict(_ATTR.findall(text_match.group("attrs")))
            text_type = text_attrs.get("TYPE", "NORM")
            inner = text_match.group("text")
            if (t := _TITLE.search(inner)):
                title = decode_entities(t.group(1))
            if (b := _BODY.search(inner)):
                body_text = decode_entities(b.group(1))
        report.documents.append(Document(
            newid=newid, lewissplit=attrs.get("LEWISSPLIT", ""),
            topics_flag=attrs.get("TOPICS", ""), topics=topics, title=title, body=body_text,
            text_type=text_type))
    for position in openings:
        if position not in matched:
            report.skipped.append({"file": source, "position": position,
                                   "reason": "<REUTERS> without a closing </REUTERS>"})
