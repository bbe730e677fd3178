// What this tablet keeps for a member: the session it was shown for, notes above the table,
// the hands typed as a draft, and hands already photographed put back.

// A signed-in member's page says which session it was shown for (data-session); the sk_session
// cookie says which one the tablet is signed in to now, and goes when the session ends: logged
// out here or elsewhere (the next answer deletes it), or idle or expired (it expires with it,
// connection or not). Once they differ, the page leaves and nothing kept is shown again: what
// the service worker kept, the table live.js kept, the hands typed and taps waiting stay only
// for this member to send after logging in again (they are checked against the account).
const shownFor = document.documentElement.dataset.session;
if (shownFor) {
  const now = () => (document.cookie.match(/(?:^|;\s*)sk_session=([^;]*)/) || [])[1] || "";
  let left = false;

  async function leave() {
    left = true;
    document.querySelector("main")?.replaceChildren();
    try {
      navigator.serviceWorker?.controller?.postMessage({ type: "forget" });
      for (const name of window.caches ? await caches.keys() : []) {
        if (/^sk-(pages|tables)-/.test(name)) await caches.delete(name);
      }
    } catch {
      // Nothing kept, or no access to it: nothing to forget.
    }
    location.replace(`/accounts/login/?next=${encodeURIComponent(location.pathname)}`);
  }

  function checkSession() {
    if (!left && now() !== shownFor) leave();
  }
  checkSession();
  setInterval(checkSession, 2_000);
  document.addEventListener("visibilitychange", checkSession);
}

// Notes above a round screen (game.html's #table-notes, a polite live region) about what this
// tablet kept (hands typed, taps made with no connection); each stays until dismissed.
window.tableNote = (message) => {
  const notes = document.getElementById("table-notes");
  if (!notes) return;
  notes.append(pageElement("p", "table-note", `${message} `, pageButton(translated("Dismiss"), "noteDismiss")));
};
document.addEventListener("click", (event) => {
  event.target.closest("[data-note-dismiss]")?.closest(".table-note").remove();
});

// What this tablet keeps for the table on the screen (the hands typed, the taps that wait) is kept
// in localStorage under "sk:<what>:<table id>", stamped with the app, its format, the table and the
// account it was made for. It is read back only when all four match and `whole` finds the rest
// sound; anything else is dropped, with a note above the table in `words`' terms (another
// account's unsaid where `words.otherUser` is empty), and never sent or put back.
const APP = "scorekeeper";

function screen() {
  const live = document.getElementById("live");
  const table = document.getElementById("table");
  if (!live || !table || !live.dataset.table) return null;
  return {
    table: Number(live.dataset.table),
    user: Number(live.dataset.user),
    contract: Number(table.dataset.contract) || null,
    round: Number(table.dataset.round) || null,
    version: Number(table.dataset.version),
  };
}
window.tableScreen = screen; // live.js's queue reads the same

// Why what is kept cannot be used, in the player's words, or null when it can.
function keptProblem(raw, where, format, words, whole) {
  let kept;
  try {
    kept = JSON.parse(raw);
  } catch {
    return words.notRead;
  }
  if (!kept || typeof kept !== "object" || kept.app !== APP) return words.notRead;
  if (kept.format !== format) return words.otherVersion;
  if (kept.table !== where.table) return words.otherTable;
  if (kept.user !== where.user) return words.otherUser;
  return whole(kept, where) ? null : words.notRead;
}

window.keptHere = {
  read(what, format, words, whole) {
    const where = screen();
    if (!where) return null;
    const key = `sk:${what}:${where.table}`;
    let raw = null;
    try {
      raw = localStorage.getItem(key);
    } catch {
      return null; // no storage here (refused by the browser): nothing is kept
    }
    if (raw === null) return null;
    const problem = keptProblem(raw, where, format, words, whole);
    if (problem === null) return JSON.parse(raw);
    localStorage.removeItem(key);
    if (problem) window.tableNote(problem);
    return null;
  },
  // Whether `kept` ({ format, ... }; none: what was kept goes) could be kept: a full or refused
  // storage cannot.
  write(what, kept) {
    try {
      const { table, user } = screen();
      if (!kept) localStorage.removeItem(`sk:${what}:${table}`);
      else localStorage.setItem(`sk:${what}:${table}`, JSON.stringify({ app: APP, table, user, ...kept }));
      return true;
    } catch {
      return false;
    }
  },
};

