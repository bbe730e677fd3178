// Photos of hands: read as soon as taken, their cards put into the box, which photo each card
// came from, and the marks' labels placed on the photo.

// A photo is read as soon as it is taken: no second tap on "Read the photo". The Photo button
// opens the camera through the file box it stands for; "2nd photo" does too, and the photo is
// then read as a second photo of the hand, with the first.
document.addEventListener("click", (event) => {
  const trigger = event.target.closest("[data-photo-for]");
  if (!trigger) return;
  const input = document.getElementById(trigger.dataset.photoFor);
  if (!input) return;
  input.toggleAttribute("data-second", trigger.hasAttribute("data-second"));
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

// Which photo each card came from (photo_read.html) is said of the cards still in the box: a
// card taken out since is no longer listed, as many of a card listed as the box holds.
document.addEventListener("input", (event) => {
  const box = event.target;
  if (!box.id || !box.matches?.("[data-chips]")) return;
  const left = {};
  for (const card of box.value.toUpperCase().split(/[\s,]+/).filter(Boolean)) left[card] = (left[card] || 0) + 1;
  document.querySelectorAll(`.photo-result[data-fill="${box.id}"] .card-sources li[data-card]`)
    .forEach((source) => {
      const card = source.dataset.card;
      source.hidden = !left[card];
      if (left[card]) left[card] -= 1;
    });
});

// A photo read by a worker (photo_read.html): its cards go into the box it was taken for, as if
// tapped in, and a standalone checker's photo is shown from the file still chosen on the page.
// A hand's count check and its "2nd photo" button show once it has a photo.
document.addEventListener("htmx:afterSettle", () => {
  document.querySelectorAll(".photo-result:not([data-filled])").forEach((read) => {
    read.dataset.filled = "";
    const box = document.getElementById(read.dataset.fill);
    const entry = read.closest(".hand-entry");
    if (read.dataset.cards !== undefined) {
      if (box) window.cardChips.fill(box, read.dataset.cards, read.dataset.unsure || "");
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

// A card the recognizer was unsure of, marked dashed on the photo or listed under it, goes into
// the hand with one tap; the card's button and its mark on the photo then say it was added.
document.addEventListener("click", (event) => {
  const add = event.target.closest("[data-add-card]");
  const read = add?.closest(".photo-result");
  const box = read && document.getElementById(read.dataset.fill);
  const same = box && read.querySelectorAll(`[data-add-card="${CSS.escape(add.dataset.addCard)}"]`);
  if (!same || [...same].some((one) => one.classList.contains("added"))) return;
  window.cardChips.insert(box, add.dataset.addCard);
  window.cardChips.changed(box);
  same.forEach((one) => {
    one.classList.add("added");
    if (one.matches("button")) {
      one.disabled = true;
      one.setAttribute("aria-label", `${one.dataset.addCard} added`);
    }
  });
});

// The marks' labels on a photo, placed apart: each label goes beside its box where it covers
// no other label (and, if it can, no other box), at a size legible on the screen it is shown on;
// a label with no room left is hidden, and a tap on its box shows it. Placed again when the
// photo's size on the screen changes.
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
  const boxes = groups.map((group) => group.querySelector("rect").getBBox());
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
htmx.onLoad(placeAll);
