// Entering a hand's cards: chips, the rank keypad with the live total, the card picker, and
// the count check.

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
      chips.setAttribute("aria-label", translated("Cards entered: tap one to take it out"));
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
      chip.setAttribute("aria-label", translated(flagged.has(index) ? "Take out {card}, read unsure" : "Take out {card}", { card: token }));
      chips.append(chip);
    });
    if (at !== undefined && at >= tokens(box).length) chips.append(caret());
  }

  function caret() {
    const mark = document.createElement("span");
    mark.className = "chip-caret";
    mark.title = translated("The next card goes here");
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

// The count check (score_rows.html): the player taps how many cards the hand holds (the usual
// count is chosen once a photo is read) and the page says, in words, how many are missing or
// too many before anything is saved; the server says the same if it is saved anyway (forms
// count_problem). A card the recognizer was unsure of, marked dashed on the photo or listed
// under it, goes into the hand with one tap.
window.countCheck = (function () {
  "use strict";

  const WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

  function cardsInWords(count) {
    const words = count < WORDS.length ? translated(WORDS[count]) : String(count);
    const text = translatedCount(count, "{count} card", "{count} cards", { count: words });
    return `${text[0].toUpperCase()}${text.slice(1)}`;
  }

  function problem(held, entered) {
    const values = { held, entered };
    if (entered < held) {
      values.cards = cardsInWords(held - entered);
      return translatedCount(
        held - entered,
        "{cards} missing: this hand holds {held} and {entered} are entered. Add it, or tap how many it holds.",
        "{cards} missing: this hand holds {held} and {entered} are entered. Add them, or tap how many it holds.",
        values,
      );
    }
    values.cards = cardsInWords(entered - held);
    return translatedCount(
      entered - held,
      "{cards} too many: this hand holds {held} and {entered} are entered. Take it out, or tap how many it holds.",
      "{cards} too many: this hand holds {held} and {entered} are entered. Take them out, or tap how many it holds.",
      values,
    );
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
    else if (entered === count) said.textContent = count === 1 ? translated("The card is entered.") : translatedCount(count, "All {count} card is entered.", "All {count} cards are entered.");
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
