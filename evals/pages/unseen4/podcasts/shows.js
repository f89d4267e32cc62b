// The directory: id, title, host, topic, blurb, episodes as [title, minutes, date], newest first.
var SHOWS = [
  ["tidewater", "The Tidewater Hour", "Maren Solberg", "Nature", "Coasts, estuaries and the birds that live between the tides.", 112,
    [["Episode 112: Salt marsh sparrows", 48, "20 Jan 2027"], ["Episode 111: Oyster reefs come back", 53, "6 Jan 2027"], ["Episode 110: Winter waders", 61, "23 Dec 2026"]]],
  ["rootbound", "Rootbound", "Femi and Clara Ode", "Home and garden", "Two allotment holders on gardening through the seasons, mistakes included.", 64,
    [["Compost, honestly", 37, "18 Jan 2027"], ["Seed catalogue season", 42, "4 Jan 2027"]]],
  ["smallplots", "Small Plots, Big Harvests", "Dev Anand", "Home and garden", "Vegetable gardening on balconies, patios and window sills.", 29,
    [["Chillies on a window sill", 25, "15 Jan 2027"], ["Pots that drain", 22, "1 Jan 2027"]]],
  ["ledger", "The Quiet Ledger", "Aisha Bello", "Money", "Plain talk about budgets, pensions and paying off debt.", 88,
    [["What a pension statement says", 34, "19 Jan 2027"]]],
  ["chesscorner", "Chess Corner Weekly", "Ivo Marek", "Games", "Club chess, openings and the week's tournaments.", 203,
    [["Endgames you must know", 55, "21 Jan 2027"]]],
  ["nightshift", "Night Shift Stories", "Rosa Quint", "Society", "People who work while the city sleeps tell their stories.", 41,
    [["The bakery at 3 a.m.", 31, "17 Jan 2027"]]]
];
