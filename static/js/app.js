// Marks the page as scripted, so CSS can trade the plain file box for a Photo button.
document.documentElement.classList.add("js");

// The cards of a cards box as chips: tap a wrong one and it is taken out, and the next card
// tapped on the keypad or picker goes in its place. Cards a photo read unsure are flagged.
window.cardChips = (function () {
  "use strict";

  const cursors = new WeakMap(); // box -> where the next card goes, after a chip was taken out

  function tokens(box) {
    return box.value.split(/[\s,]+/).filter(Boolean);
  }

  function unsure(box) {
    return (box.dataset.unsure || "").split(",").filter(Boolean).map(Number);
  }

  function write(box, list, flagged) {
    box.value = list.join(" ");
    if (flagged.length) box.dataset.unsure = flagged.join(",");
    else delete box.dataset.unsure;
    render(box);
  }

  function insert(box, card) {
    const list = tokens(box);
    const at = cursors.has(box) ? Math.min(cursors.get(box), list.length) : list.length;
    list.splice(at, 0, card);
    if (cursors.has(box)) cursors.set(box, at + 1);
    write(box, list, unsure(box).map((index) => (index >= at ? index + 1 : index)));
  }

  // What a hand's photos read goes in the box. A second photo's reading starts with the first's
  // cards (`data-read`, what the box was filled with): if the player corrected the box since,
  // the corrections stay and only the cards the second photo added go in, after them. An empty
  // box gets every card read.
  function fill(box, cards, flagged) {
    const before = (box.dataset.read || "").split(" ").filter(Boolean);
    const read = cards.split(" ").filter(Boolean);
    const list = tokens(box);
    const corrected =
      before.length && list.length && list.join(" ") !== before.join(" ") &&
      before.every((card, index) => read[index] === card);
    const readFlags = flagged.split(",").filter(Boolean).map(Number);
    box.dataset.read = cards;
    if (!corrected) return write(box, read, readFlags);
    const added = readFlags
      .filter((index) => index >= before.length)
      .map((index) => list.length + index - before.length);
    write(box, [...list, ...read.slice(before.length)], [...unsure(box), ...added]);
  }

  function removeAt(box, at) {
    const list = tokens(box);
    list.splice(at, 1);
    cursors.set(box, at);
    const flagged = unsure(box).filter((index) => index !== at);
    write(box, list, flagged.map((index) => (index > at ? index - 1 : index)));
  }

  function erase(box) {
    const list = tokens(box);
    const hadCursor = cursors.has(box);
    const at = hadCursor ? cursors.get(box) - 1 : list.length - 1;
    if (at < 0) return;
    removeAt(box, at);
    if (!hadCursor) {
      cursors.delete(box);
      render(box);
    }
  }

  function clear(box) {
    cursors.delete(box);
    write(box, [], []);
  }

  function chipsOf(box) {
    let chips = box.closest("label, .field")?.nextElementSibling;
    if (!chips || !chips.classList.contains("card-chips")) {
      chips = document.createElement("div");
      chips.className = "card-chips";
      chips.dataset.for = box.id;
      chips.setAttribute("role", "group");
      chips.setAttribute("aria-label", "Cards entered: tap one to take it out");
      (box.closest("label, .field") || box).after(chips);
    }
    return chips;
  }

  function render(box) {
    const chips = chipsOf(box);
    const flagged = new Set(unsure(box));
    const at = cursors.get(box);
    chips.replaceChildren();
    tokens(box).forEach((token, index) => {
      if (index === at) chips.append(caret());
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip";
      const suit = token.match(/[SHDC]$/i);
      if (suit && token.length > 1) chip.classList.add(`suit-${suit[0].toUpperCase()}`);
      if (flagged.has(index)) chip.classList.add("unsure");
      chip.dataset.index = index;
      chip.textContent = flagged.has(index) ? `${token}?` : token;
      chip.setAttribute("aria-label", `Take out ${token}${flagged.has(index) ? ", read unsure" : ""}`);
      chips.append(chip);
    });
    if (at !== undefined && at >= tokens(box).length) chips.append(caret());
  }

  function caret() {
    const mark = document.createElement("span");
    mark.className = "chip-caret";
    mark.title = "The next card goes here";
    return mark;
  }

  document.addEventListener("click", (event) => {
    const chip = event.target.closest(".card-chips .chip");
    if (!chip) return;
    const chips = chip.parentElement;
    const box = document.getElementById(chips.dataset.for);
    removeAt(box, Number(chip.dataset.index));
    box.dispatchEvent(new Event("input", { bubbles: true }));
    // Focus stays where the finger was: on the card that moved into the place, or the box.
    (chips.querySelector(`.chip[data-index="${chip.dataset.index}"]`) || box).focus();
  });

  // Typing in the box itself starts again from its end.
  document.addEventListener("input", (event) => {
    const box = event.target;
    if (!box.matches || !box.matches("[data-chips]") || !event.isTrusted) return;
    cursors.delete(box);
    delete box.dataset.unsure;
    render(box);
  });

  function renderAll() {
    document.querySelectorAll("[data-chips]").forEach(render);
  }
  document.addEventListener("DOMContentLoaded", renderAll);
  document.addEventListener("htmx:afterSettle", renderAll);

  return { insert, erase, clear, render, fill };
})();

