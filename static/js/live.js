// Following a table live: polling with ETags, the connection banner (base.html's #connection),
// taps made offline or answered with an error, and the screen kept awake.

// Polls are the elements marked data-poll (hx-get every second); taps are every other request.
const isPoll = (elt) => elt.hasAttribute("data-poll");
// Who sent a request: a tap's button is often swapped away before its answer's events, which
// htmx then fires on the closest element left (the poll's), so detail.elt cannot tell.
const sender = (event) => (event.detail.requestConfig || event.detail).elt;
// A tap changes the table (a POST); a GET that is no poll (the checker's preview) is neither.
const isTap = (event) => event.detail.requestConfig.verb !== "get";
let tapInFlight = false;
let taps = 0; // taps sent so far: a poll sent before the latest one may answer with older news
// A write made offline that is no round-screen tap (the checker's, a photo, the TV link): it
// waits alone, buttons held, and is sent once back. Round-screen taps queue (below).
let waiting = null; // { elt, send }
let dropped = false; // a tap was on its way when the connection dropped: its fate is unknown

const banner = document.getElementById("connection");
let keepUntil = 0; // a message that must stay a while is not hidden by the next poll's answer
function say(text, kind, keepFor = 0) {
  banner.textContent = text;
  banner.classList.toggle("sending", kind === "sending");
  banner.hidden = false;
  keepUntil = Date.now() + keepFor;
  if (keepFor) setTimeout(quiet, keepFor);
}
function quiet() {
  if (Date.now() >= keepUntil) banner.hidden = true;
}

// While a write waits that the screen cannot show, or taps that waited are being sent, no
// other tap can be made: each button says why.
function holdButtons(hold) {
  const buttons = hold ? "main form button:not([type=button]):not([disabled])" : "[data-held-offline]";
  document.querySelectorAll(buttons).forEach((button) => {
    button.disabled = hold;
    button.toggleAttribute("data-held-offline", hold);
    if (hold) button.setAttribute("aria-describedby", "connection");
    else button.removeAttribute("aria-describedby");
  });
}

const OFFLINE = translated("No connection. Taps wait here and are sent once it is back.");
const OFFLINE_TV = translated("No connection. The scores update again once it is back.");
const offline = () => (document.querySelector("main form button") ? OFFLINE : OFFLINE_TV);
const waitingFor = (count) =>
  translatedCount(
    count,
    "No connection. Your tap waits and is sent once the connection is back.",
    "No connection. Your {count} taps wait and are sent, in order, once the connection is back.",
  );
const WAITING = waitingFor(1);
const DROPPED = translated(
  "The connection dropped while your tap was on its way. The table updates when it is back: " +
    "check it, and tap again if your tap is not there.",
);

window.addEventListener("offline", () => {
  const queued = queueHere().length;
  say(queued ? waitingFor(queued) : waiting ? WAITING : offline());
});
window.addEventListener("online", () => {
  quiet();
  flush();
  if (!waiting) return;
  const { elt, send } = waiting;
  waiting = null;
  // Buttons come back first: a disabled button's value (whose discard) would not be sent.
  holdButtons(false);
  elt.classList.remove("waiting");
  if (!document.body.contains(elt)) {
    say(translated("The table changed while you were offline: your tap was not sent. Tap again."), "", 8e3);
    return;
  }
  send(true);
});

document.addEventListener("htmx:confirm", (event) => {
  const { elt, verb } = event.detail;
  if (isPoll(elt)) {
    // No poll while offline, hidden, or while a tap is on its way or waits: its answer is
    // fresher, and the screen shows the taps that wait.
    const busy = tapInFlight || waiting || flushing || queueHere().length;
    if (!navigator.onLine || document.hidden || busy) event.preventDefault();
    return;
  }
  if (verb === "get") return;
  const kind = tapKind(elt, event.detail.path);
  if (kind && (!navigator.onLine || flushing || queueHere().length)) {
    // Behind the taps that wait, in order, whatever the connection.
    event.preventDefault();
    if (!flushing) queueTap(event.detail, kind);
    return;
  }
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
  sendingTimer = setTimeout(() => say(translatedCount(1, "Sending your tap…", "Sending your {count} taps…"), "sending"), 400);
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
  const status = event.detail.xhr?.status || 0;
  if ((status === 200 || status === 409) && event.detail.target?.id === "table") shown(event.detail.xhr.responseText);
  if (!status) return; // a send error or an abort
  if (dropped) {
    dropped = false;
    say(translated("Connected again. Check the table, and tap again if your tap is not there."), "", 6e3);
  } else if (navigator.onLine && !waiting) {
    quiet();
  }
});

