// The card gallery's search as you type. The page works without this: the form is a
// plain GET. Here, a pause in typing fetches the results of the new search (the same
// address with part=results) and swaps them in, so the results are the server's own:
// one query language, in one place.
"use strict";

(function () {
  const form = document.getElementById("card-search");
  const input = document.getElementById("q");
  const results = document.getElementById("gallery-results");
  if (!form || !input || !results || !window.fetch || !window.DOMParser) {
    return;
  }
  const WAIT_MS = 250;
  let timer = 0;
  let asked = 0;
  let controller = null;
  let last = input.value;

  function addressFor(text) {
    const url = new URL(form.action, window.location.href);
    if (text.trim() !== "") {
      url.searchParams.set("q", text);
    }
    return url;
  }

  function swap(html) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    const body = fresh.getElementById("results-body");
    const count = fresh.getElementById("result-count");
    const current = document.getElementById("results-body");
    if (!body || !count || !current) {
      return false;
    }
    current.replaceWith(document.importNode(body, true));
    // The count keeps its element (it is the live region) and takes the new words.
    document.getElementById("result-count").textContent = count.textContent;
    const site = document.title.lastIndexOf(" · ");
    document.title = body.dataset.title + (site >= 0 ? document.title.slice(site) : "");
    return true;
  }

  async function search(text) {
    const url = addressFor(text);
    const part = new URL(url);
    part.searchParams.set("part", "results");
    const mine = ++asked;
    if (controller) {
      controller.abort();
    }
    controller = new AbortController();
    results.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(part, {
        signal: controller.signal,
        credentials: "same-origin",
        headers: { "Accept": "text/html" },
      });
      const html = await response.text();
      if (mine !== asked) {
        return;  // a later search has been asked for since
      }
      // A search that does not read is a 200 here too: the results say why.
      if (response.status !== 200 || !swap(html)) {
        window.location.assign(url);
        return;
      }
      window.history.replaceState(null, "", url);
    } catch (error) {
      if (error.name !== "AbortError") {
        window.location.assign(url);
      }
    } finally {
      if (mine === asked) {
        results.removeAttribute("aria-busy");
      }
    }
  }

  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      if (input.value !== last) {
        last = input.value;
        search(last);
      }
    }, WAIT_MS);
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    window.clearTimeout(timer);
    last = input.value;
    search(last);
  });
}());
