// Kettle & Co.'s catalogue, search, cart (kept in the eval store, so it resets per task) and banner.
var PRODUCTS = [
  { id: "mug-blue", name: "Blue Mug", price: 8.90, tags: "mug mugs blue ceramic", colour: "blue", stock: 42, rating: 4.4, desc: "A sturdy 350 ml ceramic mug." },
  { id: "mug-red", name: "Red Mug", price: 8.90, tags: "mug mugs red ceramic", colour: "red", stock: 35, rating: 4.1, desc: "A sturdy 350 ml ceramic mug." },
  { id: "mug-stoneware", name: "Stoneware Mug", price: 12.00, tags: "mug mugs stoneware grey", colour: "grey", stock: 17, rating: 4.8, desc: "Hand-glazed stoneware, 400 ml." },
  { id: "mug-travel", name: "Travel Mug", price: 19.50, tags: "mug mugs travel steel coffee", colour: "black", stock: 60, rating: 4.3, desc: "Keeps drinks hot for 6 hours, 450 ml." },
  { id: "teapot-glass", name: "Glass Teapot", price: 24.50, tags: "teapot teapots glass tea", colour: "clear", stock: 12, rating: 4.5, desc: "Borosilicate glass with a steel infuser, 1 litre." },
  { id: "teapot-porcelain", name: "Porcelain Teapot", price: 29.00, tags: "teapot teapots porcelain white tea", colour: "white", stock: 8, rating: 4.6, desc: "Classic white porcelain, 1.2 litres." },
  { id: "teapot-castiron", name: "Cast Iron Teapot", price: 42.00, tags: "teapot teapots cast iron black tea", colour: "black", stock: 5, rating: 4.7, desc: "Japanese-style cast iron, 0.8 litres." },
  { id: "kettle-steel", name: "Steel Kettle", price: 34.90, tags: "kettle kettles steel stove", colour: "silver", stock: 20, rating: 4.2, desc: "Whistling stove-top kettle, 2 litres." },
  { id: "kettle-copper", name: "Copper Kettle", price: 59.00, tags: "kettle kettles copper stove", colour: "copper", stock: 0, rating: 4.9, desc: "Solid copper stove-top kettle, 1.5 litres." },
  { id: "kettle-electric", name: "Electric Kettle", price: 45.00, tags: "kettle kettles electric", colour: "white", stock: 14, rating: 4.0, desc: "1.7 litres, boils in 3 minutes, keeps warm." },
  { id: "press-french", name: "French Press", price: 27.50, tags: "coffee french press cafetiere glass", colour: "clear", stock: 9, rating: 4.5, desc: "Makes 8 cups; glass and steel." },
  { id: "dripper", name: "Pour-over Dripper", price: 16.00, tags: "coffee dripper pour over ceramic", colour: "white", stock: 25, rating: 4.4, desc: "Ceramic cone for size 02 filters." },
  { id: "cups-espresso", name: "Espresso Cup Set", price: 13.00, tags: "espresso cup cups coffee set", colour: "white", stock: 30, rating: 4.2, desc: "Two 80 ml cups with saucers." },
  { id: "towel-tea", name: "Tea Towel", price: 5.50, tags: "tea towel towels linen", colour: "blue stripes", stock: 100, rating: 4.6, desc: "Linen, 50 x 70 cm." },
  { id: "tray-bamboo", name: "Bamboo Tray", price: 14.00, tags: "tray bamboo tea serving", colour: "natural", stock: 11, rating: 4.1, desc: "Serving tray, 40 x 28 cm." }
];
function product(id) { return PRODUCTS.filter(function (p) { return p.id === id; })[0] || null; }
function words(text) { return text.toLowerCase().split(/[^a-z0-9-]+/).filter(Boolean).map(function (w) { return w.replace(/([^s])s$/, "$1"); }); }
function searchProducts(q) {
  var want = words(q);
  if (!want.length) return [];
  return PRODUCTS.filter(function (p) {
    var have = words(p.name + " " + p.tags + " " + p.colour);
    return want.every(function (w) { return have.indexOf(w) >= 0; });
  });
}
function productCard(p) {
  var card = document.createElement("div"); card.className = "card";
  card.innerHTML = "<h3><a href='product.html?id=" + p.id + "'>" + p.name + "</a></h3>" +
    "<p class=price>" + p.price.toFixed(2) + " EUR</p><p class=muted>" + (p.stock ? "In stock" : "Out of stock") +
    " &middot; " + p.rating + " &#9733;</p>";
  return card;
}
function cartTotal() {
  var cart = window.evalStore.get("cart", {});
  return Object.keys(cart).reduce(function (sum, id) { return sum + product(id).price * cart[id]; }, 0);
}
function showCount() {
  var cart = window.evalStore.get("cart", {});
  var n = Object.keys(cart).reduce(function (sum, id) { return sum + cart[id]; }, 0);
  var badge = document.getElementById("cartcount"); if (badge) badge.textContent = n;
}
function cookies(kind) {
  window.evalStore.set("cookies", kind);
  document.getElementById("cookie").hidden = true;
}
window.addEventListener("DOMContentLoaded", function () {
  showCount();
  if (!window.evalStore.get("cookies", null)) document.getElementById("cookie").hidden = false;
});
