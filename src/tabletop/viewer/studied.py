"""A study in the viewer's page: its notes, its variations step by step, and
the analysis as a graph of the winning chance with the marks.

What goes in is what the page's viewers may be shown (:func:`tabletop.review.study.sees`):
notes and variations made with their eyes, judgements of their own
decisions; with everything shown, all of it. A variation's pictures and
words are drawn from the view of whoever made it (:mod:`tabletop.sight.seen`):
one made as a player is played in a world made up from that player's view,
and shows only that view of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from importlib import resources
from typing import Any

from ..base.errors import TabletopError
from ..model.events import CHANCE, DECISION
from ..play.engine import Match
from ..play.standing import status
from ..review.analysis import decision_json, summary
from ..review.study import MARK_WORDS, MARKS, THRESHOLDS, Study, sees
from ..sight import seen
from .page import data_json, encode_pictures, legend_of, renderer_of

#: Seat colours for the graph when the game's pictures give none (Okabe and Ito).
COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
#: The graph's marks, mildest first: the colour of each.
MARK_COLOURS = {"inaccuracy": "#e6b800", "mistake": "#e67300", "blunder": "#cc0000"}


def shown_to(viewers: Sequence[str | None], made_as: str | None) -> bool:
    """Whether a page for ``viewers`` may hold what was made as ``made_as``."""
    return any(sees(v, made_as) for v in viewers)


def data(study: Study, viewers: Sequence[str | None], editable: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the page's study script is given: the notes, the variations with
    their pictures, and the judgements, that ``viewers`` may be shown."""
    game = study.game
    notes = [
        {
            "id": n.id,
            "line": n.at.line,
            "seq": n.at.seq,
            "as": n.seen_as,
            "comment": n.comment,
            "mark": n.mark,
            "squares": list(n.squares),
            "arrows": [list(a) for a in n.arrows],
        }
        for n in study.notes
        if shown_to(viewers, n.seen_as)
    ]
    variations = [_variation(study, v.id) for v in study.variations.values() if shown_to(viewers, v.seen_as)]
    ran = study.latest_analysis()
    judged: dict[str, Any] = {}
    if ran is not None:
        for j in study.judgements_of(ran.id):
            if shown_to(viewers, j.player):
                judged[str(j.at.seq)] = decision_json(study, j)
    return {
        "players": list(study.header.players),
        "viewers": list(viewers),
        "notes": notes,
        "variations": variations,
        "judged": judged,
        "analysis": None if ran is None else {"bot": ran.bot, "seed": ran.seed},
        "marks": {m: MARK_WORDS[m] for m in MARKS},
        "editable": editable,
        "title": game.title or study.header.game,
    }


def _variation(study: Study, ident: str) -> dict[str, Any]:
    """A variation step by step, as whoever made it may see it."""
    variation = study.variations[ident]
    eyes = variation.seen_as
    match = study.match(variation.at.line, variation.at.seq, eyes, variation.seed)
    game = match.game
    renderer = renderer_of(study.registry, match)
    history = study.events_of(variation.at.line, variation.at.seq)
    texts, statuses, origins, actors, pictures = [], [], [], [], []
    for event in variation.events:
        text = match.describe(event, eyes)
        match.apply(event)
        history.append(event)
        texts.append(text)
        statuses.append(status(match, eyes))
        origin = event.origin if event.origin in (DECISION, CHANCE) else "rules"
        origins.append(origin)
        actors.append(getattr(event, "player", None) if origin == DECISION else None)
        if renderer is not None:
            pictures.append(seen.picture(renderer, game, match.state, eyes, history))
        else:
            pictures.append(f'<pre class="board">{escape(seen.text(game, match.state, eyes))}</pre>')
    return {
        "id": ident,
        "line": variation.at.line,
        "seq": variation.at.seq,
        "as": eyes,
        "seed": variation.seed,
        "texts": texts,
        "status": statuses,
        "origins": origins,
        "actors": actors,
        "pictures": encode_pictures(pictures),
    }


