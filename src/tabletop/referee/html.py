"""The HTML part of the referee's mails, beside the text: the same words,
laid out for a mail program's window (the board as a picture, the board as
text in monospace, the legal decisions as a list).

Everything a mail shows comes from a player or a game (names, notes,
press, notation) and is escaped here; nothing here reads the game.
Webmails (Gmail above all) drop ``<style>`` sheets and scripts, so the
layout is inline styles on plain elements, one column that narrows to a
phone's width: a picture never wider than the column, a text board that
scrolls inside its own box rather than widening the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

#: What html.escape(text, quote=True) replaces, as one table: the standard
#: module would bring its table of entities (for unescaping, never done here)
#: into every ``pbem receive``, which answers a mail with these parts.
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape(text: str) -> str:
    """``text`` safe inside an element or a quoted attribute."""
    return text.translate(_ESCAPES)


#: The column: as wide as a mail program's reading pane, narrower on a phone.
WIDTH = 700
_FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
_MONO = "ui-monospace, Menlo, Consolas, 'DejaVu Sans Mono', monospace"
_PRE = (
    f"font-family:{_MONO};font-size:13px;line-height:1.35;background:#f4f4f0;border:1px solid #e2e2dc;"
    "border-radius:4px;padding:10px 12px;margin:0 0 16px;overflow-x:auto;white-space:pre;max-width:100%;"
    "box-sizing:border-box"
)
_P = "margin:0 0 12px"
_H2 = "font-size:15px;margin:20px 0 8px;color:#333"
_SMALL = "font-size:12px;color:#666;margin:16px 0 0;overflow-wrap:anywhere"


def page(heading: str, blocks: Iterable[str]) -> str:
    """A whole HTML document: ``heading`` (what the mail is about, as its
    text's first line) above ``blocks`` (HTML made by this module)."""
    title = escape(heading)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title></head>\n"
        f'<body style="margin:0;padding:0;background:#ffffff">\n'
        f'<div style="max-width:{WIDTH}px;margin:0 auto;padding:16px;box-sizing:border-box;'
        f"font-family:{_FONT};font-size:15px;line-height:1.45;color:#222;overflow-wrap:anywhere;"
        'word-wrap:break-word">\n'
        f'<h1 style="font-size:20px;line-height:1.3;margin:0 0 14px">{title}</h1>\n'
        + "\n".join(blocks)
        + "\n</div>\n</body></html>\n"
    )


def paragraph(text: str, style: str = _P) -> str:
    """Plain text as one paragraph; its line breaks kept."""
    lines = text.strip("\n").split("\n")
    return f'<p style="{style}">' + "<br>\n".join(escape(line) for line in lines) + "</p>"


def preformatted(text: str) -> str:
    """Text whose columns matter (a board, a mail to write) in monospace."""
    return f'<pre style="{_PRE}">{escape(text)}</pre>'


def from_text(text: str) -> list[str]:
    """Plain text laid out: paragraphs at blank lines, and the runs of
    indented lines (examples of mail, lists of decisions or commands) in
    monospace, as the text shows them."""
    blocks = []
    for chunk in re.split(r"\n\s*\n", text.replace("\r\n", "\n").strip("\n")):
        run: list[str] = []
        indented = False
        for line in chunk.split("\n"):
            inside = line.startswith("  ")
            if run and inside != indented:
                blocks.append(_run(run, indented))
                run = []
            run.append(line)
            indented = inside
        if run:
            blocks.append(_run(run, indented))
    return blocks


def _run(lines: list[str], indented: bool) -> str:
    if not indented:
        return paragraph(_flowed(lines))
    margin = min(len(line) - len(line.lstrip(" ")) for line in lines if line.strip())
    return preformatted("\n".join(line[margin:] for line in lines))


def _flowed(lines: list[str]) -> str:
    """Prose the text wrapped at 72 columns flows again (a narrow window
    would break it twice); a line that ends a sentence, is short, or holds
    a long word (a hash, a secret) keeps its end."""
    out = [lines[0]]
    for last, line in zip(lines, lines[1:]):
        flows = len(last) >= 60 and (last[-1:].isalpha() or last.endswith(","))
        if flows and max(map(len, last.split()), default=0) <= 24 and line[:1].islower():
            out[-1] += " " + line
        else:
            out.append(line)
    return "\n".join(out)


def heading(text: str) -> str:
    return f'<h2 style="{_H2}">{escape(text)}</h2>'


def news(title: str, items: Sequence[tuple[int, str]]) -> str:
    """What happened, numbered by event: ``items`` are (event number, text)."""
    rows = "\n".join(f'<li value="{seq}" style="margin:0 0 2px">{escape(text)}</li>' for seq, text in items)
    return heading(title) + f'\n<ol style="margin:0 0 12px;padding-left:2.6em">\n{rows}\n</ol>'


def picture(cid: str, alt: str, width: int | None) -> str:
    """The board as an inline picture (a part of the mail named ``cid``):
    never wider than the column, sharp where the mail program shows SVG."""
    size = f' width="{width}"' if width else ""
    return (
        f'<p style="margin:0 0 16px"><img src="cid:{escape(cid)}" alt="{escape(alt)}"{size} '
        'style="display:block;max-width:100%;height:auto;border:0"></p>'
    )


def asked(
    question: str,
    *,
    why: str = "",
    secret: str = "",
    deadline: str = "",
    deadline_utc: str = "",
    legal: Sequence[str] = (),
    more: str = "",
) -> str:
    """What is asked of the reader: the question, why, the deadline, the
    legal decisions as a list."""
    parts = [f'<p style="margin:0 0 8px;font-size:16px"><strong>{escape(question)}</strong></p>']
    for line in (why, secret):
        if line:
            parts.append(paragraph(line, "margin:0 0 8px"))
    if deadline:
        stamp = f' datetime="{escape(deadline_utc)}"' if deadline_utc else ""
        parts.append(f'<p style="margin:0 0 8px">Deadline: <time{stamp}><strong>{escape(deadline)}</strong></time></p>')
    if legal:
        items = "\n".join(
            f'<li style="display:inline-block;margin:0 6px 6px 0"><code style="font-family:{_MONO};'
            f"font-size:13px;background:#fff;border:1px solid #d8d8d0;border-radius:3px;padding:1px 5px;"
            f'white-space:nowrap">{escape(decision)}</code></li>'
            for decision in legal
        )
        parts.append('<p style="margin:0 0 6px">Your legal decisions:</p>')
        parts.append(f'<ul style="list-style:none;margin:0;padding:0">\n{items}\n</ul>')
    if more:
        parts.append(paragraph(more, "margin:4px 0 0;font-size:13px;color:#555"))
    return (
        '<div style="border-left:4px solid #c8102e;background:#fbf7f2;padding:10px 12px;margin:0 0 16px">\n'
        + "\n".join(parts)
        + "\n</div>"
    )


def page_link(url: str, label: str) -> str:
    """A link to the reader's turn page, as a button a thumb can press."""
    return (
        f'<p style="margin:0 0 16px"><a href="{escape(url)}" style="display:inline-block;background:#c8102e;'
        'color:#ffffff;text-decoration:none;font-weight:bold;padding:8px 14px;border-radius:4px">'
        f"{escape(label)}</a></p>"
    )


def waiting(text: str) -> str:
    return paragraph(text, "margin:0 0 16px;font-weight:bold")


def small(text: str) -> str:
    """A line to keep rather than read (the log's head, how to check it)."""
    return paragraph(text, _SMALL)