// Hands typed on the score entry (or filled from a photo) are kept on this tablet as a draft, in
// localStorage under "sk:draft:<table id>", until the round is saved or they are cleared: a
// reload, a lost connection or the tablet sleeping loses none of them. A draft says which round
// it is for (its number and its row's id): once that round is saved or taken back elsewhere, the
// draft is dropped with a note, never put into another round. Drafts are only ever put back in
// the boxes, never sent by themselves; one that cannot be read is set aside with a note.
const FORMAT = 1;
const SEAT = /^[0-9]{1,19}$/;
const savedHere = new Set(); // rounds this tablet saved: their drafts go without a note
let restoring = false;

const scoreForm = () => document.querySelector("#table form.score-entry");
const entries = (form) => form.querySelectorAll("fieldset.hand-entry[data-seat]");

function handsIn(form) {
  const hands = {};
  for (const fieldset of entries(form)) {
    const box = fieldset.querySelector(".cards-input");
    const points = fieldset.querySelector(".points-input").value;
    const held = fieldset.querySelector(".held input[type=radio]:checked")?.value || "";
    if (box.value.trim() || points !== "") {
      hands[fieldset.dataset.seat] = { cards: box.value, points, unsure: box.dataset.unsure || "", held };
    }
  }
  return hands;
}

function save() {
  const form = scoreForm();
  const where = screen();
  if (restoring || !form || !where || !where.round) return;
  const hands = handsIn(form);
  // The screen it was typed on (table, user, contract, round, version) with the hands; storage
  // full or refused, typing works as before, only without a draft.
  const draft = Object.keys(hands).length ? { format: FORMAT, ...where, savedAt: Date.now(), hands } : null;
  window.keptHere.write("draft", draft);
}

const DRAFT_WORDS = {
  notRead: translated("Hands kept on this tablet for this table could not be read, so they were not restored."),
  otherVersion: translated("Hands kept on this tablet by another version of the app were not restored."),
  otherTable: translated("Hands kept on this tablet for another table were not restored."),
  otherUser: "", // another member's, on a shared tablet
};
const draftWhole = (draft) =>
  [draft.user, draft.contract, draft.round].every(Number.isInteger) &&
  Number.isFinite(draft.savedAt) &&
  draft.hands && typeof draft.hands === "object" && !Array.isArray(draft.hands) &&
  Object.entries(draft.hands).every(
    ([seat, hand]) =>
      SEAT.test(seat) && hand && typeof hand === "object" &&
      typeof hand.cards === "string" && hand.cards.length <= 200 &&
      typeof hand.points === "string" && /^[0-9]{0,5}$/.test(hand.points) &&
      typeof hand.unsure === "string" && /^[0-9,]{0,400}$/.test(hand.unsure) &&
      // The count said (kept since the count check came; drafts before it have none).
      (hand.held === undefined || (typeof hand.held === "string" && /^[0-9]{0,2}$/.test(hand.held))),
  );
const draftHere = () => window.keptHere.read("draft", FORMAT, DRAFT_WORDS, draftWhole);

function restore(form, draft) {
  restoring = true;
  let filled = 0;
  for (const fieldset of entries(form)) {
    const hand = draft.hands[fieldset.dataset.seat];
    if (!hand) continue;
    const box = fieldset.querySelector(".cards-input");
    box.value = hand.cards;
    if (hand.unsure) box.dataset.unsure = hand.unsure;
    else delete box.dataset.unsure;
    fieldset.querySelector(".points-input").value = hand.points;
    const held = hand.held && fieldset.querySelector(`.held input[type=radio][value="${hand.held}"]`);
    if (held) held.checked = true;
    window.cardChips.render(box);
    box.dispatchEvent(new Event("input", { bubbles: true })); // the total
    filled += 1;
  }
  restoring = false;
  return filled;
}

