// The page: marked as scripted, the scripts' words, a message of the last page dropped once it is
// old news, the first-dealer menu, the service worker asked to keep the page, the sheet sent and
// the TV link copied.

// Marks the page as scripted, so CSS can trade the plain file box for a Photo button.
document.documentElement.classList.add("js");

// The scripts' words in the page's language, which the page carries (templatetags/words.py):
// `translated("Take out {card}", {card})`, and for a count `translatedCount(count, singular,
// plural, values)` ({count} is the count). A word the page does not carry is said in English.
// The scripts are modules, so deferred: the page, and its words, are all there when they run.
const words = JSON.parse(document.getElementById("script-words")?.textContent || "{}");
const filled = (text, values) => text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
window.translated = (english, values = {}) => filled(words[english] ?? english, values);
window.translatedCount = (count, singular, plural, values = {}) => {
  const pair = words[singular];
  const text = pair ? pair[count === 1 ? 0 : 1] : count === 1 ? singular : plural;
  return filled(text, { count, ...values });
};

// An element a script adds, with its class and what it holds (words, other elements).
window.pageElement = (tag, className, ...content) => {
  const element = document.createElement(tag);
  element.className = className;
  element.append(...content);
  return element;
};

// A small button a script adds beside its words (Undo, Dismiss, Clear); `data-<name>` says what it does.
window.pageButton = (text, name) => {
  const button = pageElement("button", "secondary outline", text);
  button.type = "button";
  button.dataset[name] = "";
  return button;
};

// A message that came with the page ("Saved: Ann went out.", "Add the players next.") says what
// happened before it loaded: once a write made on the page has changed it, it is old news.
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.requestConfig?.verb === "get") return;
  document.querySelectorAll("main .flash").forEach((flash) => flash.remove());
});

// Starting a table: the first-dealer menu names the players picked for each seat.
function relabel(form) {
  const dealer = form.querySelector("select[name=first_dealer]");
  if (!dealer) return;
  for (const option of dealer.options) {
    const seat = form.querySelector(`select[name=seat_${option.value}]`);
    const picked = seat && seat.value ? seat.selectedOptions[0].textContent : "";
    option.textContent = picked || translated("Seat {seat} (nobody yet)", { seat: Number(option.value) + 1 });
  }
}

document.addEventListener("change", (event) => {
  const form = event.target.closest("form.game-new");
  if (form) relabel(form);
});
htmx.onLoad(() => document.querySelectorAll("form.game-new").forEach(relabel));

// The service worker (static/js/sw.js, served at /sw.js) keeps the app's shell and the round
// screen of each table opened here, so that it loads again with no connection. A page the
// worker did not load itself (the first, before it took over) asks to be kept; the root element
// says data-offline="ready" once it is. Where there is none (plain HTTP on the LAN, an old
// browser), everything works online as before.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "kept") document.documentElement.dataset.offline = "ready";
  });
  window.addEventListener("load", async () => {
    try {
      await navigator.serviceWorker.register("/sw.js");
    } catch {
      return; // refused (private mode, a policy): the app works online as before
    }
    const worker = (await navigator.serviceWorker.ready).active;
    const shell = Array.from(
      document.querySelectorAll("link[rel~=stylesheet], link[rel~=icon], link[rel~=manifest], link[rel~=apple-touch-icon], script[src]"),
      (element) => element.href || element.src,
    );
    const page = document.getElementById("table") ? location.origin + location.pathname : null;
    worker.postMessage({ type: "keep", shell, page, session: document.documentElement.dataset.session });
  });
}

// The sheet to send (share.html): through the tablet's share sheet, the picture where it can
// share files, else the text; with no share sheet the link downloads the picture by itself. The
// picture is fetched when the link shows, so that the share sheet opens within the tap.

// The picture as a File, promised, by address and text: a poll that swaps the page in anew
// fetches it again only once the sheet changed (its text says so).
const pictures = new Map();

function picture(link) {
  const key = `${link.href}\n${link.dataset.shareText}`;
  if (!pictures.has(key)) {
    const name = link.getAttribute("download") || "sheet.png";
    const file = fetch(link.href, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.blob() : Promise.reject(response.status)))
      .then((blob) => new File([blob], name, { type: "image/png" }));
    file.catch(() => pictures.delete(key)); // tried again at the tap, else downloaded
    pictures.set(key, file);
  }
  return pictures.get(key);
}

// The Share and Copy buttons show where the browser can (without, the link downloads the
// picture, and the text or the TV link's address can be selected and copied by hand).
function prepare() {
  if (navigator.clipboard) document.querySelectorAll("[data-copy]").forEach((button) => (button.hidden = false));
  if (!navigator.share) return;
  document.querySelectorAll("a[data-share]").forEach(picture);
  document.querySelectorAll("button[data-share-text]").forEach((button) => (button.hidden = false));
}
htmx.onLoad(prepare); // the page, and what each swap brings

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const input = document.getElementById(button.dataset.copy);
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = translated("Copied");
  } catch {
    input.select(); // no clipboard permission: selected, ready to copy by hand
  }
});

// The text to send stays open when a poll swaps the night in anew.
let open = [];
document.addEventListener("htmx:beforeSwap", () => {
  open = [...document.querySelectorAll("details.share-text[open]")].map((details) => details.id);
});
document.addEventListener("htmx:afterSettle", () => {
  open.forEach((id) => document.getElementById(id)?.setAttribute("open", ""));
});

// Closing the share sheet is no failure; a share refused shows the picture instead.
const refused = (href) => (error) => {
  if (error?.name !== "AbortError" && href) window.location.assign(href);
};

document.addEventListener("click", async (event) => {
  const text = event.target.closest("button[data-share-text]");
  if (text && navigator.share) {
    navigator.share({ title: text.dataset.shareTitle, text: text.dataset.shareText }).catch(refused());
    return;
  }
  const link = event.target.closest("a[data-share]");
  if (!link || !navigator.share) return; // the link downloads the picture
  event.preventDefault();
  const about = { title: link.dataset.shareTitle, text: link.dataset.shareText };
  let file = null;
  try {
    file = await picture(link);
  } catch {
    window.location.assign(link.href); // not fetched: shown as the link would
    return;
  }
  const files = [file];
  const share = navigator.canShare?.({ files }) ? { ...about, files } : about;
  navigator.share(share).catch(refused(link.href));
});
