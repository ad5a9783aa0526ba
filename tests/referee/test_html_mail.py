"""Mail that reads well (issue 29, part 6): every mail has an HTML part
beside its text (multipart/alternative); a view shows the board as a
picture in the mail (a cid: part, the PNG where there is one), the text
board in monospace, the legal decisions as a list and the deadline in the
reader's zone; the mover's own mail speaks to them. Untrusted text (names,
notes, press) is escaped. The parts are read back with the standard
library's email package, from a real SMTP server (aiosmtpd), and shown in
headless Chromium as a webmail shows them, at a phone's and a desktop's
width."""

from __future__ import annotations

import base64
import html
import os
import re
import shutil
from email.message import EmailMessage
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tabletop.referee import referee as referee_module

from .conftest import ANN, BEN, MASTER, REF, body, game_copy, plain_registry_cached, raw_mail

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: The only elements the referee's HTML is made of.
ALLOWED = {"html", "head", "meta", "title", "body", "div", "h1", "h2", "p", "br", "ol", "ul", "li", "img", "pre"}
ALLOWED |= {"code", "strong", "time"}


class Tags(HTMLParser):
    """The elements and attributes of an HTML text, and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parsed_html(mail: EmailMessage) -> Tags:
    tags = Tags()
    tags.feed(mail.get_body(("html",)).get_content())
    return tags


def _alternative(mail: EmailMessage) -> EmailMessage:
    return next(p for p in mail.walk() if p.get_content_type() == "multipart/alternative")


def _inline(mail: EmailMessage) -> dict[str, EmailMessage]:
    """The parts the HTML shows in place, by content id."""
    return {p["Content-ID"].strip("<>"): p for p in mail.walk() if p["Content-ID"]}


def _listed(text: str) -> list[str]:
    """The legal decisions a text lists."""
    listing = text.split("Your legal decisions:\n", 1)[1]
    return [line.strip() for line in listing.splitlines() if line.startswith("  ") and "... and" not in line]


def _checked(mail: EmailMessage) -> Tags:
    """Every mail: text and HTML beside it, the HTML made of plain elements only."""
    alternative = _alternative(mail)
    kinds = [p.get_content_type() for p in alternative.iter_parts()]
    assert kinds[0] == "text/plain" and kinds[1] in ("text/html", "multipart/related"), kinds
    tags = parsed_html(mail)
    assert {tag for tag, _ in tags.tags} <= ALLOWED, {tag for tag, _ in tags.tags} - ALLOWED
    assert not [a for _, attrs in tags.tags for a in attrs if a.lower().startswith("on")]
    heading = body(mail).split("\n", 1)[0]
    assert html.unescape(re.search(r"<h1[^>]*>(.*?)</h1>", mail.get_body(("html",)).get_content()).group(1)) == heading
    return tags


def test_every_mail_has_html_beside_its_text(tmp_path, smtp):
    """Views, answers, notes, reminders, the master's mails: each is
    multipart/alternative, its HTML's heading the text's first line."""
    game = game_copy(tmp_path, plain_registry_cached(), smtp, deadline=3600, remind=600)
    game.receive(game.mail("ann", "move: nonsense"))
    game.receive(game.mail("ann", "help"))
    game.receive(game.mail("ann", "history"))
    game.receive(game.mail("ann", "press: hello ben"))
    game.receive(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    game.receive(raw_mail(MASTER, ["game: g", f"secret: {game.secrets['(master)']}", "help"]))
    game.receive(raw_mail("eve@example.net", ["game: g", "move: 1@a1"]))
    import time

    game.referee().tick(time.time() + 3500)
    game.referee().tick(time.time() + 7300)
    game.send()
    topics = set()
    for mail in smtp.inbox.mails:
        _checked(mail)
        topics.add(body(mail).split("\n", 1)[0].split(":")[0])
    assert {"Not played", "The game so far", "Reminder", "Late", "Game master commands"} <= topics, topics
    assert len(smtp.inbox.mails) >= 12


def test_a_view_shows_the_board_the_legal_decisions_and_the_deadline_in_html(tmp_path, smtp):
    """ann's view: the board's PNG in place (its cid the <img>'s), the text
    board in monospace, the legal decisions as a list (those the text
    lists), the deadline in ann's zone (Europe/Paris) with its UTC time;
    ben, who set no zone, reads UTC."""
    game = game_copy(
        tmp_path, plain_registry_cached(), smtp, pictures="png", deadline=86400, zones={"ann": "Europe/Paris"}
    )
    game.send()
    mail = smtp.inbox.last(ANN)
    tags = _checked(mail)
    (img,) = [attrs for tag, attrs in tags.tags if tag == "img"]
    cid = img["src"].removeprefix("cid:")
    picture = _inline(mail)[cid]
    assert picture.get_content_type() == "image/png" and picture.get_content().startswith(b"\x89PNG\r\n\x1a\n")
    assert picture.get_content_disposition() == "inline"
    related = next(p for p in mail.walk() if p.get_content_type() == "multipart/related")
    assert [p.get_content_type() for p in related.iter_parts()] == ["text/html", "image/png"]
    markup = mail.get_body(("html",)).get_content().replace("\r\n", "\n")
    text = body(mail)
    items = re.findall(r"<li[^>]*><code[^>]*>(.*?)</code></li>", markup)
    assert [html.unescape(i) for i in items] == _listed(text) and items
    boards = [html.unescape(b) for b in re.findall(r"<pre[^>]*>(.*?)</pre>", markup, re.S)]
    assert any(b in text and "Victory points now" in b for b in boards)
    stamp = re.search(r'<time datetime="([0-9T:-]+Z)"><strong>(.*?)</strong></time>', markup)
    assert stamp and (" CET (" in stamp.group(2) or " CEST (" in stamp.group(2)) and stamp.group(2).endswith("UTC)")
    assert f"Deadline: {stamp.group(2)}." in text
    ben = smtp.inbox.last(BEN).get_body(("html",)).get_content()
    assert re.search(r"<time datetime=\"[0-9T:-]+Z\"><strong>[0-9: -]+ UTC</strong></time>", ben)
    # The attachments stay as they were, for mail programs that show the text.
    assert [p.get_filename() for p in mail.iter_attachments()] == ["board.png", "board.svg"]


def test_the_movers_mail_speaks_to_them(tmp_path, smtp):
    """ "Your move 5@a1 was played." to the mover, "ann's mail was played."
    to the others; "You resigned." / "ann resigned."; the late bot's
    decision told to the player it was made for as theirs."""
    import time

    game = game_copy(tmp_path, plain_registry_cached(), smtp, deadline=3600, late_bot="random")
    move = game.legal("ann")[0]
    game.receive(game.mail("ann", f"move: {move}"))
    game.send()
    for mail, said in (
        (smtp.inbox.last(ANN), f"Your move {move} was played."),
        (smtp.inbox.last(BEN), "ann's mail was played."),
    ):
        assert said in body(mail)
        assert said in " ".join(parsed_html(mail).text)
    lines = game.referee().tick(time.time() + 7200)
    assert any("ben was late" in line for line in lines), lines
    game.send()
    assert "You were late: the bot 'random' decided for you: " in body(smtp.inbox.last(BEN))
    assert "ben was late: the bot 'random' decided for ben." in body(smtp.inbox.last(ANN))
    game.receive(game.mail("ben", "resign"))
    game.send()
    assert "You resigned." in body(smtp.inbox.last(BEN)) and "ben resigned." in body(smtp.inbox.last(ANN))


HOSTILE = "<script>alert(1)</script>"


def _hostile_game(tmp_path, smtp):
    registry = plain_registry_cached()
    secrets = referee_module.init(
        registry, tmp_path / "g", "glux", [(HOSTILE, ANN), ("ben", BEN)], referee=REF, smtp=smtp.address,
        game_id="g", pictures="svg", observers=["carol@example.org"],
    )  # fmt: skip
    return secrets


def test_names_notes_and_press_are_escaped(tmp_path, smtp):
    """A player named <script>alert(1)</script>, and press full of markup:
    every HTML part shows them as text, none as an element."""
    from tabletop.referee import delivery
    from tabletop.referee.gamedir import GameDir

    secrets = _hostile_game(tmp_path, smtp)
    ref = referee_module.Referee.open(plain_registry_cached(), tmp_path / "g")
    press = "press: <img src=x onerror=alert(2)> & </pre><b>bold</b>"
    report = ref.receive(raw_mail(ANN, ["game: g", f"secret: {secrets[HOSTILE]}", press]))
    assert "press" in report, report
    match = ref.replay()
    move = match.game.notate(match.game.legal(match.state, HOSTILE)[0])
    assert "played 1" in ref.receive(raw_mail(ANN, ["game: g", f"secret: {secrets[HOSTILE]}", f"move: {move}"]))
    delivery.send(GameDir(tmp_path / "g"), smtp.address)
    shown = 0
    for mail in smtp.inbox.mails:
        tags = _checked(mail)
        markup = mail.get_body(("html",)).get_content()
        assert (
            "<script" not in markup.lower()
            and "<b>" not in markup
            and "onerror=" not in markup.replace("onerror=alert(2)&gt;", "")
        )
        text = "".join(tags.text)
        if HOSTILE in text:
            shown += 1
        if "<img src=x onerror=alert(2)>" in text:
            shown += 1
    assert shown >= 4


def test_the_welcome_secret_is_blacked_out_in_every_part_of_the_copy_kept(tmp_path, smtp):
    """The player reads their secret in the text and the HTML; the copy kept
    in sent/ has it in neither."""
    import email
    import email.policy

    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    game.send()
    secret = game.secrets["ann"]
    mail = smtp.inbox.to(ANN)[0]
    assert secret in body(mail) and secret in mail.get_body(("html",)).get_content()
    kept = email.message_from_bytes((game.path / "sent" / "welcome-ann.eml").read_bytes(), policy=email.policy.default)
    for part in kept.walk():
        if part.get_content_maintype() == "text":
            assert secret not in part.get_content(), part.get_content_type()
    assert "(redacted)" in kept.get_body(("html",)).get_content()


# -- as a webmail shows it ----------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("no Chromium: apt-get install chromium chromium-driver")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the viewer extra)")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1300,1100")
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


def as_webmail(mail: EmailMessage, folder: Path, name: str) -> Path:
    """The HTML part as a webmail serves it: each cid: part it shows put in
    place (a webmail serves them at addresses of its own)."""
    markup = mail.get_body(("html",)).get_content()
    for cid, part in _inline(mail).items():
        data = base64.b64encode(part.get_content()).decode()
        markup = markup.replace(f"cid:{cid}", f"data:{part.get_content_type()};base64,{data}")
    path = folder / f"{name}.html"
    path.write_text(markup)
    return path


def _shot(browser, page: Path, width: int, name: str, folder: Path) -> dict:
    browser.set_window_size(width, 900)
    browser.get(page.resolve().as_uri())
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(width, min(height + 140, 4000))
    shot = folder / f"{name}-{width}.png"
    assert browser.get_screenshot_as_file(str(shot))
    keep = os.environ.get("TABLETOP_SCREENSHOTS")  # a folder to keep the pictures in, to look at
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)
    return browser.execute_script(
        "return {wide: document.documentElement.scrollWidth, window: window.innerWidth,"
        " images: Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.getBoundingClientRect().right]),"
        " scripts: document.scripts.length, text: document.body.innerText}"
    )


@pytest.mark.parametrize("game_name", ["glux", "glyph-chess"])
def test_a_view_as_a_webmail_shows_it_at_phone_and_desktop_widths(browser, tmp_path, smtp, game_name):
    """The board's picture loads (naturalWidth > 0) and fits the window;
    nothing runs off the side at 390 px or 1300 px (the text board scrolls in
    its own box). A few decisions in, the mail to the player whose turn it is
    (docs/referee-mail.png is Glüx's at 390 px)."""
    import json

    from tabletop.play.engine import Replay

    game = game_copy(tmp_path, plain_registry_cached(), smtp, game=game_name, deadline=172800)
    for step in range(7):
        match = Replay(game.registry, game.path / "game.jsonl").run()
        who = match.node.players[0]
        if step == 6:  # the last view drawn as PNG (slow to draw), in the reader's zone
            settings = game.settings()
            settings["pictures"] = "png"
            settings["players"][match.game.players[1 - match.game.players.index(who)]]["tz"] = "Europe/Paris"
            (game.path / "referee.json").write_text(json.dumps(settings))
        assert "played 1" in game.receive(game.mail(who, f"move: {game.legal(who)[0]}"))
    game.send()
    reader = Replay(game.registry, game.path / "game.jsonl").run().node.players[0]
    mail = smtp.inbox.last({"ann": ANN, "ben": BEN}[reader])
    assert " CET (" in body(mail) or " CEST (" in body(mail)
    page = as_webmail(mail, tmp_path, f"mail-{game_name}")
    for width in (390, 1300):
        shown = _shot(browser, page, width, f"mail-{game_name}", tmp_path)
        assert shown["wide"] <= shown["window"], shown
        assert shown["images"] and all(
            done and natural > 0 and right <= shown["window"] for done, natural, right in shown["images"]
        )
        assert shown["scripts"] == 0 and "Your legal decisions:" in shown["text"]


def test_an_observers_mail_and_a_hostile_name_in_the_browser(browser, tmp_path, smtp):
    """The observer's mail of the game with a player named
    <script>alert(1)</script>: the name shows as text, no script runs."""
    from tabletop.referee import delivery
    from tabletop.referee.gamedir import GameDir

    _hostile_game(tmp_path, smtp)
    delivery.send(GameDir(tmp_path / "g"), smtp.address)
    page = as_webmail(smtp.inbox.last("carol@example.org"), tmp_path, "observer")
    for width in (390, 1300):
        shown = _shot(browser, page, width, "observer", tmp_path)
        assert shown["wide"] <= shown["window"] and shown["scripts"] == 0
        assert HOSTILE in shown["text"] and all(natural > 0 for _, natural, _ in shown["images"])


@pytest.mark.parametrize("text", ["", "plain", "<b>&amp;</b>", "\"quoted\" & 'single'", "a<<>>&&\"'é\u202e\x00"])
def test_the_html_parts_escape_as_the_standard_library_does(text):
    """The layout escapes without the standard ``html`` module (which ``pbem
    receive`` would otherwise load for its answers): what it writes is what
    ``html.escape`` writes."""
    from tabletop.referee import html as layout

    assert layout.escape(text) == html.escape(text, quote=True)