function when(time) {
  const date = new Date(time);
  const clock = date.toTimeString().slice(0, 5); // "21:05", the tablet's own time
  if (date.toDateString() === new Date().toDateString()) return translated("at {clock}", { clock });
  const day = date.toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "long" });
  return translated("on {day} at {clock}", { day, clock });
}

function restoredNote(form, draft) {
  form.querySelector(".draft-note")?.remove();
  const restored = translated("Restored the hands you typed {when} — ", { when: when(draft.savedAt) });
  const note = pageElement("p", "draft-note", restored, pageButton(translated("Clear"), "draftClear"));
  note.setAttribute("role", "status");
  // In the hint's place: five players' hands and the save button still fit one tablet.
  const hint = form.querySelector(".hint");
  if (hint) hint.hidden = true;
  (hint || form.querySelector("h2")).after(note);
}

// Whenever a table is shown (loaded, answered, polled): the draft goes back into its round's
// score entry if the boxes are empty, or is dropped if its round is over.
function check() {
  const where = screen();
  const draft = draftHere();
  if (!draft) return;
  if (draft.round !== where.round) {
    window.keptHere.write("draft", null);
    if (savedHere.has(draft.round)) return;
    const why =
      where.contract === null || where.contract > draft.contract
        ? translated("contract {contract} was saved on another screen meanwhile", { contract: draft.contract })
        : translated("the table was changed on another screen meanwhile");
    window.tableNote(translated("The hands typed here for contract {contract} were not restored: {why}.", { contract: draft.contract, why }));
    return;
  }
  const form = scoreForm();
  // No score entry (the going out was taken back): the draft waits for it to come back.
  if (!form || Object.keys(handsIn(form)).length) return;
  if (restore(form, draft)) restoredNote(form, draft);
}
document.addEventListener("scorekeeper:shown", check);
document.addEventListener("htmx:afterSettle", check);

// A round this tablet saved: its draft is done with.
document.addEventListener("htmx:afterRequest", (event) => {
  const elt = event.detail.requestConfig?.elt || event.detail.elt;
  const where = screen();
  if (!elt?.matches?.("form.score-entry") || event.detail.xhr?.status !== 200 || !where) return;
  const draft = draftHere();
  if (draft && draft.round !== where.round) {
    savedHere.add(draft.round);
    window.keptHere.write("draft", null);
  }
});

document.addEventListener("input", (event) => {
  if (event.target.closest?.("#table form.score-entry")) save();
});
document.addEventListener("change", (event) => {
  if (event.target.matches?.("#table form.score-entry .held input[type=radio]")) save();
});
document.addEventListener("click", (event) => {
  const clear = event.target.closest("[data-draft-clear]");
  if (!clear) return;
  const form = clear.closest("form.score-entry");
  for (const fieldset of entries(form)) {
    const box = fieldset.querySelector(".cards-input");
    window.cardChips.clear(box);
    window.cardChips.changed(box); // the points typed go too
  }
  clear.closest(".draft-note").remove();
  form.querySelector(".hint")?.removeAttribute("hidden");
  form.querySelector(".cards-input")?.focus();
});

// What this tablet kept for a member goes when they log out here (online: with no
// connection the logout fails, and the taps that wait must not go with it; once online they
// have been sent).
document.addEventListener("submit", (event) => {
  if (!navigator.onLine || !event.target.matches?.("form[action$='/accounts/logout/']")) return;
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith("sk:")) localStorage.removeItem(key);
  }
});

// A table opened with hands already photographed (a reload with no draft, another tablet): each
// empty hand gets the cards its photos read, once the draft had its chance (its listener is
// registered above, so it runs first). A hand emptied by the player stays empty: this runs only
// when the table is shown afresh.
document.addEventListener("scorekeeper:shown", () => {
  document.querySelectorAll("#table .hand-entry .photo-result[data-cards]").forEach((read) => {
    const box = document.getElementById(read.dataset.fill);
    const points = box?.closest(".hand-entry")?.querySelector(".points-input");
    if (!box || box.value.trim() || (points && points.value !== "") || !read.dataset.cards) return;
    window.cardChips.fill(box, read.dataset.cards, read.dataset.unsure || "");
  });
});
