"use strict";
// The view settings both pages share that outlive a page: Kerzenschein (dark) follows
// the system's colour scheme (prefers-color-scheme) until the box is changed by hand;
// the hand's choice is remembered in this browser (localStorage).  Every drawing takes
// its colours from body[data-theme], so the boards turn dark with the page.
const THEME_KEY = "fechtbuch.theme";

function applyTheme(dark) {
  document.getElementById("dark").checked = dark;
  document.body.dataset.theme = dark ? "dark" : "light";
}

function followTheme() {
  const box = document.getElementById("dark");
  if (!box) return;
  const system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  const chosen = () => localStorage.getItem(THEME_KEY);
  applyTheme(chosen() ? chosen() === "dark" : Boolean(system && system.matches));
  if (system) system.addEventListener("change", () => { if (!chosen()) applyTheme(system.matches); });
  box.addEventListener("change", () => {
    localStorage.setItem(THEME_KEY, box.checked ? "dark" : "light");
    applyTheme(box.checked);
  });
}

followTheme();
