// Live updates without a reload: the floor swaps in a changed tile, the table and alert pages
// fetch their live part again; the recall steps through a round one input at a time.
(function () {
  "use strict";

  function refresh(element, change) {
    if (!element || (element.dataset.table && element.dataset.table !== change.table_id)) return;
    if (element.contains(document.activeElement) && document.activeElement.value) return; // a note being typed
    fetch(element.dataset.src, { credentials: "same-origin" })
      .then(function (answer) {
        if (answer.redirected) { window.location.reload(); return null; } // the session ended: to the login
        return answer.ok ? answer.text() : null;
      })
      .then(function (html) { if (html !== null) element.innerHTML = html; });
  }

  function countLinks(floor) {
    ["live", "behind", "silent"].forEach(function (link) {
      var shown = document.querySelector(".count-" + link);
      if (shown) shown.textContent = floor.querySelectorAll(".tile.link-" + link).length;
    });
    var tables = document.querySelector(".count-tables");
    if (tables) tables.textContent = floor.querySelectorAll(".tile").length;
  }

  function swapTile(floor, change) {
    if (!floor || !change.html) return;
    var template = document.createElement("template");
    template.innerHTML = change.html.trim();
    var tile = template.content.firstElementChild;
    var old = document.getElementById(tile.id); // "tile-ROOM-ID" where rooms meet
    if (old) old.replaceWith(tile); else floor.appendChild(tile);
    countLinks(floor);
  }

  function onChange(message) {
    var change = JSON.parse(message.data);
    swapTile(document.getElementById("floor"), change);
    refresh(document.getElementById("live"), change);
    if (change.kind === "alert") refresh(document.getElementById("alert-list"), change);
  }

  function lost(shown) {
    var banner = document.getElementById("offline");
    if (banner) banner.hidden = !shown;
  }

  // A stream the server ended (restart, network, session over) is not retried by the browser:
  // say so on the page, and try again every 5 s; a session that ended goes to the login page.
  function listen() {
    var events = new EventSource("/api/events");
    events.addEventListener("change", onChange);
    events.addEventListener("open", function () { lost(false); });
    events.addEventListener("error", function () {
      lost(true);
      if (events.readyState !== EventSource.CLOSED) return;
      setTimeout(function () {
        fetch("/api/tables", { credentials: "same-origin" }).then(function (answer) {
          if (answer.status === 401) window.location.href = "/login?next=" + encodeURIComponent(window.location.pathname + window.location.search);
          else listen();
        }, function () { listen(); });
      }, 5000);
    });
  }

  if (window.EventSource) listen();

  document.querySelectorAll(".stepper").forEach(function (stepper) {
    var steps = Array.prototype.slice.call(stepper.querySelectorAll(".step"));
    var position = stepper.querySelector(".position");
    var previous = stepper.querySelector(".prev");
    var next = stepper.querySelector(".next");
    var at = 0;
    function show(step) {
      at = Math.max(0, Math.min(step, steps.length - 1));
      steps.forEach(function (item, index) { item.hidden = index !== at; });
      position.textContent = steps.length ? "Input " + (at + 1) + " of " + steps.length : "No inputs";
      previous.disabled = at === 0;
      next.disabled = at >= steps.length - 1;
    }
    previous.addEventListener("click", function () { show(at - 1); });
    next.addEventListener("click", function () { show(at + 1); });
    stepper.querySelector(".all").addEventListener("click", function () {
      steps.forEach(function (item) { item.hidden = false; });
      position.textContent = "All " + steps.length + " inputs";
    });
    document.addEventListener("keydown", function (key) {
      if (key.target.tagName === "INPUT") return;
      if (key.key === "ArrowLeft") show(at - 1);
      if (key.key === "ArrowRight") show(at + 1);
    });
    show(0);
  });
})();
