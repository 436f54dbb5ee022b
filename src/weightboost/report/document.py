"""A small document model rendered to Markdown and to self-contained HTML (figures embedded)."""

from __future__ import annotations

import base64
import html
from pathlib import Path

import pandas as pd

CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222;line-height:1.45}table{border-collapse:collapse;margin:1em 0;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 7px;text-align:right}th{background:#f3f3f3}
td:first-child,th:first-child{text-align:left}img{max-width:100%}
.holds{color:#1a7f37;font-weight:600}.fails{color:#cf222e;font-weight:600}
code{background:#f3f3f3;padding:1px 4px}"""


class Document:
    def __init__(self, title: str):
        self.title = title
        self.blocks: list[tuple[str, object]] = []

    def heading(self, text, level=2):
        self.blocks.append(("heading", (level, text)))

    def paragraph(self, text):
        self.blocks.append(("paragraph", text))

    def lead(self, text):
        """A paragraph before everything added so far (right under the title)."""
        self.blocks.insert(0, ("paragraph", text))

    def bullets(self, items):
        self.blocks.append(("bullets", list(items)))

    def table(self, frame: pd.DataFrame, index=True):
        """A table; with ``index`` its index is the first column, under the index's name. A
        name of the columns (as ``pivot`` leaves one) is dropped: pandas would print it as a
        corner cell above the index, shifting the header row."""
        frame = frame.copy()
        frame.columns.name = None
        self.blocks.append(("table", (frame, index)))

    def image(self, png: Path, caption: str):
        self.blocks.append(("image", (Path(png), caption)))

    # -- rendering ---------------------------------------------------------------------------
    def markdown(self, relative_to: Path) -> str:
        out = [f"# {self.title}", ""]
        for kind, value in self.blocks:
            if kind == "heading":
                out += ["#" * value[0] + " " + value[1], ""]
            elif kind == "paragraph":
                out += [value, ""]
            elif kind == "bullets":
                out += [f"- {item}" for item in value] + [""]
            elif kind == "table":
                out += [_markdown_table(*value), ""]
            elif kind == "image":
                png, caption = value
                out += [f"![{caption}]({png.relative_to(relative_to)})", "", f"*{caption}*", ""]
        return "\n".join(out)

    def html(self) -> str:
        out = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
               f"<title>{html.escape(self.title)}</title><style>{CSS}</style></head><body>",
               f"<h1>{html.escape(self.title)}</h1>"]
        for kind, value in self.blocks:
            if kind == "heading":
                out.append(f"<h{value[0]}>{html.escape(value[1])}</h{value[0]}>")
            elif kind == "paragraph":
                out.append(f"<p>{_inline(value)}</p>")
            elif kind == "bullets":
                out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in value) + "</ul>")
            elif kind == "table":
                frame, index = value
                if index:  # the index as an ordinary first column: one header row
                    frame = frame.reset_index().rename(columns={"index": ""})
                out.append(frame.to_html(index=False, na_rep="", escape=True, border=0))
            elif kind == "image":
                png, caption = value
                data = base64.b64encode(png.read_bytes()).decode("ascii")
                out.append(f"<figure><img alt='{html.escape(caption)}' "
                           f"src='data:image/png;base64,{data}'>"
                           f"<figcaption>{html.escape(caption)}</figcaption></figure>")
        out.append("</body></html>")
        return "\n".join(out) + "\n"


def _inline(text: str) -> str:
    """Escape, then render `code` spans and the HOLDS / DOES NOT HOLD markers."""
    text = html.escape(text)
    parts = text.split("`")
    text = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    return (text.replace("DOES NOT HOLD", "<span class='fails'>DOES NOT HOLD</span>")
            .replace("HOLDS", "<span class='holds'>HOLDS</span>"))


def _markdown_table(frame: pd.DataFrame, index: bool) -> str:
    frame = frame.copy()
    if index:
        frame = frame.reset_index()
    header = [str(c) for c in frame.columns]
    rows = [["" if pd.isna(v) else str(v) for v in row] for row in frame.itertuples(index=False)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)
