// The fleet every branch offers: id, name, seats, gearbox, price a day in dong.
var CARS = [
  ["vios", "Toyota Vios", 5, "automatic", 690000],
  ["santafe", "Hyundai Santa Fe", 7, "automatic", 1450000],
  ["innova", "Toyota Innova", 7, "manual", 950000],
  ["morning", "Kia Morning", 5, "manual", 520000],
  ["xpander", "Mitsubishi Xpander", 7, "automatic", 880000],
  ["accent", "Hyundai Accent", 5, "manual", 610000],
  ["vf5", "VinFast VF 5", 5, "automatic", 750000]
];
var PLACES = {han: "Hanoi - Noi Bai Airport (HAN)", dad: "Da Nang International Airport (DAD)", sgn: "Ho Chi Minh City - Tan Son Nhat Airport (SGN)"};
function dong(n) { return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",") + " ₫"; }
