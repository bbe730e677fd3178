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
    const tokens = input.value.split(/[\s,]+/).filter(Boolean);
    if (key.hasAttribute("data-erase")) tokens.pop();
    else tokens.push(key.dataset.rank);
    input.value = tokens.join(" ");
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
    const picker = pick.closest(".picker");
    const box = document.getElementById(picker.dataset.target);
    const tokens = box.value.split(/\s+/).filter(Boolean);
    if (pick.hasAttribute("data-erase")) tokens.pop();
    else if (pick.hasAttribute("data-clear")) tokens.length = 0;
    else tokens.push(pick.dataset.card);
    box.value = tokens.join(" ");
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
})();

// A photo is read as soon as it is taken: no second tap on "Read the photo".
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!input.matches("input[type=file][data-autosubmit]")) return;
  const reader = input.closest("fieldset, .photo-form")?.querySelector("[data-photo-submit]");
  if (reader) reader.click();
  else input.form.requestSubmit();
});
