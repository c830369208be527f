/* cardbase: the card editor's live preview. As you type, the face is drawn again by the server's
 * renderer (the same image as print), at most once per pause (debounced); a value the import's
 * rules refuse is listed under the preview instead. Without JavaScript the form still saves. */
(() => {
  "use strict";
  const form = document.getElementById("card-editor");
  if (!form) return;
  const img = document.getElementById("preview");
  const status = document.getElementById("preview-status");
  const problems = document.getElementById("preview-problems");
  const WAIT_MS = 350;
  let timer = 0;
  let sequence = 0;

  function values() {
    const out = {};
    for (const [key, value] of new FormData(form).entries()) {
      if (key !== "game" && key !== "version" && typeof value === "string") out[key] = value;
    }
    return out;
  }

  function showProblems(lines) {
    problems.replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
    problems.hidden = lines.length === 0;
  }

  async function draw() {
    const mine = ++sequence;
    const body = { game: form.dataset.game, values: values() };
    if (form.dataset.card) body.card = form.dataset.card;
    status.textContent = "Drawing…";
    let response;
    try {
      response = await fetch("/api/cards/preview", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "image/png" },
        body: JSON.stringify(body),
      });
    } catch (error) {
      if (mine === sequence) status.textContent = "Could not reach the server; the form still saves.";
      return;
    }
    if (mine !== sequence) return; // a newer drawing is on its way
    if (response.ok) {
      const blob = await response.blob();
      const data = await new Promise((resolve) => {
        const reader = new FileReader(); // a data: URL, which the pages' Content-Security-Policy allows
        reader.onload = () => resolve(reader.result);
        reader.readAsDataURL(blob);
      });
      if (mine !== sequence) return;
      img.src = data;
      img.classList.remove("broken");
      img.dataset.drawn = String(mine);
      status.textContent = "Drawn as typed (not saved yet).";
      showProblems([]);
      return;
    }
    let data = {};
    try {
      data = await response.json();
    } catch (error) {
      data = {};
    }
    if (mine !== sequence) return;
    const err = data.error || {};
    const problems = err.problems || [];
    // the problems name the form's fields; the message names the API's (values.cost)
    status.textContent = problems.length ? "Not drawn: fix the values below." : err.text || err.message || "The values cannot be drawn yet.";
    showProblems(problems);
  }

  // The fields only some card types have (a Meikyu land's level, a character's bravery) show for the
  // chosen type; one that still holds a value stays, with a note, so no value is dropped unseen: the
  // rules refuse it until it is cleared.
  const typeSelect = form.querySelector('select[name="type"]');
  function showTypedFields() {
    if (!typeSelect) return;
    const chosen = typeSelect.value;
    for (const note of form.querySelectorAll("[data-na-for]")) {
      const name = note.dataset.naFor;
      const parts = form.querySelectorAll(`[data-field="${name}"]`);
      const control = form.elements.namedItem(name);
      const types = (parts[0] ? parts[0].dataset.types : "").split(" ");
      const held = control && "value" in control ? !["", "?"].includes(control.value.trim()) : false;
      const applies = chosen === "" || types.includes(chosen);
      for (const part of parts) part.hidden = !applies && !held;
      note.hidden = applies || !held;
      note.textContent = `A card of type ${chosen} has no ${name.replace(/_/g, " ")}: clear it, or saving is refused.`;
    }
  }
  if (typeSelect) typeSelect.addEventListener("change", showTypedFields);

  form.addEventListener("input", (event) => {
    if (event.target !== typeSelect && event.target.dataset && event.target.dataset.field) showTypedFields();
    clearTimeout(timer);
    timer = setTimeout(draw, WAIT_MS);
  });
})();