// Score entry: the rank keypad and the live total. The server recomputes every total on save;
// this only saves taps. Event delegation, so it keeps working after htmx swaps.
(function () {
  "use strict";

  const SUITS = /[SHDC\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667\uFE0F]/gi;

  function rankOf(token) {
    const upper = token.toUpperCase();
    if (["JK", "JOKER", "*", "\u{1F0CF}"].includes(upper) || upper.startsWith("JK")) return "JK";
    const rank = upper.replace(SUITS, "");
    return rank === "T" ? "10" : rank;
  }

  function handPoints(text, points) {
    let total = 0;
    for (const token of text.split(/[\s,]+/).filter(Boolean)) {
      const value = points[rankOf(token)];
      if (value === undefined) return null;
      total += value;
    }
    return total;
  }

  function refresh(fieldset) {
    const form = fieldset.closest("form");
    const points = JSON.parse(form.dataset.points || "{}");
    const cards = fieldset.querySelector(".cards-input").value;
    const typed = fieldset.querySelector(".points-input").value;
    const output = fieldset.querySelector(".hand-total");
    const total = cards.trim() ? handPoints(cards, points) : typed === "" ? null : Number(typed);
    output.textContent = total === null ? (cards.trim() ? "?" : "") : `${total} pts`;
  }

  document.addEventListener("click", (event) => {
    const key = event.target.closest(".keypad .key");
    if (!key) return;
    const fieldset = key.closest(".hand-entry");
    const input = fieldset.querySelector(".cards-input");
    if (key.hasAttribute("data-erase")) window.cardChips.erase(input);
    else window.cardChips.insert(input, key.dataset.rank);
    fieldset.querySelector(".points-input").value = "";
    refresh(fieldset);
  });

  document.addEventListener("input", (event) => {
    const fieldset = event.target.closest(".hand-entry");
    if (fieldset) refresh(fieldset);
  });

  function refreshAll() {
    document.querySelectorAll(".hand-entry").forEach(refresh);
  }
  document.addEventListener("DOMContentLoaded", refreshAll);
  document.addEventListener("htmx:afterSettle", refreshAll);
})();

// The card picker: tapping a card types it into the cards box, as if the player had typed it.
(function () {
  "use strict";

  document.addEventListener("click", (event) => {
    const pick = event.target.closest(".picker .pick");
    if (!pick) return;
    const box = document.getElementById(pick.closest(".picker").dataset.target);
    if (pick.hasAttribute("data-erase")) window.cardChips.erase(box);
    else if (pick.hasAttribute("data-clear")) window.cardChips.clear(box);
    else window.cardChips.insert(box, pick.dataset.card);
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
})();

// A photo is read as soon as it is taken: no second tap on "Read the photo". The Photo button
// opens the camera through the file box it stands for; "2nd photo" does too, and the photo is
// then read as a second photo of the hand, with the first.
document.addEventListener("click", (event) => {
  const trigger = event.target.closest("[data-photo-for]");
  if (!trigger) return;
  const input = document.getElementById(trigger.dataset.photoFor);
  if (!input) return;
  if (trigger.hasAttribute("data-second")) input.dataset.second = "";
  else delete input.dataset.second;
  // The picker opens on no file chosen: the same photo chosen again is a change, read again.
  input.value = "";
  input.click();
});
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!input.matches("input[type=file][data-autosubmit]")) return;
  const which = input.dataset.second !== undefined ? "[data-photo-submit-second]" : "[data-photo-submit]";
  const reader = input.closest("fieldset, .photo-form")?.querySelector(which);
  if (reader) reader.click();
  else input.form.requestSubmit();
});

