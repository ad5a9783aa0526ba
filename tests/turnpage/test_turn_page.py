"""Each reader's turn page on a real server (``tabletop pbem serve`` on
127.0.0.1): what a page posts is the mail it stands for (the same log, the
same mails to everyone, the same words when it is refused), each page at a
token of its own that only its reader's mails carry, and hostile requests
refused with nothing changed."""

from __future__ import annotations

import email
import email.policy
import html
import http.client
import json
import re
import shutil
import ssl
import threading

from tabletop.referee import pages
from tabletop.referee.gamedir import GameDir

from ..referee.conftest import ANN, BEN, MASTER, Game
from .conftest import form_of, path_of, served_game, set_page_url


def _texts(game: Game) -> dict[str, str]:
    """Every mail waiting in the outbox, by its file's name: the text part (what the reader reads)."""
    found = {}
    for path in sorted((game.path / "outbox").glob("*.eml")):
        mail = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        text = mail.get_body(preferencelist=("plain",)).get_content()
        found[path.name] = f"To: {mail['To']}\n{text}"
    return found


def _page(server, game: Game, reader: str) -> str:
    status, _, body = server.get(path_of(game, reader))
    assert status == 200, body
    return body.decode()


def _post(server, game: Game, reader: str, key: str, value: str = "", **more: str) -> str:
    """Post the page's form for ``key``; the page it leads back to."""
    path = path_of(game, reader)
    fields = {**form_of(_page(server, game, reader), key), "value": value, **more}
    status, headers, body = server.post(path + "post", fields)
    assert status == 303 and headers["location"] == "./", (status, body)
    return _page(server, game, reader)


def _due(game: Game) -> str:
    """Whose decision is due."""
    return next(p for p in ("ann", "ben") if game.legal(p))


def _answer(html: str) -> str:
    found = re.search(r'<div id="answer" role="status">(.*?)</div>', html, re.S)
    assert found, "the page shows no answer"
    return found.group(1)


def test_a_post_is_the_mail_it_stands_for(tmp_path, port, servers):
    """The same decisions, one game by mail alone and its copy by the page
    (ann) and mail (ben) mixed: the same log and the same mails, byte for
    byte in what every reader reads; a refused decision answered on the
    page in the mail's words, and mailed to nobody."""
    paged = served_game(tmp_path / "paged", port)
    pages.key(GameDir(paged.path))  # the copy's pages are the same pages
    mailed = Game(tmp_path / "mailed" / "g", dict(paged.secrets), paged.registry, None)
    shutil.copytree(paged.path, mailed.path)
    server = servers([paged.path], port)
    assert _texts(paged) == _texts(mailed)
    posted = 0
    for _ in range(4):
        who = _due(paged)
        move = paged.legal(who)[0]
        assert "played 1" in mailed.receive(mailed.mail(who, f"move: {move}"))
        if who == "ann":  # ann by her page, ben by mail
            answer = _answer(_post(server, paged, "ann", "move", move))
            assert "played 1 decision(s) of ann" in answer
            posted += 1
        else:
            assert "played 1" in paged.receive(paged.mail(who, f"move: {move}"))
        assert paged.log() == mailed.log()
        assert _texts(paged) == _texts(mailed)
    assert posted == 2
    # A decision the rules refuse: the page says what the mail says, and nothing is mailed for it.
    wrong, who = "99@a1", _due(paged)
    assert "answered" in mailed.receive(mailed.mail(who, f"move: {wrong}"))
    (refusal,) = set(_texts(mailed)) - set(_texts(paged))
    before = _texts(paged)
    answer = html.unescape(_answer(_post(server, paged, who, "move", wrong)))
    assert _texts(paged) == before and paged.log() == mailed.log()
    (reason,) = [line for line in _texts(mailed)[refusal].splitlines() if "99@a1" in line]
    assert re.sub(r"line \d+: ", "", reason.strip()) in answer, (answer, reason)
    assert "Not played" in answer


