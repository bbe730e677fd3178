// The service worker, served at /sw.js (scorekeeper/views/offline.py) so that its scope is the
// whole site. It keeps the app's shell (CSS, JS, icons, the vendored htmx and Pico) and the round
// screen of each table opened on this device, so that a table opened once loads again with no
// connection. Pages are network-first: a kept copy answers only when the network does not, and
// only the round screens' own addresses are kept. Taps are never touched: live.js queues them.
//
// A page is kept under the session it was shown for: the server names it (an opaque tag) in the
// Sk-Session header of every answer that read the session, "none" when nobody is signed in, and
// in the sk_session cookie, which lasts no longer than the session may (the club's idle time
// included: scorekeeper/middleware.py). So a tablet shows no member's page once their session
// has ended: every kept page goes as soon as an answer names another session or none (a logout
// here or elsewhere, an expiry, someone else logging in), and with no connection, where nothing
// can be asked, a page is shown only while the cookie still names the session it was kept for.
"use strict";

const SHELL = "sk-shell-v1";
const PAGES = "sk-pages-v2:"; // + the session's tag: round screens, by address
const TABLES = "sk-tables-v2:"; // + the tag: the table each round screen showed last (live.js)
const SESSION_HEADER = "Sk-Session";
const SESSION_COOKIE = "sk_session";
const ours = (name) => name === SHELL || name.startsWith(PAGES) || name.startsWith(TABLES);

const TABLE_PAGE = /^\/tables\/\d+\/$/;
const STATIC = "/static/";
// collectstatic's names carry a hash of the content: such a file never changes.
const HASHED = /\.[0-9a-f]{12}\.\w+$/;
// Whoever logs in or out (or deletes the account), the pages kept for the last one go.
const SESSION_CHANGES = ["/accounts/login/", "/accounts/logout/", "/accounts/delete/"];

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("sk-") && !ours(name)) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// Every page kept, but those kept for the session tagged `tag` (none given: all of them).
async function forgetPages(tag = null) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PAGES) && !name.startsWith(TABLES)) continue;
    if (tag === null || !name.endsWith(":" + tag)) await caches.delete(name);
  }
}

// The session the tablet is signed in to now, as its cookie says: "" for none; null where the
// worker cannot read cookies (a browser without the Cookie Store API: the page checks instead,
// tablet.js).
async function sessionNow() {
  if (!self.cookieStore) return null;
  try {
    const cookie = await self.cookieStore.get(SESSION_COOKIE);
    return cookie ? cookie.value : "";
  } catch {
    return null;
  }
}

// An answer that read the session says whose it is: the pages of any other go.
async function noteSession(response) {
  const tag = response.headers.get(SESSION_HEADER);
  if (tag) await forgetPages(tag === "none" ? null : tag);
  return response;
}

// A page's address without its query: the key its copy is kept under.
const pageKey = (url) => url.origin + url.pathname;

const pending = new Map(); // page key -> the copy being written

function keep(key, response) {
  const tag = response.headers.get(SESSION_HEADER);
  if (!tag || tag === "none") return Promise.resolve();
  const writing = caches.open(PAGES + tag).then((cache) => cache.put(key, response));
  pending.set(key, writing);
  return writing.finally(() => pending.delete(key));
}

// The two pages' words, in the language of the request that fetched this script: the server
// (scorekeeper/views/offline.py) writes them on the line below, which holds them in English.
const WORDS = {"lang": "en", "noConnection": "No connection", "notKept": "This page was not kept on this device. The round screen of a table opened here before loads without a connection.", "signedOut": "Signed out", "signedOutText": "The member who opened this table here is signed out (logged out, or idle for longer than the club allows), so this tablet no longer shows it. Log in again once the connection is back.", "tryAgain": "Try again"};

function plainPage(title, text) {
  const body =
    `<!doctype html><html lang=${WORDS.lang}><meta charset=utf-8>` +
    "<meta name=viewport content='width=device-width, initial-scale=1'>" +
    `<title>${title}</title><h1>${title}</h1><p>${text}</p>` +
    `<p><a href=/>${WORDS.tryAgain}</a></p>`;
  return new Response(body, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'",
    },
  });
}
const offlinePage = () => plainPage(WORDS.noConnection, WORDS.notKept);