// A message that came with the page ("Saved: Ann went out.", "Add the players next.") says what
// happened before it loaded: once a write made on the page has changed it, it is old news.
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.requestConfig?.verb === "get") return;
  document.querySelectorAll("main .flash").forEach((flash) => flash.remove());
});

// Which photo each card came from (photo_read.html) is said of the cards still in the box: a
// card taken out since is no longer listed, as many of a card listed as the box holds.
document.addEventListener("input", (event) => {
  const box = event.target;
  if (!box.id || !box.matches?.("[data-chips]")) return;
  const left = {};
  box.value.split(/[\s,]+/).filter(Boolean).forEach((card) => {
    left[card.toUpperCase()] = (left[card.toUpperCase()] || 0) + 1;
  });
  document.querySelectorAll(`.photo-result[data-fill="${box.id}"] .card-sources li[data-card]`)
    .forEach((source) => {
      const card = source.dataset.card;
      source.hidden = !left[card];
      if (left[card]) left[card] -= 1;
    });
});

// Starting a table: the first-dealer menu names the players picked for each seat.
(function () {
  "use strict";

  function relabel(form) {
    const dealer = form.querySelector("select[name=first_dealer]");
    if (!dealer) return;
    for (const option of dealer.options) {
      const seat = form.querySelector(`select[name=seat_${option.value}]`);
      const picked = seat && seat.value ? seat.selectedOptions[0].textContent : "";
      option.textContent = picked || `Seat ${Number(option.value) + 1} (nobody yet)`;
    }
  }

  document.addEventListener("change", (event) => {
    const form = event.target.closest("form.game-new");
    if (form) relabel(form);
  });
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form.game-new").forEach(relabel);
  });
})();

