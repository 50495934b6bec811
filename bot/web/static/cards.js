// The card gallery's search as you type. The page works without this: the form is a
// plain GET. Here, a pause in typing fetches the same page for the new search and swaps
// its results in, so the results are the server's own (one query language, one place).
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
    document.title = fresh.title;
    return true;
  }

  async function search(text) {
    const url = addressFor(text);
    const mine = ++asked;
    if (controller) {
      controller.abort();
    }
    controller = new AbortController();
    results.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(url, {
        signal: controller.signal,
        credentials: "same-origin",
        headers: { "Accept": "text/html" },
      });
      const html = await response.text();
      if (mine !== asked) {
        return;  // a later search has been asked for since
      }
      // 400 is a search that did not read: the page says why, in the results.
      if ((response.status !== 200 && response.status !== 400) || !swap(html)) {
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
