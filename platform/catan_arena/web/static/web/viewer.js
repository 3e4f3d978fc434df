// The replay viewer's keys and play/pause: the page itself is drawn on the server and
// the step lives in the URL, so every key just follows one of the page's links.
(function () {
  "use strict";
  var params = new URLSearchParams(location.search);
  function go(id, extra) {
    var link = document.getElementById(id);
    if (!link) { return false; }
    var url = new URL(link.href);
    Object.keys(extra || {}).forEach(function (k) { url.searchParams.set(k, extra[k]); });
    location.href = url.toString();
    return true;
  }
  var play = document.getElementById("play");
  var speed = document.getElementById("speed");
  if (params.get("speed")) { speed.value = params.get("speed"); }
  var timer = null;
  if (params.get("play") === "1") {
    play.textContent = "⏸ pause";
    timer = setTimeout(function () {
      if (!go("forward", { play: "1", speed: speed.value })) { play.textContent = "▶ play"; }
    }, Number(speed.value));
  }
  play.addEventListener("click", function () {
    if (params.get("play") === "1") {
      clearTimeout(timer);  // a pending step must not win over the pause
      params.delete("play");
      location.search = params.toString();
    } else {
      go("forward", { play: "1", speed: speed.value });
    }
  });
  document.addEventListener("click", function (event) {  // any link stops the playing
    if (event.target.closest("a")) { clearTimeout(timer); }
  });
  var scrub = document.querySelector(".scrub input[type=range]");
  scrub.addEventListener("change", function () { scrub.form.submit(); });
  document.addEventListener("keydown", function (event) {
    var keys = { ArrowRight: "forward", ArrowLeft: "back", Home: "first", End: "last", n: "next-turn" };
    if (event.key === " ") { event.preventDefault(); play.click(); return; }
    if (keys[event.key] && go(keys[event.key])) { event.preventDefault(); }
  });
})();