// A photo read by a worker (photo_read.html): its cards go into the box it was taken for, as if
// tapped in, and a standalone checker's photo is shown from the file still chosen on the page.
// A hand's count check and its "2nd photo" button show once it has a photo.
document.addEventListener("htmx:afterSettle", () => {
  document.querySelectorAll(".photo-result:not([data-filled])").forEach((read) => {
    read.dataset.filled = "";
    const box = document.getElementById(read.dataset.fill);
    if (box && read.dataset.cards !== undefined) {
      window.cardChips.fill(box, read.dataset.cards, read.dataset.unsure || "");
      const points = box.closest(".hand-entry")?.querySelector(".points-input");
      if (points) points.value = "";
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
    const entry = read.closest(".hand-entry");
    if (read.dataset.cards !== undefined) {
      entry?.querySelector(".second-photo")?.removeAttribute("hidden");
      window.countCheck.show((entry || read).querySelector(".held"));
    } else {
      window.countCheck.hide(entry?.querySelector(".held")); // unreadable: the hand is typed
    }
    const file = document.getElementById(read.dataset.preview || "")?.files?.[0];
    const image = read.querySelector("svg image");
    if (file && image) image.setAttribute("href", URL.createObjectURL(file));
  });
});

// The count check (score_rows.html): the player taps how many cards the hand holds (the usual
// count is chosen once a photo is read) and the page says, in words, how many are missing or
// too many before anything is saved; the server says the same if it is saved anyway (forms
// count_problem). A card the recognizer was unsure of, marked dashed on the photo or listed
// under it, goes into the hand with one tap.
window.countCheck = (function () {
  "use strict";

  const WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

  function cardsInWords(count) {
    const words = count < WORDS.length ? WORDS[count] : String(count);
    return `${words[0].toUpperCase()}${words.slice(1)} card${count === 1 ? "" : "s"}`;
  }

  function problem(held, entered) {
    if (entered < held) {
      const them = held - entered === 1 ? "it" : "them";
      return `${cardsInWords(held - entered)} missing: this hand holds ${held} and ${entered} are entered. Add ${them}, or tap how many it holds.`;
    }
    const them = entered - held === 1 ? "it" : "them";
    return `${cardsInWords(entered - held)} too many: this hand holds ${held} and ${entered} are entered. Take ${them} out, or tap how many it holds.`;
  }

  function check(held) {
    if (!held || held.hidden) return;
    const box = document.getElementById(held.dataset.heldFor);
    const chosen = held.querySelector("input[type=radio]:checked");
    const said = held.querySelector(".count-check");
    if (!box || !chosen || !said) return;
    // The checker's "|" between melds is no card.
    const entered = box.value.split(/[\s,]+/).filter((token) => token && token !== "|").length;
    const count = Number(chosen.value);
    // Nothing entered yet (the photo still being read), or points typed instead: nothing to say.
    const quiet = entered === 0;
    held.classList.toggle("off", entered !== count && !quiet);
    if (quiet) said.textContent = "";
    else if (entered === count) said.textContent = count === 1 ? "The card is entered." : `All ${count} cards are entered.`;
    else said.textContent = problem(count, entered);
  }

  function remembered(held) {
    try {
      return held.dataset.remember ? sessionStorage.getItem(held.dataset.remember) : null;
    } catch {
      return null; // storage refused: the usual count stands
    }
  }

  function show(held) {
    if (!held) return;
    held.hidden = false;
    const said = remembered(held);
    const kept = said && held.querySelector(`input[type=radio][value="${CSS.escape(said)}"]`);
    if (kept) kept.checked = true;
    if (!held.querySelector("input[type=radio]:checked")) {
      const usually = held.querySelector(`input[type=radio][value="${held.dataset.usually}"]`);
      if (usually) usually.checked = true;
    }
    // The number chosen in sight, in a row that scrolls sideways on a phone.
    const row = held.querySelector(".held-row");
    const choice = held.querySelector(".held-choice input:checked")?.closest(".held-choice");
    if (row && choice) row.scrollLeft = choice.offsetLeft - row.offsetLeft - row.clientWidth / 2;
    check(held);
  }

  // A hand whose photo could not be read is typed: no count is said for it, none sent.
  function hide(held) {
    if (!held) return;
    held.hidden = true;
    held.querySelectorAll("input[type=radio]").forEach((radio) => {
      radio.checked = false;
    });
  }

  function checkAll() {
    document.querySelectorAll(".held[data-held-for]").forEach(check);
  }

  // Any card typed, tapped or taken out: the few rows on the page are checked again.
  document.addEventListener("input", checkAll);
  document.addEventListener("change", (event) => {
    const held = event.target.matches?.(".held input[type=radio]") && event.target.closest(".held");
    if (!held) return;
    check(held);
    try {
      if (held.dataset.remember) sessionStorage.setItem(held.dataset.remember, event.target.value);
    } catch {
      // storage refused: the number is kept on the page only
    }
  });
  document.addEventListener("click", (event) => {
    if (event.target.closest(".keypad .key, .card-chips .chip, .picker .pick")) checkAll();
    const add = event.target.closest("[data-add-card]");
    if (!add) return;
    const read = add.closest(".photo-result");
    const box = read && document.getElementById(read.dataset.fill);
    if (!box || read.querySelector(`[data-add-card="${CSS.escape(add.dataset.addCard)}"].added`)) return;
    window.cardChips.insert(box, add.dataset.addCard);
    const points = box.closest(".hand-entry")?.querySelector(".points-input");
    if (points) points.value = "";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    // One tap adds one: the card's button and its mark on the photo say it was added.
    read.querySelectorAll(`[data-add-card="${CSS.escape(add.dataset.addCard)}"]`).forEach((same) => {
      same.classList.add("added");
      if (same.matches("button")) {
        same.disabled = true;
        same.setAttribute("aria-label", `${same.dataset.addCard} added`);
      }
    });
  });
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll(".held[data-held-for]:not([hidden])").forEach(show);
  });
  document.addEventListener("htmx:afterSettle", checkAll);

  return { show, hide, check, checkAll };
})();

