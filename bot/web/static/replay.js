// The replay page without reloads: the buttons and the keys (← →, Home, End) fetch
// the step's page and swap in its table and narration; the address follows
// (history.replaceState), so a step can still be shared. Without this script the
// links and the form do the same by loading pages.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root || !window.fetch || !window.DOMParser || !window.history.replaceState) {
    return;
  }
  var last = Number(root.dataset.last);
  var base = root.dataset.base;
  var step = Number(root.dataset.step);
  var asking = null;
  var buttons = root.querySelector(".replay-buttons");
  var status = document.getElementById("replay-status");

  function target(name) {
    return {first: 0, previous: step - 1, next: step + 1, last: last}[name];
  }

  function mark() {
    buttons.querySelectorAll("button[data-go]").forEach(function (button) {
      var to = target(button.dataset.go);
      var off = to < 0 || to > last || to === step;
      button.setAttribute("aria-disabled", off ? "true" : "false");
    });
  }

  function swap(doc, selector) {
    var fresh = doc.querySelector(selector);
    var old = document.querySelector(selector);
    if (fresh && old) {
      old.replaceWith(fresh);
    }
  }

  function go(to) {
    if (!(to >= 0 && to <= last) || to === step) {
      return;
    }
    if (asking) {
      asking.abort();
    }
    var controller = new AbortController();
    asking = controller;
    var address = base + "?step=" + to;
    fetch(address, {signal: controller.signal, headers: {Accept: "text/html"}})
      .then(function (response) {
        if (!response.ok) {
          throw new Error("step " + to + ": " + response.status);
        }
        return response.text();
      })
      .then(function (text) {
        var doc = new DOMParser().parseFromString(text, "text/html");
        var links = root.querySelector(".replay-links");
        var wasInLinks = links && links.contains(document.activeElement);
        ["#replay-heading", "#replay-step", ".replay-links"].forEach(
          function (selector) { swap(doc, selector); });
        root.querySelector("input[name=step]").value = String(to);
        if (wasInLinks) {  // the link followed is gone: the step's own link takes the focus
          root.querySelector(".replay-links [aria-current=step]").focus();
        }
        document.title = doc.title;
        step = to;
        root.dataset.step = String(to);
        window.history.replaceState(null, "", address);
        var now = document.querySelectorAll("#replay-step .replay-narration li.now");
        status.textContent = document.getElementById("replay-heading").textContent + ". " +
          Array.prototype.map.call(now, function (li) { return li.textContent; }).join(" ");
        mark();
        if (to < last) {
          new Image().src = base + "/steps/" + (to + 1) + ".png";
        }
      })
      .catch(function (error) {
        if (error.name !== "AbortError") {
          window.location.assign(address);  // the plain page says what went wrong
        }
      });
  }

  buttons.hidden = false;
  root.classList.add("scripted");  // the buttons stand in for the links that reload
  root.addEventListener("click", function (event) {
    var button = event.target.closest(".replay-buttons button[data-go]");
    if (button) {
      go(target(button.dataset.go));
      return;
    }
    var link = event.target.closest(".replay-links a[href]");
    if (link && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      var to = new URL(link.href).searchParams.get("step");
      if (to !== null) {
        event.preventDefault();
        go(Number(to));
      }
    }
  });
  root.addEventListener("submit", function (event) {
    var input = event.target.querySelector("input[name=step]");
    if (input && input.validity.valid) {
      event.preventDefault();
      go(Number(input.value));
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey ||
        event.target.closest("input, textarea, select")) {
      return;
    }
    var to = {ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last}[event.key];
    if (to !== undefined) {
      event.preventDefault();
      go(to);
    }
  });
  mark();
})();
