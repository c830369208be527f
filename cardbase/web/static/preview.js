/* cardbase: the card preview. Any element with data-preview="<image url>" shows that image large
 * (the renderer's face at about twice a thumbnail, at least 400 px wide where the screen allows)
 * - on hover with a mouse, after a short pause;
 * - on focus from the keyboard;
 * - on a tap: the first tap on a link or button shows the face, a second tap follows it; an element
 *   with data-preview-tap="hold" (a card on a game board) acts on a tap and shows its face when
 *   pressed and held.
 * The face floats over the page (position: fixed): the layout never moves. Esc, a tap or click
 * elsewhere, or leaving the element hides it. No library; nothing happens without the attribute. */
(() => {
  "use strict";

  const HOVER_DELAY_MS = 120;
  const HOLD_MS = 450;
  const GAP = 12;

  let box = null; // the floating figure
  let shownFor = null; // the element whose face is shown
  let touchShown = false; // shown by a tap (stays until dismissed)
  let hoverTimer = 0;
  let holdTimer = 0;
  let heldFor = null; // an element just previewed by a long press: its click is swallowed
  let lastPointer = "mouse";

  function figure() {
    if (box) return box;
    box = document.createElement("figure");
    box.className = "card-preview";
    box.id = "card-preview";
    box.setAttribute("aria-hidden", "true");
    box.hidden = true;
    const img = document.createElement("img");
    img.alt = "";
    img.decoding = "async";
    img.addEventListener("load", () => box.classList.remove("loading", "failed"));
    img.addEventListener("error", () => {
      box.classList.remove("loading");
      box.classList.add("failed");
    });
    const note = document.createElement("figcaption");
    note.textContent = "no image of this card";
    box.append(img, note);
    box.addEventListener("click", () => hide()); // a tap on the face closes it
    document.body.append(box);
    return box;
  }

  function place(target, centred) {
    const fig = figure();
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    fig.classList.toggle("centred", centred);
    if (centred) {
      fig.style.removeProperty("left");
      fig.style.removeProperty("top");
      return;
    }
    const rect = target.getBoundingClientRect();
    const width = fig.offsetWidth;
    const height = fig.offsetHeight;
    let left = rect.right + GAP;
    if (left + width > vw - GAP) left = rect.left - GAP - width; // no room on the right: the left
    if (left < GAP) left = Math.max(GAP, Math.min(vw - width - GAP, rect.left)); // nor there: over it
    let top = rect.top + rect.height / 2 - height / 2;
    top = Math.max(GAP, Math.min(vh - height - GAP, top));
    fig.style.left = `${Math.round(left)}px`;
    fig.style.top = `${Math.round(top)}px`;
  }

  // The image at the width the screen shows it (a high-density screen asks for more pixels), in
  // steps of 100 px so that faces are cached; never less than the page asked for.
  function sized(url, shown) {
    try {
      const u = new URL(url, location.href);
      const asked = Number(u.searchParams.get("w"));
      if (!asked) return url;
      const want = Math.min(1200, Math.ceil((shown * (window.devicePixelRatio || 1)) / 100) * 100);
      if (want > asked) u.searchParams.set("w", String(want));
      return u.pathname + u.search;
    } catch (error) {
      return url;
    }
  }

  function show(target, byTouch) {
    const asked = target.getAttribute("data-preview");
    if (!asked) return;
    const fig = figure();
    shownFor = target;
    touchShown = byTouch;
    fig.hidden = false;
    const narrow = document.documentElement.clientWidth < 720;
    place(target, byTouch || narrow);
    fig.classList.toggle("tapped", byTouch);
    const url = sized(asked, fig.getBoundingClientRect().width);
    const img = fig.querySelector("img");
    if (img.getAttribute("src") !== url) {
      fig.classList.add("loading");
      fig.classList.remove("failed");
      img.setAttribute("src", url);
    }
    target.setAttribute("data-previewing", "");
  }

  function hide() {
    clearTimeout(hoverTimer);
    if (!box || box.hidden) return;
    box.hidden = true;
    if (shownFor) shownFor.removeAttribute("data-previewing");
    shownFor = null;
    touchShown = false;
  }

  const previewable = (node) => (node instanceof Element ? node.closest("[data-preview]") : null);
  const actionable = (el) => el.matches("a[href], button, input, select, summary, label, [data-key]");

  // Mouse: hover.
  document.addEventListener("pointerover", (event) => {
    lastPointer = event.pointerType || "mouse";
    if (event.pointerType !== "mouse") return;
    const el = previewable(event.target);
    if (!el || el === shownFor) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => show(el, false), HOVER_DELAY_MS);
  });
  document.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse") return;
    const el = previewable(event.target);
    if (!el) return;
    if (event.relatedTarget instanceof Node && el.contains(event.relatedTarget)) return;
    clearTimeout(hoverTimer);
    if (el === shownFor && !touchShown) hide();
  });

  // Keyboard: focus.
  document.addEventListener("focusin", (event) => {
    const el = previewable(event.target);
    if (el && el === event.target && el.matches(":focus-visible")) show(el, false);
  });
  document.addEventListener("focusout", (event) => {
    if (previewable(event.target) === shownFor && !touchShown) hide();
  });

  // Touch: a tap, or a long press on a board's cards.
  document.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType || "mouse";
    clearTimeout(holdTimer);
    heldFor = null;
    if (event.pointerType !== "touch") return;
    const el = previewable(event.target);
    if (!el || el.getAttribute("data-preview-tap") !== "hold") return;
    holdTimer = setTimeout(() => {
      heldFor = el;
      show(el, true);
    }, HOLD_MS);
  });
  for (const type of ["pointerup", "pointercancel", "pointermove"]) {
    document.addEventListener(type, (event) => {
      if (type !== "pointermove" || Math.abs(event.movementX) + Math.abs(event.movementY) > 8) clearTimeout(holdTimer);
    });
  }
  document.addEventListener("contextmenu", (event) => {
    if (heldFor && previewable(event.target) === heldFor) event.preventDefault(); // the long press was ours
  });

  document.addEventListener(
    "click",
    (event) => {
      const el = previewable(event.target);
      if (heldFor) {
        // the end of a long press: it showed the face, it does not act, on the card or on the face it
        // opened (a centred face may lie under the finger: lifting it closed the face at once)
        if (el === heldFor || (box && box.contains(event.target))) {
          event.preventDefault();
          event.stopImmediatePropagation();
        }
        heldFor = null;
        return;
      }
      if (box && !box.hidden && !(el && el === shownFor) && event.target !== box && !box.contains(event.target)) {
        hide(); // a click elsewhere closes the face and goes on to what it was on
      }
      if (!el || lastPointer !== "touch" || el.getAttribute("data-preview-tap") === "hold") return;
      if (el === shownFor && touchShown) {
        hide(); // the second tap: the face closes, and a link or button does what it does
        return;
      }
      show(el, true);
      if (actionable(el)) {
        event.preventDefault(); // the first tap only shows the face
        event.stopImmediatePropagation();
      }
    },
    true,
  );

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && box && !box.hidden) {
      hide();
      event.stopPropagation();
    }
  });
  // A scroll (the wheel, or the browser bringing a card into view as the pointer reaches it) moves
  // the page under the face: the face of a card still under the pointer follows it, any other
  // closes. A hover about to show is kept: its card is still under the pointer.
  window.addEventListener("scroll", () => {
    if (touchShown || !box || box.hidden) return;
    if (shownFor && shownFor.isConnected && shownFor.matches(":hover")) place(shownFor, box.classList.contains("centred"));
    else hide();
  }, { passive: true });
  window.addEventListener("resize", () => hide());
})();
