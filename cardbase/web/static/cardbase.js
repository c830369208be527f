/* Nothing typed is lost when a part of a page is swapped in (the table's answer, the builder's panels,
 * the search's results): ``cardbaseTyped.kept(root, swap, accepted)`` notes each text field under
 * ``root`` (its value, caret and selection, focus, and whether it was shown), runs ``swap``, then puts
 * them back in the field of the same key (its id, else its name within the nearest element with an id
 * or a card's entry; within a part that says whose it is, ``data-typed-owner``, its owner too: a seat's
 * draft never goes into another seat's box) where the new part has one. A value the server took (``accepted``, from ``sent``:
 * a move or a tag sent and saved) is not put back: the page shows what became of it. play.js and
 * replay.js use it too (this file loads first on every page). */
window.cardbaseTyped = (() => {
  "use strict";

  const TEXT = new Set(["text", "search", "number", "email", "url", "tel"]);
  const typable = (el) =>
    (el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TEXT.has(el.type))) && !el.readOnly;
  const fields = (root) => Array.from(root.querySelectorAll("input, textarea")).filter(typable);

  function keyOf(field) {
    const owner = field.closest("[data-typed-owner]");
    const whose = owner ? `${owner.dataset.typedOwner}: ` : "";
    if (field.id) return whose + "#" + field.id;
    if (!field.name) return "";
    const scope = field.parentElement && field.parentElement.closest("[id], [data-card-id]");
    const where = !scope ? "" : scope.id ? "#" + scope.id : `card ${scope.dataset.cardId} ${scope.dataset.section || ""}`;
    return `${whose}${where} ${field.name}`;
  }

  // the fields under ``root`` by key, each key's in page order
  function byKey(root) {
    const out = new Map();
    for (const field of fields(root)) {
      const key = keyOf(field);
      if (!key) continue;
      if (!out.has(key)) out.set(key, []);
      out.get(key).push(field);
    }
    return out;
  }

  function note(root) {
    const active = document.activeElement;
    const notes = new Map();
    for (const [key, list] of byKey(root)) {
      notes.set(
        key,
        list.map((field) => {
          const focused = field === active;
          const edited = field.value !== field.defaultValue;
          if (!focused && !edited) return null;
          const shown = !field.closest("details:not([open])");
          let selection = null;
          try {
            if (field.selectionStart !== null) selection = [field.selectionStart, field.selectionEnd, field.selectionDirection || "none"];
          } catch (error) {
            selection = null; // a field without a caret (a number's)
          }
          return { field, value: field.value, focused, edited, shown, selection };
        }),
      );
    }
    return notes;
  }

  function restore(root, notes, accepted) {
    const now = byKey(root);
    for (const [key, list] of notes) {
      list.forEach((was, at) => {
        const field = (now.get(key) || [])[at];
        if (!was || !field || was.field.isConnected) return; // nothing to keep, no such field, or not swapped out
        const taken = accepted && accepted.get(key) === was.value;
        if (was.edited && !taken) field.value = was.value;
        if (was.shown) for (let d = field.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
        if (!was.focused) return;
        field.focus({ preventScroll: true });
        if (was.selection && field.value === was.value) {
          try {
            field.setSelectionRange(...was.selection);
          } catch (error) {
            // a field without a caret
          }
        }
      });
    }
  }

  return {
    /** Run ``swap`` (which replaces part of ``root``), keeping what was typed in ``root``'s text fields. */
    kept(root, swap, accepted = null) {
      const notes = note(root);
      const result = swap();
      restore(root, notes, accepted);
      return result;
    },
    /** The text fields of ``form`` as sent: key → value (for ``kept``'s ``accepted``). */
    sent(form) {
      return new Map(fields(form).map((field) => [keyOf(field), field.value]));
    },
    /** A sent value the server took, still in its field (the answer not shown): cleared, as the answer would. */
    forget(root, accepted) {
      for (const [key, list] of byKey(root)) for (const field of list) if (accepted.get(key) === field.value) field.value = field.defaultValue;
    },
    /** Whether the focus is in a text field (a player typing there is not moved elsewhere). */
    typing() {
      return typable(document.activeElement);
    },
  };
})();

/* cardbase: the small scripts that make the server-rendered pages live.
 * Every page works without them (links and forms); with them the gallery searches as you type,
 * the deck builder adds cards by click or keyboard and its panels update without a reload.
 * No library: fetch, DOMParser and the forms already on the page. */
