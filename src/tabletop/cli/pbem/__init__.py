"""``tabletop pbem``: run a game by email. Each subcommand lives in the
module of this package named after it, imported only when it runs
(``tabletop pbem --help`` imports none of them, nor the referee); what
several share is in :mod:`.common`."""

from __future__ import annotations

import click

from ...base.errors import UsageError
from .. import TableGroup

#: Every subcommand and the first paragraph of its help, which ``tabletop pbem
#: --help`` shortens as click would. Subcommand NAME is the click command ``NAME``
#: of the module ``tabletop.cli.pbem.NAME`` (a test holds the text here to the
#: command's own). A new subcommand is one line here.
COMMANDS = {
    "end": "Game master: end the game; no more decisions are played.",
    "extend": "Game master: move PLAYER's deadline LENGTH later (like 24h).",
    "init": (
        "Create a game directory: a sealed log, players with secrets, settings; queue a welcome mail to each"
        " player (their secret, the syntax, their view)."
    ),
    "observe": (
        "Game master: mail the game to ADDRESS from now on, as any onlooker may see it (no player's hidden"
        " chips, draws or secret choices), and the whole log at the end."
    ),
    "pause": "Game master: stop the game and its deadlines (players are told).",
    "poll": (
        "Handle every new message in a Maildir (moving each to cur/ once handled) or an IMAP mailbox (flagging"
        " each seen once handled). One poll of a game runs at a time; a message that cannot be handled is"
        " quarantined in the game folder and never blocks the others."
    ),
    "receive": (
        "Handle one raw message, from FILE or standard input (for procmail or a .forward pipe). Every message"
        " is archived first; a bad one is answered."
    ),
    "reissue": "Game master: mail PLAYER a new secret (the old one stops working).",
    "replace": "Game master: hand PLAYER to a new ADDRESS, with a new secret mailed there.",
    "resume": "Game master: restart a paused game; deadlines move on by the pause.",
    "seek": (
        "Game master: offer SEAT to substitutes; each address gets a claim token of its own, and the first"
        " 'claim:' mail takes the seat."
    ),
    "send": "Deliver the outbox over SMTP; what the server does not accept stays for the next send or tick.",
    "set": (
        "Change settings after init: smtp, smtp_security, ca_file, referee, master, deadline, remind, grace,"
        " late_bot, pictures, tz (tz=NAME=ZONE), vote_majority, civil_disorder, substitutes (ADDRESS,ADDRESS)"
        " (KEY=VALUE; an empty VALUE clears an optional one)."
    ),
    "status": "Whose move it is, deadlines, the outbox, the chain head.",
    "tick": "For cron: reminders and deadlines (and the late bot), then send.",
    "watch": (
        "Referee as the mail arrives: keep a connection to the IMAP mailbox open (IDLE; NOOP every few seconds"
        " where the server has no IDLE), handle each mail at once, send the answers, keep the deadlines. Stops"
        " on SIGTERM or Ctrl-C (after the mail in hand), or after --max-time."
    ),
}
#: The module (and the click command in it) of a subcommand whose name is a
#: Python builtin: ``set`` is ``tabletop.cli.pbem.set_``.
MODULES = {"set": "set_"}


class _Group(TableGroup):
    """The subcommands, each imported when it runs; a folder a subcommand
    cannot write is one line, not a traceback."""

    commands_table = COMMANDS
    modules = MODULES
    package = __name__
    who = "pbem"

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise  # `pbem status g | head -1`: the reader had enough, nothing failed
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            raise UsageError(f"{where}{exc.strerror or exc}; is the game folder writable?") from None


@click.group(cls=_Group)
def pbem() -> None:
    """Run a game by email: the referee reads moves from mail, checks them,
    keeps the log and mails every player their own view.

    \b
    Example:
      tabletop pbem init duel --game glux --player ann=ann@example.org --player ben=ben@example.org
      tabletop pbem poll duel --maildir ~/Maildir/.duel && tabletop pbem send duel
    """
