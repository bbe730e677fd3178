// Following a table live: polling with ETags, the connection banner, taps made while offline or
// answered with an error, the screen kept awake, and copying the TV link. Event delegation, so htmx swaps keep it working.
(function () {
  "use strict";

  // Polls are the elements marked data-poll (hx-get every second); taps are every other request.
  const isPoll = (elt) => elt.hasAttribute("data-poll");
  // Who sent a request: a tap's button is often swapped away before its answer's events, which
  // htmx then fires on the closest element left (the poll's), so detail.elt cannot tell.
  const sender = (event) => (event.detail.requestConfig || event.detail).elt;
  // A tap changes the table (a POST); a GET that is no poll (the checker's preview) is neither.
  const isTap = (event) => event.detail.requestConfig.verb !== "get";
  let tapInFlight = false;
  let taps = 0; // taps sent so far: a poll sent before the latest one may answer with older news
  let waiting = null; // the tap made while offline: { elt, send }
  let dropped = false; // a tap was on its way when the connection dropped: its fate is unknown

  // The connection banner, created once; a polite live region so screen readers hear it.
  let banner = null;
  let keepUntil = 0; // a message that must stay a while is not hidden by the next poll's answer
  function say(text, kind, keepFor = 0) {
    if (!banner) {
      banner = document.createElement("p");
      banner.className = "connection";
      banner.id = "connection";
      banner.setAttribute("role", "status");
      banner.setAttribute("aria-live", "polite");
      document.body.prepend(banner);
    }
    banner.textContent = text;
    banner.classList.toggle("sending", kind === "sending");
    banner.hidden = false;
    keepUntil = Date.now() + keepFor;
    if (keepFor) setTimeout(quiet, keepFor);
  }
  function quiet() {
    if (banner && Date.now() >= keepUntil) banner.hidden = true;
  }

  // While a tap waits for the connection, no other tap can be made: each says why.
  function holdButtons(hold) {
    document.querySelectorAll("main form button:not([type=button])").forEach((button) => {
      if (hold && !button.disabled) {
        button.disabled = true;
        button.dataset.heldOffline = "";
        button.setAttribute("aria-describedby", "connection");
      } else if (!hold && button.hasAttribute("data-held-offline")) {
        button.disabled = false;
        button.removeAttribute("data-held-offline");
        button.removeAttribute("aria-describedby");
      }
    });
  }

  const OFFLINE = "No connection. Taps wait here and are sent once it is back.";
  const OFFLINE_TV = "No connection. The scores update again once it is back.";
  const offline = () => (document.querySelector("main form button") ? OFFLINE : OFFLINE_TV);
  const WAITING = "No connection. Your tap waits and is sent once the connection is back.";
  const DROPPED =
    "The connection dropped while your tap was on its way. The table updates when it is back: " +
    "check it, and tap again if your tap is not there.";

  window.addEventListener("offline", () => say(waiting ? WAITING : offline()));
  window.addEventListener("online", () => {
    quiet();
    if (!waiting) return;
    const { elt, send } = waiting;
    waiting = null;
    // Buttons come back first: a disabled button's value (whose discard) would not be sent.
    holdButtons(false);
    elt.classList.remove("waiting");
    if (!document.body.contains(elt)) {
      say("The table changed while you were offline: your tap was not sent. Tap again.", "", 8e3);
      return;
    }
    send(true);
  });

  document.addEventListener("htmx:confirm", (event) => {
    const { elt, verb } = event.detail;
    if (isPoll(elt)) {
      // No poll while offline, hidden, or while a tap is on its way: its answer is fresher.
      if (!navigator.onLine || document.hidden || tapInFlight || waiting) event.preventDefault();
      return;
    }
    if (verb === "get") return;
    if (!navigator.onLine) {
      // Sent once when the connection is back; the table's version check refuses it then if
      // somebody else changed the table meanwhile, and the player is told.
      event.preventDefault();
      if (waiting) return;
      waiting = { elt, send: event.detail.issueRequest };
      holdButtons(true);
      elt.classList.add("waiting");
      say(WAITING);
    }
  });

  // A poll asks "has it changed since this version?"; the server answers 304 when not.
  document.addEventListener("htmx:configRequest", (event) => {
    const poll = sender(event);
    if (!isPoll(poll)) return;
    const shown = poll.querySelector("[data-etag]");
    if (shown) event.detail.headers["If-None-Match"] = shown.dataset.etag;
  });

  let sendingTimer = null;
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!isTap(event)) {
      event.detail.requestConfig.tapsBefore = taps;
      return;
    }
    tapInFlight = true;
    taps += 1;
    // Buttons wait while a tap is on its way (hx-disabled-elt); a slow one says so.
    sendingTimer = setTimeout(() => say("Sending your tap…", "sending"), 400);
  });

  document.addEventListener("htmx:beforeSwap", (event) => {
    const poll = sender(event);
    if (!isPoll(poll)) return;
    const status = event.detail.xhr.status;
    if (status === 404 || status === 403) {
      // The table or its TV link is gone: the page says so itself.
      window.location.reload();
      return;
    }
    // Not swapped: the table as it was before a tap sent meanwhile (the tap's own answer is
    // newer), nor the very table already shown.
    const shown = poll.querySelector("[data-etag]");
    const unchanged = shown && event.detail.xhr.getResponseHeader("ETag") === shown.dataset.etag;
    if (tapInFlight || event.detail.requestConfig.tapsBefore !== taps || unchanged) {
      event.detail.shouldSwap = false;
    }
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    if (isTap(event)) {
      tapInFlight = false;
      clearTimeout(sendingTimer);
    }
    if (!event.detail.xhr || event.detail.xhr.status === 0) return; // a send error or an abort
    if (dropped) {
      dropped = false;
      say("Connected again. Check the table, and tap again if your tap is not there.", "", 6e3);
    } else if (navigator.onLine && !waiting) {
      quiet();
    }
  });

  document.addEventListener("htmx:sendError", (event) => {
    if (!isTap(event)) {
      if (!dropped) say(navigator.onLine ? "Cannot reach the server: trying again…" : offline());
      return;
    }
    // Never sent again by itself: it may have arrived, and then it would count twice.
    dropped = true;
    say(DROPPED);
  });

  // An answer that is an error (4xx or 5xx, never swapped in, see base.html's responseHandling)
  // says so in the banner: otherwise the button would simply come back as if nothing happened.
  // The app's writes are atomic, so an error means nothing was saved.
  function failure(status, tap) {
    const what = tap ? "Your tap was not saved" : "That could not be loaded";
    if (status >= 500) return `${what}: the server had a problem. Try again in a moment.`;
    if (status === 429) return `${what}: too many attempts. Wait a moment, then try again.`;
    if (status === 404) return `${what}: it is no longer there. Reload the page.`;
    return `${what}: the server refused it. Reload the page and try again.`;
  }
  document.addEventListener("htmx:responseError", (event) => {
    const status = event.detail.xhr.status;
    if (isPoll(sender(event))) {
      // 404 and 403 reload the page (beforeSwap); a server in trouble is tried again each second.
      if (status >= 500) say("The server had a problem: trying again…", "", 2e3);
      return;
    }
    say(failure(status, isTap(event)), "", 10e3);
  });

  // Keep the screen awake while a table is open (where the browser has the Wake Lock API).
  async function keepAwake() {
    const root = document.documentElement;
    if (!document.querySelector("[data-wake]") || document.visibilityState !== "visible") return;
    if (!("wakeLock" in navigator)) {
      root.dataset.awake = "unsupported";
      return;
    }
    try {
      const lock = await navigator.wakeLock.request("screen");
      root.dataset.awake = "yes";
      lock.addEventListener("release", () => (root.dataset.awake = "no"));
    } catch {
      root.dataset.awake = "refused"; // battery saver, or no permission: the table still works
    }
  }
  // The browser releases the lock when the page is hidden; ask again when it is back.
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("DOMContentLoaded", () => {
    keepAwake();
    if (!navigator.onLine) say(offline());
  });

  // The TV link's Copy button: only with JavaScript (without, the address can be selected).
  function showCopyButtons() {
    if (!navigator.clipboard) return;
    document.querySelectorAll("[data-copy]").forEach((button) => (button.hidden = false));
  }
  document.addEventListener("DOMContentLoaded", showCopyButtons);
  document.addEventListener("htmx:afterSettle", showCopyButtons);
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const input = document.getElementById(button.dataset.copy);
    try {
      await navigator.clipboard.writeText(input.value);
      button.textContent = "Copied";
    } catch {
      input.select(); // no clipboard permission: selected, ready to copy by hand
    }
  });
})();
