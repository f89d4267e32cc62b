// Eastbrook's streets and their collection rounds: [name, general, recycling, garden, food].
var STREETS = {
  "linden-close": ["Linden Close", "Monday", "Thursday, every other week (next: 11 March)", "Wednesday, every other week (next: 17 March)", "Monday"],
  "linden-road": ["Linden Road", "Tuesday", "Friday, every other week (next: 12 March)", "Wednesday, every other week (next: 10 March)", "Tuesday"],
  "lindsay-street": ["Lindsay Street", "Tuesday", "Friday, every other week (next: 5 March)", "No garden waste round", "Tuesday"],
  "mill-lane": ["Mill Lane", "Thursday", "Monday, every other week (next: 8 March)", "Friday, every other week (next: 12 March)", "Thursday"],
  "millbrook-avenue": ["Millbrook Avenue", "Wednesday", "Monday, every other week (next: 15 March)", "Friday, every other week (next: 5 March)", "Wednesday"],
  "oak-rise": ["Oak Rise", "Friday", "Tuesday, every other week (next: 9 March)", "Thursday, every other week (next: 11 March)", "Friday"]
};
function fold(s) { return (s || "").toLowerCase().replace(/\s+/g, " ").trim(); }
