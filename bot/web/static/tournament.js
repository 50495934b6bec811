/* The tournament page's two small helps; without this script the page is whole.

   1. The standings sort by any column: each header becomes a button (ranked order is
      the # column's). Its state is kept across the refreshes below.
   2. A running tournament's page keeps itself current (see bot/web/pages/tournament.py
      for why polling): every data-every seconds, while the tab is shown, it asks the
      version route; when the version moved, it fetches the page and swaps in each
      [data-part] that changed. A page whose tournament is over has no data-poll: it
      never polls, and a page whose tournament ends stops. */
(function () {
  "use strict";
  var root = document.getElementById("tournament");
  if (!root) { return; }

  // -- sorting the standings --------------------------------------------------------
  var sorted = null;  // {column, descending} once a header was pressed

  // The page's decimal mark ("," in pt-BR): figures may be written either way.
  var decimal = (1.5).toLocaleString(document.documentElement.lang || "en").charAt(1);

  function figure(text) {
    if (decimal !== "." && text.indexOf(decimal) >= 0) {
      text = text.split(".").join("").replace(decimal, ".");
    } else {
      text = text.split(",").join("");
    }
    return parseFloat(text);
  }

  function key(cell, column) {
    var text = cell.textContent.trim();
    if (column === 1) { return text.toLowerCase(); }
    var record = /^(\d+)-(\d+)-(\d+)$/.exec(text);
    if (record) { return 3 * Number(record[1]) + Number(record[3]) - 0.001 * Number(record[2]); }
    var number = figure(text);
    return isNaN(number) ? -Infinity : number;
  }

  function sortBy(table, column, descending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[column], column);
      var y = key(b.cells[column], column);
      var order = x < y ? -1 : x > y ? 1 : 0;
      if (descending) { order = -order; }
      return order || Number(a.getAttribute("data-order")) - Number(b.getAttribute("data-order"));
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, n) {
      if (n === column) {
        th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      } else {
        th.removeAttribute("aria-sort");
      }
    });
  }

  function sortable() {
    var table = root.querySelector("table.standings");
    if (!table || !table.tHead || !table.tBodies.length) { return; }
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row, n) {
      row.setAttribute("data-order", String(n));
    });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () {
        // Ranked order (#) and names read up; figures read from the best down.
        var first = column > 1;
        var descending = sorted && sorted.column === column ? !sorted.descending : first;
        sorted = { column: column, descending: descending };
        sortBy(table, column, descending);
      });
    });
    if (sorted) { sortBy(table, sorted.column, sorted.descending); }
  }

  sortable();

  // -- following a running tournament -------------------------------------------------
  var pollUrl = root.getAttribute("data-poll");
  if (!pollUrl || !window.fetch || !window.DOMParser) { return; }
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
    var standings = false;
    fresh.querySelectorAll("[data-part]").forEach(function (part) {
      var old = root.querySelector('[data-part="' + part.getAttribute("data-part") + '"]');
      if (old && old.innerHTML !== part.innerHTML) {
        old.replaceWith(document.importNode(part, true));
        standings = standings || part.getAttribute("data-part") === "standings";
      }
    });
    if (standings) { sortable(); }
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