def test_each_reader_has_a_page_and_a_link_in_their_own_mails_only(tmp_path, port, servers):
    """ann's mails link to ann's page alone, ben's to his, the master's to the
    master's; an observer's page shows the game and takes no post; a new
    secret (``reissue``) is a new page, and the old link is dead."""
    game = served_game(tmp_path, port, observers=["carol@example.org"])
    server = servers([game.path], port)
    assert "played 1" in game.receive(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    directory = GameDir(game.path)
    tokens = pages.readers(directory, directory.load())
    assert sorted(tokens.values()) == ["(master)", "ann", "ben", "observer:carol@example.org"]
    for path in (game.path / "outbox").glob("*.eml"):
        raw = path.read_text(errors="replace")
        mail = email.message_from_string(raw, policy=email.policy.default)
        to = str(mail["To"])
        found = {reader for token, reader in tokens.items() if token in raw}
        reader = {ANN: "ann", BEN: "ben", MASTER: "(master)", "carol@example.org": "observer:carol@example.org"}[to]
        assert found <= {reader}, f"{path.name} to {to} carries {found}"
        if path.name.startswith("e3-"):
            assert found == {reader}, f"{path.name} has no link to its reader's page"
            # The HTML part links it; the picture is in the mail once (shown in place), the rest on the page.
            part = mail.get_body(preferencelist=("html",)).get_content()
            (token,) = [t for t, r in tokens.items() if r == reader]
            assert f'<a href="http://127.0.0.1:{port}/turn/{token}/"' in part
            pictures = [p.get_filename() for p in mail.walk() if (p.get_filename() or "").startswith("board.")]
            assert pictures == ["board.svg"], pictures
    # The observer's page: the public view, nothing to post.
    carol = _page(server, game, "observer:carol@example.org")
    assert "as any onlooker sees it" in carol and 'name="key"' not in carol
    status, _, _ = server.post(path_of(game, "observer:carol@example.org") + "post", {"key": "press", "value": "hi"})
    assert status == 403
    # The game master's page runs the master's commands: pause, as by mail.
    answer = _answer(_post(server, game, "(master)", "pause"))
    assert "paused" in answer.lower() and game.settings()["paused_by"] == "master"
    old = path_of(game, "ben")
    ref = game.referee()
    ref.locked_master("reissue", player="ben")
    new = path_of(game, "ben")
    assert new != old
    assert server.get(old)[0] == 404 and server.get(new)[0] == 200
    reissued = [p for p in (game.path / "outbox").glob("reissue*.eml")] or [
        p for p in (game.path / "outbox").glob("*.eml") if new.split("/")[2] in p.read_text(errors="replace")
    ]
    assert reissued and all(new.split("/")[2] in p.read_text(errors="replace") for p in reissued)


def test_hostile_requests_change_nothing(tmp_path, port, servers):
    """Wrong and foreign tokens, another Host, another Origin, a post without
    the page's form token or with another page's, bodies too large or
    malformed: each refused, the folder as it was."""
    game = served_game(tmp_path, port)
    server = servers([game.path], port)
    ann = path_of(game, "ann")
    form = {**form_of(_page(server, game, "ann"), "move"), "value": game.legal("ann")[0]}
    ben_form = form_of(_page(server, game, "ben"), "press")
    before = (game.log(), game.settings(), sorted(p.name for p in (game.path / "outbox").iterdir()))
    cases = [
        ("GET", "/turn/" + "A" * 32 + "/", None, {}, 404),
        ("GET", ann[:-5] + "xxxx/", None, {}, 404),
        ("GET", ann, None, {"Host": "evil.example"}, 421),
        ("GET", ann, None, {"Host": f"localhost:{port}"}, 421),
        ("POST", ann + "post", form, {"Origin": "https://evil.example"}, 403),
        ("POST", ann + "post", form, {"Origin": "null"}, 403),
        ("POST", ann + "post", {**form, "csrf": "0" * 32}, {}, 403),
        ("POST", ann + "post", {**form, "csrf": ben_form["csrf"]}, {}, 403),
        ("POST", ann + "post", {k: v for k, v in form.items() if k != "csrf"}, {}, 403),
        ("POST", ann + "post", form, {"Content-Type": "text/plain"}, 403),
        ("POST", ann + "post", form, {"Sec-Fetch-Site": "cross-site"}, 403),
        ("POST", ann + "post", {**form, "key": "replace"}, {}, 400),
        ("POST", ann + "post", {**form, "post": "not-a-name"}, {}, 400),
        ("POST", ann + "post", {**form, "key": "resign"}, {}, 400),
        ("POST", ann + "post", {**form, "value": "x" * 40_000}, {}, 413),
    ]
    for method, path, fields, headers, status in cases:
        if method == "GET":
            got = server.get(path, **headers)
        else:
            got = server.post(path, fields, headers)
        assert got[0] == status, (method, path, headers, got[0], got[2][:200])
        assert b"Traceback" not in got[2]
    # Bodies that are no form, or claim a size they do not have.
    origin = {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/x-www-form-urlencoded"}
    for body, status in ((b"\xff\xfe\x00=%%%", 400), (b"a=1&a=2", 400), (b"=&" * 20, 400), (b"\x00", 400)):
        assert server.request("POST", ann + "post", body, origin)[0] == status, body
    huge = server.request("POST", ann + "post", b"x", {**origin, "Content-Length": str(10**9)})
    assert huge[0] == 413
    assert before == (game.log(), game.settings(), sorted(p.name for p in (game.path / "outbox").iterdir()))


def test_floods_are_limited_per_page_and_per_address(tmp_path, port, servers):
    """Posts a page may make, requests a page and an address may make, a
    minute (small limits here): past them, 429 and nothing done."""
    game = served_game(tmp_path, port)
    limits = ("--page-posts", "5", "--page-requests", "12", "--address-requests", "30")
    server = servers([game.path], port, options=limits)
    ann = path_of(game, "ann")
    form = form_of(_page(server, game, "ann"), "press")
    statuses = [server.post(ann + "post", {**form, "post": f"{n:032x}", "value": f"hello {n}"})[0] for n in range(7)]
    assert statuses == [303] * 5 + [429] * 2
    assert len(game.referee().dir.press.read_text().splitlines()) == 5
    # Page requests: 1 + 7 posts so far; 4 more, then no more.
    codes = [server.get(ann)[0] for _ in range(5)]
    assert codes == [200] * 4 + [429]
    # ben's page is not held back by ann's.
    assert server.get(path_of(game, "ben"))[0] == 200
    # One address asking for many pages (every token wrong): held back too, ben's page with them.
    codes = [server.get(f"/turn/{n:032x}/")[0] for n in range(20)]
    assert 429 in codes and set(codes[: codes.index(429)]) == {404}
    assert server.get(path_of(game, "ben"))[0] == 429


def test_a_post_and_a_mail_for_the_same_turn_at_once(tmp_path, port, servers):
    """ann's decision arrives by the page and by mail at the same moment
    (two different decisions): one is played, the other answered that it
    is not ann's turn; one event in the log."""
    game = served_game(tmp_path, port)
    server = servers([game.path], port)
    first, second = game.legal("ann")[:2]
    form = {**form_of(_page(server, game, "ann"), "move"), "value": first}
    raw = game.mail("ann", f"move: {second}")
    go = threading.Barrier(2)
    results: dict[str, object] = {}

    def by_page():
        go.wait()
        results["page"] = server.post(path_of(game, "ann") + "post", form)[0]

    thread = threading.Thread(target=by_page)
    thread.start()
    go.wait()
    results["mail"] = game.receive(raw)
    thread.join()
    assert results["page"] == 303
    assert game.events() == 3
    played = game.log().decode().splitlines()[-1]
    page_answer = _answer(_page(server, game, "ann"))
    if "played 1" in str(results["mail"]):
        assert "not your turn" in page_answer, page_answer
    else:
        assert "not your turn" in str(results["mail"]) or "answered" in str(results["mail"])
        assert "played 1 decision(s) of ann" in page_answer
    assert played.count('"player":"ann"') == 1


def test_a_server_killed_during_a_post_loses_nothing_and_plays_nothing_twice(tmp_path, port, servers):
    """The server is killed (SIGKILL) right after the log append of a post;
    started again, the same post sent again (the browser's retry) finishes
    the change once: the log and the mails of the game where nothing was
    killed."""
    killed = served_game(tmp_path / "killed", port)
    pages.key(GameDir(killed.path))  # the copy's pages are the same pages
    calm = Game(tmp_path / "calm" / "g", dict(killed.secrets), killed.registry, None)
    shutil.copytree(killed.path, calm.path)
    move = killed.legal("ann")[0]
    form = {**form_of(_first_page(killed, port, servers), "move"), "value": move}
    for where, kill_at in ((killed, "log"), (calm, "")):
        if where is calm:
            set_page_url(calm.path, port)
        server = servers([where.path], port, kill_at=kill_at)
        try:
            status = server.post(path_of(where, "ann") + "post", form)[0]
        except (ConnectionError, OSError):
            status = None  # the server died in the middle of the answer
        if kill_at:
            assert status is None and server.process.wait() == -9
            assert (where.path / "journal.json").exists()
            server = servers([where.path], port)
            again = server.post(path_of(where, "ann") + "post", form)
            assert again[0] == 303
            assert "not done again" in _answer(_page(server, where, "ann"))
        server.stop()
    assert killed.log() == calm.log()
    assert _texts(killed) == _texts(calm)
    assert not (killed.path / "journal.json").exists()


def _first_page(game: Game, port: int, servers) -> str:
    server = servers([game.path], port)
    html = _page(server, game, "ann")
    server.stop()
    return html


def test_press_and_names_with_markup_are_text(tmp_path, port, servers):
    game = served_game(tmp_path, port)
    server = servers([game.path], port)
    markup = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    _post(server, game, "ann", "press", markup)
    page = _page(server, game, "ben")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and markup not in page
    assert "<img src=x" not in page
    # Sent on by mail to ben, as press by mail is.
    assert any("alert(1)" in text for name, text in _texts(game).items() if name.startswith("re-"))


def test_several_games_on_one_server(tmp_path, port, servers):
    first = served_game(tmp_path / "one", port)
    second = served_game(tmp_path / "two", port, name="h")
    server = servers([first.path, second.path], port)
    assert "played 1" in _answer(_post(server, second, "ann", "move", second.legal("ann")[0]))
    assert second.events() == 3 and first.events() == 2
    assert server.get(path_of(first, "ann"))[0] == 200
    assert path_of(first, "ann") != path_of(second, "ann")


def test_votes_conditional_moves_and_resigning_on_the_page(tmp_path, port, servers):
    """The page's forms are the mail's commands: a conditional move kept and
    withdrawn, a vote cast and withdrawn (told as by mail), a draw agreed by
    a vote on the page and one by mail, and a resignation."""
    game = served_game(tmp_path, port)
    server = servers([game.path], port)
    for _ in range(4):  # past the setup
        who = _due(game)
        assert "played 1" in game.receive(game.mail(who, f"move: {game.legal(who)[0]}"))
    who = _due(game)
    other = "ben" if who == "ann" else "ann"
    condition = f"{game.legal(who)[0]} then: {game.legal(who)[-1]}"
    answer = html.unescape(_answer(_post(server, game, other, "if", condition)))
    assert "Conditional moves kept" in answer, answer
    assert game.settings()["conditionals"][other]
    assert game.legal(who)[0] in html.unescape(_page(server, game, other))
    assert game.legal(who)[0] + ", then" not in html.unescape(_page(server, game, who))  # shown to nobody else
    answer = html.unescape(_answer(_post(server, game, other, "clear")))
    assert "withdrawn" in answer.lower() and not game.settings()["conditionals"].get(other)
    answer = html.unescape(_answer(_post(server, game, "ann", "vote", "draw")))
    assert "counted" in answer and "1 of 2" in answer
    assert "draw" in _page(server, game, "ben")  # ben's page shows the vote open, not who cast it
    answer = html.unescape(_answer(_post(server, game, "ann", "unvote", "draw")))
    assert "withdrawn" in answer.lower()
    _post(server, game, "ann", "vote", "draw")
    assert "played" in game.receive(game.mail("ben", "vote: draw")) or game.log().count(b"agreement") == 1
    assert game.log().count(b'"agreement"') == 1
    assert "The game is over." in _page(server, game, "ann")


def test_resigning_on_the_page_needs_the_box_ticked(tmp_path, port, servers):
    game = served_game(tmp_path, port)
    server = servers([game.path], port)
    for _ in range(4):  # past the setup, where nobody may resign
        who = _due(game)
        assert "played 1" in game.receive(game.mail(who, f"move: {game.legal(who)[0]}"))
    before = game.log()
    path = path_of(game, "ben")
    form = form_of(_page(server, game, "ben"), "resign")
    assert server.post(path + "post", form)[0] == 400 and game.log() == before
    assert server.post(path + "post", {**form, "sure": "yes"})[0] == 303
    assert b"resign" in game.log()[len(before) :], game.log()[len(before) :]
    assert _answer(_page(server, game, "ben")) == "<p>Done: ben resigned</p>"


def test_a_page_follows_the_game(tmp_path, port, servers):
    """The page's events answer at once when the page is behind, and as soon
    as a mail changes the game when it is not (a wait for that state)."""
    game = served_game(tmp_path, port)
    server = servers([game.path], port)
    path = path_of(game, "ann")
    stamp = re.search(r'"live":"([0-9a-f]+)"', _page(server, game, "ann")).group(1)
    status, _, body = server.get(path + "events?since=old")
    assert status == 200 and body.decode().strip() == f"data: {stamp}"
    answered: dict[str, bytes] = {}
    thread = threading.Thread(target=lambda: answered.update(body=server.get(path + f"events?since={stamp}")[2]))
    thread.start()
    who = _due(game)
    assert "played 1" in game.receive(game.mail(who, f"move: {game.legal(who)[0]}"))
    thread.join()
    new = re.search(r'"live":"([0-9a-f]+)"', _page(server, game, "ann")).group(1)
    assert new != stamp and answered["body"].decode().strip() == f"data: {new}"


def test_serve_refuses_what_it_cannot_serve_in_one_line(tmp_path, cli):
    game = served_game(tmp_path, 8080)
    data = game.settings()
    del data["page_url"]
    (game.path / "referee.json").write_text(json.dumps(data))
    for args, why in (
        (["g"], "the game has no page_url"),
        (["g", "--listen", "nowhere"], "write HOST:PORT"),
        (["g", "--certfile", "x.pem"], "--certfile and --keyfile go together"),
        (["nothing-here"], "not a game directory"),
    ):
        done = cli("pbem", "serve", *args, plugins=False)
        assert done.exit_code == 2 and why in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1
    refused = cli("pbem", "set", "g", "page_url=http://games.example.org", plugins=False)
    assert refused.exit_code == 2 and "https://" in refused.stderr
    done = cli("pbem", "set", "g", "page_url=https://games.example.org/", plugins=False)
    assert done.exit_code == 0 and game.settings()["page_url"] == "https://games.example.org"


def test_a_substitute_takes_a_seat_offered_on_its_page(tmp_path, port, servers):
    """The game master offers ben's seat to a substitute: the offer's mail
    links to a page of its own (the public view, one button); the claim
    there is the claim a mail makes (the handover in the log, the new
    secret mailed, ben told), and leads on to the seat's page; the offer's
    page is gone, and so is ben's old one."""
    game = served_game(tmp_path, port)
    server = servers([game.path], port)
    old_ben = path_of(game, "ben")
    game.referee().locked_master("seek", player="ben", addresses=[SUB])
    directory = GameDir(game.path)
    settings = directory.load()
    (offer,) = settings.offers
    reader = pages.OFFER + offer["token"]["salt"]
    offer_path = path_of(game, reader)
    (mail,) = [t for t in _texts(game).values() if t.startswith(f"To: {SUB}")]
    assert f"http://127.0.0.1:{port}{offer_path}" in mail
    html_page = _page(server, game, reader)
    assert "ben's seat in this game is offered to you" in html_page and "as any onlooker sees it" in html_page
    fields = form_of(html_page, "claim")
    status, headers, _ = server.post(offer_path + "post", fields)
    assert status == 303
    new_ben = path_of(game, "ben")
    assert headers["location"] == f"../{new_ben.split('/')[2]}/"
    assert b'"kind":"handover"' in game.log()
    assert game.settings()["players"]["ben"]["address"] == SUB
    welcome = [t for t in _texts(game).values() if t.startswith(f"To: {SUB}") and "Your secret: " in t]
    assert welcome and "Welcome: you now play ben" in welcome[0]
    assert "took ben" in _answer(_page(server, game, "ben"))
    assert server.get(offer_path)[0] == 404 and server.get(old_ben)[0] == 404
    # The same claim posted again does nothing more.
    assert server.post(offer_path + "post", fields)[0] == 404
    assert game.log().count(b"handover") == 1


SUB = "sub@example.net"


def test_a_certificate_of_its_own(tmp_path, port, servers, certs):
    """With --certfile and --keyfile the server speaks TLS itself: a client
    that trusts the certificate gets the page and posts on it; a client
    speaking plain HTTP to it gets nothing."""
    game = served_game(tmp_path, port)
    set_page_url(game.path, port, "https")
    cert, key = certs.good
    trusting = ssl.create_default_context(cafile=str(certs.ca))
    server = servers([game.path], port, options=("--certfile", str(cert), "--keyfile", str(key)), tls=trusting)
    assert "https://127.0.0.1" in pages.link(GameDir(game.path), GameDir(game.path).load(), "ann")
    assert "played 1 decision(s) of ann" in _answer(_post(server, game, "ann", "move", game.legal("ann")[0]))
    plain = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        plain.request("GET", path_of(game, "ann"), headers={"Host": f"127.0.0.1:{port}"})
        answered = plain.getresponse().status
    except (http.client.HTTPException, OSError):
        answered = None
    finally:
        plain.close()
    assert answered in (None, 400)


def test_the_deadline_on_the_page_is_the_one_the_mail_gives(tmp_path, port, servers):
    """With a deadline for each decision, the page of each player whose
    decision is due shows it as their mail says it; once a player has
    decided, and on the game master's page, none is shown."""
    game = served_game(tmp_path, port, deadline=3600)
    server = servers([game.path], port)

    def said(player):
        address = {"ann": ANN, "ben": BEN}[player]
        return [
            line.removeprefix("Deadline: ").rstrip(".")
            for text in _texts(game).values()
            if address in text.splitlines()[0]
            for line in text.splitlines()
            if line.startswith("Deadline: ")
        ]

    def shown(reader):
        found = re.search(r'<p id="deadline">Deadline: (.*?)</p>', _page(server, game, reader))
        return html.unescape(found.group(1)) if found else None

    due = [p for p in ("ann", "ben") if game.legal(p)]
    assert due == ["ann", "ben"]  # in setup each chooses the face of a start chip
    for player in due:
        assert said(player) and shown(player) == said(player)[-1]
    assert shown(pages.MASTER) is None
    # ann decides by her page: her deadline is gone from it, ben's stays on his.
    _post(server, game, "ann", "move", game.legal("ann")[0])
    assert not game.legal("ann") and shown("ann") is None
    assert shown("ben") == said("ben")[-1]