// Logging in or out: once the server has it (with no connection it does not happen, and the
// pages kept are still this member's).
async function sessionChange(event) {
  try {
    const response = await fetch(event.request);
    await forgetPages(); // whoever comes next, the pages kept before are not theirs
    return response;
  } catch {
    return offlinePage();
  }
}

async function tablePage(event, url) {
  const key = pageKey(url);
  let response;
  try {
    response = await fetch(event.request);
  } catch {
    return keptPage(key);
  }
  await noteSession(response);
  // A redirect (to log in), a refusal or a table gone: no copy of it is kept, nor the old one.
  if (response.ok && !response.redirected && response.type === "basic") {
    event.waitUntil(keep(key, response.clone()));
  } else {
    event.waitUntil(forgetPage(key));
  }
  return response;
}

async function forgetPage(key) {
  for (const name of await caches.keys()) {
    if (name.startsWith(PAGES)) await (await caches.open(name)).delete(key);
  }
}

// With no connection: the copy kept for the session the cookie names now, if it still names
// one; the pages of any other session go (and a copy of this one there says so).
async function keptPage(key) {
  const now = await sessionNow();
  let refused = false;
  for (const name of await caches.keys()) {
    if (!name.startsWith(PAGES)) continue;
    const copy = await (await caches.open(name)).match(key, { ignoreVary: true });
    if (copy && (now === null || name === PAGES + now)) return copy;
    refused ||= Boolean(copy);
  }
  if (now !== null) await forgetPages(now || null);
  return refused ? plainPage(WORDS.signedOut, WORDS.signedOutText) : offlinePage();
}

async function shellFile(request, url) {
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request, { ignoreVary: true });
  if (kept && HASHED.test(url.pathname)) return kept;
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && SESSION_CHANGES.includes(url.pathname)) {
    event.respondWith(sessionChange(event));
    return;
  }
  if (request.method !== "GET") return; // taps go to the server as they are
  if (url.pathname.startsWith(STATIC)) {
    event.respondWith(shellFile(request, url));
  } else if (request.mode === "navigate" && TABLE_PAGE.test(url.pathname)) {
    event.respondWith(tablePage(event, url));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).then(noteSession, offlinePage));
  }
});

// A page the worker did not load itself (the first one, before the worker took over) asks for
// its shell and, on a round screen, itself to be kept; it is told once they are.
async function keepAsked({ shell, page, session }) {
  const cache = await caches.open(SHELL);
  const addresses = Array.isArray(shell) ? [...shell] : [];
  for (const address of addresses) {
    const url = new URL(address, self.location.origin);
    if (url.origin !== self.location.origin || !url.pathname.startsWith(STATIC)) continue;
    if (await cache.match(url.href, { ignoreVary: true })) continue;
    try {
      const response = await fetch(url.href);
      if (!response.ok) continue;
      if (url.pathname.endsWith(".webmanifest")) {
        // The web app manifest's icons (the home screen's) are part of the shell too.
        const icons = (await response.clone().json()).icons;
        for (const icon of Array.isArray(icons) ? icons : []) addresses.push(new URL(String(icon.src), url).href);
      }
      await cache.put(url.href, response);
    } catch {
      // Offline already, or the file is gone: the next page load tries again.
    }
  }
  if (typeof page !== "string") return;
  const url = new URL(page, self.location.origin);
  if (url.origin !== self.location.origin || !TABLE_PAGE.test(url.pathname)) return;
  const key = pageKey(url);
  await pending.get(key);
  const tag = typeof session === "string" ? session : "";
  if (tag && (await caches.match(key, { cacheName: PAGES + tag, ignoreVary: true }))) return;
  try {
    const response = await fetch(key, { credentials: "same-origin" });
    await noteSession(response);
    if (response.ok && !response.redirected) await keep(key, response);
  } catch {
    // Offline already: nothing to keep.
  }
}

self.addEventListener("message", (event) => {
  const asked = event.data;
  // A page whose session has ended (tablet.js): nothing kept may be shown again.
  if (asked && asked.type === "forget") {
    event.waitUntil(forgetPages());
    return;
  }
  if (!asked || asked.type !== "keep") return;
  event.waitUntil(
    keepAsked(asked).then(() => event.source && event.source.postMessage({ type: "kept" })),
  );
});