// The marks' labels on a photo, placed apart: each label goes beside its box where it covers
// no other label (and, if it can, no other box), at a size legible on the screen it is shown on;
// a label with no room left is hidden, and a tap on its box shows it. Placed again when the
// photo's size on the screen changes.
window.photoLabels = (function () {
  "use strict";

  const SCREEN_PX = 13; // the labels' height on the screen, in CSS pixels

  function overlaps(one, other) {
    return one.x < other.x + other.width && other.x < one.x + one.width &&
      one.y < other.y + other.height && other.y < one.y + one.height;
  }

  function place(svg) {
    const view = svg.viewBox.baseVal;
    // Screen pixels per pixel of the photo, as drawn (fitted inside the svg's box).
    const scale = svg.getScreenCTM()?.a;
    if (!view || !view.width || !scale) return;
    const size = SCREEN_PX / scale;
    const pad = size * 0.2;
    const groups = [...svg.querySelectorAll("g.mark, g.candidate")];
    const boxes = groups.map((group) => {
      const rect = group.querySelector("rect");
      return { x: rect.x.baseVal.value, y: rect.y.baseVal.value, width: rect.width.baseVal.value, height: rect.height.baseVal.value };
    });
    const placed = [];
    groups.forEach((group, index) => {
      const text = group.querySelector("text");
      group.classList.remove("label-hidden", "label-shown");
      text.setAttribute("font-size", size.toFixed(1));
      const width = text.getComputedTextLength() + pad;
      const height = size * 1.05;
      const box = boxes[index];
      // Where the label's top-left corner may go, nearest its box first.
      const spots = [
        [box.x, box.y - height - pad / 2],
        [box.x, box.y + box.height + pad / 2],
        [box.x + box.width - width, box.y - height - pad / 2],
        [box.x + box.width - width, box.y + box.height + pad / 2],
        [box.x - width - pad / 2, box.y],
        [box.x + box.width + pad / 2, box.y],
        [box.x - width - pad / 2, box.y + box.height - height],
        [box.x + box.width + pad / 2, box.y + box.height - height],
        [box.x + pad / 2, box.y + pad / 2],
      ].map(([x, y]) => ({ x, y, width, height }))
        .filter((spot) => spot.x >= 0 && spot.y >= 0 && spot.x + spot.width <= view.width && spot.y + spot.height <= view.height);
      const free = (spot) => !placed.some((other) => overlaps(spot, other));
      const clear = (spot) => !boxes.some((other, at) => at !== index && overlaps(spot, other));
      const spot = spots.find((one) => free(one) && clear(one)) || spots.find(free);
      if (spot) {
        placed.push(spot);
        text.setAttribute("x", (spot.x + pad / 2).toFixed(1));
        text.setAttribute("y", (spot.y + size * 0.85).toFixed(1));
      } else {
        group.classList.add("label-hidden");
        text.setAttribute("x", box.x.toFixed(1));
        text.setAttribute("y", Math.max(box.y - pad, size).toFixed(1));
      }
    });
    svg.dataset.placed = "";  // the labels are where they will stay (tests wait for it)
  }

  function placeAll() {
    document.querySelectorAll("figure.photo svg").forEach(place);
  }

  // A tap on a box whose label had no room shows it (and hides it again).
  document.addEventListener("click", (event) => {
    const group = event.target.closest?.("figure.photo g.label-hidden, figure.photo g.label-shown");
    if (!group || group.matches("[data-add-card]")) return;
    group.classList.toggle("label-hidden");
    group.classList.toggle("label-shown");
  });

  let waiting = null;
  window.addEventListener("resize", () => {
    clearTimeout(waiting);
    waiting = setTimeout(placeAll, 150);
  });
  document.addEventListener("DOMContentLoaded", placeAll);
  document.addEventListener("htmx:afterSettle", placeAll);
  return { placeAll };
})();

