"""Sealed decisions waiting to be revealed, kept beside their log between runs.

The log and FILE.secrets must never disagree in the way that loses a game: a
``seal`` in the log whose choice is nowhere (nobody could ever reveal it).
So a secret is on disk, synced, *before* the seal that commits to it is
appended, and is dropped only *after* the unseal that reveals it is. A process
killed anywhere in between leaves at worst a secret kept for a seal that never
made it into the log, which is harmless: the next seal by that player replaces
it, and nothing reads it otherwise.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

from ..base.errors import TabletopError, UsageError
from . import files

#: The largest secrets file read, in bytes.
MAX_SECRETS = 1 << 20


class SecretKeeper:
    """Sealed decisions waiting to be revealed, kept in FILE.secrets (readable
    by its owner only) between one ``play`` and the next."""

    def __init__(self, log: Path) -> None:
        self.path = log.with_name(log.name + ".secrets")
        # Made under the log's lock, so no other writer of the secrets is at
        # work: a temporary secrets file here was left by a killed process.
        files.clean(self.path.parent, self.path.name, stale=0)
        self.secrets: dict = {}
        if os.path.lexists(self.path):
            try:
                text = files.read_text(self.path, MAX_SECRETS, "sealed decisions")
                self.secrets = json.loads(text)
            except (TabletopError, ValueError, RecursionError):
                raise UsageError(f"{self.path}: cannot read the sealed decisions kept there") from None
            if not isinstance(self.secrets, dict):
                raise UsageError(f"{self.path}: cannot read the sealed decisions kept there")
        self.before = json.dumps(self.secrets, sort_keys=True)

    @contextlib.contextmanager
    def saving(self) -> Iterator[None]:
        """Keep the secrets on disk in step with the append made inside: new
        secrets are written first; revealed ones are dropped once the append
        has succeeded. A failure before the append leaves things as they were."""
        if json.dumps(self.secrets, sort_keys=True) == self.before:
            yield
            return
        before = json.loads(self.before)
        # Everything kept before and everything new: on disk before the seal.
        kept = {**before, **self.secrets}
        if kept != before:
            self._write(kept)
        try:
            yield
        except BaseException:
            if kept != before:
                with contextlib.suppress(TabletopError):
                    self._write(before)
            raise
        if self.secrets != kept:
            # The decision is logged: a failure to drop revealed secrets now
            # leaves only what the log already shows, so it is not an error.
            with contextlib.suppress(TabletopError):
                self._write(self.secrets)

    def _write(self, secrets: dict) -> None:
        if not secrets:
            try:
                self.path.unlink(missing_ok=True)
            except OSError as exc:
                raise UsageError(f"cannot remove: {files.reason(exc)}", where=str(self.path)) from None
            return
        files.replace(self.path, json.dumps(secrets).encode("utf-8"), mode=0o600, stale=0)