(() => {
  "use strict";

  const $ = (sel, root = document) => root.querySelector(sel);
  // "1 card", "2 cards": a count and its noun, as the server's counted() words them
  const counted = (n, noun) => `${n} ${String(n).trim() === "1" ? noun : noun + "s"}`;
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const typed = window.cardbaseTyped;

  function debounce(fn, ms) {
    let timer = 0;
    return (...args) => {
      clearTimeout(timer);
      timer = setTimeout(() => fn(...args), ms);
    };
  }

  async function fetchHtml(url, options = {}) {
    const response = await fetch(url, { credentials: "same-origin", ...options });
    const text = await response.text();
    return { ok: response.ok, status: response.status, doc: new DOMParser().parseFromString(text, "text/html") };
  }

  // A request the server did not answer, or answered with a page not its own (a proxy's error page):
  // said on the page in words, never a silent nothing. ``id`` names the message (replaced, not stacked).
  function unanswered(id, text) {
    const p = document.createElement("p");
    p.id = id;
    p.className = "error";
    p.setAttribute("role", "alert");
    p.dataset.unanswered = "";
    p.textContent = text;
    return p;
  }

  function params(form, without = []) {
    const data = new URLSearchParams(new FormData(form));
    for (const key of without) data.delete(key);
    for (const [key, value] of Array.from(data.entries())) if (value === "") data.delete(key);
    return data;
  }

  // A card image not drawn (yet): hide the broken image, the placeholder with the name shows. Also one
  // that failed before this script ran (a new card's empty face): its error came before the listener.
  document.addEventListener(
    "error",
    (event) => {
      const img = event.target;
      if (img instanceof HTMLImageElement && img.closest(".thumb")) img.classList.add("broken");
    },
    true,
  );
  for (const img of document.querySelectorAll(".thumb img")) {
    if (img.complete && img.naturalWidth === 0) img.classList.add("broken");
  }

  // --- the gallery: search as you type --------------------------------------------------------

  const GALLERY_KEYS = ["q", "game", "set", "type", "order", "direction", "view", "page", "section", "last"];

  const search = $("#search");
  if (search) {
    const box = $("#q", search);
    const last = $('input[name="last"]', search);
    let sequence = 0;

    const run = async () => {
      const mine = ++sequence;
      const query = params(search);
      const url = search.dataset.fragment + "&" + query.toString();
      let result;
      try {
        result = await fetchHtml(url, { headers: { Accept: "text/html" } });
      } catch (error) {
        result = null; // offline or the server stopped
      }
      if (mine !== sequence) return; // a newer search is on its way
      const region = $("#results-region");
      const fresh = result && $("#results-region", result.doc);
      if (!region) return;
      $("#search-unanswered")?.remove();
      if (!fresh) {
        region.prepend(unanswered("search-unanswered", "The server did not answer: these are the results of the last search. Try again in a moment, or reload the page."));
        return;
      }
      if (result.ok) {
        typed.kept(document.body, () => region.replaceWith(fresh));
        if (last) last.value = fresh.dataset.query || "";
        box.setAttribute("aria-describedby", "query-help");
        // the URL says what is shown: the search, and (in the deck builder) the panels' choices it keeps
        const url = new URLSearchParams(location.search);
        for (const key of GALLERY_KEYS) url.delete(key);
        for (const [key, value] of params(search, ["last"]).entries()) url.set(key, value);
        history.replaceState(null, "", search.getAttribute("action") + "?" + url.toString() + location.hash);
      } else {
        // a bad query: say which term, keep the results of the last good one
        const error = $("#query-error", result.doc);
        const old = $("#query-error", region);
        if (old) old.remove();
        if (error) region.prepend(error);
        box.setAttribute("aria-describedby", "query-help query-error");
      }
    };

    box.addEventListener("input", debounce(run, 250));
    search.addEventListener("change", (event) => {
      if (event.target !== box) run();
    });
    search.addEventListener("submit", (event) => {
      event.preventDefault();
      run();
    });
  }

  // --- the deck builder ------------------------------------------------------------------------

  const builder = $(".builder");
  if (!builder) return;
  const deckId = builder.dataset.deckId;

  // The odds and the sample hand are computed only once opened (``data-open``) or asked for (``opening``).
  function panelParams(opening = []) {
    const out = new URLSearchParams();
    const odds = $("#odds-form");
    const sample = $("#sample-form");
    const open = (panel, name) => opening.includes(name) || $(panel)?.hasAttribute("data-open");
    if (odds && open("#odds", "odds")) for (const key of ["needs", "opening"]) {
      const field = odds.elements.namedItem(key);
      if (field && field.value !== undefined) out.set(key, field.value);
    }
    if (sample && open("#sample-hand", "sample")) {
      for (const key of ["hand", "seed"]) {
        const field = $("#" + (key === "hand" ? "hand-size" : "seed"), sample);
        if (field) out.set(key, field.value);
      }
      const drawn = $("#drawn");
      if (drawn && drawn.value && drawn.value !== "0") out.set("drawn", drawn.value);
    }
    const format = $("#format");
    if (format && format.value) out.set("format", format.value);
    const listing = $("#list-form");
    if (listing) for (const key of ["group", "sort", "layout"]) {
      const field = listing.elements.namedItem(key);
      if (field) out.set(key, field.value);
    }
    return out;
  }

  // "in deck: N" under each result's + Add, from the deck's list
  function markInDeck() {
    const counts = {};
    for (const li of $$("#deck li[data-card-id]")) {
      const n = parseInt($(".count", li)?.textContent || "0", 10);
      counts[li.dataset.cardId] = (counts[li.dataset.cardId] || 0) + n;
    }
    for (const item of $$("#results [data-card-id]")) {
      const badge = $(".in-deck", item);
      const n = counts[item.dataset.cardId];
      const text = n ? `in deck: ${n}` : "";
      if (badge && badge.textContent !== text) badge.textContent = text; // unchanged: no mutation, no loop
    }
  }
  new MutationObserver(markInDeck).observe(builder, { childList: true, subtree: true });

  // An edit's answer (``data-delta``) holds only what the edit changed: the edited card's entries, each
  // group's order of card ids (``data-order``), the headings and panels, and a ``data-kept`` mark for each
  // panel left alone. The page's other entries and kept panels are moved into it; false (the page
  // changed nothing) when the page lacks one of them.
  function fillIn(fresh, old) {
    const moves = [];
    for (const list of $$("ul[data-order]", fresh)) {
      const section = list.dataset.section || "";
      const items = [];
      for (const id of JSON.parse(list.dataset.order)) {
        const mine = (li) => li.dataset.cardId === id && (li.dataset.section || "") === section;
        const item = Array.from(list.children).find(mine) || $$("#deck li[data-card-id]", old).find(mine);
        if (!item) return false;
        items.push(item);
      }
      moves.push(() => {
        const children = [document.createTextNode("\n")];
        for (const item of items) children.push(item, document.createTextNode("\n"));
        list.replaceChildren(...children);
        delete list.dataset.order;
        delete list.dataset.section;
      });
    }
    for (const mark of $$("[data-kept]", fresh)) {
      const panel = old.querySelector("#" + CSS.escape(mark.id));
      if (!panel) return false;
      moves.push(() => mark.replaceWith(panel));
    }
    for (const move of moves) move();
    for (const field of $$('#deck input[name="version"]', fresh)) field.value = fresh.dataset.version;
    delete fresh.dataset.delta;
    return true;
  }

  // ``accepted``: the text fields' values the server took (``typed.sent``), not put back.
  function showPanels(doc, accepted = null) {
    const fresh = $("#panels", doc);
    const old = $("#panels");
    const shown = typed.kept(
      document.body,
      () => {
        if (fresh && old && "delta" in fresh.dataset && !fillIn(fresh, old)) return false;
        if (fresh && old) old.replaceWith(fresh);
        return true;
      },
      accepted,
    );
    if (!shown) return false;
    // the phone's sticky headline and the laptop's panel links follow the deck
    const count = $("#bar-count");
    const validation = $("#validation");
    if (count) count.textContent = $("#deck-count")?.textContent || "0";
    const tab = $("#tab-deck");
    if (tab) tab.textContent = `Deck (${$("#deck-count")?.textContent || "0"})`;
    for (const valid of validation ? $$("[data-valid-mark]") : []) {
      const ok = validation.classList.contains("valid");
      valid.textContent = ok ? "✓ valid" : "✗ not valid";
      valid.className = ok ? "bar-valid" : "bar-invalid";
    }
    return true;
  }

  // ``doc``'s message (an answer of the app's), else ``fallback`` in words (an answer not the app's)
  function showError(doc, fallback = "") {
    const slot = $("#action-slot");
    const error = $("#action-error", doc) || $("#error", doc) || (fallback ? unanswered("action-error", fallback) : null);
    if (slot) slot.replaceChildren(...(error ? [error] : []));
    const note = $("#bar-note"); // on a phone the slot may be out of view: the sticky bar says it too
    if (note) note.textContent = error ? error.textContent : "";
  }

  // Keep the focus on the button that was pressed (its panel is replaced by the new one); the last
  // copy removed, on the deck's heading (not the page's top).
  function refocus(cardId, section, cls) {
    if (!cardId || !cls) return;
    const row = deckRow(cardId, section);
    const button = row && $("button." + cls, row);
    if (button) button.focus();
    else {
      const heading = $("#deck-h");
      heading?.setAttribute("tabindex", "-1");
      heading?.focus();
    }
  }

  const deckRow = (cardId, section) =>
    $$("#deck li").find((li) => li.dataset.cardId === cardId && li.dataset.section === section);

  // A card's name, from its deck entry or its search result (before a change: a removed one is gone after).
  function cardName(cardId) {
    const row = $$("#deck li, #results [data-card-id]").find((el) => el.dataset.cardId === cardId);
    const link = row && ($(".card-name", row) || $("a", row));
    if (!link) return "";
    return (link.getAttribute("aria-label") || link.textContent).replace(/^\d+ × /, "").trim();
  }

  // What an edit saved, said in a live region that stays (the entry and the panels, with their own
  // regions, are swapped in): the card's count now, the deck's size and whether it is valid.
  function tellSaved(cardId, section, name) {
    const news = $("#deck-news");
    if (!news || !cardId) return;
    const row = deckRow(cardId, section);
    const count = row && ($(".count", row) || $(".face-count", row));
    const where = section ? `the ${section}` : "the deck";
    const now = count ? `${count.textContent.trim()} in ${where}` : `none left in ${where}`;
    const valid = $("#validation")?.classList.contains("valid") ? "✓ valid" : "✗ not valid";
    news.textContent = `${name || cardName(cardId)}: ${now}. Deck: ${counted($("#deck-count")?.textContent || "0", "card")}, ${valid}.`;
  }

  // The version of the deck the page shows (the server's ETag "deck-ID-vN"): every change is sent
  // with it, and the server refuses (412) a change made from an older version than the deck's.
  const shownVersion = () => $("#panels")?.dataset.version || "";

  // Changes go one after another, each with the version the previous one left, so quick clicks all count.
  // While one is on its way, the deck's column (and a phone's bar) says "Saving…": a click on a busy
  // server is not taken for lost and pressed again.
  let queue = Promise.resolve();
  let onTheirWay = 0;
  const SAVING = "Saving…";
  function saying(delta) {
    onTheirWay += delta;
    const text = onTheirWay > 0 ? SAVING : "";
    const status = $("#save-status");
    if (status) status.textContent = text;
    const note = $("#bar-note");
    if (note && (note.textContent === "" || note.textContent === SAVING)) note.textContent = text; // an error stays
    if (note) note.classList.toggle("saving", note.textContent === SAVING);
  }
  function change(form) {
    saying(1);
    queue = queue.then(() => send(form)).catch(() => {}).finally(() => saying(-1));
    return queue;
  }

  async function send(form) {
    const data = new FormData(form);
    data.set("fragment", "1");
    if (shownVersion()) data.set("version", shownVersion());
    if (form.classList.contains("add-form")) {
      const section = $("#section");
      data.set("section", section ? section.value : "");
    }
    const name = cardName(data.get("card"));
    const before = shownVersion();
    const pressed = form.querySelector("button");
    const cls = pressed && (pressed.classList.contains("inc") ? "inc" : pressed.classList.contains("dec") ? "dec" : "");
    let result;
    try {
      result = await fetchHtml(form.getAttribute("action") + "?" + panelParams().toString(), { method: "POST", body: data });
    } catch (error) {
      const field = form.querySelector('input[name="version"]');
      if (field && shownVersion()) field.value = shownVersion();
      form.submit();
      return;
    }
    if (result.ok) {
      if (!showPanels(result.doc)) await refreshPanels(panelParams()); // the page was not the version before
      showError(new Document());
      if (!typed.typing()) refocus(data.get("card"), data.get("section") || "", cls); // typing on meanwhile: stays
      tellSaved(data.get("card"), data.get("section") || "", name);
      undoable(before, editWords(data, name));
      if (form.closest("#results")) clearOfUndo(data.get("card"));
    } else if (result.status === 412) {
      // changed elsewhere (another tab, another person): show the deck as it now is, never overwrite it
      forgetUndo();
      await refreshPanels(panelParams());
      showError(result.doc);
    } else {
      showError(result.doc, `The change was not saved: the server did not answer it (error ${result.status}). Try again, or reload the page.`);
    }
  }

  // A tag added or removed on an entry: saved in place as a count is (the whole page reloaded: the
  // focus went to its top and the entry's tags folded). The focus goes back to the entry's tag box,
  // and the entry's tags are said.
  async function sendTag(form) {
    const data = new FormData(form);
    if (shownVersion()) data.set("version", shownVersion());
    const card = data.get("card");
    const section = form.closest("li")?.dataset.section || "";
    const name = cardName(card);
    const before = shownVersion();
    const sent = typed.sent(form);
    let result;
    try {
      result = await fetchHtml(form.getAttribute("action"), { method: "POST", body: data });
    } catch (error) {
      form.submit();
      return;
    }
    if (result.status === 412) forgetUndo();
    await refreshPanels(panelParams(), result.ok ? sent : null);
    if (!result.ok) {
      showError(result.doc);
      return;
    }
    showError(new Document());
    undoable(before, `Changed the tags of ${name}`);
    const row = deckRow(card, section);
    const details = row && $("details.tag-entry", row);
    if (details) {
      details.open = true;
      $('input[name="add"]', details)?.focus();
    }
    const tags = row ? $$(".entry-tags .tag", row).map((t) => t.textContent.trim()) : [];
    const news = $("#deck-news");
    if (news) news.textContent = `${name}: ${tags.length ? "tagged " + tags.join(", ") : "no tags"}.`;
  }

  // Undo (Moxfield's "Removed X — Undo", and Ctrl+Z out of a text field): each edit saved from this page
  // keeps the version it was made from; Undo asks the server to make the deck what the last of them held
  // (a restore, ``/decks/ID/undo``: a new version, refused from a stale view like any edit, in the
  // History), then the one before, and so on. A change made elsewhere ends the page's undo.
  const undoSteps = []; // {version: the deck's version before the edit, words: what the edit did}
  const undoForm = $("#undo-form");
  function showUndo() {
    if (!undoForm) return;
    const last = undoSteps[undoSteps.length - 1];
    const had = !undoForm.hidden && undoForm.contains(document.activeElement);
    undoForm.hidden = !last;
    $("#undo-what").textContent = last ? last.words : "";
    if (had && !last) {
      const heading = $("#deck-h");
      heading?.setAttribute("tabindex", "-1");
      heading?.focus();
    }
  }
  function undoable(before, words) {
    const version = parseInt(before, 10);
    if (!(version > 0) || shownVersion() === before) return; // no version known, or nothing was written
    undoSteps.push({ version, words });
    showUndo();
  }
  // The search result just added from, with its notes ("in deck: 1", a neighbour's "Not offered: …"),
  // scrolled clear of the Undo toast that came with the add (the page's scroll-padding keeps its place).
  function clearOfUndo(cardId) {
    const result = $$("#results [data-card-id]").find((el) => el.dataset.cardId === cardId);
    result?.scrollIntoView({ block: "nearest" });
  }
  function forgetUndo() {
    undoSteps.length = 0;
    showUndo();
  }
  function editWords(data, name) {
    const section = data.get("section") ? ` [${data.get("section")}]` : "";
    const op = data.get("op") || "add";
    if (op === "dec") return `Removed 1 ${name}${section}`;
    if (op === "set") return `Set ${name}${section} to ${data.get("count") || 0}`;
    return `Added 1 ${name}${section}`;
  }
  async function sendUndo() {
    const last = undoSteps[undoSteps.length - 1];
    if (!last || !undoForm) return;
    const data = new FormData(undoForm);
    data.set("to", String(last.version));
    data.set("version", shownVersion());
    data.set("fragment", "1");
    let result;
    try {
      result = await fetchHtml(undoForm.getAttribute("action") + "?" + panelParams().toString(), { method: "POST", body: data });
    } catch (error) {
      showError(new Document(), "The server did not answer: nothing was undone. Try again, or reload the page.");
      return;
    }
    const news = $("#deck-news");
    if (result.ok) {
      undoSteps.pop();
      if (!showPanels(result.doc)) await refreshPanels(panelParams());
      showError(new Document());
      showUndo();
      const valid = $("#validation")?.classList.contains("valid") ? "✓ valid" : "✗ not valid";
      if (news) news.textContent = `Undone: ${last.words}. Deck: ${counted($("#deck-count")?.textContent || "0", "card")}, ${valid}.`;
    } else if (result.status === 412) {
      forgetUndo(); // the deck changed elsewhere: going back would undo that too
      await refreshPanels(panelParams());
      showError(result.doc);
    } else {
      showError(result.doc, `Nothing was undone: the server did not answer it (error ${result.status}). Try again, or reload the page.`);
    }
  }
  function undo() {
    saying(1);
    queue = queue.then(sendUndo).catch(() => {}).finally(() => saying(-1));
    return queue;
  }
  document.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== "z") return;
    const target = event.target;
    if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return; // the field's own undo
    if (!undoSteps.length) return;
    event.preventDefault();
    undo();
  });

  // "New hand": a seed drawn here, as the server draws one for ``seed=new`` without the script
  const newSeed = () => String(crypto.getRandomValues(new Uint32Array(1))[0]);

  // The list's choices as the list shown has them (a choice whose panels did not arrive is put back).
  function listingShown() {
    const deck = $("#deck");
    const form = $("#list-form");
    if (!deck || !form) return;
    const shown = { group: deck.dataset.group, sort: deck.dataset.sort, layout: deck.classList.contains("deck-visual") ? "visual" : "list" };
    for (const [key, value] of Object.entries(shown)) {
      const field = form.elements.namedItem(key);
      if (field && value) field.value = value;
    }
  }

  async function refreshPanels(query, accepted = null) {
    const url = "/decks/" + deckId + "?fragment=panels&" + query.toString();
    let result = null;
    try {
      result = await fetchHtml(url);
    } catch (error) {
      result = null; // offline or the server stopped
    }
    if (!result || !$("#panels", result.doc)) {
      listingShown();
      showError(new Document(), "The server did not answer: the deck is shown as it was. Try again, or reload the page.");
      return false;
    }
    showPanels(result.doc, accepted);
    if ($("#action-error[data-unanswered]")) showError(new Document());
    const page = new URLSearchParams(location.search);
    if (!query.has("drawn")) page.delete("drawn");
    for (const [key, value] of query.entries()) page.set(key, value);
    history.replaceState(null, "", location.pathname + "?" + page.toString() + location.hash);
    return true;
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !builder.contains(form)) return;
    if (form === undoForm) {
      event.preventDefault();
      undo();
    } else if ((form.getAttribute("method") || "").toLowerCase() === "post" && (form.getAttribute("action") || "").endsWith("/cards")) {
      event.preventDefault();
      change(form);
    } else if ((form.getAttribute("method") || "").toLowerCase() === "post" && (form.getAttribute("action") || "").endsWith("/tags")) {
      event.preventDefault();
      queue = queue.then(() => sendTag(form)).catch(() => {});
    } else if (["odds-form", "sample-form", "format-form", "list-form"].includes(form.id)) {
      event.preventDefault();
      const submitter = event.submitter;
      if (submitter && submitter.name === "seed") $("#seed").value = submitter.value === "new" ? newSeed() : submitter.value;
      if (form.id === "sample-form") $("#drawn").value = submitter && submitter.name === "drawn" ? submitter.value : "0";
      const opening = form.id === "odds-form" ? ["odds"] : form.id === "sample-form" ? ["sample"] : [];
      refreshPanels(panelParams(opening), typed.sent(form)).then(() => {
        const again = $("#" + (submitter && submitter.id ? submitter.id : form.id));
        if (again) again.focus();
      });
    }
  });

  // "show the odds", "deal a sample hand": the panel computed in place (the link works without JavaScript)
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("#odds-open, #hand-open") : null;
    if (!link || !builder.contains(link)) return;
    event.preventDefault();
    const id = link.id === "odds-open" ? "odds" : "sample-hand";
    refreshPanels(panelParams([id === "odds" ? "odds" : "sample"])).then(() => {
      const panel = $("#" + id);
      if (panel) $("input, textarea", panel)?.focus();
    });
  });

  document.addEventListener("change", (event) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement && (target.id === "format" || target.form?.id === "list-form")) {
      refreshPanels(panelParams()).then(() => $("#" + target.id)?.focus());
    }
  });

  // On a phone: the search and the deck are two tabs, the deck's other panels fold.
  const tabs = $("#builder-tabs");
  const phone = window.matchMedia("(max-width: 640px)");
  function showTab(name) {
    builder.dataset.tab = name;
    for (const tab of $$("[role=tab]", tabs)) {
      const on = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
    }
  }
  const folded = new Set(["stats", "odds", "sample-hand", "share"]); // folded on a phone until opened
  function fold() {
    for (const id of ["validation", "stats", "odds", "sample-hand", "share"]) {
      const panel = $("#" + id);
      if (!panel || "foldable" in panel.dataset) continue;
      panel.dataset.foldable = "";
      const heading = $("h2", panel);
      if (!heading) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "fold";
      button.setAttribute("aria-controls", id);
      heading.prepend(button);
      const apply = () => {
        const closed = phone.matches && folded.has(id);
        panel.classList.toggle("folded", closed);
        button.setAttribute("aria-expanded", closed ? "false" : "true");
        button.setAttribute("aria-label", (closed ? "Open " : "Fold ") + heading.textContent.trim());
      };
      button.addEventListener("click", () => {
        if (folded.has(id)) folded.delete(id);
        else folded.add(id);
        apply();
      });
      apply();
    }
  }
  if (tabs) {
    tabs.hidden = false;
    // a link to a panel (#sample-hand, #deck-panel) opens the Deck tab
    let target = null;
    try {
      target = location.hash ? document.querySelector(location.hash) : null;
    } catch (error) {
      target = null; // not a selector
    }
    showTab(target && target.closest(".deck-side") ? "deck" : "search");
    if (target && target.closest(".deck-side")) {
      folded.delete(target.closest(".panel")?.id); // the panel linked to is open
      fold();
      target.scrollIntoView();
    }
    tabs.addEventListener("click", (event) => {
      const tab = event.target instanceof Element ? event.target.closest("[role=tab]") : null;
      if (tab) showTab(tab.dataset.tab);
    });
    tabs.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      const next = builder.dataset.tab === "search" ? "deck" : "search";
      showTab(next);
      $(`[data-tab="${next}"]`, tabs)?.focus();
    });
    $("#deck-bar")?.addEventListener("click", () => showTab("deck"));
    $("#skip-deck")?.addEventListener("click", () => showTab("deck"));
  }
  fold();
  new MutationObserver(() => fold()).observe(builder, { childList: true, subtree: true });
  phone.addEventListener("change", () => {
    for (const panel of $$("[data-foldable]")) delete panel.dataset.foldable;
    for (const button of $$("button.fold")) button.remove();
    fold();
  });

  // Keyboard: in the search box, ↓/↑ pick a result and Enter adds it.
  const box = $("#q");
  if (box) {
    let active = -1;
    const items = () => $$("#results [data-card-id]");
    const mark = (index) => {
      const list = items();
      list.forEach((item, i) => {
        item.setAttribute("aria-selected", i === index ? "true" : "false");
        item.classList.toggle("active", i === index);
      });
      active = index;
      const status = $("#pick-status");
      if (index >= 0 && list[index]) {
        list[index].scrollIntoView({ block: "nearest" });
        const name = $(".card-name", list[index]) || $("a", list[index]);
        if (status) status.textContent = `${name ? name.textContent : ""}, ${index + 1} of ${list.length}; Enter adds it`;
      } else if (status) {
        status.textContent = "";
      }
    };
    box.addEventListener("input", () => mark(-1));
    box.addEventListener("keydown", (event) => {
      const list = items();
      if (event.key === "ArrowDown" && list.length) {
        event.preventDefault();
        mark(Math.min(active + 1, list.length - 1));
      } else if (event.key === "ArrowUp" && list.length) {
        event.preventDefault();
        mark(Math.max(active - 1, 0));
      } else if (event.key === "Enter" && active >= 0 && list[active]) {
        event.preventDefault();
        const form = $("form.add-form", list[active]);
        if (form) change(form);
      } else if (event.key === "Escape") {
        mark(-1);
      }
    });
  }
})();

