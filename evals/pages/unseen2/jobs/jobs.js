// The job board's openings and the reader's saved jobs (in the eval store).
var JOBS = [
  { id: "j1", title: "Frontend Developer (React)", company: "Sao Mai Tech", city: "Hanoi", remote: false, salary: "25-35 million VND" },
  { id: "j2", title: "Product Designer", company: "Lotus Apps", city: "Hanoi", remote: false, salary: "20-30 million VND" },
  { id: "j3", title: "Backend Developer (Go)", company: "Cầu Giấy Labs", city: "Hanoi", remote: true, salary: "30-45 million VND" },
  { id: "j4", title: "Backend Developer (Java)", company: "VinaBank Digital", city: "Ho Chi Minh City", remote: false, salary: "28-40 million VND" },
  { id: "j5", title: "Data Analyst", company: "Green Basket", city: "Ho Chi Minh City", remote: true, salary: "18-26 million VND" },
  { id: "j6", title: "QA Engineer", company: "Sao Mai Tech", city: "Da Nang", remote: false, salary: "15-22 million VND" },
  { id: "j7", title: "Product Designer", company: "Han River Studio", city: "Da Nang", remote: true, salary: "18-28 million VND" },
  { id: "j8", title: "Customer Support Lead", company: "Green Basket", city: "Ho Chi Minh City", remote: false, salary: "14-18 million VND" },
  { id: "j9", title: "DevOps Engineer", company: "Lotus Apps", city: "Da Nang", remote: true, salary: "35-50 million VND" },
  { id: "j10", title: "Marketing Executive", company: "Han River Studio", city: "Hanoi", remote: false, salary: "12-16 million VND" }
];
function findJob(id) { return JOBS.filter(function (j) { return j.id === id; })[0]; }
