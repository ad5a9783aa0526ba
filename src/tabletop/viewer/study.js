// The study beside the viewer: notes and variations at each position, the analysis's
// marks and graph, and on the analysis board (served by tabletop study) the forms that
// write a note or play another decision. The viewer's own script steps through the game;
// this one follows it (the body's data-step) and draws a variation's positions itself.
(function () {
  "use strict";
  var study = JSON.parse(document.getElementById("study-data").textContent);
  var editable = study.editable;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  var framesOf = window.tabletop.framesOf;  // frames.js

  var variations = {};
  function take(data) {
    study = data;
    editable = data.editable;
    variations = {};
    study.variations.forEach(function (v) {
      v.frames = framesOf(v.pictures);
      variations[v.id] = v;
    });
  }
  take(study);

  function init() {
    var board = $("board");
    var position = $("position"), eventText = $("event"), statusText = $("status");
    // Where the study is: the main line (the viewer's step), or a variation's position.
    var at = { line: "main", seq: mainStep() };
    var saved = null; // the main board's picture and words, while a variation's are shown

    function mainStep() { return parseInt(document.body.getAttribute("data-step") || "0", 10); }
    function lineName(line) { return line === "main" ? "the game" : "variation " + line; }
    function eyes(as) { return as === null ? "" : " (as " + as + " saw it)"; }

    function problem(text) { $("study-problem").textContent = text || ""; }

    // The viewer stepped: the study follows, back on the main line.
    new MutationObserver(function () {
      saved = null;
      at = { line: "main", seq: mainStep() };
      render();
    }).observe(document.body, { attributes: true, attributeFilter: ["data-step"] });

    function goMain(seq) {
      if (saved !== null) {
        board.innerHTML = saved.board;
        position.textContent = saved.position;
        eventText.textContent = saved.event;
        statusText.textContent = saved.status;
        saved = null;
      }
      var item = document.querySelector('#events li[data-step="' + seq + '"]');
      if (mainStep() === seq || !item) {
        at = { line: "main", seq: seq };
        render();
        return;
      }
      item.click();
    }

    function go(line, seq) {
      if (line === "main") return goMain(seq);
      var v = variations[line];
      if (!v) return;
      if (seq <= v.seq) return go(v.line, v.seq);
      seq = Math.min(seq, v.seq + v.texts.length);
      if (saved === null) {
        saved = {
          board: board.innerHTML,
          position: position.textContent,
          event: eventText.textContent,
          status: statusText.textContent
        };
      }
      var k = seq - v.seq - 1;
      board.innerHTML = v.frames[k].map(function (i) {
        return v.pictures.lines[i];
      }).join("\n");
      position.textContent = "Variation " + v.id + " \u00B7 event " + seq + " (from event " + v.seq + " of " +
        lineName(v.line) + ")";
      eventText.textContent = v.texts[k];
      statusText.textContent = v.status[k];
      at = { line: line, seq: seq };
      render();
    }

    function render() {
      var inVariation = at.line !== "main";
      var v = inVariation ? variations[at.line] : null;
      document.body.classList.toggle("in-variation", inVariation);
      $("study-where").textContent = (at.seq === 0 ? "At the start of " : "After event " + at.seq + " of ") +
        lineName(at.line) + (v ? eyes(v.as) : "");
      $("study-back").hidden = !inVariation;
      notesHere();
      variationsHere(v);
      judgedHere();
      chosen = null;
      drawSpots();
      cursor();
      if (editable) listMoves();
    }

    function notesHere() {
      var list = $("study-notes");
      list.innerHTML = "";
      study.notes.forEach(function (n) {
        if (n.line !== at.line || n.seq !== at.seq) return;
        var li = el("li", "note");
        li.setAttribute("data-note", n.id);
        if (n.mark) {
          var mark = el("span", "note-mark", n.mark);
          mark.title = study.marks[n.mark];
          li.appendChild(mark);
        }
        if (n.comment) li.appendChild(el("span", "note-comment", n.comment));
        var spots = [];
        if (n.squares.length) spots.push("squares " + n.squares.join(", "));
        if (n.arrows.length) spots.push("arrows " + n.arrows.map(function (a) { return a[0] + "\u2192" + a[1]; }).join(", "));
        if (spots.length) li.appendChild(el("span", "note-spots", spots.join(" \u00B7 ")));
        if (n.as !== null) li.appendChild(el("span", "note-as", "as " + n.as));
        list.appendChild(li);
      });
    }

    function variationsHere(v) {
      var box = $("study-variations");
      box.innerHTML = "";
      var here = study.variations.filter(function (w) { return w.line === at.line && w.seq === at.seq; });
      if (here.length) {
        box.appendChild(el("h3", "", "Variations from here"));
        var list = el("ul", "variations");
        here.forEach(function (w) {
          var li = el("li");
          var button = el("button", "variation", w.id + ": " + w.texts.slice(0, 4).join(", ") +
            (w.texts.length > 4 ? ", \u2026" : ""));
          button.type = "button";
          button.setAttribute("data-variation", w.id);
          button.addEventListener("click", function () { go(w.id, w.seq + 1); });
          li.appendChild(button);
          if (w.as !== null) li.appendChild(el("span", "note-as", "as " + w.as));
          list.appendChild(li);
        });
        box.appendChild(list);
      }
      if (v) {
        box.appendChild(el("h3", "", "Variation " + v.id + eyes(v.as)));
        var moves = el("ol", "variation-line");
        moves.setAttribute("start", v.seq + 1);
        v.texts.forEach(function (text, k) {
          var li = el("li", v.origins[k] + (v.seq + k + 1 === at.seq ? " current" : ""), text);
          li.setAttribute("data-seq", v.seq + k + 1);
          li.addEventListener("click", function () { go(v.id, v.seq + k + 1); });
          moves.appendChild(li);
        });
        box.appendChild(moves);
      }
    }

    function judgedHere() {
      var box = $("study-judged");
      if (!box) return;
      var j = at.line === "main" ? study.judged[String(at.seq)] : null;
      if (!j) {
        box.textContent = "";
        return;
      }
      var words = j.player + " " + j.played + ": winning chance " + j.before.toFixed(2) + " \u2192 " +
        j.after.toFixed(2);
      if (j.mark) words += " (" + j.mark + ")";
      if (j.best !== null && j.best !== j.played) words += "; the bot prefers " + j.best;
      box.textContent = words;
      box.className = j.mark || "";
    }

    // -- squares and arrows on the board ---------------------------------------------
    // Drawn over pictures that name their squares or spots (data-spot, with the centre
    // as data-x and data-y): the notes' here, and on the analysis board the note being
    // written (its fields, filled by typing or by clicking on the board). Everything
    // drawn is in one group at the end of the picture that takes no clicks.
    var ns = "http://www.w3.org/2000/svg";
    var SHAPES = { rect: 1, polygon: 1, circle: 1, ellipse: 1, path: 1, polyline: 1 };
    function spotIn(svg, name) {
      var found = null;
      Array.prototype.some.call(svg.querySelectorAll("[data-spot]"), function (e) {
        if (e.getAttribute("data-spot") === name) found = e;
        return found !== null;
      });
      if (!found) return null;
      var box = found.getBBox();
      var x = parseFloat(found.getAttribute("data-x")), y = parseFloat(found.getAttribute("data-y"));
      if (isNaN(x) || isNaN(y)) {
        x = box.x + box.width / 2;
        y = box.y + box.height / 2;
      }
      return { element: found, x: x, y: y, size: Math.min(box.width, box.height) || 20 };
    }
    function made(tag, attributes) {
      var e = document.createElementNS(ns, tag);
      Object.keys(attributes).forEach(function (k) { e.setAttribute(k, attributes[k]); });
      return e;
    }
    // A square or spot highlighted: its own outline, a little inside it, so that two
    // highlighted neighbours stay apart.
    function highlight(group, s, name, cls) {
      var tag = s.element.tagName.toLowerCase();
      var shape;
      if (SHAPES[tag]) {
        shape = s.element.cloneNode(false);
        ["data-spot", "data-x", "data-y", "data-symbol", "id", "style"].forEach(function (a) {
          shape.removeAttribute(a);
        });
        var own = shape.getAttribute("transform");
        shape.setAttribute("transform", "translate(" + s.x + " " + s.y + ") scale(0.86) translate(" + -s.x + " " +
          -s.y + ")" + (own ? " " + own : ""));
      } else {
        var box = s.element.getBBox();
        shape = made("rect", { x: box.x + 3, y: box.y + 3, width: Math.max(0, box.width - 6),
          height: Math.max(0, box.height - 6) });
      }
      shape.setAttribute("class", "study-square " + cls);
      shape.setAttribute("data-square", name);
      group.appendChild(shape);
    }
    // An arrow from the centre of one spot to the centre of another, its head's tip a little
    // short of the far centre: on top of what stands there, and long enough to show a shaft
    // between two neighbours.
    function drawArrow(group, from, to, names, cls) {
      var dx = to.x - from.x, dy = to.y - from.y, length = Math.sqrt(dx * dx + dy * dy);
      if (length < 1) return;
      var ux = dx / length, uy = dy / length, size = Math.min(from.size, to.size);
      var width = Math.max(2, size * 0.14);
      var x1 = from.x + ux * size * 0.08, y1 = from.y + uy * size * 0.08;
      var x2 = to.x - ux * size * 0.12, y2 = to.y - uy * size * 0.12;
      var g = made("g", { "class": "study-arrow " + cls, "data-from": names[0], "data-to": names[1] });
      var ends = { x1: x1.toFixed(1), y1: y1.toFixed(1), x2: x2.toFixed(1), y2: y2.toFixed(1) };
      var edge = made("line", ends);
      edge.setAttribute("class", "study-arrow-edge");
      edge.setAttribute("stroke-width", (width + 3).toFixed(1));
      var shaft = made("line", ends);
      shaft.setAttribute("class", "study-arrow-shaft");
      shaft.setAttribute("stroke-width", width.toFixed(1));
      shaft.setAttribute("marker-end", "url(#study-head-" + cls + ")");
      g.appendChild(edge);
      g.appendChild(shaft);
      group.appendChild(g);
    }
    // The arrowheads, one for each kind of arrow: the tip at the line's end.
    function heads(group) {
      var defs = made("defs", {});
      ["noted", "draft"].forEach(function (cls) {
        var marker = made("marker", { id: "study-head-" + cls, "class": "study-head " + cls, viewBox: "0 0 10 10",
          refX: "10", refY: "5", markerWidth: "2.6", markerHeight: "2.6", orient: "auto" });
        marker.appendChild(made("path", { d: "M0,0 L10,5 L0,10 z" }));
        defs.appendChild(marker);
      });
      group.appendChild(defs);
    }

    // The note being written: its squares and arrows as its fields hold them.
    function draft() {
      var squares = $("note-squares"), arrows = $("note-arrows");
      if (!squares || !arrows) return { squares: [], arrows: [] };
      return {
        squares: squares.value.split(/[\s,]+/).filter(Boolean),
        arrows: arrows.value.split(/[\s,]+/).filter(Boolean).map(function (a) { return a.split("-"); })
      };
    }
    function keepDraft(d) {
      $("note-squares").value = d.squares.join(" ");
      $("note-arrows").value = d.arrows.map(function (a) { return a.join("-"); }).join(" ");
    }
    var chosen = null; // the spot clicked first, waiting for the arrow's other end

    function drawSpots() {
      var svg = board.querySelector("svg");
      var named = svg !== null && svg.querySelector("[data-spot]") !== null;
      if ($("study-hint")) $("study-hint").hidden = !named;
      if (!named) return;
      Array.prototype.forEach.call(svg.querySelectorAll(".study-drawn"), function (e) { e.remove(); });
      var group = made("g", { "class": "study-drawn", "data-line": at.line, "data-seq": at.seq });
      heads(group);
      function draw(squares, arrows, cls, note) {
        squares.forEach(function (name) {
          var s = spotIn(svg, name);
          if (s) highlight(group, s, name, cls);
        });
        arrows.forEach(function (a) {
          var from = spotIn(svg, a[0]), to = spotIn(svg, a[1]);
          if (from && to) drawArrow(group, from, to, a, cls);
        });
        if (note) Array.prototype.forEach.call(group.querySelectorAll("." + cls + ":not([data-note])"), function (e) {
          e.setAttribute("data-note", note);
        });
      }
      study.notes.forEach(function (n) {
        if (n.line === at.line && n.seq === at.seq) draw(n.squares, n.arrows, "noted", n.id);
      });
      if (editable) {
        var d = draft();
        draw(d.squares, d.arrows, "draft", null);
        if (chosen !== null) {
          var s = spotIn(svg, chosen);
          if (s) highlight(group, s, chosen, "chosen");
        }
      }
      svg.appendChild(group);
    }

    // On the analysis board, the note being written takes squares and arrows from clicks
    // on the board: a spot clicked, then another, is an arrow from the first to the
    // second (or a drag from one to the other); a spot clicked twice, or with Shift, is
    // highlighted. Doing it again takes it away. They are saved with the note.
    function spotAt(x, y) {
      var hit = null;
      (document.elementsFromPoint(x, y) || []).some(function (e) {
        if (e.hasAttribute && e.hasAttribute("data-spot") && board.contains(e)) hit = e.getAttribute("data-spot");
        return hit !== null;
      });
      return hit;
    }
    function toggle(list, item, same) {
      var i = -1;
      list.forEach(function (x, k) { if (same(x, item)) i = k; });
      if (i >= 0) list.splice(i, 1);
      else list.push(item);
    }
    function clicked(name, shift, pressed) {
      var d = draft();
      var arrowFrom = pressed !== null && pressed !== name ? pressed : (!shift && chosen !== null && chosen !== name ? chosen : null);
      if (arrowFrom !== null) {
        toggle(d.arrows, [arrowFrom, name], function (a, b) { return a[0] === b[0] && a[1] === b[1]; });
        chosen = null;
      } else if (shift || chosen === name) {
        toggle(d.squares, name, function (a, b) { return a === b; });
        chosen = null;
      } else {
        chosen = name;
      }
      keepDraft(d);
      drawSpots();
    }
    if (editable) {
      document.body.classList.add("study-editable");
      var pressed = null;
      board.addEventListener("pointerdown", function (e) {
        if (e.button !== 0) return;
        pressed = spotAt(e.clientX, e.clientY);
        if (pressed !== null) e.preventDefault(); // no text selected by a drag across the board
      });
      document.addEventListener("pointerup", function (e) {
        var from = pressed;
        pressed = null;
        if (from === null || e.button !== 0) return;
        var name = spotAt(e.clientX, e.clientY);
        if (name === null) return;
        clicked(name, e.shiftKey, from === name ? null : from);
      });
      document.addEventListener("pointercancel", function () { pressed = null; });
      ["note-squares", "note-arrows"].forEach(function (id) {
        $(id).addEventListener("input", drawSpots);
      });
      // Said where the note is written, when the board has spots to click.
      var hint = el("p", "study-hint",
        "On the board: click a square, then another, for an arrow; click one twice (or Shift-click) to highlight it.");
      hint.id = "study-hint";
      $("note-save").parentNode.insertBefore(hint, $("note-save"));
    }
    // The board redrawn by the viewer (another step, another player's view): drawn on again.
    new MutationObserver(function () { drawSpots(); }).observe(board, { childList: true });

    // The graph's cursor at the main line's event (a variation's: where it leaves the game).
    function cursor() {
      var line = $("graph-cursor");
      if (!line) return;
      var seq = at.seq, where = at.line;
      while (where !== "main" && variations[where]) {
        seq = variations[where].seq;
        where = variations[where].line;
      }
      var frame = document.querySelector("#graph rect");
      var last = Math.max(1, document.querySelectorAll("#events li[data-step]").length - 1);
      var left = parseFloat(frame.getAttribute("x")), width = parseFloat(frame.getAttribute("width"));
      var x = left + width * seq / last;
      line.setAttribute("x1", x);
      line.setAttribute("x2", x);
    }

    // Marks in the list of events: the notes' marks and the analysis's.
    function markEvents() {
      Array.prototype.forEach.call(document.querySelectorAll("#events .study-mark"), function (e) { e.remove(); });
      var signs = { inaccuracy: "?!", mistake: "?", blunder: "??" };
      function add(seq, text, cls, title) {
        var li = document.querySelector('#events li[data-step="' + seq + '"]');
        if (!li) return;
        var span = el("span", "study-mark " + cls, text);
        span.title = title;
        li.appendChild(span);
      }
      // One sign an event for its notes: their marks, or a pencil for notes without one.
      var noted = {};
      study.notes.forEach(function (n) {
        if (n.line !== "main") return;
        var marks = noted[n.seq] = noted[n.seq] || [];
        if (n.mark && marks.indexOf(n.mark) < 0) marks.push(n.mark);
      });
      Object.keys(noted).forEach(function (seq) {
        var marks = noted[seq];
        var words = marks.map(function (m) { return study.marks[m]; }).join(", ");
        add(parseInt(seq, 10), marks.join(" ") || "\u270E", "noted", words || "a note");
      });
      Object.keys(study.judged).forEach(function (seq) {
        var j = study.judged[seq];
        if (j.mark) add(parseInt(seq, 10), signs[j.mark], "judged " + j.mark, j.mark + " (analysis)");
      });
    }

    // -- the analysis board: writing -------------------------------------------------
    var listed = [];
    function send(what, body) {
      problem("");
      return fetch(what, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Study-Token": editable.token },
        body: JSON.stringify(body)
      }).then(function (answer) {
        return answer.json().then(function (data) {
          if (!answer.ok) throw new Error(data.error || ("the board answered " + answer.status));
          return data;
        });
      }).then(function (data) {
        take(data.study);
        markEvents();
        return data;
      }).catch(function (error) {
        problem(error.message);
        throw error;
      });
    }

    function listMoves() {
      var select = $("play-legal");
      var asked = { line: at.line, seq: at.seq };
      fetch("moves?line=" + encodeURIComponent(at.line) + "&seq=" + at.seq, {
        headers: { "X-Study-Token": editable.token }
      }).then(function (answer) { return answer.json(); }).then(function (data) {
        if (asked.line !== at.line || asked.seq !== at.seq) return; // moved on meanwhile
        select.innerHTML = "";
        listed = data.legal || [];
        listed.forEach(function (d, i) {
          var option = el("option", "", d.text);
          option.value = String(i);
          select.appendChild(option);
        });
        var none = !listed.length;
        select.disabled = none;
        $("play-chosen").disabled = none;
        $("play-written").disabled = none;
        $("play-form").setAttribute("data-why", data.why || data.error || "");
        if (none) {
          var option = el("option", "", data.why || data.error || "nothing to decide here");
          select.appendChild(option);
        }
      }).catch(function (error) { problem(error.message); });
    }

    if (editable) {
      $("note-form").addEventListener("submit", function (e) {
        e.preventDefault();
        var arrows = $("note-arrows").value.split(/[\s,]+/).filter(Boolean).map(function (a) { return a.split("-"); });
        send("note", {
          line: at.line,
          seq: at.seq,
          comment: $("note-comment").value,
          mark: $("note-mark").value || null,
          squares: $("note-squares").value.split(/[\s,]+/).filter(Boolean),
          arrows: arrows
        }).then(function () {
          $("note-comment").value = "";
          $("note-mark").value = "";
          $("note-squares").value = "";
          $("note-arrows").value = "";
          render();
        }, function () {});
      });
      function play(decision, player) {
        send("play", { line: at.line, seq: at.seq, decision: decision, player: player })
          .then(function (data) {
            $("play-text").value = "";
            go(data.at.line, data.at.seq);
          }, function () {});
      }
      $("play-chosen").addEventListener("click", function () {
        var chosen = listed[parseInt($("play-legal").value, 10)];
        if (chosen) play(chosen.notation, chosen.player);
      });
      $("play-form").addEventListener("submit", function (e) {
        e.preventDefault();
        var text = $("play-text").value.trim();
        if (text) play(text, null);
      });
    }

    $("study-main").addEventListener("click", function () {
      var seq = at.seq, where = at.line;
      while (where !== "main" && variations[where]) {
        seq = variations[where].seq;
        where = variations[where].line;
      }
      goMain(seq);
    });
    // Typing in the study's fields is not stepping through the game.
    $("study").addEventListener("keydown", function (e) {
      var tag = e.target.tagName;
      if (tag === "TEXTAREA" || tag === "INPUT" || tag === "SELECT") e.stopPropagation();
    });
    // In a variation, the arrow keys step through it (before the viewer steps the game).
    window.addEventListener("keydown", function (e) {
      if (at.line === "main" || e.altKey || e.ctrlKey || e.metaKey) return;
      var tag = e.target.tagName;
      if (tag === "TEXTAREA" || tag === "INPUT" || tag === "SELECT") return;
      var by = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      if (e.key === "Escape") $("study-main").click();
      else if (by) go(at.line, at.seq + by);
      else return;
      e.preventDefault();
      e.stopPropagation();
    }, true);
    // A point of the graph goes to its decision.
    Array.prototype.forEach.call(document.querySelectorAll("#graph circle[data-step]"), function (point) {
      point.addEventListener("click", function () { goMain(parseInt(point.getAttribute("data-step"), 10)); });
    });

    markEvents();
    render();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
