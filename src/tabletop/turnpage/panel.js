// The turn page's side: each form gets a name of its own when the page opens (the
// same post sent twice is run once), and a click on the board picks the decisions
// whose notation names the spots clicked (a spot, then another: both).
(function () {
  function fresh() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  Array.prototype.forEach.call(document.querySelectorAll("#turn form"), function (form) {
    form.querySelector("input[name=post]").value = fresh();
    form.addEventListener("submit", function (e) {
      var confirmText = form.getAttribute("data-confirm");
      if (confirmText && !window.confirm(confirmText)) { e.preventDefault(); return; }
      // The page comes back with the answer: the change it makes must not reload the page first.
      if (window.tabletopLive) window.tabletopLive.close();
      // Sent once: a second press of the button waits for the first answer.
      Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = true; });
      var chosen = e.submitter;
      if (chosen && chosen.name) {
        var kept = document.createElement("input");
        kept.type = "hidden"; kept.name = chosen.name; kept.value = chosen.value;
        form.appendChild(kept);
      }
    });
  });
  var select = document.getElementById("decision");
  var board = document.getElementById("board");
  var said = document.getElementById("clicked");
  if (!select || !board) return;
  var picked = [];
  function spotAt(x, y) {
    var found = null;
    (document.elementsFromPoint(x, y) || []).some(function (e) {
      var s = e.closest ? e.closest("[data-spot]") : null;
      if (s && board.contains(s)) { found = s.getAttribute("data-spot"); return true; }
      return false;
    });
    return found;
  }
  function filter() {
    var shown = 0, first = null;
    Array.prototype.forEach.call(select.options, function (o) {
      var spots = JSON.parse(o.getAttribute("data-spots") || "[]");
      var fits = picked.every(function (p) { return spots.indexOf(p) >= 0; });
      o.hidden = !fits;
      if (fits) { shown += 1; if (first === null) first = o; }
    });
    if (first !== null) select.value = first.value;
    said.textContent = picked.length ? "On the board: " + picked.join(", ") + " (" + shown + " decision" + (shown === 1 ? "" : "s") + ")" : "";
    Array.prototype.forEach.call(board.querySelectorAll("[data-spot]"), function (e) {
      e.classList.toggle("turn-picked", picked.indexOf(e.getAttribute("data-spot")) >= 0);
    });
  }
  board.addEventListener("click", function (e) {
    var name = spotAt(e.clientX, e.clientY);
    if (name === null) return;
    var at = picked.indexOf(name);
    if (at >= 0) picked.splice(at, 1); else picked.push(name);
    // No decision names every spot clicked: start again from this one.
    var any = Array.prototype.some.call(select.options, function (o) {
      var spots = JSON.parse(o.getAttribute("data-spots") || "[]");
      return picked.every(function (p) { return spots.indexOf(p) >= 0; });
    });
    if (!any) picked = at >= 0 ? [] : [name];
    filter();
  });
})();
