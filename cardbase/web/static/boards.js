/* cardbase: clicking the game boards. Every click ends as ONE legal action posted with the version
 * the board was drawn at, through the board's own form (form.board-act: action_id), so the server
 * checks it like any other move. Without this script the
 * page's plain buttons do the same.
 * - Méa (and any board whose legal actions carry src/dst): pick a card in hand or a monster (two
 *   monsters for a joint attack); the places it can go light up; click one.
 * - Meio: the 7 + 6 split picker, with the split advisor as a hint.
 * - Meikyu: the composer (a room, a land or an enemy land, then the cards; the total shown before
 *   committing) and discards down to five in one step (sent as one discard after another).
 * Boards replaced in place (a live page's update) are set up again. No library. */
(() => {
  "use strict";

  // "1 sword", "2 swords": a count and its noun, as the server's counted() words them
  const counted = (n, noun) => `${n} ${String(n).trim() === "1" ? noun : noun + "s"}`;

  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const boards = new WeakMap(); // board element -> its state
  const QUEUE = "cardbase-discards:";

  const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
  const sorted = (list) => [...list].sort();
  const sameList = (a, b) => a.length === b.length && sorted(a).every((x, i) => x === sorted(b)[i]);

  function legalOf(board) {
    const data = $("script.board-legal", board);
    if (!data) return [];
    try {
      return JSON.parse(data.textContent);
    } catch (error) {
      return [];
    }
  }

  function keyed(board, key) {
    return $$(`[data-key="${CSS.escape(key)}"]`, board);
  }

  // --- sending one action -------------------------------------------------------------------------

  function sendId(board, entry) {
    const form = $("form.board-act", board);
    const st = boards.get(board);
    const input = form && form.querySelector('input[type="hidden"][name="action_id"]'); // (the plain buttons share the name)
    if (!input || (st && st.busy)) return;
    if (st) st.busy = true;
    board.classList.add("busy");
    input.disabled = false;
    input.value = String(entry.id);
    form.requestSubmit();
  }

  // --- pick, then target (Méa; any action with src/dst) ------------------------------------------------

  function describeKey(key) {
    return key.replace(/^(card|mon|tile|room|land|seat):/, "");
  }

  // What the light shows is said in the names too (a screen reader hears no colour): a place's own name
  // (its aria-label, or its text) and then its state; a piece that can be picked is a toggle, pressed
  // once picked.
  const STATES = [
    ["picked", "picked"],
    ["target", "lit: click to choose it"],
    ["addable", "can join the attack"],
    ["pickable", "can be picked"],
  ];

  function sayStates(board) {
    for (const el of $$("[data-key]", board)) {
      const state = STATES.find(([cls]) => el.classList.contains(cls));
      const said = state ? `, ${state[1]}` : "";
      if (el.dataset.label !== undefined || el.hasAttribute("aria-label")) {
        if (el.dataset.label === undefined) el.dataset.label = el.getAttribute("aria-label");
        el.setAttribute("aria-label", el.dataset.label + said);
      } else {
        let say = $(":scope > .pick-say", el);
        if (!say && said) {
          say = document.createElement("span");
          say.className = "visually-hidden pick-say";
          el.append(say);
        }
        if (say) say.textContent = said;
      }
      if (state && state[0] === "picked") el.setAttribute("aria-pressed", "true");
      else if (state && state[0] !== "target") el.setAttribute("aria-pressed", "false");
      else el.removeAttribute("aria-pressed");
    }
  }

  function refreshPicking(board) {
    const st = boards.get(board);
    const acts = st.acts;
    const sel = st.sel;
    for (const el of $$("[data-key]", board)) el.classList.remove("pickable", "picked", "target", "addable");
    const mark = (key, cls) => keyed(board, key).forEach((el) => el.classList.add(cls));
    const bar = $(".picking", board);
    const exact = [];
    if (!sel.length) {
      for (const a of acts) {
        if (a.src) a.src.forEach((k) => mark(k, "pickable"));
        else if (a.dst) mark(a.dst, "target");
      }
    } else {
      sel.forEach((k) => mark(k, "picked"));
      for (const a of acts) {
        if (!a.src) continue;
        if (sameSet(a.src, sel)) {
          if (a.dst) mark(a.dst, "target");
          else exact.push(a);
        } else if (a.src.length > sel.length && sel.every((k) => a.src.includes(k))) {
          a.src.filter((k) => !sel.includes(k)).forEach((k) => mark(k, "addable"));
        }
      }
    }
    sayStates(board);
    board.classList.toggle("picking-on", sel.length > 0);
    if (!bar) return;
    if (!sel.length) {
      // the bar keeps its place in the page (picking moves nothing) and says what to do first
      const cards = acts.some((a) => a.src && a.src.some((k) => k.startsWith("card:")));
      const mons = acts.some((a) => a.src && a.src.some((k) => k.startsWith("mon:")));
      const what = [mons && "monster", cards && "card in your hand"].filter(Boolean).join(" or ");
      $(".picking-text", bar).textContent = what ? `Pick a lit ${what}; where it can go lights up.` : "Click a lit place.";
      $(".picking-acts", bar).replaceChildren();
      return;
    }
    const targets = acts.some((a) => a.src && a.dst && sameSet(a.src, sel));
    const more = $$(".addable", board).length > 0;
    const names = sel.map(describeKey).join(" + ");
    let text = `Picked: ${names}.`;
    if (targets) text += " Click a lit place to " + (sel[0].startsWith("card:") ? "put it there." : "move there or attack it.");
    if (more) text += " Or pick another of your monsters to attack together.";
    if (!targets && !exact.length && !more) text += " Nothing can be done with that now.";
    $(".picking-text", bar).textContent = text;
    const box = $(".picking-acts", bar);
    box.replaceChildren(...exact.map((a) => actButton(board, a)));
    const card = sel.length === 1 ? keyed(board, sel[0]).find((el) => el.dataset.preview) : null;
    if (card) {
      const read = document.createElement("button");
      read.type = "button";
      read.className = "secondary";
      read.textContent = "Read the card";
      read.dataset.preview = card.dataset.preview;
      box.append(read);
    }
  }

  function actButton(board, entry) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = entry.text;
    b.addEventListener("click", () => sendId(board, entry));
    return b;
  }

  function choose(board, cands) {
    if (cands.length === 1) {
      sendId(board, cands[0]);
      return;
    }
    // Two actions land on the same place (a move and an attack): ask which.
    const bar = $(".picking", board);
    if (!bar) return;
    bar.hidden = false;
    $(".picking-text", bar).textContent = "Which one?";
    $(".picking-acts", bar).replaceChildren(...cands.map((a) => actButton(board, a)));
  }

  function pickClick(board, key, place) {
    const st = boards.get(board);
    const acts = st.acts;
    const sel = st.sel;
    if (sel.length) {
      let cands = acts.filter((a) => a.src && a.dst === key && sameSet(a.src, sel));
      // a monster on a lit tile stands for its tile (an attack is aimed at the tile)
      if (!cands.length && place) cands = acts.filter((a) => a.src && a.dst === place && sameSet(a.src, sel));
      if (cands.length) return choose(board, cands);
      if (sel.includes(key)) {
        st.sel = sel.filter((k) => k !== key);
        return refreshPicking(board);
      }
      const grown = [...sel, key];
      if (acts.some((a) => a.src && grown.every((k) => a.src.includes(k)))) {
        st.sel = grown;
        return refreshPicking(board);
      }
    }
    if (acts.some((a) => a.src && a.src.includes(key))) {
      st.sel = [key];
      return refreshPicking(board);
    }
    let direct = acts.filter((a) => !a.src && a.dst === key);
    // nothing picked: a monster on a lit tile stands for its tile too (a start-of-turn flip, a tile
    // an ability asks for), as it does for an attack; on a phone the monster covers nearly all of it
    if (!direct.length && place) direct = acts.filter((a) => !a.src && a.dst === place);
    if (direct.length) return choose(board, direct);
    st.sel = [];
    refreshPicking(board);
    // a greyed card says why it cannot be played now (the rules' words, as a refusal of it says)
    const held = keyed(board, key).find((el) => el.dataset.heldBack);
    const bar = $(".picking", board);
    if (held && bar) $(".picking-text", bar).textContent = `Cannot be played now: ${held.dataset.heldBack}.`;
  }

  // --- Meio: the split picker -------------------------------------------------------------------------

  function setupSplit(board, picker) {
    const boxes = () => $$('input[name="aside"]', picker);
    const go = $(".split-go", picker);
    const count = () => {
      const n = boxes().filter((b) => b.checked).length;
      $(".split-count .n", picker).textContent = String(n);
      go.disabled = n !== 6;
      for (const b of boxes()) b.disabled = !b.checked && n >= 6;
    };
    picker.addEventListener("change", count);
    count();
    const ids = JSON.parse($("script.split-ids", picker)?.textContent || "{}"); // the six set aside -> action id
    go.addEventListener("click", () => {
      const aside = boxes().filter((b) => b.checked).map((b) => b.value);
      const id = ids[[...aside].sort().join(" ")];
      if (id !== undefined) sendId(board, { id });
      else $(".split-count", picker).textContent = "These six are not a split the rules allow now."; // (never: every 6 of 13 is)
    });
    const ask = $(".split-advice", picker);
    const out = $(".advice", picker);
    if (!ask || !out) return;
    ask.addEventListener("click", async () => {
      ask.disabled = true;
      out.hidden = false;
      out.textContent = "The split advisor is playing the likeliest splits out on sampled deals (a few seconds)…";
      const body = {
        hand: picker.dataset.hand.split(" "),
        rules: JSON.parse(ask.dataset.rules || "{}"),
        seat: Number(ask.dataset.seat),
        starts: Number(ask.dataset.starts),
      };
      try {
        const response = await fetch("/api/meio/split-advice", {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        const data = await response.json();
        if (!response.ok) throw new Error(data.error ? data.error.text || data.error.message : response.statusText); // the players' words
        showAdvice(out, data, boxes, count);
      } catch (error) {
        out.textContent = `No advice: ${error.message}`;
      } finally {
        ask.disabled = false;
      }
    });
  }

  function showAdvice(out, data, boxes, count) {
    const list = document.createElement("ol");
    for (const s of data.splits) {
      const li = document.createElement("li");
      // as the terminal's hint says it: to the digits the interval gives (the server's words; the JSON keeps every digit)
      li.append(
        `Keep ${s.keep.join(" ")} · set aside ${s.aside.join(" ")}: round score ${s.shown.estimate} ` +
          `(95% ${s.shown.ci}, ${counted(s.playouts.toLocaleString("en"), "deal")}) `,
      );
      const use = document.createElement("button");
      use.type = "button";
      use.className = "secondary";
      use.textContent = "Pick this split";
      use.addEventListener("click", () => {
        for (const b of boxes()) {
          b.disabled = false;
          b.checked = s.aside.includes(b.value);
        }
        count();
      });
      li.append(use);
      list.append(li);
    }
    const said = document.createElement("p");
    said.className = "advice-verdict";
    said.textContent =
      data.verdict === "clear"
        ? "The first is clearly better than the second (their intervals are apart)."
        : "Too close to call: the two intervals overlap.";
    const note = document.createElement("p");
    note.className = "muted small";
    note.textContent = `A hint, not a rule: ${data.measure}; ${data.method}.`;
    out.replaceChildren(said, list, note);
  }

  // --- Meikyu: the composer and the discards ---------------------------------------------------------

  function counts(board) {
    const out = [];
    for (const li of $$(".meikyu-hand li[data-card]", board)) {
      const n = Number($(".stepper output", li)?.textContent || "0");
      for (let i = 0; i < n; i += 1) out.push(li.dataset.card);
    }
    return out;
  }

  function setupSteppers(board, changed) {
    for (const li of $$(".meikyu-hand li[data-card]", board)) {
      const out = $(".stepper output", li);
      if (!out) continue;
      const max = Number(li.dataset.count);
      const set = (n) => {
        out.textContent = String(Math.max(0, Math.min(max, n)));
        li.classList.toggle("chosen", Number(out.textContent) > 0);
        changed();
      };
      $(".stepper .inc", li).addEventListener("click", () => set(Number(out.textContent) + 1));
      $(".stepper .dec", li).addEventListener("click", () => set(Number(out.textContent) - 1));
    }
  }

  function targetKey(a, me) {
    if (a.kind === "quest") return `room:${a.room}`;
    if (a.kind === "develop") return `land:${me}:${a.land}`;
    if (a.kind === "attack") return a.land ? `land:${a.target}:${a.land}` : `seat:${a.target}`;
    return null;
  }

  function setupComposer(board, comp) {
    const me = board.dataset.seat;
    const defend = comp.dataset.decision === "defend";
    const entries = legalOf(board).filter((a) => ["quest", "develop", "attack", "defend"].includes(a.kind));
    const st = { target: null };
    const total = $(".composer-total", comp);
    const go = $(".composer-go", comp);
    const bySelect = $('select[name="by"]', comp);
    const labSelect = $('select[name="lab"]', comp);
    const targets = [...new Set(entries.map((a) => targetKey(a, me)).filter(Boolean))];
    for (const key of targets) {
      keyed(board, key).forEach((el) => {
        el.hidden = false;
        el.classList.add("pickable");
      });
    }
    sayStates(board);
    const forTarget = () => entries.filter((a) => (defend ? a.kind === "defend" : targetKey(a, me) === st.target));
    const fill = (select, values, first) => {
      const keep = select.value;
      select.replaceChildren(
        ...(first ? [new Option(first, "")] : []),
        ...values.map((v) => new Option(v, v)),
      );
      if (values.includes(keep)) select.value = keep;
      select.closest("label").hidden = !values.length;
    };
    const update = () => {
      const pool = forTarget();
      fill(bySelect, [...new Set(pool.filter((a) => a.by).map((a) => a.by))], null);
      fill(labSelect, [...new Set(pool.filter((a) => a.lab).map((a) => a.lab))], "none");
      const cards = counts(board);
      const lab = labSelect.value || null;
      const cands = pool.filter(
        (a) => sameList(a.cards, cards) && (a.lab || null) === lab && (a.kind !== "attack" || a.by === bySelect.value),
      );
      go.disabled = cands.length !== 1;
      st.chosen = cands[0];
      let bad = false;
      if (!defend && !st.target) total.textContent = ""; // (the composer's first line says what to click)
      else if (cands.length === 1) total.textContent = summary(cands[0]);
      else if (!cards.length && !lab) total.textContent = "Now pick the cards with the + buttons.";
      else {
        bad = true;
        total.textContent = "Those cards cannot do that: a quest, an aggression or a defence needs a character (no more Grimoires than characters); a development takes characters only.";
      }
      total.classList.toggle("bad", bad);
      total.classList.toggle("ready", cands.length === 1);
    };
    // a total that reads a value the assumption profile gave (shown with *) says so: not the rulebook's
    const summary = (a) => summaryOf(a) + (a.assumed ? " Counted with assumed values (*), not published ones." : "");
    const summaryOf = (a) => {
      if (a.kind === "quest") {
        const chance = a.need > 6 ? "it cannot succeed (it needs more than a 6)" : `it succeeds on a ${a.need} or more (${7 - a.need} in 6)`;
        return `Quest ${a.room}: ${counted(a.total, "sword")} + the die against level ${a.level} — ${chance}.`;
      }
      if (a.kind === "develop") return `Develop ${a.land}: ${counted(a.total, "seal")} against ${a.cost} — ${a.total >= a.cost ? "it is developed" : "not enough: it fails"}.`;
      if (a.kind === "attack") return `Attack P${a.target + 1}${a.land ? " for " + a.land : ""} by ${a.by}: ${counted(a.total, "sword")} + the die, against the defence + its die.`;
      return `Defend with ${a.cards.length ? a.cards.join(", ") : "the die alone"}${a.lab ? " and " + a.lab + " as a character" : ""}: ${counted(a.total, "sword")} + the die.`;
    };
    board.addEventListener("click", (event) => {
      const el = event.target instanceof Element ? event.target.closest("[data-key]") : null;
      if (!el || !targets.includes(el.dataset.key)) return;
      st.target = el.dataset.key;
      for (const key of targets) keyed(board, key).forEach((e) => e.classList.toggle("picked", key === st.target));
      sayStates(board);
      update();
    });
    bySelect.addEventListener("change", update);
    labSelect.addEventListener("change", update);
    setupSteppers(board, update);
    go.addEventListener("click", () => st.chosen && sendId(board, st.chosen));
    $(".composer-clear", comp).addEventListener("click", () => {
      for (const out of $$(".meikyu-hand .stepper output", board)) out.textContent = "0";
      st.target = null;
      for (const key of targets) keyed(board, key).forEach((e) => e.classList.remove("picked"));
      sayStates(board);
      update();
    });
    update();
  }

  function queueKey(board) {
    const form = $("form.board-act", board);
    return QUEUE + (form ? form.getAttribute("action") : "");
  }

  function nextDiscard(board, names) {
    const left = [...names];
    const name = left.shift();
    const entry = legalOf(board).find((a) => a.kind === "discard" && a.card === name && a.verb === "discard");
    if (!entry) {
      sessionStorage.removeItem(queueKey(board));
      return false;
    }
    if (left.length) sessionStorage.setItem(queueKey(board), JSON.stringify(left));
    else sessionStorage.removeItem(queueKey(board));
    sendId(board, entry);
    return true;
  }

  function setupDiscarder(board, box) {
    const pending = sessionStorage.getItem(queueKey(board));
    if (pending) {
      try {
        if (nextDiscard(board, JSON.parse(pending))) return;
      } catch (error) {
        sessionStorage.removeItem(queueKey(board));
      }
    }
    const need = Number($(".need", box).textContent);
    const go = $(".discard-go", box);
    setupSteppers(board, () => {
      const n = counts(board).length;
      go.disabled = n !== need;
      go.textContent = n === need ? `Discard these ${n}` : `Pick ${need} (${n} picked)`;
    });
    go.textContent = `Pick ${need} (0 picked)`;
    go.addEventListener("click", () => nextDiscard(board, counts(board)));
  }

  // --- setting a board up ---------------------------------------------------------------------------

  // A Méa grid grown wider than the screen scrolls sideways: its note says so, only while it does.
  function fitNotes() {
    for (const wrap of $$(".grid-wrap")) {
      const note = wrap.parentElement && $(".grid-scroll-note", wrap.parentElement);
      if (note) note.hidden = wrap.scrollWidth <= wrap.clientWidth + 1;
    }
  }
  window.addEventListener("resize", fitNotes);

  // A Méa grid wider than its box opened at its left edge, the starting tiles and the player's own
  // off to the right. It opens with the player's tiles in the middle (a spectator's: every tile's),
  // and then stays where the player left it across the table's updates and reloads: the tile at its
  // middle is remembered for the page, by name (a column grown on the left moves every tile).
  const gridKey = () => `cardbase-grid:${location.pathname}`;
  function placeGrid(wrap) {
    if (wrap.dataset.placed) return;
    wrap.dataset.placed = "1";
    const middle = () => wrap.getBoundingClientRect().left + wrap.clientWidth / 2;
    const centre = (box) => box.left + box.width / 2;
    const tiles = $$("td[data-tile]", wrap);
    if (wrap.scrollWidth > wrap.clientWidth + 1) {
      let kept = null;
      try {
        kept = JSON.parse(sessionStorage.getItem(gridKey()) || "null");
      } catch (error) {
        kept = null;
      }
      const at = kept && tiles.find((td) => td.dataset.tile === kept.tile);
      if (at) {
        wrap.scrollLeft += centre(at.getBoundingClientRect()) - middle() - Number(kept.offset || 0);
      } else {
        const seat = $(".mea-player.you", wrap.closest(".game-board") || document)?.dataset.seat;
        const owned = tiles.filter((td) => td.dataset.owner !== undefined);
        const mine = owned.filter((td) => td.dataset.owner === seat);
        const boxes = (mine.length ? mine : owned).map((td) => td.getBoundingClientRect());
        if (boxes.length) {
          const lo = Math.min(...boxes.map((b) => b.left));
          const hi = Math.max(...boxes.map((b) => b.right));
          wrap.scrollLeft += (lo + hi) / 2 - middle();
        }
      }
    }
    const remember = () => {
      if (!wrap.isConnected || !tiles.length || wrap.scrollWidth <= wrap.clientWidth + 1) return;
      const m = middle();
      const near = tiles.reduce((a, b) =>
        Math.abs(centre(a.getBoundingClientRect()) - m) <= Math.abs(centre(b.getBoundingClientRect()) - m) ? a : b,
      );
      const offset = Math.round(centre(near.getBoundingClientRect()) - m);
      sessionStorage.setItem(gridKey(), JSON.stringify({ tile: near.dataset.tile, offset }));
    };
    wrap.addEventListener("scroll", remember, { passive: true });
  }

  function setup(board) {
    if (boards.has(board)) return;
    const st = { sel: [], acts: [], busy: false };
    boards.set(board, st);
    board.classList.add("js");
    fitNotes();
    $$(".grid-wrap", board).forEach(placeGrid);
    if (!board.classList.contains("live")) return;
    st.acts = legalOf(board).filter((a) => a.src || a.dst);
    const picker = $(".split-picker", board);
    if (picker) setupSplit(board, picker);
    const comp = $(".composer", board);
    if (comp) setupComposer(board, comp);
    const discarder = $(".discarder", board);
    if (discarder) setupDiscarder(board, discarder);
    else sessionStorage.removeItem(queueKey(board));
    const bar = $(".picking", board);
    if (bar) bar.hidden = !st.acts.length || Boolean(comp); // nothing to pick now (the opening draw): no bar
    if (st.acts.length && !comp) {
      refreshPicking(board);
      board.addEventListener("click", (event) => {
        const el = event.target instanceof Element ? event.target.closest("[data-key]") : null;
        if (!el || !board.contains(el) || el.type === "submit" || st.busy) return;
        event.preventDefault();
        const tile = el.closest("td")?.querySelector(".tile-hit");
        pickClick(board, el.dataset.key, tile && tile !== el ? tile.dataset.key : null);
      });
      const cancel = $(".picking-cancel", board);
      if (cancel) {
        cancel.addEventListener("click", () => {
          st.sel = [];
          refreshPicking(board);
        });
      }
      board.addEventListener("keydown", (event) => {
        if (event.key === "Escape" && st.sel.length) {
          st.sel = [];
          refreshPicking(board);
        }
      });
    }
  }

  // play.js: a move's answer was not shown (a later answer is): the boards take clicks again.
  document.addEventListener("cardbase:idle", () => {
    for (const board of $$("section.game-board")) {
      const st = boards.get(board);
      if (st) st.busy = false;
      board.classList.remove("busy");
    }
  });

  const setupAll = () => $$("section.game-board").forEach(setup);
  setupAll();
  new MutationObserver(setupAll).observe(document.body, { childList: true, subtree: true });
})();
