// The Minh An clinic's doctors: the list shows name and field, a profile page the rest.
var DOCTORS = [
  { id: "d1", name: "Dr. Nguyen Van Binh", field: "General practice", days: "Monday, Wednesday and Friday", langs: "Vietnamese, English", fee: "350,000 VND",
    about: "Dr. Binh has looked after families in District 3 for twenty years." },
  { id: "d2", name: "Dr. Tran Thu Ha", field: "Paediatrics", days: "Tuesday and Thursday", langs: "Vietnamese, French", fee: "400,000 VND",
    about: "Dr. Ha sees children from birth to sixteen; bring the vaccination book to the first visit." },
  { id: "d3", name: "Dr. Pham Minh Khoa", field: "Dermatology", days: "Monday, Thursday and Friday", langs: "Vietnamese, English", fee: "450,000 VND",
    about: "Dr. Khoa treats skin, hair and nail conditions, including allergies and rashes." },
  { id: "d4", name: "Dr. Le Hoang Anh", field: "Cardiology", days: "Wednesday only", langs: "Vietnamese", fee: "600,000 VND",
    about: "Dr. Anh runs the heart clinic; an ECG is done on the day if needed." }
];
var SLOTS = ["08:00", "08:30", "09:00", "09:30", "10:00", "10:30", "14:00", "14:30", "15:00", "15:30"];
function findDoctor(id) { return DOCTORS.filter(function (d) { return d.id === id; })[0]; }