document.addEventListener("htmx:sendError", (event) => {
  if (!isTap(event)) {
    if (!dropped) say(navigator.onLine ? translated("Cannot reach the server: trying again…") : offline());
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
  let why = "the server refused it. Reload the page and try again.";
  if (status >= 500) why = "the server had a problem. Try again in a moment.";
  else if (status === 429) why = "too many attempts. Wait a moment, then try again.";
  else if (status === 404) why = "it is no longer there. Reload the page.";
  const what = tap ? "Your tap was not saved: {why}" : "That could not be loaded: {why}";
  return translated(what, { why: translated(why) });
}
document.addEventListener("htmx:responseError", (event) => {
  const status = event.detail.xhr.status;
  if (isPoll(sender(event))) {
    // 404 and 403 reload the page (beforeSwap); a server in trouble is tried again each second.
    if (status >= 500) say(translated("The server had a problem: trying again…"), "", 2e3);
    return;
  }
  say(failure(status, isTap(event)), "", 10e3);
});

// Keep the screen awake while a table is open (where the browser has the Wake Lock API).
async function keepAwake() {
  const root = document.documentElement;
  if (!document.querySelector("[data-wake]") || document.visibilityState !== "visible") return;
  try {
    const lock = await navigator.wakeLock.request("screen");
    root.dataset.awake = "yes";
    lock.addEventListener("release", () => (root.dataset.awake = "no"));
  } catch {
    // No Wake Lock API, or refused (battery saver, no permission): the table still works.
    root.dataset.awake = "wakeLock" in navigator ? "refused" : "unsupported";
  }
}
// The browser releases the lock when the page is hidden; ask again when it is back. A tablet
// that slept may have missed the connection coming back: the taps that wait go now.
document.addEventListener("visibilitychange", keepAwake);
document.addEventListener("visibilitychange", () => document.hidden || flush());
document.addEventListener("DOMContentLoaded", () => {
  keepAwake();
  if (!navigator.onLine) say(offline());
  tableLoaded();
});

// ---- The queue of taps made with no connection ----
// One a table, kept by tablet.js's keptHere under "sk:queue:<table id>": { app, format, table,
// user, items }, each item { id, kind, url, version, label, state, fields, shows } in the order
// the taps were made. What a tap is called and how it shows are its element's data-label and
// data-shows, from the action's declaration on the server (scorekeeper/actions.py); its kind is
// its URL's last word. No action is known here by name.
// Each carries the version of the screen it was made on, as the forms do: the version shown
// for the first, one more for each after it, as each tap saved moves it on by one. So the
// server refuses one made on a table somebody else changed meanwhile (409, naming what
// changed), and the rest are then dropped with a note, never sent against a table the player
// did not see. Each goes with its id (X-Tap-Id): sent again after its answer was lost (the
// connection, or a reload), the server says it was saved the first time; it never counts twice.
const QUEUE_FORMAT = 1;
const KIND = /^[a-z-]{1,40}$/;
const FIELD = /^(seat|discarder|rummy|(cards|points)_[0-9]{1,19})$/;
const TAP_ID = /^[0-9A-Za-z-]{16,64}$/;
const MOST_TAPS = 200;
// The service worker's cache of the table each screen showed last, for this session only.
const TABLES = `sk-tables-v2:${document.documentElement.dataset.session || ""}`;
let flushing = false;
let retryTimer = null;
let pristine = null; // the table as the server sent it, before the taps that wait were shown
let queueHeld = false; // the taps that wait could not all be shown: no other can be made

const here = window.tableScreen; // the table on the screen (tablet.js), or null
const shownVersion = () => Number(document.getElementById("table").dataset.version);

// A tap that can wait: its element is labelled for the queue and posts to this table.
function tapKind(elt, path) {
  const where = here();
  if (!where || !path || !elt.hasAttribute("data-label")) return null;
  const match = /^\/tables\/([0-9]+)\/([a-z-]+)\/$/.exec(new URL(path, location.href).pathname);
  return match && Number(match[1]) === where.table && KIND.test(match[2]) ? match[2] : null;
}

const text = (value, most = 200) => typeof value === "string" && value.length <= most;
function itemFine(item, index, items, table) {
  return Boolean(
    item && typeof item === "object" && text(item.id) && TAP_ID.test(item.id) &&
    KIND.test(item.kind) && item.url === `/tables/${table}/${item.kind}/` &&
    (item.shows === undefined || text(item.shows, 40)) &&
    Number.isInteger(item.version) && item.version >= 0 &&
    item.version === items[0].version + index && text(item.label) &&
    (item.state === "waiting" || item.state === "sending") &&
    Array.isArray(item.fields) && item.fields.length <= 40 &&
    item.fields.every(
      (pair) => Array.isArray(pair) && pair.length === 2 && text(pair[0]) && FIELD.test(pair[0]) && text(pair[1]),
    ),
  );
}

// The taps that wait at this table, oldest first (kept by tablet.js): what cannot be trusted is
// set aside, never sent.
const QUEUE_WORDS = {
  notRead: translated("Taps kept on this tablet for this table could not be read, so they were not sent."),
  otherVersion: translated("Taps kept on this tablet by another version of the app were not sent."),
  otherTable: translated("Taps kept on this tablet for another table were not sent."),
  otherUser: translated("Taps made on this tablet by another account were not sent."),
};
const queueWhole = ({ items }, where) =>
  Array.isArray(items) && items.length <= MOST_TAPS && items.every((item, index) => itemFine(item, index, items, where.table));
const queueHere = () => window.keptHere.read("queue", QUEUE_FORMAT, QUEUE_WORDS, queueWhole)?.items || [];
// Whether the taps that wait could be kept (a full or refused storage cannot).
const queueKeep = (items) => window.keptHere.write("queue", items.length ? { format: QUEUE_FORMAT, items } : null);

// crypto.randomUUID is only there in a secure context (not on plain HTTP on the LAN).
const tapId = () =>
  crypto.randomUUID?.() ?? Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");

const valueOf = (item, name) => (item.fields.find(([field]) => field === name) || [])[1];

// Undo takes back the last tap that waits: it was never sent.
function takeBack() {
  const items = queueHere();
  if (flushing || !items.length) return;
  const last = items.pop();
  queueKeep(items);
  // The table as the server sent it again, and the taps that still wait on it.
  if (pristine) htmx.swap(document.getElementById("table"), pristine, { swapStyle: "outerHTML" });
  showAll(items);
  say(translated("Taken back before it was sent: {label}.", { label: last.label }), "", 6e3);
  if (items.length) setTimeout(() => !flushing && say(waitingFor(items.length)), 6e3);
}
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-take-back]")) takeBack();
});