def graph(study: Study, viewers: Sequence[str | None]) -> str:
    """The latest analysis as an SVG graph: each player's winning chance
    after each of their decisions, by event number, the marked decisions
    drawn larger in the mark's colour (empty when there is no analysis)."""
    ran = study.latest_analysis()
    if ran is None:
        return ""
    judgements = [j for j in study.judgements_of(ran.id) if shown_to(viewers, j.player) and j.after is not None]
    if not judgements:
        return ""
    last = max(1, len(study.events))
    width, height, left, top, right, bottom = 420, 180, 34, 10, 8, 30
    inner_w, inner_h = width - left - right, height - top - bottom

    def x(seq: int) -> float:
        return left + inner_w * seq / last

    def y(value: float) -> float:
        return top + inner_h * (1 - value)

    match = Match(study.registry, study.header, study.game)
    try:
        legend = legend_of(renderer_of(study.registry, match), match)
    except TabletopError:
        legend = None
    colours = list(legend.seats) if legend is not None and legend.seats else list(COLOURS)
    out = [
        f'<svg id="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-labelledby="graph-title">',
        f'<title id="graph-title">Winning chance after each decision, as {escape(ran.bot)} estimates it from the '
        "mover's view</title>",
        f'<rect x="{left}" y="{top}" width="{inner_w}" height="{inner_h}" fill="#fafafa" stroke="#ccc"/>',
    ]
    for value in (0, 0.25, 0.5, 0.75, 1):
        out.append(
            f'<line x1="{left}" x2="{left + inner_w}" y1="{y(value):.1f}" y2="{y(value):.1f}" stroke="#e4e4e4"/>'
            f'<text x="{left - 4}" y="{y(value) + 4:.1f}" font-size="12" text-anchor="end" fill="#555">'
            f"{value:g}</text>"
        )
    out.append(
        f'<text x="{left + inner_w / 2:.1f}" y="{height - 8}" font-size="12" text-anchor="middle" fill="#555">'
        f"event (0 to {last})</text>"
    )
    out.append(f'<line id="graph-cursor" x1="{left}" x2="{left}" y1="{top}" y2="{top + inner_h}" stroke="#888"/>')
    players = list(study.header.players)
    for seat, player in enumerate(players):
        mine = [j for j in judgements if j.player == player]
        if not mine:
            continue
        colour = colours[seat % len(colours)]
        points = " ".join(f"{x(j.at.seq):.1f},{y(j.after):.1f}" for j in mine)  # type: ignore[arg-type]
        out.append(
            f'<polyline class="chance" data-player="{escape(player, quote=True)}" points="{points}" fill="none" '
            f'stroke="{colour}" stroke-width="1.5"/>'
        )
        for j in mine:
            shown = decision_json(study, j)
            words = f"{j.at.seq}. {player} {shown['played']}: {j.after:.2f}"
            if j.mark is not None:
                words += f", {j.mark} (from {j.before:.2f})"
                if shown["best"] is not None and shown["best"] != shown["played"]:
                    words += f"; the bot prefers {shown['best']}"
            radius = 5 if j.mark is not None else 2.5
            fill = MARK_COLOURS[j.mark] if j.mark is not None else colour
            out.append(
                f'<circle class="point{" " + j.mark if j.mark else ""}" data-step="{j.at.seq}" '
                f'cx="{x(j.at.seq):.1f}" cy="{y(j.after):.1f}" r="{radius}" fill="{fill}" '  # type: ignore[arg-type]
                f'stroke="{colour}"><title>{escape(words)}</title></circle>'
            )
    out.append("</svg>")
    return "\n".join(out)


