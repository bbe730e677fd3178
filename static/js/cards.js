// Entering a hand's cards: chips, the rank keypad with the live total, the card picker, and
// the count check.

// The cards of a cards box as chips: tap a wrong one and it is taken out, and the next card
// tapped on the keypad or picker goes in its place. Cards a photo read unsure are flagged.
const cursors = new WeakMap(); // box -> where the next card goes, after a chip was taken out

const tokens = (box) => box.value.split(/[\s,]+/).filter(Boolean);
const unsure = (box) => (box.dataset.unsure || "").split(",").filter(Boolean).map(Number);

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

// A card typed, tapped or read: points typed for the hand give way, and the page hears of it
// (the live total, the count check, the draft).
function changed(box) {
  const points = box.closest(".hand-entry")?.querySelector(".points-input");
  if (points) points.value = "";
  box.dispatchEvent(new Event("input", { bubbles: true }));
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
  if (!corrected) write(box, read, readFlags);
  else {
    const added = readFlags
      .filter((index) => index >= before.length)
      .map((index) => list.length + index - before.length);
    write(box, [...list, ...read.slice(before.length)], [...unsure(box), ...added]);
  }
  changed(box);
}

// The card at `at` taken out; the next card goes in its place if `cursor` says so.
function removeAt(box, at, cursor = true) {
  const list = tokens(box);
  list.splice(at, 1);
  if (cursor) cursors.set(box, at);
  const flagged = unsure(box).filter((index) => index !== at);
  write(box, list, flagged.map((index) => (index > at ? index - 1 : index)));
}

// The card before the cursor, or the last one, taken out.
function erase(box) {
  const hadCursor = cursors.has(box);
  const at = (hadCursor ? cursors.get(box) : tokens(box).length) - 1;
  if (at >= 0) removeAt(box, at, hadCursor);
}

function clear(box) {
  cursors.delete(box);
  write(box, [], []);
}

function chipsOf(box) {
  let chips = box.closest("label, .field")?.nextElementSibling;
  if (!chips || !chips.classList.contains("card-chips")) {
    chips = pageElement("div", "card-chips");
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
    const chip = pageElement("button", "chip", flagged.has(index) ? `${token}?` : token);
    chip.type = "button";
    const suit = token.match(/[SHDC]$/i);
    if (suit && token.length > 1) chip.classList.add(`suit-${suit[0].toUpperCase()}`);
    if (flagged.has(index)) chip.classList.add("unsure");
    chip.dataset.index = index;
    chip.setAttribute("aria-label", translated(flagged.has(index) ? "Take out {card}, read unsure" : "Take out {card}", { card: token }));
    chips.append(chip);
  });
  if (at !== undefined && at >= tokens(box).length) chips.append(caret());
}

function caret() {
  const mark = pageElement("span", "chip-caret");
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

htmx.onLoad(() => document.querySelectorAll("[data-chips]").forEach(render));

window.cardChips = { insert, erase, clear, render, fill, changed };

// Score entry's live total: each card typed is looked up in what the server says each way of
// typing a card scores (#card-points), so no notation is parsed here; the server counts every
// total again on save.
let points = null;
function handPoints(text) {
  points ??= JSON.parse(document.getElementById("card-points")?.textContent || "{}");
  let total = 0;
  for (const card of text.split(/[\s,]+/).filter(Boolean)) {
    const value = points[card.toUpperCase().replaceAll("\uFE0F", "")];
    if (value === undefined) return null;
    total += value;
  }
  return total;
}

function refresh(fieldset) {
  const cards = fieldset.querySelector(".cards-input").value;
  const typed = fieldset.querySelector(".points-input").value;
  const output = fieldset.querySelector(".hand-total");
  const total = cards.trim() ? handPoints(cards) : typed === "" ? null : Number(typed);
  output.textContent = total === null ? (cards.trim() ? "?" : "") : `${total} pts`;
}

document.addEventListener("input", (event) => {
  const fieldset = event.target.closest(".hand-entry");
  if (fieldset) refresh(fieldset);
});

htmx.onLoad(() => document.querySelectorAll(".hand-entry").forEach(refresh));

// The rank keypad and the card picker: a tap types into the cards box, as if the player had
// typed it (points typed for the hand give way).
document.addEventListener("click", (event) => {
  const key = event.target.closest(".keypad .key, .picker .pick");
  if (!key) return;
  const box = key.matches(".pick")
    ? document.getElementById(key.closest(".picker").dataset.target)
    : key.closest(".hand-entry").querySelector(".cards-input");
  if (key.hasAttribute("data-erase")) window.cardChips.erase(box);
  else if (key.hasAttribute("data-clear")) window.cardChips.clear(box);
  else window.cardChips.insert(box, key.dataset.rank || key.dataset.card);
  window.cardChips.changed(box);
});

// The count check (held.html): the player taps how many cards the hand holds (the usual count
// is chosen once a photo is read), and the server says, in words, how many are missing or too
// many as the cards are entered. The checker keeps the number said for the round.
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
  const usually = held.querySelector(`input[type=radio][value="${held.dataset.usually}"]`);
  if (usually && !held.querySelector("input[type=radio]:checked")) usually.checked = true;
  // The number chosen in sight, in a row that scrolls sideways on a phone.
  const row = held.querySelector(".held-row");
  const choice = held.querySelector(".held-choice input:checked")?.closest(".held-choice");
  if (row && choice) row.scrollLeft = choice.offsetLeft - row.offsetLeft - row.clientWidth / 2;
  held.dispatchEvent(new Event("change")); // the server says the count anew
}

// A hand whose photo could not be read is typed: no count is said for it, none sent.
function hide(held) {
  if (!held) return;
  held.hidden = true;
  held.querySelectorAll("input[type=radio]").forEach((radio) => (radio.checked = false));
}

document.addEventListener("change", (event) => {
  const held = event.target.matches?.(".held input[type=radio]") && event.target.closest(".held");
  try {
    if (held?.dataset.remember) sessionStorage.setItem(held.dataset.remember, event.target.value);
  } catch {
    // storage refused: the number is kept on the page only
  }
});
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".held[data-held-for]:not([hidden])").forEach(show);
});

window.countCheck = { show, hide };
