"""Players' secrets: handed out once, stored only as salted scrypt hashes,
with a short tag that turns almost every wrong guess away cheaply.

The tag is the first 16 bits of a plain hash of the secret and its salt. A
guess whose tag differs is wrong for sure and costs the referee a few
microseconds; only the right secret, and one wrong guess in 65,536, costs
the slow hash. So checking needs no limit, and no one can lock a player out
by guessing in their name. The tag tells a thief of ``referee.json`` 16 of
the secret's 79 bits: the other 63 still take about 2^62 slow hashes
(billions of years of one core) to find."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# scrypt parameters: about 50 ms and 16 MiB a check, cheap for a referee
# that checks one mail at a time, costly for anyone guessing from a stolen file.
_N, _R, _P = 2**14, 8, 1
#: Hex digits of the short tag (16 bits).
TAG = 4


def new_secret() -> str:
    """A secret a person can copy into a mail: 4 groups of 4 characters
    from 31 (16 characters: 31^16, about 2^79)."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i
    raw = "".join(secrets.choice(alphabet) for _ in range(16))
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def _plain(secret: str) -> bytes:
    return secret.strip().lower().encode()


def digest(secret: str, salt: str) -> str:
    return hashlib.scrypt(_plain(secret), salt=bytes.fromhex(salt), n=_N, r=_R, p=_P).hex()


def tag_of(secret: str, salt: str) -> str:
    """The short tag: cheap, and too short to name the secret."""
    return hashlib.sha256(b"tabletop secret tag\0" + bytes.fromhex(salt) + _plain(secret)).hexdigest()[:TAG]


def store(secret: str) -> dict[str, str]:
    salt = secrets.token_hex(16)
    return {"salt": salt, "scrypt": digest(secret, salt), "tag": tag_of(secret, salt)}


def matches(secret: str, stored: dict[str, str]) -> bool:
    """Whether ``secret`` is the one ``stored`` was made from (the slow hash
    compared in constant time, and only when the short tag matches). A
    secret stored without a tag (a game begun before tags) gets it from
    its first match."""
    tag = stored.get("tag")
    if tag is not None and not hmac.compare_digest(tag_of(secret, stored["salt"]), tag):
        return False
    if not hmac.compare_digest(digest(secret, stored["salt"]), stored["scrypt"]):
        return False
    if tag is None:
        stored["tag"] = tag_of(secret, stored["salt"])
    return True


def tagged(stored: dict[str, str]) -> bool:
    """Whether a wrong guess against ``stored`` is turned away without the slow hash."""
    return "tag" in stored
