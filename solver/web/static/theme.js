// Before the first paint: the theme the player chose (localStorage), else the system's; and the
// high-contrast palette when chosen.
"use strict";
try {
  const chosen = localStorage.getItem("exact-wordle-theme");
  if (chosen === "light" || chosen === "dark") document.documentElement.dataset.theme = chosen;
  if (localStorage.getItem("exact-wordle-palette") === "contrast") document.documentElement.dataset.palette = "contrast";
} catch (err) { /* storage refused (private mode): follow the system */ }
