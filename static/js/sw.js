// The service worker, served at /sw.js (scorekeeper/views/offline.py) so that its scope is the
// whole site. It keeps the app's shell (CSS, JS, icons, the vendored htmx and Pico) and the round
// screen of each table opened on this device, so that a table opened once loads again with no
// connection. Pages are network-first: a kept copy answers only when the network does not, and
// only the round screens' own addresses are kept. Everything kept about pages is forgotten when
// somebody logs in or out here. Taps are never touched: live.js queues them itself.
"use strict";

const SHELL = "sk-shell-v1";
const PAGES = "sk-pages-v1"; // round screens, by address
const TABLES = "sk-tables-v1"; // the table each round screen showed last (written by live.js)
const KEPT = [SHELL, PAGES, TABLES];

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
        if (name.startsWith("sk-") && !KEPT.includes(name)) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

async function forgetPages() {
  await caches.delete(PAGES);
  await caches.delete(TABLES);
}

// A page's address without its query: the key its copy is kept under.
const pageKey = (url) => url.origin + url.pathname;

const pending = new Map(); // page key -> the copy being written

function keep(key, response) {
  const writing = caches.open(PAGES).then((cache) => cache.put(key, response));
  pending.set(key, writing);
  return writing.finally(() => pending.delete(key));
}

function offlinePage() {
  const body =
    "<!doctype html><html lang=en><meta charset=utf-8>" +
    "<meta name=viewport content='width=device-width, initial-scale=1'>" +
    "<title>No connection</title><h1>No connection</h1>" +
    "<p>This page was not kept on this device. The round screen of a table opened here " +
    "before loads without a connection.</p><p><a href=/>Try again</a></p>";
  return new Response(body, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'",
    },
  });
}

// Logging in or out: once the server has it (with no connection it does not happen, and the
// pages kept are still this member's).
async function sessionChange(event) {
  try {
    const response = await fetch(event.request);
    await forgetPages();
    return response;
  } catch {
    return offlinePage();
  }
}

async function tablePage(event, url) {
  const key = pageKey(url);
  try {
    const response = await fetch(event.request);
    // A redirect (to log in), a refusal or a table gone: no copy of it is kept, nor the old one.
    if (response.ok && !response.redirected && response.type === "basic") {
      event.waitUntil(keep(key, response.clone()));
    } else {
      event.waitUntil(caches.open(PAGES).then((cache) => cache.delete(key)));
    }
    return response;
  } catch {
    const kept = await caches.match(key, { cacheName: PAGES, ignoreVary: true });
    return kept || offlinePage();
  }
}

async function shellFile(request, url) {
  const cache = await caches.open(SHELL);
  if (HASHED.test(url.pathname)) {
    const kept = await cache.match(request, { ignoreVary: true });
    if (kept) return kept;
  }
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreVary: true });
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
    event.respondWith(fetch(request).catch(offlinePage));
  }
});

// A page the worker did not load itself (the first one, before the worker took over) asks for
// its shell and, on a round screen, itself to be kept; it is told once they are.
async function keepAsked({ shell, page }) {
  const cache = await caches.open(SHELL);
  for (const address of Array.isArray(shell) ? shell : []) {
    const url = new URL(address, self.location.origin);
    if (url.origin !== self.location.origin || !url.pathname.startsWith(STATIC)) continue;
    if (await cache.match(url.href, { ignoreVary: true })) continue;
    try {
      const response = await fetch(url.href);
      if (!response.ok) continue;
      if (url.pathname.endsWith(".webmanifest")) await keepIcons(await response.clone().json(), url);
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
  if (await caches.match(key, { cacheName: PAGES, ignoreVary: true })) return;
  try {
    const response = await fetch(key, { credentials: "same-origin" });
    if (response.ok && !response.redirected) await keep(key, response);
  } catch {
    // Offline already: nothing to keep.
  }
}

// The web app manifest's icons (the home screen's) are part of the shell too.
async function keepIcons(manifest, manifestUrl) {
  const cache = await caches.open(SHELL);
  for (const icon of Array.isArray(manifest.icons) ? manifest.icons : []) {
    const url = new URL(String(icon.src), manifestUrl);
    if (url.origin !== self.location.origin || !url.pathname.startsWith(STATIC)) continue;
    try {
      await cache.add(url.href);
    } catch {
      // The next page load tries again.
    }
  }
}

self.addEventListener("message", (event) => {
  const asked = event.data;
  if (!asked || asked.type !== "keep") return;
  event.waitUntil(
    keepAsked(asked).then(() => event.source && event.source.postMessage({ type: "kept" })),
  );
});
