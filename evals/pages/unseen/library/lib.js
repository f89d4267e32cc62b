// The Riverside library's catalogue and the reader's own records (holds, renewals) in the eval store.
var CATALOGUE = [
  { id: "b-ferry", title: "The Night Ferry", author: "Ha Linh", year: 2019, format: "book", copies: 2, shelf: "F LIN" },
  { id: "d-ferry", title: "The Night Ferry", author: "dir. Paul Adair", year: 2021, format: "dvd", copies: 1, shelf: "DVD NIG" },
  { id: "a-ferry", title: "The Night Ferry (unabridged)", author: "Ha Linh, read by Mai Tran", year: 2020, format: "audiobook", copies: 0, shelf: "CD LIN" },
  { id: "b-ferryman", title: "Ferryman's Daughter", author: "Ruth Gale", year: 2015, format: "book", copies: 1, shelf: "F GAL" },
  { id: "b-salt", title: "The Salt Road", author: "Omar Haddad", year: 2018, format: "book", copies: 0, shelf: "F HAD" },
  { id: "b-veg", title: "The Small Vegetable Gardening Book", author: "June Park", year: 2016, format: "book", copies: 3, shelf: "635 PAR" },
  { id: "b-roof", title: "Rooftop Gardening in the City", author: "Tomas Berg", year: 2022, format: "book", copies: 1, shelf: "635.9 BER" },
  { id: "b-shade", title: "Gardening for Shade", author: "Alice Moreno", year: 2012, format: "book", copies: 0, shelf: "635.9 MOR" },
  { id: "d-year", title: "A Year of Gardening (BBC series)", author: "BBC", year: 2014, format: "dvd", copies: 0, shelf: "DVD YEA" },
  { id: "d-allot", title: "Allotment Diaries: Gardening Through the Seasons", author: "Green Lens Films", year: 2019, format: "dvd", copies: 2, shelf: "DVD ALL" },
  { id: "a-garden", title: "The Gardening Year, Read Aloud", author: "June Park", year: 2017, format: "audiobook", copies: 1, shelf: "CD PAR" },
  { id: "e-chi", title: "Chi Pheo", author: "Nam Cao", year: 1941, format: "ebook", copies: 5, shelf: "online" },
  { id: "b-chi", title: "Chi Pheo", author: "Nam Cao", year: 1941, format: "book", copies: 1, shelf: "VN NAM" },
  { id: "e-lao", title: "Lao Hac", author: "Nam Cao", year: 1943, format: "ebook", copies: 3, shelf: "online" },
  { id: "b-song", title: "Song mon", author: "Nam Cao", year: 1944, format: "book", copies: 2, shelf: "VN NAM" },
  { id: "e-cao", title: "Remembering Nam Cao: Essays", author: "Various", year: 2005, format: "book", copies: 1, shelf: "895.9 REM" },
  { id: "e-to", title: "Tat den", author: "Ngo Tat To", year: 1939, format: "ebook", copies: 4, shelf: "online" }
];
var FORMATS = { book: "Book", ebook: "E-book", dvd: "DVD", audiobook: "Audiobook" };
function findBook(id) { return CATALOGUE.filter(function (b) { return b.id === id; })[0]; }
function fold(s) { return (s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/\u0111/g, "d").replace(/\u0110/g, "D").toLowerCase().trim(); }
function searchCatalogue(q, title, author, format) {
  return CATALOGUE.filter(function (b) {
    return (!q || fold(b.title + " " + b.author).indexOf(fold(q)) >= 0)
      && (!title || fold(b.title).indexOf(fold(title)) >= 0)
      && (!author || fold(b.author).indexOf(fold(author)) >= 0)
      && (!format || b.format === format);
  });
}
