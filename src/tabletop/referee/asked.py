"""What the organiser asks for at ``init`` and at every ``set``, checked
before anything is written: each combination that cannot work is one line.

Apart from :mod:`.settings` (the record, which the game folder reads):
the checks need what sends the mail (:mod:`.delivery`), the votes and the
seats, which all read the record themselves.
"""

from __future__ import annotations

from typing import Any

from ..api import bot_named
from ..base.errors import UsageError
from ..host.registry import Registry
from . import mailin
from .gamedir import one_line
from .seats import check_disorder, check_substitutes
from .votes import check_majority


def check_settings(settings: dict[str, Any], registry: Registry | None = None) -> None:
    """Refuse combinations that cannot work: each a one-line UsageError.
    ``settings`` is what is asked for, as the file would hold it; the
    values it takes in more than one form (a vote majority, civil
    disorder, substitutes) are made the one the file keeps."""
    deadline, remind = settings.get("deadline"), settings.get("remind")
    grace, bot = settings.get("grace") or 0, settings.get("late_bot")
    if deadline is not None and deadline <= 0:
        raise UsageError("--deadline: must be longer than 0 (leave it out for no deadline)")
    if remind is not None:
        if remind <= 0:
            raise UsageError("--remind: must be longer than 0")
        if deadline is None:
            raise UsageError("--remind needs --deadline")
        if remind >= deadline:
            raise UsageError("--remind must be shorter than --deadline (it is how long before the deadline)")
    if grace and not bot:
        raise UsageError("--grace needs --late-bot (it is how long the late bot waits)")
    if bot and deadline is None:
        raise UsageError("--late-bot needs --deadline")
    if grace < 0:
        raise UsageError("--grace: must not be negative")
    if registry is not None and bot is not None:
        bot_named(registry, bot, settings["game"])
    smtp = settings.get("smtp", "")
    host, sep, port = smtp.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536 or not smtp.isprintable():
        raise UsageError(f"--smtp '{one_line(smtp)}': write HOST:PORT, like mail.example.org:25")
    # Sending mail (smtplib, ssl) is imported only to check what sends it:
    # a command that reads settings to receive a mail does not pay for it.
    from . import delivery

    security = settings.get("smtp_security") or "auto"
    if security not in delivery.SECURITY:
        raise UsageError(f"--smtp-security '{one_line(security)}': one of {', '.join(delivery.SECURITY)}")
    ca_file = settings.get("ca_file")
    if ca_file:
        delivery.tls_context(ca_file)  # readable, and certificates
    for key in ("referee", "master"):
        address = settings.get(key)
        if address is not None and not mailin.valid_address(address):
            raise UsageError(f"--{key} '{one_line(address)}': not a single mail address")
    if settings.get("page_url") is not None:
        from .pages import check_url

        settings["page_url"] = check_url(settings["page_url"])
    _check_table(settings)


def _check_table(settings: dict[str, Any]) -> None:
    """Votes, civil disorder and substitutes (see :mod:`.votes`, :mod:`.seats`)."""
    settings["vote_majority"] = check_majority(settings.get("vote_majority") or "all")
    settings["civil_disorder"] = check_disorder(settings.get("civil_disorder"))
    if settings["civil_disorder"] and settings.get("deadline") is None:
        raise UsageError("--civil-disorder needs --deadline (it counts the deadlines a player missed)")
    settings["substitutes"] = check_substitutes(settings.get("substitutes"))
