"""Turn pages: the referee's games on the web, each reader at a page of
their own (``tabletop pbem serve``).

A page is the viewer's board for the reader's view (:mod:`tabletop.viewer`,
following the game as ``watch`` does), with what the reader may do beside
it (:mod:`.panel`). What a page posts is a mail's lines, run by the referee
as that reader's mail (:meth:`tabletop.referee.inbox.Inbox.posted`): the
same commands, journal, log and mails. The application (:mod:`.app`) is an
ASGI one (Starlette), served by uvicorn; what it lets through is decided in
:mod:`.guard`. Nothing here is imported by another command: the web stack
is an optional extra (``serve``).

May import: base, log, model, host, sight, play, api, testing, many, review, ai, viewer, referee.
"""
