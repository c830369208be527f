/* cardbase: stepping through a replay without reloading the page. The links and forms of the
 * replay page work without it; with it, the slider, the buttons and the arrow keys fetch just the
 * step (the board and its action) and the address keeps the step, so a reload or a link shows it. */
(() => {
  "use strict";

  const nav = document.getElementById("replay-controls");
  const region = document.getElementById("replay-step");
  if (!nav || !region) return;
  const key = nav.dataset.key;
  const last = Number(nav.dataset.length);
  let step = Number(nav.dataset.step);
  let seat = nav.dataset.seat;
  let sequence = 0;

  const slider = document.getElementById("step-slider");
  const seatSelect = document.getElementById("seat-select");
  const turnSelect = document.getElementById("turn-select");

  function links() {
    const href = (n) => `?step=${n}&seat=${encodeURIComponent(seat)}`;
    const set = (id, n) => {
      const a = document.getElementById(id);
      if (a) a.setAttribute("href", href(n));
    };
    set("step-first", 0);
    set("step-prev", Math.max(0, step - 1));
    set("step-next", Math.min(last, step + 1));
    set("step-last", last);
    const count = document.querySelector("#step-count strong");
    if (count) count.textContent = String(step);
    if (slider) slider.value = String(step);
    for (const input of document.querySelectorAll('#turn-form input[name="seat"]')) input.value = seat;
  }

  async function load(n, options = {}) {
    const target = Math.max(0, Math.min(last, n));
    const query = options.turn !== undefined ? `turn=${options.turn}` : `step=${target}`;
    const mine = ++sequence;
    if (options.turn === undefined) {
      step = target; // at once: a second click or key while this step is on its way goes on from it
      links();
    }
    let response;
    try {
      response = await fetch(`/replay/${key}?${query}&seat=${encodeURIComponent(seat)}&fragment=1`, { credentials: "same-origin" });
    } catch (error) {
      location.href = `/replay/${key}?${query}&seat=${encodeURIComponent(seat)}`;
      return;
    }
    if (mine !== sequence) return; // a later step is on its way
    if (!response.ok) {
      location.href = `/replay/${key}?${query}&seat=${encodeURIComponent(seat)}`; // the page says why
      return;
    }
    const text = await response.text();
    if (mine !== sequence) return; // a later step was asked for while this one was read
    const doc = new DOMParser().parseFromString(text, "text/html");
    const body = doc.getElementById("step-body");
    if (!body) return;
    window.cardbaseTyped.kept(region, () => region.replaceChildren(document.adoptNode(body))); // (cardbase.js)
    // said: the step's line and a refusal (the board is there to be read, not read out at each step)
    const news = document.getElementById("step-news");
    if (news) {
      const said = [body.querySelector("#step-action"), body.querySelector(".error")].filter(Boolean);
      news.textContent = said.map((el) => el.textContent.replace(/\s+/g, " ").trim()).join(" ");
    }
    step = Number(body.dataset.step);
    if (turnSelect && body.dataset.turn) turnSelect.value = body.dataset.turn;
    links();
    history.replaceState(null, "", `/replay/${key}?step=${step}&seat=${encodeURIComponent(seat)}`);
  }

  nav.addEventListener("click", (event) => {
    const a = event.target instanceof Element ? event.target.closest("a.step-link") : null;
    if (!a) return;
    event.preventDefault();
    const n = Number(new URLSearchParams(a.getAttribute("href").slice(1)).get("step"));
    load(n);
  });
  if (slider) slider.addEventListener("input", () => load(Number(slider.value)));
  if (seatSelect) {
    seatSelect.addEventListener("change", () => {
      seat = seatSelect.value;
      load(step);
    });
  }
  document.getElementById("step-form")?.addEventListener("submit", (event) => {
    event.preventDefault();
    load(Number(slider.value));
  });
  document.getElementById("turn-form")?.addEventListener("submit", (event) => {
    event.preventDefault();
    load(step, { turn: Number(turnSelect.value) });
  });
  if (turnSelect) turnSelect.addEventListener("change", () => load(step, { turn: Number(turnSelect.value) }));
  document.addEventListener("keydown", (event) => {
    const t = event.target;
    if (t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName))) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last };
    if (event.key in moves) {
      event.preventDefault();
      load(moves[event.key]);
    }
  });
})();
