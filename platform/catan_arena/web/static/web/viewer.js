// The replay viewer in the browser. The server draws the step in the URL (the first
// paint, and the whole viewer without JavaScript); this script then loads the game's
// data once (replay_document.py: only what this page's viewer may see) and draws every
// step in place: no page load, no scrolling, the URL follows the step without adding
// history entries. The board's markup comes from the server's own templates and
// coordinates (board_svg.py), so both draw the same thing.
// On a running match's page (#live, live.py) the same viewer follows the match: it asks
// for the steps after the ones it has about once a second, appends them, stays on the
// newest unless the spectator stepped back ("N new steps · jump to live"), and when the
// match is over shows the finished replay at its end, winner banner and all.
(function () {
  "use strict";
  if (!window.fetch) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var DIE = "⚀⚁⚂⚃⚄⚅";
  var RECENT = 8;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, name) { return values[name]; });
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function getJSON(url) {
    return fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok) { throw new Error(response.status); }
      return response.json();
    });
  }

  // The viewer drawn in `root` (#replay); `live`: following a running match.
  function Viewer(root, live) {
    var onMatchPage = root.hasAttribute("data-live");  // the URL is the match's: left alone
    var viewQuery = root.getAttribute("data-view-query") || "";
    var doc = null, step = Number(root.getAttribute("data-step")) || 0, timer = null;
    var boards = [];  // per step: the pieces' markup key (the step of its last change)
    var piecesAt = [];  // per step with a change: its pieces' markup
    var acc = null;  // the pieces placed so far, while preparing
    var drawn = { pieces: -1, robber: -1, last: null, rolled: -1 };
    var timings = [];
    window.replayViewer = { timings: timings, show: function (k) { show(k); } };

    // Every step's pieces from step `from` on, from each step's placements (roads first,
    // then buildings).
    function prepare(from) {
      var g = doc.geometry, t = g.templates;
      if (!from) { acc = { edges: [], nodes: [], kinds: [], key: 0 }; boards = []; piecesAt = []; }
      for (var k = from; k < doc.frames.length; k++) {
        var frame = doc.frames[k];
        if (frame.p.length || k === 0) {
          frame.p.forEach(function (put) {
            if (put[0] === 0) { acc.edges[put[1]] = put[2]; } else { acc.nodes[put[1]] = put[2]; acc.kinds[put[1]] = put[0]; }
          });
          var parts = [];
          acc.edges.forEach(function (seat, e) {
            if (seat !== undefined) {
              var v = Object.assign({ seat: String(seat), colour: g.colours[seat] }, g.edges[e]);
              parts.push(fill(t.road, v));
            }
          });
          acc.nodes.forEach(function (seat, n) {
            if (seat !== undefined) {
              var v = Object.assign({ seat: String(seat), colour: g.colours[seat] }, g.nodes[n]);
              parts.push(fill(acc.kinds[n] === 2 ? t.city : t.settlement, v));
            }
          });
          acc.key = k;
          piecesAt[k] = parts.join("");
        }
        boards[k] = acc.key;
      }
    }

    function nextOf(list, k) {
      for (var i = 0; i < list.length; i++) { if (list[i] > k) { return list[i]; } }
      return null;
    }

    function link(id, target) {
      var a = $(id);
      if (!a) { return; }
      if (target === null) { a.hidden = true; return; }
      a.hidden = false;
      a.setAttribute("href", "?step=" + target + viewQuery);
    }

    function drawPlayers(frame) {
      var sections = root.querySelectorAll(".player[data-seat]");
      sections.forEach(function (section) {
        var seat = Number(section.getAttribute("data-seat"));
        var s = frame.s[seat], hand = frame.h[seat];
        var stats = "<strong>" + s[0] + "</strong> point" + (s[0] === 1 ? "" : "s") + " · " +
          plural(s[1], "card") + " · " + plural(s[2], "development card") + " · " +
          plural(s[3], "knight") + " played" + (s[4] ? " · Longest Road" : "") +
          (s[5] ? " · Largest Army" : "");
        var p = section.querySelector(".stats");
        if (p.innerHTML !== stats) { p.innerHTML = stats; }
        var h = section.querySelector(".hand");
        if (hand) {
          h.textContent = doc.resources.map(function (name, r) { return name + " " + hand[r]; }).join(", ");
          h.classList.remove("hidden");
        }
      });
    }

    function drawEvents(k) {
      var items = [];
      for (var i = k; i > Math.max(0, k - RECENT); i--) {
        items.push('<li><a href="?step=' + i + viewQuery + '">' + i + "</a><span></span></li>");
      }
      var list = $("events");
      if (!items.length) {
        list.innerHTML = '<li><span class="k">0</span><span>The board is set.</span></li>';
        return;
      }
      list.innerHTML = items.join("");
      var spans = list.querySelectorAll("li > span");
      for (var j = 0; j < spans.length; j++) { spans[j].textContent = doc.frames[k - j].w; }
    }

    function line(xs, ys, n) {
      var out = new Array(n);
      for (var i = 0; i < n; i++) { out[i] = xs[i] + "," + ys[i]; }
      return out.join(" ");
    }

    // The points lines are drawn whole once and clipped at the step (one attribute a
    // step); the luck lines change only with a roll.
    var chart = null;
    function prepareCharts() {
      var c = doc.charts, svg = root.querySelector("svg.chart-points");
      if (!c || !svg) { return; }
      var ns = "http://www.w3.org/2000/svg";
      var clip = document.createElementNS(ns, "clipPath"), rect = document.createElementNS(ns, "rect");
      clip.setAttribute("id", "points-so-far");
      rect.setAttribute("x", "0"); rect.setAttribute("y", "0"); rect.setAttribute("height", "10000");
      clip.appendChild(rect);
      svg.appendChild(clip);
      svg.querySelectorAll(".seat-line").forEach(function (el) {
        var seat = Number(el.getAttribute("data-seat"));
        el.setAttribute("points", line(c.x_points, c.points[seat], c.x_points.length));
        el.setAttribute("clip-path", "url(#points-so-far)");
      });
      chart = {
        rect: rect, rolls: -1,
        markers: Array.prototype.slice.call(root.querySelectorAll(".charts .marker")),
        luck: Array.prototype.slice.call(root.querySelectorAll(".chart-luck .seat-line")),
        items: Array.prototype.slice.call(root.querySelectorAll("#luck li"))
      };
    }

    function drawCharts(k) {
      var c = doc.charts;
      if (!c || !chart) { return; }
      var x = (c.marker.left + c.marker.width * k / Math.max(1, c.steps)).toFixed(1);
      chart.markers.forEach(function (m) { m.setAttribute("x1", x); m.setAttribute("x2", x); });
      chart.rect.setAttribute("width", String(Number(x) + 0.05));
      var rolls = 0;
      while (rolls < c.rolls.length && c.rolls[rolls] <= k) { rolls++; }
      if (rolls === chart.rolls) { return; }
      chart.rolls = rolls;
      chart.luck.forEach(function (el) {
        var seat = Number(el.getAttribute("data-seat"));
        var ys = el.classList.contains("expected") ? c.expected[seat] : c.got[seat];
        el.setAttribute("points", line(c.x_luck, ys, rolls));
      });
      chart.items.forEach(function (li, seat) {
        var spans = li.querySelectorAll("span");
        spans[0].textContent = rolls ? c.got_values[seat][rolls - 1] : 0;
        spans[1].textContent = rolls ? c.expected_values[seat][rolls - 1] : "0.0";
      });
    }

    // The URL follows the step (replaced, never pushed); while playing at most every
    // URL_EVERY ms (browsers refuse more than about 200 history updates in 10 s).
    var URL_EVERY = 250, urlTimer = null, urlAt = 0;
    function followUrl() {
      if (urlTimer !== null || onMatchPage) { return; }
      var wait = timer === null ? 0 : urlAt + URL_EVERY - performance.now();
      if (wait <= 0) { writeUrl(); return; }
      urlTimer = setTimeout(function () { urlTimer = null; writeUrl(); }, wait);
    }
    function writeUrl() {
      urlAt = performance.now();
      var search = "?step=" + step + viewQuery;
      if (location.search !== search) { history.replaceState(history.state, "", search); }
    }

    function show(k) {
      var started = performance.now();
      k = Math.max(0, Math.min(doc.steps, k));
      step = k;
      var frame = doc.frames[k], g = doc.geometry, t = g.templates;
      if (drawn.pieces !== boards[k]) {
        $("pieces").innerHTML = piecesAt[boards[k]];
        drawn.pieces = boards[k];
      }
      if (drawn.robber !== frame.r) {
        $("robber").innerHTML = fill(t.robber, g.hexes[frame.r]);
        drawn.robber = frame.r;
      }
      var last = frame.l ? fill(t["last-" + frame.l[0]], g[g.places[frame.l[0]]][frame.l[1]]) : "";
      if (drawn.last !== last) { $("last-move").innerHTML = last; drawn.last = last; }
      if (drawn.rolled !== frame.n) {
        root.querySelectorAll("svg.board [data-rolled]").forEach(function (el) { el.removeAttribute("data-rolled"); });
        if (frame.n) {
          root.querySelectorAll('svg.board [data-number="' + frame.n + '"]').forEach(function (el) { el.setAttribute("data-rolled", ""); });
        }
        drawn.rolled = frame.n;
      }
      $("step-title").textContent = "step " + k + " of " + doc.steps;
      $("event").textContent = frame.w;
      var dice = $("dice");
      if (frame.d) {
        dice.innerHTML = 'Dice: <span class="faces"></span>';
        dice.firstElementChild.textContent = DIE[frame.d[0] - 1] + " " + DIE[frame.d[1] - 1] + " = " + (frame.d[0] + frame.d[1]);
      } else {
        dice.textContent = "No roll yet.";
      }
      drawPlayers(frame);
      drawEvents(k);
      drawCharts(k);
      link("first", k ? 0 : null);
      link("back", k ? k - 1 : null);
      link("forward", k < doc.steps ? k + 1 : null);
      link("last", k < doc.steps ? doc.steps : null);
      link("next-turn", nextOf(doc.jumps.turn, k));
      link("next-seven", nextOf(doc.jumps.seven, k));
      link("next-build", nextOf(doc.jumps.build, k));
      var ending = $("ending");
      if (ending) { ending.hidden = live || k !== doc.steps; }
      var toLive = $("to-live");
      if (toLive) {
        toLive.hidden = !live || k >= doc.steps;
        toLive.textContent = plural(doc.steps - k, "new step") + " · jump to live";
      }
      $("play").disabled = k >= doc.steps;
      scrub.value = String(k);
      root.querySelectorAll(".views a").forEach(function (a) {
        var url = new URL(a.href);
        url.searchParams.set("step", k);
        a.setAttribute("href", url.search);
      });
      var position = $("position");
      if (position) {
        var target = new URL(position.href);
        target.searchParams.set("step", k);
        position.setAttribute("href", target.pathname + target.search);
        root.querySelectorAll(".at-step").forEach(function (el) { el.textContent = k; });
      }
      followUrl();
      void root.offsetHeight;  // the layout is part of the drawing's time
      timings.push(performance.now() - started);
    }

    var play = $("play"), speed = $("speed");
    var scrub = root.querySelector(".scrub input[type=range]");

    var due = 0;  // when the next step is due: steps keep time even when one draws late
    function stop() {
      if (timer !== null) { clearTimeout(timer); timer = null; }
      if (urlTimer !== null) { clearTimeout(urlTimer); urlTimer = null; }
      if (doc && !onMatchPage) { writeUrl(); }
      play.textContent = "▶ play";
    }
    function schedule() {
      due += Number(speed.value);
      timer = setTimeout(tick, Math.max(0, due - performance.now()));
    }
    function tick() {
      if (step >= doc.steps) { stop(); return; }
      show(step + 1);
      if (step >= doc.steps) { stop(); return; }
      schedule();
    }
    function start() {
      if (step >= doc.steps) { return; }
      play.textContent = "⏸ pause";
      due = performance.now();
      schedule();
    }

    function ready(data) {
      doc = data;
      prepare(0);
      prepareCharts();
      if (!live) {  // the server drew this step: only what changes is drawn again
        drawCharts(step);  // the whole lines, clipped at this step
        drawn.pieces = boards[step];
        drawn.robber = doc.frames[step].r;
        drawn.rolled = doc.frames[step].n;
      }
      play.disabled = step >= doc.steps;
      root.classList.add("live-viewer");
      root.querySelectorAll(".live-controls").forEach(function (el) { el.hidden = false; });
      var toLive = $("to-live");
      if (toLive) { toLive.addEventListener("click", function () { stop(); show(doc.steps); }); }
      play.addEventListener("click", function () { if (timer === null) { start(); } else { stop(); } });
      speed.addEventListener("change", function () {
        if (timer !== null) { clearTimeout(timer); due = performance.now(); schedule(); }
      });
      root.addEventListener("click", function (event) {
        var a = event.target.closest("a");
        if (!a || a.closest(".views") || a.id === "position" || a.hasAttribute("download")) { return; }
        var m = /^\?step=(\d+)/.exec(a.getAttribute("href") || "");
        if (!m || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
        event.preventDefault();
        stop();
        show(Number(m[1]));
      });
      scrub.addEventListener("input", function () { stop(); show(Number(scrub.value)); });
      scrub.form.addEventListener("submit", function (event) { event.preventDefault(); });
      document.addEventListener("keydown", function (event) {
        if (event.target.closest("input, select, textarea") && event.key !== " ") { return; }
        var keys = { ArrowRight: "forward", ArrowLeft: "back", Home: "first", End: "last", n: "next-turn" };
        if (event.key === " ") { event.preventDefault(); play.click(); return; }
        var a = keys[event.key] && $(keys[event.key]);
        if (a && !a.hidden) {
          event.preventDefault();
          stop();
          show(Number(/\?step=(\d+)/.exec(a.getAttribute("href"))[1]));
        }
      });
      if (live) { show(doc.steps); }
      root.setAttribute("data-ready", "");
    }

    // New steps of a live match (`data.frames` after `data.since` steps): drawn at once
    // if the spectator is on the newest step and not playing; false if they do not follow
    // the steps held (then the whole document is asked for again).
    function extend(data) {
      if (data.since !== doc.steps || data.frames.length !== data.steps - data.since) { return false; }
      var following = step === doc.steps && timer === null;
      var from = doc.frames.length;
      doc.frames = doc.frames.concat(data.frames);
      doc.steps = data.steps;
      Object.keys(doc.jumps).forEach(function (name) { doc.jumps[name] = doc.jumps[name].concat(data.jumps[name]); });
      prepare(from);
      scrub.max = String(doc.steps);
      if (timer === null) { show(following ? doc.steps : step); }
      return true;
    }

    // Another document in place of this one (`live`: following; else at its last step).
    function replace(data, following) {
      stop();
      live = following;
      doc = data;
      prepare(0);
      drawn = { pieces: -1, robber: -1, last: null, rolled: -1 };
      scrub.max = String(doc.steps);
      show(doc.steps);
    }

    return {
      ready: ready, extend: extend, replace: replace,
      steps: function () { return doc ? doc.steps : 0; }
    };
  }

  // A running match's page: ask for new steps every `data-every` ms until it is over.
  function follow(box) {
    var src = box.getAttribute("data-src"), every = Number(box.getAttribute("data-every")) || 1000;
    var viewer = null, attempt = null, whole = false;
    function ask() {
      var since = viewer && !whole ? viewer.steps() : 0;
      var url = src + "?since=" + since + (attempt === null ? "" : "&attempt=" + attempt) +
        ($("replay") ? "" : "&shell=1");
      getJSON(url).then(update).then(
        function (more) { if (more) { setTimeout(ask, every); } },
        function () { setTimeout(ask, 3 * every); }  // the server is busy or away: later
      );
    }
    function update(data) {
      if (data.done) { finish(data); return false; }
      attempt = data.attempt;
      var note = $("live-note");
      if (note && data.note) { note.lastChild.textContent = data.note; }
      if (!data.frames) { return true; }
      if (data.shell && !$("replay")) { box.innerHTML = data.shell; }
      var root = $("replay");
      if (!root) { return true; }
      whole = false;
      if (!viewer) { viewer = Viewer(root, true); viewer.ready(data); }
      else if (data.since === 0) { viewer.replace(data, true); }
      else if (!viewer.extend(data)) { whole = true; }
      return true;
    }
    function finish(data) {
      var head = $("match-head");
      if (head && data.head) { head.innerHTML = data.head; }
      box.classList.add("over");
      var status = $("live-status");
      if (status) { status.textContent = "Finished"; }
      var root = $("replay");
      if (!root || !data.replay) {
        if (!viewer) {  // nothing of the play was shown: the head says it all
          box.innerHTML = '<p class="live" id="live-note"></p>';
          $("live-note").textContent = "This match is " + data.status + ".";
        }
        return;
      }
      getJSON(data.replay).then(function (doc) {
        var slot = $("ending-slot");
        if (slot && data.ending) { slot.innerHTML = data.ending; }
        if (!viewer) { viewer = Viewer(root, true); viewer.ready(doc); }
        viewer.replace(doc, false);
      });
    }
    ask();
  }

  var liveBox = $("live"), replayRoot = $("replay");
  if (liveBox) {
    follow(liveBox);
  } else if (replayRoot) {
    getJSON(replayRoot.getAttribute("data-src"))
      .then(Viewer(replayRoot, false).ready)
      .catch(function () { /* the server-drawn pages still work, one step per page */ });
  }
})();
