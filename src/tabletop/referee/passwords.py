"""Players' secrets: handed out once, stored only as salted scrypt hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# scrypt parameters: about 50 ms and 16 MiB a check, cheap for a referee
# that checks one mail at a time, costly for anyone guessing from a stolen file.
_N, _R, _P = 2**14, 8, 1


def new_secret() -> str:
    """A secret a person can copy into a mail: 4 groups of 4 characters."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i
    raw = "".join(secrets.choice(alphabet) for _ in range(16))
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def digest(secret: str, salt: str) -> str:
    return hashlib.scrypt(secret.strip().lower().encode(), salt=bytes.fromhex(salt), n=_N, r=_R, p=_P).hex()


def store(secret: str) -> dict[str, str]:
    salt = secrets.token_hex(16)
    return {"salt": salt, "scrypt": digest(secret, salt)}


def matches(secret: str, stored: dict[str, str]) -> bool:
    """Whether ``secret`` is the one ``stored`` was made from (in constant time)."""
    return hmac.compare_digest(digest(secret, stored["salt"]), stored["scrypt"])