// The service worker (static/js/sw.js, served at /sw.js) keeps the app's shell and the round
// screen of each table opened here, so that it loads again with no connection. A page the
// worker did not load itself (the first, before it took over) asks to be kept; the root element
// says data-offline="ready" once it is. Where there is none (plain HTTP on the LAN, an old
// browser), everything works online as before.
(function () {
  "use strict";

  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
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
})();

// A signed-in member's page says which session it was shown for (data-session); the sk_session
// cookie says which one the tablet is signed in to now, and goes when the session ends: logged
// out here or elsewhere (the next answer deletes it), or idle or expired (it expires with it,
// connection or not). Once they differ, the page leaves and nothing kept is shown again: what
// the service worker kept, the table live.js kept, the hands typed and taps waiting stay only
// for this member to send after logging in again (they are checked against the account).
window.sessionWatch = (function () {
  "use strict";

  const shownFor = document.documentElement.dataset.session;
  if (!shownFor) return null;
  // The Cookie Store API where there is one (the service worker reads the cookie the same way);
  // document.cookie elsewhere.
  async function now() {
    if (window.cookieStore) {
      try {
        return (await cookieStore.get("sk_session"))?.value || "";
      } catch {
        // Refused (an opaque origin): the plain way below.
      }
    }
    return (document.cookie.match(/(?:^|;\s*)sk_session=([^;]*)/) || [])[1] || "";
  }
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

  async function check() {
    if (!left && (await now()) !== shownFor) leave();
  }
  check();
  setInterval(check, 2_000);
  document.addEventListener("visibilitychange", check);
  return { check };
})();

// Notes above a round screen about what this tablet kept (hands typed, taps made with no
// connection): outside the table, so the next poll does not take them away; each stays until
// dismissed. A polite live region.
window.tableNote = (function () {
  "use strict";

  function region() {
    const live = document.getElementById("live");
    if (!live) return null;
    let notes = document.getElementById("table-notes");
    if (!notes) {
      notes = document.createElement("div");
      notes.id = "table-notes";
      notes.className = "table-notes";
      notes.setAttribute("role", "status");
      notes.setAttribute("aria-live", "polite");
      live.before(notes);
    }
    return notes;
  }
  document.addEventListener("DOMContentLoaded", region);

  document.addEventListener("click", (event) => {
    const dismiss = event.target.closest("[data-note-dismiss]");
    if (dismiss) dismiss.closest(".table-note").remove();
  });

  return function tableNote(message) {
    const notes = region();
    if (!notes) return;
    const line = document.createElement("p");
    line.className = "table-note";
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "secondary outline";
    dismiss.dataset.noteDismiss = "";
    dismiss.textContent = "Dismiss";
    line.append(`${message} `, dismiss);
    notes.append(line);
  };
})();

