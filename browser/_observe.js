// Collects the interactive elements of one frame (open shadow roots included) in document order,
// marks each with `attr` = its global index so a Target(index=...) can find it again, and returns
// compact readable text. Password and sensitive values never leave the page.
({ start, attr, maxText, maxName, maxElements }) => {
  const INTERACTIVE = [
    "a[href]", "button", "input", "select", "textarea", "summary",
    "[role=button]", "[role=link]", "[role=checkbox]", "[role=radio]", "[role=tab]", "[role=menuitem]",
    "[role=option]", "[role=switch]", "[role=textbox]", "[role=combobox]", "[role=searchbox]",
    "[role=slider]", "[role=spinbutton]", "[contenteditable='']", "[contenteditable=true]", "[onclick]",
    "[role=menuitemcheckbox]", "[role=menuitemradio]", "[role=treeitem]", "[role=gridcell]",
  ].join(",");
  // Clickable without being semantic: a focusable element (tabindex >= 0), a click handler set as a
  // property, or the outermost element showing a pointer cursor (its children inherit the cursor;
  // a child with its own handler or name, like a trash icon in a clickable row, still counts).
  const focusable = (el) => { const t = el.getAttribute("tabindex"); return t !== null && t.trim() !== "-1"; };
  const named = (el) => el.hasAttribute("aria-label") || el.hasAttribute("title");
  // An icon inside a clickable row (a trash or star in an inbox row) is its own thing to click: small,
  // no words of its own, and drawn by a class, an image or a glyph.
  const iconLike = (el) => {
    if (/[\p{L}\p{N}]{2}/u.test(el.textContent || "")) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4 || r.width > 64 || r.height > 64) return false;
    // A holder of icons is not one: only an element whose children, if any, draw it (svg, img, i).
    if (Array.from(el.children).some((c) => !/^(svg|img|i|use|path)$/i.test(c.tagName))) return false;
    return el.classList.length > 0 || el.id !== "" || /^(IMG|SVG|I)$/i.test(el.tagName);
  };
  const clickable = (el, pointer, parentPointer) =>
    el.matches(INTERACTIVE) || focusable(el) || typeof el.onclick === "function"
    || (pointer && (!parentPointer || named(el) || iconLike(el)));
  // Words a class, an id or an image file name says an icon shows ("fa-trash" -> "trash").
  const ICON_WORDS = /^(trash|delete|remove|bin|star|favou?rite|heart|like|reply|forward|archive|edit|pencil|close|search|menu|cart|basket|bag|share|settings|gear|cog|plus|add|minus|download|upload|print|flag|bookmark|pin|info|help|user|profile|bell|notifications?|mail|send|back|next|prev(ious)?|more|expand|collapse|filter|sort|refresh|copy|lock|unlock|eye|view|calendar|home|logout|login)$/;
  const iconName = (el) => {
    const sources = [el, ...el.querySelectorAll("i, svg, span, img, use")].slice(0, 4);
    for (const node of sources) {
      const bits = [...(node.classList || []), node.id || "", node.getAttribute("data-icon") || "",
        node.getAttribute("href") || node.getAttribute("xlink:href") || "",
        (getComputedStyle(node).content || "") + " " + (getComputedStyle(node).backgroundImage || "")];
      for (const bit of bits) {
        for (const word of String(bit).toLowerCase().split(/[^a-z]+/)) {
          if (ICON_WORDS.test(word)) return word + " icon";
        }
      }
    }
    return "";
  };
  // The row, card or list item an element sits in: what a person reads to tell two "Reply" apart.
  const ROW = "li, tr, [role=row], [role=listitem], article, [class*=card], [class*=item], [class*=row], [class*=thread]";
  const contextOf = (el, own) => {
    const row = el.parentElement && el.parentElement.closest(ROW);
    if (!row || row === document.body) return "";
    const text = clean(row.innerText || row.textContent, 200);
    if (!text || text === own || text.length > 180) return text.length > 180 ? clean(text, 80) : "";
    return clean(text, 80);
  };
  // The form (or search region, or dialog) an element belongs to, numbered in document order, and
  // the page area it lives in: what grounding uses to keep "submit the form" inside that form.
  const groups = new Map();
  const groupOf = (el) => {
    const g = el.form || el.closest("form, [role=form], [role=search], dialog, [role=dialog]");
    if (!g) return null;
    if (!groups.has(g)) groups.set(g, groups.size + start);
    return groups.get(g);
  };
  // The heading a form sits under ("Join the pottery class" over its form, "Newsletter" over the
  // other): what tells two forms with the same fields apart once one of them was sent.
  const headings = new Map();
  const headingOf = (el) => {
    const g = el.form || el.closest("form, [role=form]");
    if (!g) return "";
    if (headings.has(g)) return headings.get(g);
    let found = "";
    const own = g.querySelector("h1, h2, h3, h4, legend, [role=heading]");
    if (own) found = own.innerText || own.textContent || "";
    for (let node = g, depth = 0; !found && node && depth < 4; node = node.parentElement, depth++) {
      for (let prev = node.previousElementSibling; prev && !found; prev = prev.previousElementSibling) {
        const h = prev.matches("h1, h2, h3, h4, [role=heading]") ? prev : prev.querySelector("h1, h2, h3, h4, [role=heading]");
        if (h) found = h.innerText || h.textContent || "";
      }
    }
    headings.set(g, clean(found, 80));
    return headings.get(g);
  };
  const areaOf = (el) => {
    if (el.closest("dialog, [role=dialog], [role=alertdialog]")) return "dialog";
    if (el.closest("nav, [role=navigation]")) return "nav";
    if (el.closest("footer, [role=contentinfo]")) return "footer";
    if (el.closest("header, [role=banner]")) return "header";
    if (el.closest("aside, [role=complementary]")) return "aside";
    return "";
  };
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD"]);
  const clean = (s, n) => {
    const t = (s || "").replace(/\s+/g, " ").trim();
    return t.length > n ? t.slice(0, n - 1) + "…" : t;
  };
  const sensitive = (el) =>
    (el.type || "").toLowerCase() === "password" ||
    el.hasAttribute("data-sensitive") || el.hasAttribute("data-waypost-sensitive") ||
    /^cc-/.test((el.getAttribute("autocomplete") || "").toLowerCase());
  const textWithout = (node, skipEl) => {
    let out = "";
    for (const child of node.childNodes) {
      if (child === skipEl) continue;
      if (child.nodeType === Node.TEXT_NODE) out += child.textContent + " ";
      else if (child.nodeType === Node.ELEMENT_NODE && !/^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(child.tagName)) {
        out += textWithout(child, skipEl) + " ";
      }
    }
    return out;
  };
  const implicitRole = (el) => {
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || "text").toLowerCase();
    if (tag === "a") return "link";
    if (tag === "button" || tag === "summary") return "button";
    if (tag === "textarea") return "textbox";
    if (tag === "select") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    if (tag === "input") {
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      if (type === "checkbox" || type === "radio") return type;
      if (type === "range") return "slider";
      if (type === "number") return "spinbutton";
      if (type === "search") return "searchbox";
      if (type === "file") return "button";
      return "textbox";
    }
    if (el.isContentEditable) return "textbox";
    return null;
  };
  const nameOf = (el, root) => {
    const labelledby = el.getAttribute("aria-labelledby");
    if (labelledby) {
      const text = labelledby.split(/\s+/).map((id) => {
        const ref = root.getElementById ? root.getElementById(id) : document.getElementById(id);
        return ref ? ref.textContent : "";
      }).join(" ");
      if (clean(text, maxName)) return clean(text, maxName);
    }
    const aria = el.getAttribute("aria-label");
    if (aria && aria.trim()) return clean(aria, maxName);
    const tag = el.tagName;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(tag)) {
      const type = (el.type || "").toLowerCase();
      if (["button", "submit", "reset"].includes(type)) return clean(el.value || type, maxName);
      let labels = el.labels ? Array.from(el.labels) : [];
      if (!labels.length && el.id && root.querySelectorAll) {
        labels = Array.from(root.querySelectorAll("label[for='" + CSS.escape(el.id) + "']"));
      }
      const text = labels.map((l) => textWithout(l, el)).join(" ");
      if (clean(text, maxName)) return clean(text, maxName);
      const near = nearbyLabel(el);
      if (near) return clean(near, maxName);
      return clean(el.getAttribute("title") || el.getAttribute("placeholder") || "", maxName);
    }
    const own = clean(el.innerText || el.textContent, maxName);
    if (own && /[\p{L}\p{N}]/u.test(own)) return own;  // words; an icon glyph alone says less than its title
    const img = el.querySelector && el.querySelector("img[alt]");
    const svg = el.querySelector && el.querySelector("svg title");
    const inner = el.querySelector && el.querySelector("[aria-label], [title]");
    const icon = el.getAttribute("title") || (img ? img.getAttribute("alt") : "") || (svg ? svg.textContent : "")
      || (inner ? inner.getAttribute("aria-label") || inner.getAttribute("title") : "");
    return clean(icon || own || iconName(el) || "", maxName);
  };
  // A label a person reads as the field's though no `for` ties it: a <label> (or a cell, or a line of
  // text) that is the only one in the control's own container, or the text right before the control
  // in reading order. Nearest container first; never a label that another control owns.
  const CONTROLS = "input:not([type=hidden]):not([type=submit]):not([type=button]), select, textarea";
  const nearbyLabel = (el) => {
    let box = el.parentElement;
    for (let depth = 0; box && depth < 3 && box !== document.body; depth++, box = box.parentElement) {
      const controls = box.querySelectorAll(CONTROLS);
      if (controls.length !== 1) break;
      const label = box.querySelector("label:not([for]), legend, .label, [class*=label]");
      if (label && !label.contains(el)) return textWithout(label, el);
      const words = clean(textWithout(box, el), maxName);
      if (words && words.length <= 60) return words;
    }
    const cell = el.closest("td, [role=cell], [role=gridcell]");
    if (cell && cell.previousElementSibling) return cell.previousElementSibling.innerText || "";
    let prev = el.previousSibling;
    while (prev && prev.nodeType === Node.TEXT_NODE && !prev.textContent.trim()) prev = prev.previousSibling;
    if (prev && prev.nodeType === Node.TEXT_NODE) return prev.textContent;
    if (prev && prev.nodeType === Node.ELEMENT_NODE && /^(LABEL|SPAN|B|STRONG|DIV|P)$/.test(prev.tagName)
        && !prev.querySelector(CONTROLS) && !(prev.htmlFor)) return prev.innerText || "";
    return "";
  };
  const isVisible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    return el.checkVisibility ? el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) : true;
  };
  const elements = [];
  const visit = (parent, root, inShadow, parentPointer) => {
    for (const el of parent.children) {
      if (SKIP.has(el.tagName)) continue;
      if (el.hasAttribute(attr)) el.removeAttribute(attr);
      const hiddenInput = el.tagName === "INPUT" && (el.type || "").toLowerCase() === "hidden";
      const pointer = getComputedStyle(el).cursor === "pointer";
      if (!hiddenInput && elements.length < maxElements && clickable(el, pointer, parentPointer)) {
        const index = start + elements.length;
        el.setAttribute(attr, String(index));
        const tag = el.tagName.toLowerCase();
        const info = {
          index, tag, role: el.getAttribute("role") || implicitRole(el), name: nameOf(el, root),
          input_type: tag === "input" ? (el.type || "text").toLowerCase() : null,
          value: null, value_hidden: false, checked: null, options: [], placeholder: null, href: null,
          visible: isVisible(el), enabled: !el.matches(":disabled") && el.getAttribute("aria-disabled") !== "true",
          in_shadow: inShadow, context: "", form: null, area: areaOf(el),
        };
        info.context = contextOf(el, info.name);
        info.form = groupOf(el);
        info.heading = info.form === null ? "" : headingOf(el);
        const ph = el.getAttribute("placeholder");
        if (ph) info.placeholder = clean(ph, maxName);
        if (tag === "a") info.href = clean(el.getAttribute("href"), 80);
        if (tag === "input" && ["checkbox", "radio"].includes(info.input_type)) info.checked = el.checked;
        else if (el.getAttribute("aria-checked")) info.checked = el.getAttribute("aria-checked") === "true";
        if (tag === "select") {
          info.options = Array.from(el.options).slice(0, 25).map((o) => clean(o.label || o.text, 40));
          info.value = Array.from(el.selectedOptions).map((o) => clean(o.label || o.text, 40)).join(", ") || null;
        } else if ((tag === "input" && !["checkbox", "radio", "button", "submit", "reset", "file", "image"].includes(info.input_type)) || tag === "textarea") {
          if (sensitive(el)) info.value_hidden = true;
          else if (el.value) info.value = clean(el.value, 100);
        }
        elements.push(info);
      }
      if (el.shadowRoot) visit(el.shadowRoot, el.shadowRoot, true, pointer);
      visit(el, root, inShadow, pointer);
    }
  };
  if (document.body) visit(document.body, document, false, false);
  const raw = document.body ? document.body.innerText || "" : "";
  const lines = raw.split("\n").map((l) => l.replace(/\s+/g, " ").trim()).filter((l) => l.length);
  let text = lines.join("\n");
  const truncated = text.length > maxText;
  if (truncated) text = text.slice(0, maxText);
  return { elements, text, truncated: truncated || elements.length >= maxElements };
}
