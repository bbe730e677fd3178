// Editing a round: the hand of whoever the "Went out" menu names scores 0, so its row is greyed
// out and disabled (not sent); picking someone else moves that to their row. Without this
// script the server greys out the row it was given, and every row is still sent.
function follow(menu) {
  const form = menu.form;
  form.querySelectorAll(".hand-entry").forEach((fieldset) => {
    const out = fieldset.dataset.seat === menu.value;
    fieldset.classList.toggle("not-counted", out);
    fieldset.disabled = out;
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const menu = document.querySelector("form.score-entry select[name=went_out]");
  if (!menu) return;
  follow(menu);
  menu.addEventListener("change", () => follow(menu));
});
