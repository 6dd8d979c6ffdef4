// Before the first paint: the theme the player chose (localStorage), else the system's.
"use strict";
try {
  const chosen = localStorage.getItem("exact-wordle-theme");
  if (chosen === "light" || chosen === "dark") document.documentElement.dataset.theme = chosen;
} catch (err) { /* storage refused (private mode): follow the system */ }