/* Card names in narrow boxes (a phone's hand and board, the builder's grid): a word wider than its
 * box is set smaller, down to 60%, so that it shows whole instead of broken mid-word ("Pickpocke/t").
 * Past that the CSS's overflow-wrap still breaks it rather than letting it spill. Run on load, when a
 * part of the page is swapped in (the builder's panels, the table's moves) and when a name's box
 * changes size (the window, a tab or panel shown). */
(() => {
  "use strict";

  const NAMES = ".card-name, .placeholder, .face-name, .mon-name, .hand-name";
  const WORD = /[^\s\-\u2010-\u2014/]+/g; // a line may break after a hyphen: that is between words
  const SMALLEST = 0.6;

  function room(el) {
    // an inline name's room is its parent's line; a block's, its own content box
    const box = getComputedStyle(el).display === "inline" ? el.parentElement : el;
    if (!box) return 0;
    const style = getComputedStyle(box);
    return box.clientWidth - parseFloat(style.paddingLeft || "0") - parseFloat(style.paddingRight || "0");
  }

  function widestWord(el) {
    // as drawn: a word broken over two lines is as wide as its pieces together
    let widest = 0;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(WORD)) {
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        let width = 0;
        for (const rect of range.getClientRects()) width += rect.width;
        widest = Math.max(widest, width);
      }
    }
    return widest;
  }

  function fitAll(root) {
    // every name reset, then every one measured, then the small ones set: one layout, not one per name
    const names = Array.from(root.querySelectorAll ? root.querySelectorAll(NAMES) : []);
    if (root instanceof Element && root.matches(NAMES)) names.push(root);
    for (const el of names) el.style.fontSize = "";
    const sizes = names.map((el) => {
      const width = room(el);
      const widest = width > 0 ? widestWord(el) : 0;
      if (widest <= width) return "";
      const scale = Math.max(SMALLEST, (width / widest) * 0.97);
      return `${parseFloat(getComputedStyle(el).fontSize) * scale}px`;
    });
    names.forEach((el, k) => {
      if (sizes[k]) el.style.fontSize = sizes[k];
      if (resized && !watched.has(el)) {
        watched.add(el);
        resized.observe(el); // shown later (a tab, a folded panel) or its box resized: fitted again
      }
    });
  }

  let pending = false;
  const later = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fitAll(document);
    });
  };
  const watched = new WeakSet();
  const resized = typeof ResizeObserver === "function" ? new ResizeObserver(later) : null;
  const start = () => {
    fitAll(document);
    new MutationObserver(later).observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", later);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(later);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

/* Typed work is not lost by leaving its page. A form marked ``data-keeps-work`` (Edit as text, the
 * collection's list, an import, the card editor) holding text not yet saved makes the browser ask before
 * the page is left: a field changed since the page came, or ``data-unsaved`` (the server showed back
 * text that a check or a refusal did not save). Sending that form, or one marked ``data-saves-work``
 * (the collection's "Save these changes"), is not leaving. */
(() => {
  "use strict";

  const forms = Array.from(document.querySelectorAll("form[data-keeps-work]"));
  if (!forms.length) return;

  function edited(field) {
    if (field instanceof HTMLTextAreaElement) return field.value !== field.defaultValue;
    if (field instanceof HTMLSelectElement) return Array.from(field.options).some((o) => o.selected !== o.defaultSelected);
    if (!(field instanceof HTMLInputElement)) return false;
    if (field.type === "radio" || field.type === "checkbox") return field.checked !== field.defaultChecked;
    if (field.type === "file") return Boolean(field.files && field.files.length);
    return !["hidden", "submit", "button", "reset"].includes(field.type) && field.value !== field.defaultValue;
  }
  const unsaved = (form) => "unsaved" in form.dataset || Array.from(form.elements).some(edited);

  let sending = false;
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement && (forms.includes(form) || "savesWork" in form.dataset)) sending = true;
  });
  window.addEventListener("pageshow", () => {
    sending = false; // back from the next page (the browser's cache): the page is as it was
  });
  window.addEventListener("beforeunload", (event) => {
    if (sending || !forms.some(unsaved)) return;
    event.preventDefault();
    event.returnValue = ""; // older browsers ask only when it is set
  });
})();

/* Copy buttons: a button marked ``data-copy="#id"`` copies what that element holds (a field's value, a
 * link's address) and says so in the element ``data-status`` names; refused the clipboard, it selects the
 * text for the reader to copy. The page has them hidden: only a page with a clipboard shows them. */
(() => {
  "use strict";

  const ready = () => {
    if (!navigator.clipboard) return;
    for (const button of document.querySelectorAll("button[data-copy][hidden]")) button.hidden = false;
  };
  ready();
  new MutationObserver(ready).observe(document.body, { childList: true, subtree: true }); // a panel swapped in
  document.addEventListener("click", async (event) => {
    const button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
    const target = button ? document.querySelector(button.dataset.copy) : null;
    if (!target) return;
    const status = document.getElementById(button.dataset.status || "");
    const text = target instanceof HTMLInputElement ? target.value : target.href || target.textContent;
    try {
      await navigator.clipboard.writeText(text);
      if (status) status.textContent = "Copied.";
    } catch (error) {
      if (target instanceof HTMLInputElement) target.select();
      else window.getSelection()?.selectAllChildren(target);
      if (status) status.textContent = "Selected: copy it with your device's Copy (Ctrl+C).";
    }
  });
})();