def summary_html(study: Study, viewers: Sequence[str | None]) -> str:
    """The latest analysis's summary per player, as a table."""
    ran = study.latest_analysis()
    if ran is None:
        return ""
    judgements = [j for j in study.judgements_of(ran.id) if shown_to(viewers, j.player)]
    players = [p for p in study.header.players if shown_to(viewers, p)]
    rows = []
    for player, s in summary(judgements, players).items():
        if not s["decisions"]:
            continue
        average = "–" if s["average_drop"] is None else f"{s['average_drop']:.3f}"
        rows.append(
            f"<tr><th>{escape(player)}</th><td>{s['decisions']}</td><td>{average}</td>"
            f"<td>{s['inaccuracies']}</td><td>{s['mistakes']}</td><td>{s['blunders']}</td></tr>"
        )
    thresholds = ", ".join(f"{mark} from {value:.2f}" for mark, value in reversed(THRESHOLDS))
    return (
        f'<table id="analysis-summary"><caption>Analysed by {escape(ran.bot)} (seed {escape(ran.seed)}) from each '
        f"mover's view; a drop in winning chance marks an {escape(thresholds)}.</caption>"
        "<thead><tr><th>player</th><th>decisions</th><th>average drop</th>"
        '<th><abbr title="inaccuracies">?!</abbr></th><th><abbr title="mistakes">?</abbr></th>'
        f'<th><abbr title="blunders">??</abbr></th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def section(study: Study, viewers: Sequence[str | None], editable: dict[str, Any] | None = None) -> str:
    """The study's part of the page: its panel, its style and script, and
    its data (the ``addition`` of :func:`tabletop.viewer.page.page`)."""
    folder = resources.files(__package__)
    style = (folder / "study.css").read_text(encoding="utf-8")
    script = (folder / "study.js").read_text(encoding="utf-8")
    made = data(study, viewers, editable)
    marks = "".join(
        f'<option value="{escape(m, quote=True)}">{escape(m)} {escape(MARK_WORDS[m])}</option>' for m in MARKS
    )
    forms = ""
    if editable is not None:
        forms = (
            '<form id="note-form" aria-label="Write a note here">'
            '<label for="note-comment">Note</label>'
            '<textarea id="note-comment" rows="3" maxlength="10000" placeholder="A comment on this position"></textarea>'
            '<div class="row"><label>mark <select id="note-mark"><option value="">none</option>'
            f"{marks}</select></label>"
            '<label>squares <input id="note-squares" placeholder="f7 e6" size="10"></label>'
            '<label>arrows <input id="note-arrows" placeholder="f7-e6" size="10"></label></div>'
            '<button id="note-save" type="submit">Save the note</button></form>'
            '<form id="play-form" aria-label="Play a decision here">'
            '<label for="play-legal">Play instead</label>'
            '<div class="row"><select id="play-legal" aria-label="The legal decisions here"></select>'
            '<button id="play-chosen" type="button">Play it</button></div>'
            '<div class="row"><input id="play-text" placeholder="or write one in notation" size="18" '
            'aria-label="A decision in notation">'
            '<button id="play-written" type="submit">Play</button></div></form>'
        )
    analysis = graph(study, viewers)
    if analysis:
        analysis = f'<div id="analysis"><h3>Analysis</h3>{analysis}{summary_html(study, viewers)}</div>'
    return (
        f"<style>\n{style}\n</style>\n"
        '<section id="study" aria-label="Study: notes, variations, analysis">'
        '<div class="study-here"><h2>Study</h2><p id="study-where"></p>'
        '<p id="study-back" hidden><button id="study-main" type="button">back to the game</button></p>'
        '<p id="study-judged"></p><ul id="study-notes" aria-label="Notes here"></ul>'
        '<div id="study-variations" aria-label="Variations from here"></div></div>'
        f'<div class="study-forms">{forms}<p id="study-problem" role="alert"></p></div>{analysis}</section>\n'
        f'<script type="application/json" id="study-data">{data_json(made)}</script>\n'
        f"<script>\n{script}\n</script>\n"
    )
