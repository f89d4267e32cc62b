// Bep Nha's recipes, the search over them (accents folded, so "pho" finds "Phở") and the header.
var RECIPES = [
  { id: "pho-bo", title: "Phở bò (beef noodle soup)", time: "7 hours", serves: 6, rating: 4.8,
    ingredients: ["2 kg beef bones", "500 g beef brisket", "2 onions, charred", "1 piece ginger, charred", "3 star anise", "1 cinnamon stick", "800 g flat rice noodles", "Fish sauce"],
    steps: ["Blanch the bones for 10 minutes and rinse them.", "Simmer the bones with the onion, ginger and spices for 6 hours, skimming often.", "Poach the brisket in the broth for the last 2 hours, then slice it thin.", "Season with fish sauce, pour over the noodles and serve with herbs."] },
  { id: "pho-ga", title: "Phở gà (chicken noodle soup)", time: "3 hours", serves: 4, rating: 4.6,
    ingredients: ["1 whole chicken", "1 onion, charred", "1 piece ginger", "2 star anise", "500 g flat rice noodles"],
    steps: ["Simmer the whole chicken with the onion and ginger for 2 hours.", "Take the meat off the bones and shred it.", "Season the broth and serve over the noodles."] },
  { id: "bun-cha", title: "Bún chả Hà Nội", time: "1 hour", serves: 4, rating: 4.7,
    ingredients: ["500 g pork shoulder, minced", "300 g pork belly", "Rice vermicelli", "Fish sauce dressing"],
    steps: ["Marinate the pork for 30 minutes.", "Grill over charcoal until charred.", "Serve with the dressing, noodles and herbs."] },
  { id: "banana-classic", title: "Classic Banana Bread", time: "1 hour 15 minutes", serves: 10, rating: 4.5,
    ingredients: ["3 ripe bananas", "250 g flour", "100 g butter", "150 g sugar", "2 eggs"],
    steps: ["Mash the bananas.", "Mix in the butter, sugar and eggs, then the flour.", "Bake at 175 °C for 60 minutes."] },
  { id: "banana-walnut", title: "Banana Bread with Walnuts", time: "1 hour 20 minutes", serves: 10, rating: 4.4,
    ingredients: ["3 ripe bananas", "250 g flour", "100 g butter", "120 g brown sugar", "2 eggs", "80 g walnuts, chopped"],
    steps: ["Toast the walnuts for 5 minutes.", "Mash the bananas and beat in the butter, sugar and eggs.", "Fold in the flour and walnuts.", "Bake at 175 °C for 65 minutes."] },
  { id: "banana-muffin", title: "Banana Oat Muffins", time: "35 minutes", serves: 12, rating: 4.2,
    ingredients: ["2 bananas", "150 g oats", "100 g flour", "1 egg", "100 ml milk"],
    steps: ["Mix everything.", "Fill 12 muffin cups.", "Bake at 180 °C for 22 minutes."] },
  { id: "lemongrass-chicken", title: "Lemongrass Chicken", time: "40 minutes", serves: 4, rating: 4.9,
    ingredients: ["600 g chicken thighs", "3 stalks lemongrass", "2 chillies", "Fish sauce", "Sugar"],
    steps: ["Chop the lemongrass fine.", "Marinate the chicken for 20 minutes.", "Stir-fry until golden and sticky."] }
];
function fold(s) { return (s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/\u0111/g, "d").replace(/\u0110/g, "D").toLowerCase().trim(); }
function searchRecipes(q) {
  var words = fold(q).split(/\s+/).filter(Boolean);
  return RECIPES.filter(function (r) {
    var text = fold(r.title + " " + r.ingredients.join(" "));
    return words.length && words.every(function (w) { return text.indexOf(w) >= 0; });
  });
}
function findRecipe(id) { return RECIPES.filter(function (r) { return r.id === id; })[0]; }