function queueTap(detail, kind) {
  const items = queueHere();
  const elt = detail.elt;
  if (elt.hasAttribute("data-takes-back") && items.length) {
    takeBack();
    return;
  }
  const form = elt.closest("form");
  const submitter = elt.form === form && elt.matches("button") ? elt : detail.triggeringEvent?.submitter;
  const data = submitter && submitter.form === form ? new FormData(form, submitter) : new FormData(form);
  const fields = Array.from(data).filter(([name, value]) => typeof value === "string" && FIELD.test(name));
  const version = items.length ? items.at(-1).version + 1 : shownVersion();
  const url = new URL(detail.path, location.href).pathname;
  const { label, shows } = elt.dataset;
  const item = { id: tapId(), kind, url, version, label, state: "waiting", fields, shows };
  items.push(item);
  if (!queueKeep(items)) {
    say(translated("This tablet could not keep your tap (its storage is full or refused): it was not sent. Try again once the connection is back."), "", 10e3);
    return;
  }
  if (!show(item)) {
    queueHeld = true;
    holdButtons(true);
  }
  showLast(item);
  if (navigator.onLine) flush();
  else say(waitingFor(items.length));
}

// ---- What a tap that waits looks like on the screen: as if it had been saved ----
// By the tap's data-shows, given the row of the seat it names; a tap that has none is not shown
// (undo: what it takes back is the server's to say), and the buttons wait until it is sent.
const shows = {
  coin(item, row) {
    const coin = row.querySelector(".coin:not(.spent)");
    if (!coin) return true; // none left: the server says so when it is sent
    coin.classList.add("spent", "queued");
    const left = row.querySelectorAll(".coin:not(.spent)").length;
    row.querySelector(".may-i-left").textContent = translatedCount(left, "{count} May I? left", "{count} May I?s left");
    return true;
  },
  down(item, row) {
    row.classList.add("down");
    const who = row.querySelector(".who");
    if (!who.querySelector(".badge.ok")) who.append(pageElement("span", "badge ok queued", translated("Down")));
    row.querySelector(`button[hx-post="${CSS.escape(item.url)}"]`)?.setAttribute("disabled", "");
    row.querySelector("button[name=rummy]")?.remove();
    return true;
  },
  tally(item, row) {
    const tally = row.querySelector(".tally");
    // No discarder: the seat protected its own discard; else it claimed another's.
    const kind = valueOf(item, "discarder") ? "claim" : "protect";
    const badge = tally.querySelector(`.badge.${kind}s`) || tally.appendChild(pageElement("span", `badge ${kind}s`));
    const count = (parseInt(badge.textContent, 10) || 0) + 1;
    badge.classList.add("queued");
    badge.textContent =
      kind === "claim"
        ? translatedCount(count, "{count} Shanghai claim", "{count} Shanghai claims")
        : translatedCount(count, "{count} Shanghai protect", "{count} Shanghai protects");
    row.querySelector("details.shanghai")?.removeAttribute("open");
    return true;
  },
  // The score entry comes from the page itself (score_entry_offline.html): every player's
  // row, that of whoever went out taken out.
  "score-entry"(item, row) {
    const template = document.getElementById("score-entry-offline");
    const players = document.querySelector("#table .players");
    if (!template || !players) return false;
    const form = template.content.firstElementChild.cloneNode(true);
    form.querySelector(`fieldset.hand-entry[data-seat="${CSS.escape(valueOf(item, "seat"))}"]`)?.remove();
    form.querySelector("[data-went-out]").textContent = row.querySelector(".who strong").textContent.trim();
    players.replaceWith(form);
    document.getElementById("table").classList.add("scoring");
    htmx.process(form);
    return true;
  },
  // Saved, the hands wait with the taps before them; Undo takes them back to be corrected.
  scores(item) {
    const form = document.querySelector("#table form.score-entry");
    if (!form) return false;
    for (const [name, value] of item.fields) {
      if (form.elements[name]) form.elements[name].value = value;
    }
    form.querySelectorAll("input, button").forEach((control) => (control.disabled = true));
    const waits = translated("These hands wait to be sent: the next contract shows once the connection is back.");
    form.querySelector("button.save").after(pageElement("p", "queued-note", waits));
    return true;
  },
};
function show(item) {
  if (!Object.hasOwn(shows, item.shows || "")) return false;
  const seat = valueOf(item, "seat");
  const row = seat && document.querySelector(`#table form.player-row input[name=seat][value="${CSS.escape(seat)}"]`)?.form;
  return (seat === undefined || Boolean(row)) && shows[item.shows](item, row);
}

