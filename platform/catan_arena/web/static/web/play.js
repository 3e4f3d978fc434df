// A person's game against bots (web/play.py): polls the seat's view, draws the board,
// highlights the legal spots, offers exactly the legal actions the server posted, and
// posts the one chosen. No inline script or style: the page's CSP allows this file only.
"use strict";
(function () {
  const root = document.getElementById("play");
  if (!root) return;
  const SVG = "http://www.w3.org/2000/svg";
  const every = Number(root.dataset.every) || 1000;
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  const board = document.getElementById("play-board");
  const side = document.getElementById("play-side");
  const box = document.getElementById("play-choices");
  const clock = document.getElementById("play-clock");
  const status = document.getElementById("play-status");
  const error = document.getElementById("play-error");
  const DIALOGS = {
    discard: "Discard (one card at a time)",
    maritime_trade: "Trade with the bank",
    play_year_of_plenty: "Year of Plenty: take two",
    play_monopoly: "Monopoly: take every card of one resource",
    confirm_trade: "Trade with",
    counter_trade: "Counter-offer",
    propose_trade: "Offer a trade",
  };
  let have = "";
  let step = null;
  let choices = [];
  let deadline = null;
  let sending = false;
  let done = false;
  let sent = null; // the step answered last: until the worker moves on, it is not offered again

  function make(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function shape(spot) {
    let node;
    if (spot.kind === "node") {
      node = document.createElementNS(SVG, "circle");
      node.setAttribute("cx", spot.x);
      node.setAttribute("cy", spot.y);
      node.setAttribute("r", "10");
    } else if (spot.kind === "edge") {
      node = document.createElementNS(SVG, "line");
      for (const k of ["x1", "y1", "x2", "y2"]) node.setAttribute(k, spot[k]);
    } else {
      node = document.createElementNS(SVG, "polygon");
      node.setAttribute("points", spot.points);
    }
    node.setAttribute("class", "spot spot-" + spot.kind);
    node.setAttribute("data-kind", spot.kind);
    node.setAttribute("data-at", String(spot.at));
    return node;
  }

  function drawSpots() {
    const svg = board.querySelector("svg");
    if (!svg) return;
    const old = svg.querySelector("#play-spots");
    if (old) old.remove();
    if (step === null) return;
    const layer = document.createElementNS(SVG, "g");
    layer.setAttribute("id", "play-spots");
    const places = new Map();
    for (const c of choices) {
      if (!c.spot) continue;
      const key = c.spot.kind + ":" + c.spot.at;
      if (!places.has(key)) places.set(key, []);
      places.get(key).push(c);
    }
    for (const list of places.values()) {
      const node = shape(list[0].spot);
      const title = document.createElementNS(SVG, "title");
      title.textContent = list.map((c) => c.words).join("; ");
      node.append(title);
      node.addEventListener("click", () => pick(list, "Choose"));
      layer.append(node);
    }
    svg.append(layer);
  }

  function pick(list, title) {
    if (list.length === 1) {
      decide(list[0]);
      return;
    }
    const dialog = make("div", { class: "play-dialog", role: "dialog", "data-type": list[0].action.type });
    dialog.append(make("h3", {}, title));
    for (const c of list) {
      const b = make("button", { type: "button", "data-type": c.action.type }, c.words);
      b.addEventListener("click", () => decide(c));
      dialog.append(b);
    }
    const cancel = make("button", { type: "button", class: "cancel" }, "Cancel");
    cancel.addEventListener("click", () => dialog.remove());
    dialog.append(cancel);
    box.querySelectorAll(".play-dialog").forEach((d) => d.remove());
    box.append(dialog);
  }

  function drawChoices() {
    box.replaceChildren();
    box.dataset.step = step === null ? "" : String(step); // the decision offered, if any
    if (step === null) {
      if (!done) box.append(make("p", { class: "note" }, "The bots are playing…"));
      return;
    }
    const onBoard = choices.filter((c) => c.spot);
    if (onBoard.length) {
      box.append(make("p", { class: "note" }, "Your turn: click a highlighted spot on the board."));
    } else {
      box.append(make("p", { class: "note" }, "Your turn."));
    }
    const kinds = new Map();
    for (const c of choices) {
      if (c.spot) continue;
      if (!kinds.has(c.action.type)) kinds.set(c.action.type, []);
      kinds.get(c.action.type).push(c);
    }
    const row = make("div", { class: "play-buttons" });
    const devs = make("div", { class: "play-buttons play-devs" });
    devs.append(make("span", { class: "label" }, "Your development cards: "));
    for (const [kind, list] of kinds) {
      const title = DIALOGS[kind];
      const words = title ? title + "…" : list[0].words;
      const b = make("button", { type: "button", "data-type": kind }, words);
      b.addEventListener("click", () => (title ? pick(list, title) : pick(list, words)));
      if (title && list.length === 1) b.textContent = list[0].words;
      (kind.startsWith("play_") ? devs : row).append(b); // the playable cards on a row of their own
    }
    box.append(row);
    if (devs.childElementCount > 1) box.append(devs);
  }

  function showError(message) {
    error.textContent = message;
    error.hidden = !message;
  }

  async function decide(choice) {
    if (sending || step === null) return;
    sending = true;
    try {
      const answer = await fetch(root.dataset.decide, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ step: step, action: choice.action }),
        credentials: "same-origin",
      });
      const data = await answer.json();
      if (answer.ok) {
        showError("");
        sent = step;
        step = null;
        choices = [];
        drawChoices();
        drawSpots();
      } else {
        showError(data.error ? data.error.message : "refused");
      }
    } catch (e) {
      showError("could not reach the server: " + e);
    } finally {
      sending = false;
      poll();
    }
  }

  function tick() {
    if (deadline === null || step === null) {
      clock.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    clock.textContent = left + " s left for this decision";
    clock.classList.toggle("urgent", left <= 10);
  }

  function apply(data) {
    status.textContent = data.note;
    if (data.board !== undefined) {
      board.innerHTML = data.board;
      side.innerHTML = data.side;
      have = data.key;
    }
    const posted = data.step === sent ? null : data.step;
    const changed = posted !== step;
    if (changed && !sending) {
      step = posted;
      choices = data.choices || [];
      deadline = data.seconds_left === null ? null : Date.now() + data.seconds_left * 1000;
      drawChoices();
    }
    if (data.board !== undefined || changed) drawSpots();
    if (data.done) {
      done = true;
      step = null;
      drawChoices();
      drawSpots();
      const end = make("p", { class: "play-over", id: "play-over" }, "The game is over: ");
      end.append(make("a", { href: data.match_url }, "the match page"));
      if (data.replay_url) {
        end.append(" · ");
        end.append(make("a", { href: data.replay_url }, "the replay"));
      }
      box.replaceChildren(end);
    }
  }

  let waiting = false;
  async function poll() {
    if (waiting || done) return;
    waiting = true;
    try {
      const url = root.dataset.state + "?have=" + encodeURIComponent(have);
      const answer = await fetch(url, { credentials: "same-origin" });
      if (answer.ok) apply(await answer.json());
    } catch (e) {
      status.textContent = "Reconnecting…";
    } finally {
      waiting = false;
    }
  }

  poll();
  setInterval(poll, every);
  setInterval(tick, 250);
})();
