// Two passes over one frame (open shadow roots included), never given a secret: the page's own
// script can hook any built-in, so the matching is done in Python (browser/secret_mask.py).
// - arg null: clears earlier marks and returns, as JSON, the frame's visible strings in walk order:
//   `texts` (text nodes outside script/style/title), `fields` (each field's value and placeholder),
//   and for each element the range of text indices it spans (`spans`, for a secret split over
//   inline elements).
// - arg {texts, fields, elements}: marks the parents of those text nodes, those fields and those
//   elements with data-waypost-secret; returns how many it marked.
(arg) => {
  const MARK = "data-waypost-secret";
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE", "HEAD"]);
  const roots = [document];
  const all = [];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i].querySelectorAll("*")) {
      all.push(el);
      if (el.shadowRoot) roots.push(el.shadowRoot);
    }
  }
  const textNodes = [];
  const firstText = new Map();
  const lastText = new Map();
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || SKIP.has(parent.tagName)) continue;
      const index = textNodes.length;
      textNodes.push(node);
      for (let el = parent; el; el = el.parentElement) {
        if (!firstText.has(el)) firstText.set(el, index);
        lastText.set(el, index);
      }
    }
  }
  const fields = all.filter((el) => el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT");
  if (arg === null) {
    for (const el of all) if (el.hasAttribute(MARK)) el.removeAttribute(MARK);
    const str = (v) => (typeof v === "string" ? v : "");
    // One JSON string: Playwright transfers it far faster than thousands of values. (A page that
    // hooks JSON.stringify can only lie about its own strings, as it can by changing its DOM.)
    return JSON.stringify({
      texts: textNodes.map((n) => str(n.data)),
      fields: fields.map((el) => str(el.value) + "\n" + str(el.placeholder)),
      spans: all.map((el) => (firstText.has(el) ? [firstText.get(el), lastText.get(el)] : null)),
    });
  }
  const marked = new Set();
  for (const i of arg.texts) if (textNodes[i] && textNodes[i].parentElement) marked.add(textNodes[i].parentElement);
  for (const i of arg.fields) if (fields[i]) marked.add(fields[i]);
  for (const i of arg.elements) if (all[i]) marked.add(all[i]);
  for (const el of marked) el.setAttribute(MARK, "");
  return marked.size;
}