// The undo bar names the last tap that waits, and its Undo takes it back (a new table's has
// none until something was saved: one is added).
function showLast(item) {
  const bar = document.querySelector("#table .undo-bar");
  const last = bar?.querySelector(":scope > span");
  if (!last) return;
  last.textContent = translated("Last: {label} (waits to be sent)", { label: item.label });
  last.classList.remove("muted");
  if (bar.querySelector("form, [data-take-back]")) return;
  last.after(pageButton(`↶ ${translated("Undo")}`, "takeBack"));
}

// The taps that wait, shown on the table the server sent; if they were made on another
// version of it, or one cannot be shown, the buttons wait until they are sent.
function showAll(items) {
  queueHeld = items.length > 0 && !(items[0].version === shownVersion() && items.every(show));
  holdButtons(queueHeld);
  if (items.length) showLast(items.at(-1));
  document.dispatchEvent(new CustomEvent("scorekeeper:shown"));
}

// The server's table, kept: to draw again under the taps that wait, and for the service worker
// to show if the page is loaded again with no connection. Never with a tap's refusal in it.
const tableIn = (html) => new DOMParser().parseFromString(html, "text/html").getElementById("table");
function shown(html) {
  const table = tableIn(html);
  if (!table) return;
  table.querySelectorAll(".message").forEach((message) => message.remove());
  pristine = table.outerHTML;
  if (!window.caches) return;
  const where = location.origin + location.pathname;
  const copy = new Response(pristine, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  caches.open(TABLES).then((cache) => cache.put(where, copy)).catch(() => {});
}

async function tableLoaded() {
  if (!here()) return;
  // The page may be the service worker's copy of an older table: the last one shown is newer.
  try {
    const kept = window.caches && (await caches.match(location.origin + location.pathname, { cacheName: TABLES }));
    const html = kept ? await kept.text() : "";
    const table = html && tableIn(html);
    if (table && Number(table.dataset.version) > shownVersion()) {
      htmx.swap(document.getElementById("table"), html, { swapStyle: "outerHTML" });
    }
  } catch {
    // No copy to read: the page is what there is.
  }
  pristine = document.getElementById("table").outerHTML;
  const items = queueHere();
  showAll(items);
  if (!items.length) return;
  if (navigator.onLine) flush();
  else say(waitingFor(items.length));
}

// Each tap that waits, sent in order once the connection is back; the screen then shows the
// server's answer to the last. Buttons wait meanwhile.
async function flush() {
  if (flushing || !navigator.onLine || !here()) return;
  let items = queueHere();
  if (!items.length) return;
  flushing = true;
  clearTimeout(retryTimer);
  holdButtons(true);
  say(translatedCount(items.length, "Sending your tap…", "Sending your {count} taps…"), "sending");
  let answer = null;
  let outcome = "sent";
  let dropped = [];
  let failedStatus = 0;
  while (items.length) {
    const item = items[0];
    item.state = "sending"; // a reload from here on sends it again, with its id
    queueKeep(items);
    taps += 1; // a poll sent before it may answer with older news
    let response, body;
    try {
      response = await fetch(item.url, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "HX-Request": "true",
          "HX-Target": "table",
          "HX-Current-URL": location.href,
          "X-Tap-Id": item.id,
          "X-CSRFToken": JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"],
        },
        body: new URLSearchParams([["version", String(item.version)], ...item.fields]),
      });
      body = await response.text();
    } catch {
      outcome = "dropped"; // it may have arrived: sent again, with its id, once it is back
      break;
    }
    const login = response.headers.get("HX-Redirect");
    if (login) {
      // Logged out meanwhile: the taps wait for this member to log in again.
      location.href = login;
      flushing = false;
      return;
    }
    if (response.status >= 500 || response.status === 429) {
      outcome = "retry"; // nothing was saved: the same tap goes again in a moment
      break;
    }
    const table = [200, 409].includes(response.status) ? tableIn(body) : null;
    items.shift();
    if (table) answer = body;
    const saved =
      response.status === 200 &&
      table &&
      (Number(table.dataset.version) === item.version + 1 || response.headers.has("X-Tap-Saved"));
    if (saved) {
      // Hands it carried are saved: their draft is done with.
      if (item.fields.some(([name]) => name.startsWith("points_"))) window.keptHere.write("draft", null);
      queueKeep(items);
      continue;
    }
    // Refused (the table changed meanwhile, or the server said no): what was made after it
    // was made on a table that never was. The answer says why; the rest is not sent.
    outcome = table ? "refused" : "failed";
    failedStatus = response.status;
    dropped = items.splice(0);
    queueKeep(items);
  }
  flushing = false;
  holdButtons(false);
  if (answer !== null) {
    htmx.swap(document.getElementById("table"), answer, { swapStyle: "outerHTML" });
    shown(answer);
    showAll(items);
  } else {
    holdButtons(queueHeld && items.length > 0);
  }
  if (dropped.length) {
    const labels = dropped.map((item) => item.label).join("; ");
    tableNote(
      translatedCount(
        dropped.length,
        "{count} more tap made with no connection was not sent, as the table was not what it was made on: {labels}. Tap again what still applies.",
        "{count} more taps made with no connection were not sent, as the table was not what they were made on: {labels}. Tap again what still applies.",
        { labels },
      ),
    );
  }
  if (outcome === "sent" || outcome === "refused") quiet();
  else if (outcome === "failed") say(failure(failedStatus, true), "", 10e3);
  else {
    const why = translated(outcome === "retry" ? "The server had a problem" : "The connection dropped while sending");
    say(
      translatedCount(
        items.length,
        "{why}. Your tap waits and is sent again in a moment; none counts twice.",
        "{why}. Your {count} taps wait and are sent again in a moment; none counts twice.",
        { why },
      ),
    );
    retryTimer = setTimeout(flush, 3e3);
  }
}
