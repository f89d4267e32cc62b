// Skyhop's airports, timetable and fares. Every search of the same route gets the same flights,
// whatever the date, so a task's answer is known in advance.
var AIRPORTS = {
  HAN: ["Hanoi", "ha noi", "noi bai"], SGN: ["Ho Chi Minh City", "ho chi minh", "saigon", "sai gon", "tp hcm", "hcm"],
  DAD: ["Da Nang", "danang"], SIN: ["Singapore", "changi"], BKK: ["Bangkok", "suvarnabhumi"],
  LHR: ["London", "heathrow", "london heathrow"], CDG: ["Paris", "charles de gaulle"], BER: ["Berlin", "brandenburg"]
};
// route: [flight, airline, departs, arrives, minutes, stops, via, fare in USD (economy, one person)]
var FLIGHTS = {
  "HAN-SIN": [["VS 661", "VietSky", "08:05", "12:30", 205, 0, "", 182], ["LA 803", "Lotus Air", "10:40", "15:10", 210, 0, "", 164], ["SQ 193", "Straits Airways", "13:55", "18:20", 205, 0, "", 219]],
  "LHR-CDG": [["CA 310", "Channel Air", "07:15", "09:30", 75, 0, "", 89], ["SW 402", "Skyways", "09:40", "11:55", 75, 0, "", 112], ["EJ 88", "EuroJet", "13:05", "15:20", 75, 0, "", 74], ["SW 418", "Skyways", "18:30", "20:45", 75, 0, "", 129]],
  "SGN-DAD": [["LA 502", "Lotus Air", "05:05", "09:50", 285, 1, "Hanoi", 71], ["VS 120", "VietSky", "06:10", "07:35", 85, 0, "", 58], ["LA 510", "Lotus Air", "08:45", "10:10", 85, 0, "", 49], ["BJ 330", "BambooJet", "11:20", "12:45", 85, 0, "", 45]],
  "BER-HAN": [["QA 80", "Qatar Sky", "16:20", "15:05", 1005, 1, "Doha", 742], ["TK 1724", "Bosphorus Air", "18:45", "17:30", 1005, 1, "Istanbul", 688], ["SQ 351", "Straits Airways", "11:10", "12:40", 1050, 1, "Singapore", 815]],
  "BKK-SIN": [["TB 403", "ThaiBlue", "07:30", "10:55", 145, 0, "", 118], ["SQ 711", "Straits Airways", "12:15", "15:40", 145, 0, "", 139], ["LA 920", "Lotus Air", "09:00", "15:25", 325, 1, "Kuala Lumpur", 97]],
  "HAN-BKK": [["TB 561", "ThaiBlue", "08:20", "10:15", 115, 0, "", 96], ["VS 931", "VietSky", "11:50", "13:45", 115, 0, "", 84], ["LA 705", "Lotus Air", "16:10", "18:05", 115, 0, "", 121]],
  "CDG-BER": [["EJ 640", "EuroJet", "07:00", "08:50", 110, 0, "", 68], ["SW 77", "Skyways", "10:15", "13:55", 220, 1, "Frankfurt", 59], ["CA 712", "Channel Air", "14:30", "16:15", 105, 0, "", 95]],
  "HAN-DAD": [["VS 170", "VietSky", "06:30", "07:50", 80, 0, "", 52], ["BJ 110", "BambooJet", "09:15", "10:35", 80, 0, "", 47]]
};
var CABINS = { economy: ["Economy", 1], premium: ["Premium economy", 1.6], business: ["Business", 2.8] };
function plain(text) {
  return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/\u0111/g, "d").replace(/\u0110/g, "D")
    .toLowerCase().replace(/\(.*?\)/g, " ").replace(/\bcity\b/g, " ").replace(/[^a-z ]/g, " ").replace(/\s+/g, " ").trim();
}
function airport(text) {
  var t = plain(text), code = (text || "").trim().toUpperCase();
  if (AIRPORTS[code]) return code;
  var paren = /\(([A-Za-z]{3})\)/.exec(text || "");
  if (paren && AIRPORTS[paren[1].toUpperCase()]) return paren[1].toUpperCase();
  for (var k in AIRPORTS) {
    if (AIRPORTS[k].some(function (n) { return plain(n).replace(/\bcity\b/, "").trim() === t; })) return k;
  }
  return null;
}
function hours(minutes) { return Math.floor(minutes / 60) + "h " + (minutes % 60 < 10 ? "0" : "") + (minutes % 60) + "m"; }
function fare(flight, cabin) { return Math.round(flight[7] * CABINS[cabin][1]); }
function longDate(iso) {
  var d = new Date(iso + "T12:00:00Z");
  return isNaN(d) ? iso : d.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}
function cookies(kind) { window.evalStore.set("cookies", kind); document.getElementById("cookie").hidden = true; }
window.addEventListener("DOMContentLoaded", function () {
  var banner = document.getElementById("cookie");
  if (banner && !window.evalStore.get("cookies", null)) banner.hidden = false;
});
