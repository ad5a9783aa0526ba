"""``press: TEXT``: a message to the other players, kept beside the game
(``press.jsonl``, the owner's alone), never in its log. Relayed as printable
text only: no terminal escapes, no bidirectional controls."""

from __future__ import annotations

import json

from ..gamedir import append_private, printable
from . import Mail, PlayerCommand


class Press(PlayerCommand):
    name = "press"
    usage = "press: TEXT"
    does = "a message to the other players (not in the game log)"
    order = 40

    def run(self, ref, mail: Mail) -> str:
        player = mail.player
        texts = [text for _, text in mail.letter.values("press")]
        text = "\n".join(printable(t) for t in texts)[:4000]
        record = json.dumps({"time": int(mail.now), "from": player, "text": text}, ensure_ascii=False) + "\n"
        append_private(ref.ledger.dir.press, record.encode("utf-8"))
        ref.letters.mail_others(
            player, f"Press from {player}", f"{player} writes to the other players:\n\n{text}\n", mail.key + "-press-"
        )
        return f"{player}'s press relayed"