// Hands typed on the score entry (or filled from a photo) are kept on this tablet as a draft, in
// localStorage under "sk:draft:<table id>", until the round is saved or they are cleared: a
// reload, a lost connection or the tablet sleeping loses none of them. A draft says which round
// it is for (its number and its row's id): once that round is saved or taken back elsewhere, the
// draft is dropped with a note, never put into another round. Drafts are only ever put back in
// the boxes, never sent by themselves; one that cannot be read is set aside with a note.
(function () {
  "use strict";

  const APP = "scorekeeper";
  const FORMAT = 1;
  const SEAT = /^[0-9]{1,19}$/;
  const keyOf = (table) => `sk:draft:${table}`;
  const savedHere = new Set(); // rounds this tablet saved: their drafts go without a note
  let restoring = false;

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
    try {
      if (!Object.keys(hands).length) {
        localStorage.removeItem(keyOf(where.table));
        return;
      }
      const draft = {
        app: APP,
        format: FORMAT,
        table: where.table,
        user: where.user,
        contract: where.contract,
        round: where.round,
        version: where.version,
        savedAt: Date.now(),
        hands,
      };
      localStorage.setItem(keyOf(where.table), JSON.stringify(draft));
    } catch {
      // Storage full or refused: typing works as before, only without a draft.
    }
  }

  // The draft, or the reason it cannot be used.
  function read(raw, where) {
    const NOT_READ = "Hands kept on this tablet for this table could not be read, so they were not restored.";
    let draft;
    try {
      draft = JSON.parse(raw);
    } catch {
      return { problem: NOT_READ };
    }
    if (!draft || typeof draft !== "object" || draft.app !== APP) return { problem: NOT_READ };
    if (draft.format !== FORMAT) {
      return { problem: "Hands kept on this tablet by another version of the app were not restored." };
    }
    if (draft.table !== where.table) {
      return { problem: "Hands kept on this tablet for another table were not restored." };
    }
    const whole =
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
    return whole ? { draft } : { problem: NOT_READ };
  }

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

  const two = (number) => String(number).padStart(2, "0");
  function when(time) {
    const date = new Date(time);
    const clock = `${two(date.getHours())}:${two(date.getMinutes())}`;
    if (date.toDateString() === new Date().toDateString()) return `at ${clock}`;
    return `on ${date.toLocaleDateString(undefined, { day: "numeric", month: "long" })} at ${clock}`;
  }

  function restoredNote(form, draft) {
    form.querySelector(".draft-note")?.remove();
    const note = document.createElement("p");
    note.className = "draft-note";
    note.setAttribute("role", "status");
    const clear = document.createElement("button");
    clear.type = "button";
    clear.className = "secondary outline";
    clear.dataset.draftClear = "";
    clear.textContent = "Clear";
    note.append(`Restored the hands you typed ${when(draft.savedAt)} — `, clear);
    // In the hint's place: five players' hands and the save button still fit one tablet.
    const hint = form.querySelector(".hint");
    if (hint) hint.hidden = true;
    (hint || form.querySelector("h2")).after(note);
  }

  // Whenever a table is shown (loaded, answered, polled): the draft goes back into its round's
  // score entry if the boxes are empty, or is dropped if its round is over.
  function check() {
    const where = screen();
    if (!where) return;
    const key = keyOf(where.table);
    const raw = localStorage.getItem(key);
    if (raw === null) return;
    const { draft, problem } = read(raw, where);
    if (problem) {
      localStorage.removeItem(key);
      window.tableNote(problem);
      return;
    }
    if (draft.user !== where.user) {
      localStorage.removeItem(key); // another member's, on a shared tablet
      return;
    }
    if (draft.round !== where.round) {
      localStorage.removeItem(key);
      if (savedHere.has(draft.round)) return;
      const why =
        where.contract === null || where.contract > draft.contract
          ? `contract ${draft.contract} was saved on another screen meanwhile`
          : "the table was changed on another screen meanwhile";
      window.tableNote(`The hands typed here for contract ${draft.contract} were not restored: ${why}.`);
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
    const raw = localStorage.getItem(keyOf(where.table));
    const draft = raw && read(raw, where).draft;
    if (draft && draft.round !== where.round) {
      savedHere.add(draft.round);
      localStorage.removeItem(keyOf(where.table));
    }
  });

  document.addEventListener("input", (event) => {
    if (event.target.closest?.("#table form.score-entry")) save();
  });
  document.addEventListener("change", (event) => {
    if (event.target.matches?.("#table form.score-entry .held input[type=radio]")) save();
  });
  // Keypad keys change the box without an input event; their listener (above) has run.
  document.addEventListener("click", (event) => {
    if (event.target.closest("#table form.score-entry .key")) save();
    const clear = event.target.closest("[data-draft-clear]");
    if (!clear) return;
    const form = clear.closest("form.score-entry");
    for (const fieldset of entries(form)) {
      const box = fieldset.querySelector(".cards-input");
      window.cardChips.clear(box);
      fieldset.querySelector(".points-input").value = "";
      box.dispatchEvent(new Event("input", { bubbles: true }));
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
})();

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
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
});

// The sheet to send (share.html): through the tablet's share sheet, the picture where it can
// share files, else the text; with no share sheet the link downloads the picture by itself. The
// picture is fetched when the link shows, so that the share sheet opens within the tap.
(function () {
  "use strict";

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

  function prepare() {
    if (!navigator.share) return;
    document.querySelectorAll("a[data-share]").forEach(picture);
    document.querySelectorAll("button[data-share-text]").forEach((button) => (button.hidden = false));
  }
  document.addEventListener("DOMContentLoaded", prepare);
  document.addEventListener("htmx:afterSettle", prepare);

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
})();
