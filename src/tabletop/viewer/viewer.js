// The viewer: rebuilds each picture from the line table, and steps through them.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var last = data.texts.length - 1;
  var lines = data.pictures.lines;
  // Every picture as line numbers: the first as stored, each later one by its edits.
  var frames = [data.pictures.first];
  data.pictures.edits.forEach(function (edits) {
    var frame = frames[frames.length - 1].slice();
    for (var k = edits.length - 1; k >= 0; k--) {
      var e = edits[k];
      Array.prototype.splice.apply(frame, [e[0], e[1] - e[0]].concat(e[2]));
    }
    frames.push(frame);
  });
  var board = document.getElementById("board");
  var slider = document.getElementById("slider");
  var position = document.getElementById("position");
  var eventText = document.getElementById("event");
  var statusText = document.getElementById("status");
  var scores = document.querySelector("#scores tbody");
  var items = document.querySelectorAll("#events li");
  var current = -1;

  var head = document.createElement("tr");
  data.players.forEach(function (p) {
    var th = document.createElement("th");
    th.textContent = p;
    head.appendChild(th);
  });
  var row = document.createElement("tr");
  scores.appendChild(head);
  scores.appendChild(row);

  var log = document.getElementById("log");
  // Bring the current event into the list's view without scrolling the page.
  function scrollTo(item) {
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < log.scrollTop) log.scrollTop = top - 4;
    else if (bottom > log.scrollTop + log.clientHeight) log.scrollTop = bottom - log.clientHeight + 4;
  }

  function show(step) {
    step = Math.max(0, Math.min(last, step));
    if (step === current) return;
    if (current >= 0) items[current].classList.remove("current");
    current = step;
    board.innerHTML = frames[step].map(function (i) { return lines[i]; }).join("\n");
    position.textContent = step === 0 ? "Start" : "Event " + step + " of " + last;
    eventText.textContent = step === 0 ? "before the first event" : data.texts[step];
    statusText.textContent = data.status[step];
    row.innerHTML = "";
    data.scores[step].forEach(function (s) {
      var td = document.createElement("td");
      td.textContent = s;
      row.appendChild(td);
    });
    slider.value = step;
    items[step].classList.add("current");
    scrollTo(items[step]);
    if (history.replaceState) history.replaceState(null, "", "#" + step);
    document.body.setAttribute("data-step", step);
  }

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { show(last); });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("events").addEventListener("click", function (e) {
    var li = e.target.closest("li");
    if (li) show(parseInt(li.getAttribute("data-step"), 10));
  });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return; // the slider steps by itself
    var to = { ArrowRight: current + 1, ArrowDown: current + 1, ArrowLeft: current - 1, ArrowUp: current - 1,
               Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  // Served by tabletop watch: reload when the log changes, following the game if at its end.
  if (data.live !== null && window.EventSource) {
    new EventSource("events?since=" + encodeURIComponent(data.live)).onmessage = function () {
      if (current === last) history.replaceState(null, "", "#end");
      location.reload();
    };
  }
  var hash = (location.hash || "").slice(1);
  var asked = hash === "end" ? last : parseInt(hash, 10);
  show(isNaN(asked) ? 0 : asked);
})();
