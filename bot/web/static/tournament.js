/* Keeps a running tournament's page current (see bot/web/pages/tournament.py for why
   polling): every data-every seconds, while the tab is shown, ask the version route;
   when the version moved, fetch the page and swap in each [data-part] that changed.
   A page whose tournament is over has no data-poll, and then this stops. Without this
   script the page is whole; a reload shows the news. */
(function () {
  "use strict";
  var root = document.getElementById("tournament");
  if (!root || !window.fetch || !window.DOMParser) { return; }
  var pollUrl = root.getAttribute("data-poll");
  if (!pollUrl) { return; }
  var every = 1000 * Math.max(5, parseInt(root.getAttribute("data-every"), 10) || 15);
  var version = root.getAttribute("data-version");
  var etag = null;
  var timer = null;
  var failures = 0;

  function later(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("tournament");
    if (!fresh) { return; }
    // Every part's wrapper is always on the page (empty when it has nothing), so a
    // part is only ever replaced in place.
    fresh.querySelectorAll("[data-part]").forEach(function (part) {
      var old = root.querySelector('[data-part="' + part.getAttribute("data-part") + '"]');
      if (old && old.innerHTML !== part.innerHTML) {
        old.replaceWith(document.importNode(part, true));
      }
    });
    version = fresh.getAttribute("data-version");
    root.setAttribute("data-version", version);
    pollUrl = fresh.getAttribute("data-poll");
    if (!pollUrl) { root.removeAttribute("data-poll"); }
  }

  function poll() {
    if (!pollUrl) { return; }
    if (document.hidden) { return; }  // visibilitychange polls again when shown
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(pollUrl, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (answer) {
        if (answer.status === 304) { return null; }
        if (!answer.ok) { throw new Error(String(answer.status)); }
        etag = answer.headers.get("ETag");
        return answer.json();
      })
      .then(function (news) {
        if (!news || news.version === version) { return null; }
        return fetch(window.location.pathname, { cache: "no-cache", credentials: "same-origin" })
          .then(function (page) {
            if (!page.ok) { throw new Error(String(page.status)); }
            return page.text();
          })
          .then(swap);
      })
      .then(function () {
        failures = 0;
        if (pollUrl) { later(every); }
      })
      .catch(function () {
        failures = Math.min(failures + 1, 6);
        later(every * Math.pow(2, failures));  // back off while the server is away
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && pollUrl) { later(0); }
  });
  later(every);
}());
