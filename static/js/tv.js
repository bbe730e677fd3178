// A TV shows a list longer than its screen a page at a time (tonight.html): each list's pages
// are its tbody elements, shown in turn every ten seconds, and the words beside its heading say
// which the screen shows (each page's `data-turn`). The poll's new list starts where the old one was.
const EVERY = 10_000;
let turn = 0;

function show() {
  document.querySelectorAll("[data-turns-of]").forEach((label) => {
    const pages = document.querySelectorAll(`#${label.dataset.turnsOf} > tbody[data-turn]`);
    if (!pages.length) return;
    const shown = turn % pages.length;
    pages.forEach((page, index) => {
      page.hidden = index !== shown;
    });
    label.textContent = pages[shown].dataset.turn;
  });
}

setInterval(() => {
  turn += 1;
  show();
}, EVERY);
document.addEventListener("htmx:afterSwap", show);
