// The basket lives in the eval site's store under "basket": {product id: quantity}.
var FLOWERS = {
  "peony-posy": {name: "Peony Posy", price: 38.00},
  "sunflower-bunch": {name: "Sunflower Bunch", price: 22.50},
  "lily-wreath": {name: "White Lily Wreath", price: 65.00, soldOut: true},
  "tulip-jar": {name: "Tulips in a Jar", price: 29.00},
  "rose-dozen": {name: "Dozen Red Roses", price: 45.00}
};
function basket() { return window.evalStore.get("basket", {}); }
function addToBasket(id) {
  var qty = parseInt((document.getElementById("qty-" + id) || {value: "1"}).value, 10) || 1;
  var b = basket();
  b[id] = (b[id] || 0) + qty;
  window.evalStore.set("basket", b);
  var note = document.getElementById("added");
  note.textContent = qty + " x " + FLOWERS[id].name + " added to your basket.";
  showCount();
}
function setQty(id, qty) {
  var b = basket();
  if (qty > 0) { b[id] = qty; } else { delete b[id]; }
  window.evalStore.set("basket", b);
  drawBasket();
}
function showCount() {
  var b = basket(), n = 0;
  Object.keys(b).forEach(function (k) { n += b[k]; });
  var el = document.getElementById("count");
  if (el) el.textContent = n;
}
function drawBasket() {
  var b = basket(), rows = document.getElementById("rows"), total = 0;
  if (!rows) return;
  rows.innerHTML = "";
  Object.keys(b).forEach(function (id) {
    var f = FLOWERS[id], line = f.price * b[id];
    total += line;
    var tr = document.createElement("tr");
    tr.innerHTML = "<td>" + f.name + "</td><td><label>Quantity <input type='number' min='0' id='bq-" + id +
      "' value='" + b[id] + "'></label></td><td>£" + line.toFixed(2) + "</td>";
    rows.appendChild(tr);
    tr.querySelector("input").addEventListener("change", function (e) { setQty(id, parseInt(e.target.value, 10) || 0); });
  });
  document.getElementById("total").textContent = "£" + total.toFixed(2);
  document.getElementById("empty").hidden = Object.keys(b).length > 0;
  showCount();
}
function fillItems() {
  var b = basket(), el = document.getElementById("items"), parts = [];
  Object.keys(b).forEach(function (id) { parts.push(b[id] + " x " + FLOWERS[id].name); });
  if (el) el.value = parts.join(", ");
  var shown = document.getElementById("summary");
  if (shown) shown.textContent = parts.length ? parts.join(", ") : "Your basket is empty.";
}
