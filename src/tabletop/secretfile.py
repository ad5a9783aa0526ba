"""Sealed decisions waiting to be revealed, kept beside their log between runs."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

from .errors import UsageError


class SecretKeeper:
    """Sealed decisions waiting to be revealed, kept in FILE.secrets (readable
    by its owner only) between one ``play`` and the next."""

    def __init__(self, log: Path) -> None:
        self.path = log.with_name(log.name + ".secrets")
        try:
            self.secrets = json.loads(self.path.read_text())
        except FileNotFoundError:
            self.secrets = {}
        except (OSError, ValueError):
            raise UsageError(f"{self.path}: cannot read the sealed decisions kept there") from None
        self.before = json.dumps(self.secrets, sort_keys=True)

    @contextlib.contextmanager
    def saving(self) -> Iterator[None]:
        """Write the secrets beside the log, in step with the append inside."""
        if json.dumps(self.secrets, sort_keys=True) == self.before:
            yield
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(self.secrets, out)
        try:
            yield
        except BaseException:
            tmp.unlink()
            raise
        if self.secrets:
            os.replace(tmp, self.path)
        else:
            tmp.unlink()
            self.path.unlink(missing_ok=True)
