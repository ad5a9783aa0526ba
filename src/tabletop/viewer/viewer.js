// The viewer: rebuilds each picture from the line table, and steps through them.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var last = data.origins.length - 1;

  var framesOf = window.tabletop.framesOf;  // frames.js

  var board = document.getElementById("board");
  var slider = document.getElementById("slider");
  var position = document.getElementById("position");
  var eventText = document.getElementById("event");
  var statusText = document.getElementById("status");
  var scores = document.querySelector("#scores tbody");
  var list = document.getElementById("events");
  var items = document.querySelectorAll("#events li[data-step]");
  var hideChance = document.getElementById("hide-chance");
  var who = document.getElementById("who");
  var autoplay = document.getElementById("autoplay");
  var current = -1;
  var view, frames;

  var head = document.createElement("tr");
  var heads = data.players.map(function (p, i) {
    var th = document.createElement("th");
    th.setAttribute("data-seat", i);
    head.appendChild(th);
    return th;
  });
  // A player's name in the score table, after their seat's mark (the page's key says which is whose).
  function heading(i, marked) {
    heads[i].innerHTML = data.seats[i] || "";
    heads[i].appendChild(document.createTextNode((marked ? " \u25B8 " : " ") + data.players[i]));
  }
  var row = document.createElement("tr");
  var turnRow = document.createElement("tr");
  turnRow.className = "turn-row";
  var turnCells = data.players.map(function () {
    var td = document.createElement("td");
    turnRow.appendChild(td);
    return td;
  });
  scores.appendChild(head);
  if (data.points) scores.appendChild(row); // a game won without points has no row of scores
  scores.appendChild(turnRow);
  var turnLabel = document.getElementById("turn-label");
  // The key starts folded on a phone, under the board; open beside it on a wider screen.
  var key = document.getElementById("legend");
  if (key && window.matchMedia && window.matchMedia("(max-width: 640px)").matches) key.open = false;
  var symbols = document.querySelectorAll("#symbols li[data-symbol]");

  var log = document.getElementById("log");
  // Bring the current event into the list's view without scrolling the page.
  function scrollTo(item) {
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < log.scrollTop) log.scrollTop = top - 4;
    else if (bottom > log.scrollTop + log.clientHeight) log.scrollTop = bottom - log.clientHeight + 4;
  }

  function draw(step) {
    board.innerHTML = frames[step].map(function (i) { return view.pictures.lines[i]; }).join("\n");
    position.textContent = step === 0 ? "Start" : "Event " + step + " of " + last;
    eventText.textContent = step === 0 ? "before the first event" : view.texts[step];
    statusText.textContent = view.status[step];
    turnLabel.textContent = data.turns[step] > 0 ? "Turn " + data.turns[step] + " \u00B7 " : step > 0 ? "Setup \u00B7 " : "";
    row.innerHTML = "";
    var acting = view.acting[step];
    data.players.forEach(function (player, i) {
      var td = document.createElement("td");
      td.textContent = view.scores[step][i];
      row.appendChild(td);
      var marked = acting.indexOf(data.players[i]) >= 0;
      heads[i].className = marked ? "acting" : "";
      heading(i, marked);
      var words = [];
      if (view.turn[step] === player) words.push("turn");
      if (view.due[step] === player) words.push(data.chance + " due");
      turnCells[i].textContent = words.join(" \u00B7 ");
      turnCells[i].className = words.length ? "at-turn" : "";
    });
    // The key lists the symbols that the board shows now.
    Array.prototype.forEach.call(symbols, function (li) {
      li.hidden = board.querySelector('[data-symbol="' + li.getAttribute("data-symbol") + '"]') === null;
    });
  }

  function show(step) {
    step = Math.max(0, Math.min(last, step));
    if (step === current) return;
    if (current >= 0) {
      items[current].classList.remove("current");
      items[current].setAttribute("aria-selected", "false");
    }
    current = step;
    draw(step);
    slider.value = step;
    items[step].classList.add("current");
    items[step].setAttribute("aria-selected", "true");
    list.setAttribute("aria-activedescendant", items[step].id);
    scrollTo(items[step]);
    if (history.replaceState) history.replaceState(null, "", "#" + step);
    document.body.setAttribute("data-step", step);
  }

  // A step shown in the list: chance events are skipped while they are hidden.
  function visible(step) { return !(hideChance.checked && data.origins[step] === "chance"); }
  function seek(from, by, wanted) {
    for (var s = from + by; s >= 0 && s <= last; s += by) if (visible(s) && wanted(s)) return s;
    return from;
  }
  function any() { return true; }
  function step(by) { show(seek(current, by, any)); }
  function turnStart(t) {
    for (var s = 0; s <= last; s++) if (data.turns[s] === t && visible(s)) return s;
    return 0;
  }
  // Page Down: the next turn's first event. Page Up: this turn's first, or the turn before's when there.
  function turn(by) {
    var here = data.turns[current];
    if (by > 0) return show(seek(current, 1, function (s) { return data.turns[s] !== here; }));
    var start = turnStart(here);
    show(start < current ? start : turnStart(Math.max(0, here - 1)));
  }
  function nextOf() {
    var player = who.value;
    show(seek(current, 1, function (s) { return data.actors[s] === player; }));
  }
  var timer = null;
  function play(on) {
    if (timer !== null) clearInterval(timer);
    timer = null;
    if (on && current === last) show(0);
    if (on) timer = setInterval(function () { if (current >= last) play(false); else step(1); }, 700);
    autoplay.setAttribute("aria-pressed", on ? "true" : "false");
    autoplay.textContent = on ? "pause" : "play";
    autoplay.classList.toggle("on", on);
  }

  function useView(index) {
    view = data.views[index];
    frames = framesOf(view.pictures);
    for (var s = 1; s <= last; s++) items[s].lastChild.textContent = " " + view.texts[s];
    if (current >= 0) draw(current);
  }
  useView(0);

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { step(-1); });
  document.getElementById("next").addEventListener("click", function () { step(1); });
  document.getElementById("last").addEventListener("click", function () { show(last); });
  document.getElementById("prev-turn").addEventListener("click", function () { turn(-1); });
  document.getElementById("next-turn").addEventListener("click", function () { turn(1); });
  document.getElementById("next-of").addEventListener("click", nextOf);
  autoplay.addEventListener("click", function () { play(timer === null); });
  document.getElementById("perspective").addEventListener("change", function (e) {
    useView(parseInt(e.target.value, 10));
  });
  hideChance.addEventListener("change", function () {
    document.body.classList.toggle("hide-chance", hideChance.checked);
    if (!visible(current)) step(-1);
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  list.addEventListener("click", function (e) {
    var li = e.target.closest("li[data-step]");
    if (li) show(parseInt(li.getAttribute("data-step"), 10));
  });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return; // the slider steps by itself
    // Keys typed into a field are the field's (a note, a turn page's press).
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    var keys = {
      ArrowRight: function () { step(1); }, ArrowDown: function () { step(1); },
      ArrowLeft: function () { step(-1); }, ArrowUp: function () { step(-1); },
      PageDown: function () { turn(1); }, PageUp: function () { turn(-1); },
      Home: function () { show(0); }, End: function () { show(last); },
      n: nextOf, N: nextOf,
      p: function () { play(timer === null); }, P: function () { play(timer === null); }
    };
    var action = keys[e.key];
    if (action === undefined) return;
    e.preventDefault();
    action();
  });
  // Served by tabletop watch: reload when the log changes. A page at the last event follows
  // the game (it reloads at the new last one); one stepped back stays where it is until End.
  if (data.live !== null && window.EventSource) {
    // Kept where a page's own script may close it (a turn page sending a form reloads by its answer).
    window.tabletopLive = new EventSource("events?since=" + encodeURIComponent(data.live));
    window.tabletopLive.onmessage = function () {
      if (current === last) history.replaceState(null, "", "#end");
      location.reload();
    };
  }
  var hash = (location.hash || "").slice(1);
  var asked = hash === "end" ? last : parseInt(hash, 10);
  // A game watched as it is played opens at its latest event; a page from disk, at the start.
  show(isNaN(asked) ? (data.live !== null ? last : 0) : asked);
})();
