// Postbox's mailbox: the messages, and what the person did to them (read, starred, trashed,
// archived), kept in the eval store so every task starts from the same inbox.
var MESSAGES = [
  { id: "m1", from: "Tiffanie Rhodes", email: "tiffanie@northwind.example", subject: "Invoice #4471 for March", date: "2 Apr", unread: true,
    body: "Hi Sam,\n\nPlease find attached invoice #4471 for the March design work. The total due is \u20ac1,284.50, payable by 15 April 2027 to the account on the invoice.\n\nBest,\nTiffanie" },
  { id: "m2", from: "Marco Bellini", email: "marco.bellini@example.com", subject: "Dinner on Friday?", date: "2 Apr", unread: true,
    body: "Hey Sam!\n\nA few of us are going to Osteria Nora on Friday. The table is booked for 8 pm. Are you in?\n\nMarco" },
  { id: "m3", from: "Priya Nair", email: "priya.nair@lumenworks.example", subject: "Contract renewal", date: "1 Apr", unread: true,
    body: "Hello Sam,\n\nYour support contract ends on 30 April 2027. Renewing it for another year costs 2,400 USD, the same as last year. Please confirm by 20 April if you want to continue.\n\nKind regards,\nPriya Nair, Account Manager" },
  { id: "m4", from: "CodeHub", email: "notifications@codehub.example", subject: "[rivera/site] 3 new comments", date: "1 Apr", unread: false,
    body: "Lena, Tom and Ines commented on pull request #212 (new header)." },
  { id: "m5", from: "SkyWays", email: "bookings@skyways.example", subject: "Your booking QX7L2P is confirmed", date: "31 Mar", unread: true,
    body: "Dear Sam Rivera,\n\nThank you for flying with SkyWays. Flight SW 231 from London Heathrow to Hanoi departs on 22 May 2027 at 21:40 and arrives on 23 May at 15:55 local time.\n\nBooking reference: QX7L2P. Seat 34A. One checked bag of 23 kg is included." },
  { id: "m6", from: "Helen Park", email: "helen.park@example.com", subject: "Rent from July", date: "30 Mar", unread: true,
    body: "Dear Sam,\n\nI am writing to let you know that from 1 July 2027 the monthly rent for the flat will go up from 950 EUR to 1,020 EUR, because the building insurance has gone up. Let me know if you would like to talk about it.\n\nBest regards,\nHelen" },
  { id: "m7", from: "Kitchen Weekly", email: "letters@kitchenweekly.example", subject: "5 ways to brew better tea", date: "29 Mar", unread: false,
    body: "This week: water temperature, steeping times, and why your teapot matters. Unsubscribe at any time." },
  { id: "m8", from: "Payroll", email: "payroll@riveradesign.example", subject: "Your payslip for March", date: "28 Mar", unread: false,
    body: "Your payslip for March 2027 is ready. Net pay: 3,215.40 EUR, paid on 28 March." },
  { id: "m9", from: "Tom Baker", email: "tom.baker@example.com", subject: "Quarterly report", date: "27 Mar", unread: false,
    body: "Hi Sam, the quarterly report is attached. Revenue is up 8% on last quarter. Tom" },
  { id: "m10", from: "Security", email: "security@postbox.example", subject: "New sign-in from Chrome on Windows", date: "26 Mar", unread: false,
    body: "Someone signed in to your Postbox account from Chrome on Windows. If this was you, there is nothing to do." }
];
function message(id) { return MESSAGES.filter(function (m) { return m.id === id; })[0] || null; }
function marks(key) { return window.evalStore.get(key, []); }
function mark(key, id, on) {
  var list = marks(key).filter(function (x) { return x !== id; });
  if (on) list.push(id);
  window.evalStore.set(key, list);
}
function isUnread(m) { return m.unread && marks("read").indexOf(m.id) < 0; }
function inFolder(m, folder) {
  var trashed = marks("trashed").indexOf(m.id) >= 0, archived = marks("archived").indexOf(m.id) >= 0;
  if (folder === "trash") return trashed;
  if (folder === "archive") return archived && !trashed;
  if (folder === "starred") return marks("starred").indexOf(m.id) >= 0 && !trashed;
  if (folder === "sent") return false;
  return !trashed && !archived;
}
function unreadCount() { return MESSAGES.filter(function (m) { return inFolder(m, "inbox") && isUnread(m); }).length; }
function drawFolders() {
  var n = unreadCount();
  document.getElementById("inbox-count").textContent = n ? n : "";
  document.title = (n ? "Inbox (" + n + ")" : "Inbox") + " - Postbox";
}
