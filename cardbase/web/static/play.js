/* cardbase play: the seat page stays current without reloading.
 * Every page works without this script (each legal action is a button in a form). With it:
 * the table subscribes to the game's server-sent events and, when the table moves (another seat,
 * an agent), fetches its part of the page again; forms are sent with fetch and the answer's
 * table part is swapped in. The start form hides the seats a smaller game does not use, and the
 * agent options of a seat a person plays.
 * No library: EventSource, fetch and DOMParser. boards.js (the boards' clicks) fills and submits
 * the same forms. */
(() => {
  "use strict";

  // --- the start form -----------------------------------------------------------------------
  const players = document.getElementById("players");
  if (players) {
    const show = () => {
      const n = Number(players.value);
      for (const row of document.querySelectorAll(".seat-choice")) {
        const used = Number(row.dataset.seat) < n;
        row.classList.toggle("hidden", !used);
        row.toggleAttribute("data-unused", !used);
      }
    };
    players.addEventListener("change", show);
    show();
  }

  // A seat's agent options show only where an agent sits; hidden, they are not sent (options typed
  // for an agent, then the seat given to a person, would be refused). Without script they all show.
  for (const kind of document.querySelectorAll("select.seat-kind")) {
    const options = kind.closest(".seat-choice").querySelector(".agent-options");
    if (!options) continue;
    const field = options.querySelector("input");
    const show = () => {
      const agent = kind.value !== "human";
      options.classList.toggle("hidden", !agent);
      if (field) field.disabled = !agent;
    };
    kind.addEventListener("change", show);
    show();
  }

  // A pasted list shows only when "the list pasted below" is chosen.
  for (const source of document.querySelectorAll("select.deck-source")) {
    const text = source.closest(".seat-choice").querySelector(".deck-text");
    const show = () => text && text.classList.toggle("hidden", source.value !== "paste");
    source.addEventListener("change", show);
    show();
  }

  // --- the table ----------------------------------------------------------------------------
  const table = document.getElementById("table");
  if (!table) return;
  let version = Number(table.dataset.version);
  let sequence = 0;

  // Who plays and by which rules: closed at first on a narrow screen, then as the player left it.
  let infoOpen = !window.matchMedia("(max-width: 40rem)").matches;
  const keepInfo = () => {
    const info = document.getElementById("table-info");
    if (!info) return;
    info.open = infoOpen;
    info.addEventListener("toggle", () => {
      infoOpen = info.open;
    });
  };
  keepInfo();

  // The keyboard's place and the screen reader's news survive the swap of the table's part. The
  // focused element is swapped out with it (the focus falls to the page's top): the same one again
  // (by its id, its board key, or its kind and place among its kind) is focused in the new part. The
  // status's own live region is swapped too, and a live region new in the page is not announced: one
  // that stays, outside the table, says what changed (a refusal, the moves since, the status).
  const news = document.createElement("div");
  news.id = "table-news";
  news.className = "visually-hidden";
  news.setAttribute("role", "status");
  news.setAttribute("aria-live", "polite");
  table.after(news);
  let place = null; // where the focus last was in the table
  const placeOf = (el) => {
    if (el.id) return { sel: `#${CSS.escape(el.id)}`, at: 0 };
    if (el.dataset.key) return { sel: `[data-key="${CSS.escape(el.dataset.key)}"]`, at: 0 };
    const form = el.closest("form[data-kind]");
    const sel =
      (form ? `form[data-kind="${CSS.escape(form.dataset.kind)}"] ` : "") +
      el.tagName.toLowerCase() +
      (el.name ? `[name="${CSS.escape(el.name)}"]` : "") +
      (el.classList[0] ? `.${CSS.escape(el.classList[0])}` : "");
    return { sel, at: Array.from(table.querySelectorAll(sel)).indexOf(el) };
  };
  document.addEventListener("focusin", (event) => {
    place = event.target instanceof HTMLElement && table.contains(event.target) ? placeOf(event.target) : null;
  });
  const usable = (el) => !el.disabled && !el.hidden && el.getClientRects().length > 0;
  const refocus = () => {
    const now = document.activeElement;
    if (!place || (now && now !== document.body)) return; // elsewhere, or a typed field's focus was kept
    const found = Array.from(table.querySelectorAll(place.sel)).filter(usable);
    const target = found[Math.min(Math.max(place.at, 0), found.length - 1)] || document.getElementById("status");
    if (!target) return;
    if (target.id === "status") target.tabIndex = -1;
    target.focus({ preventScroll: true });
  };
  const logged = () => Math.max(0, ...Array.from(table.querySelectorAll("#log li[value]"), (li) => Number(li.value)));
  let heard = logged();
  const tell = () => {
    const lines = [];
    const error = document.getElementById("error");
    if (error) lines.push(error.textContent);
    const moves = Array.from(table.querySelectorAll("#log > ol > li[value]"))
      .filter((li) => Number(li.value) > heard)
      .reverse()
      .slice(-6)
      .map((li) =>
        Array.from(li.childNodes)
          .filter((n) => n.nodeName !== "UL" && !(n instanceof Element && n.classList.contains("n")))
          .map((n) => n.textContent)
          .join("")
          .trim(),
      );
    heard = Math.max(heard, logged());
    lines.push(...moves);
    const status = document.getElementById("status");
    if (status) lines.push(status.textContent);
    news.textContent = lines.map((line) => line.replace(/\s+/g, " ").trim()).filter(Boolean).join(" ");
  };

  // Answers can arrive out of order (an event's refresh may be served before a move sent earlier):
  // a newer table always wins; otherwise only the latest request's answer is shown, and never one
  // older than a table shown since that request began. A refresh that brings the table as shown
  // (its version and status) leaves its elements alone: a click may be landing on them.
  // What was typed in the table's fields stays (cardbaseTyped), but a sent value the answer took
  // (``accepted``: the typed move made) is not put back. Whether the answer was shown.
  const typed = window.cardbaseTyped;
  let swaps = 0;
  const answer = (html, mine, started, fromEvent, accepted = null) => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    // the seat's page (its #table) or the table's part alone (the board's address); a whole page without
    // a table (its <main>) is an error page
    const part = doc.getElementById("table") || (doc.querySelector("main") ? null : doc.body);
    if (!part) return sayElsewhere(doc);
    const stamp = part.querySelector(".table-stamp");
    const at = stamp ? Number(stamp.dataset.tableVersion) : NaN;
    const older = at < version && swaps !== started;
    if (!(at > version || (mine === sequence && !older))) return false;
    if (fromEvent && at === version && stamp.dataset.tableStatus === table.dataset.status) return false;
    swaps += 1;
    const was = table.dataset.status;
    typed.kept(
      table,
      () => {
        table.innerHTML = part.innerHTML;
      },
      accepted,
    );
    keepInfo();
    refocus();
    tell();
    if (stamp) {
      version = at;
      table.dataset.version = stamp.dataset.tableVersion;
      table.dataset.status = stamp.dataset.tableStatus;
      table.dataset.board = stamp.dataset.boardUrl;
      if (was === "playing" && stamp.dataset.tableStatus !== "playing") showEnd();
    }
    document.dispatchEvent(new CustomEvent("cardbase:table", { detail: { version } }));
    return true;
  };

  // An answer that is no table (the server's error page, a proxy's page): its words at the table's top,
  // the table left as it was; the whole page was put inside the table (a second header and footer).
  const sayElsewhere = (doc) => {
    const said = doc.getElementById("error") || doc.querySelector("main h1") || doc.querySelector("title");
    const words = said ? said.textContent.trim() : "";
    let line = document.getElementById("error");
    if (!line || !table.contains(line)) {
      line = document.createElement("p");
      line.id = "error";
      line.className = "error";
      line.setAttribute("role", "alert");
      table.prepend(line);
    }
    line.textContent = words || "the server did not answer with the table: reload the page";
    tell();
    showRefusal();
    return false;
  };

  let refreshing = 0;
  const refresh = async () => {
    const mine = ++sequence;
    const started = swaps;
    refreshing += 1;
    table.classList.add("updating");
    try {
      const response = await fetch(table.dataset.board, { credentials: "same-origin", headers: { Accept: "text/html" } });
      const html = await response.text();
      if (response.ok) answer(html, mine, started, true);
    } catch (error) {
      // offline or the server restarted: the event stream reconnects and refreshes again
    } finally {
      refreshing -= 1;
      if (!refreshing) table.classList.remove("updating");
    }
  };

  // The game ended (the player's last move, or another seat's): who won, why, and the new game are
  // said at the top of the table, and the player may be far below it (a phone's hand): bring them.
  const showEnd = () => {
    const status = document.getElementById("status");
    if (!status) return;
    const box = status.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) status.scrollIntoView({ block: "start" });
  };

  // A refused move's reason is written at the top of the table; the move may have been made far
  // below it (the typed box, a phone's long page): bring the reason to where the player looks.
  const showRefusal = () => {
    const error = document.getElementById("error");
    if (!error) return;
    const box = error.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) error.scrollIntoView({ block: "center" });
  };

  // Forms (a legal action, a typed one, undo) by fetch: the answer is the page, new or refused.
  table.addEventListener("submit", async (event) => {
    const form = event.target;
    // The attributes, not form.action / form.method: a field named "action" (the typed action's box)
    // or "method" shadows those properties.
    if (!(form instanceof HTMLFormElement) || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    const address = new URL(form.getAttribute("action") || window.location.href, window.location.href).href;
    event.preventDefault();
    const data = new FormData(form);
    if (event.submitter && event.submitter.name) data.set(event.submitter.name, event.submitter.value);
    const mine = ++sequence;
    const started = swaps;
    const sent = typed.sent(form);
    for (const button of form.querySelectorAll("button")) button.disabled = true;
    try {
      const response = await fetch(address, { method: "POST", body: data, credentials: "same-origin" });
      const html = await response.text();
      const accepted = response.ok ? sent : null; // a refusal's answer is the page with its reason
      if (answer(html, mine, started, false, accepted)) {
        showRefusal();
        return;
      }
      if (accepted) typed.forget(table, accepted); // the move was made, another answer is shown: as if this one were
      if (form.isConnected) {
        // Its answer not shown (a later one is, or was): the form and the board take clicks again.
        for (const button of form.querySelectorAll("button")) button.disabled = false;
        document.dispatchEvent(new CustomEvent("cardbase:idle"));
      }
    } catch (error) {
      form.submit(); // the plain way
    }
  });

  // The hand-off's confirm and the hint are links: follow them in place too.
  table.addEventListener("click", async (event) => {
    const link = event.target instanceof Element ? event.target.closest("a#handoff-confirm, a#hint-link") : null;
    if (!link) return;
    event.preventDefault();
    const url = new URL(link.href);
    const mine = ++sequence;
    const started = swaps;
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
      const html = await response.text();
      answer(html, mine, started, false);
      if (link.id === "handoff-confirm") history.replaceState(null, "", url.pathname + url.search);
    } catch (error) {
      window.location.href = url.href;
    }
  });

  if (!window.EventSource || !table.dataset.events) return;
  const events = new EventSource(table.dataset.events);
  events.addEventListener("view", (message) => {
    let view;
    try {
      view = JSON.parse(message.data);
    } catch (error) {
      return;
    }
    if (view.version !== version || table.dataset.status !== view.status) refresh();
  });
})();
