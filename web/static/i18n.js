"use strict";
// The texts of both pages (the single-player page and the Wartesaal): the German or
// English catalogue from /i18n/<lang>.json (the generic texts and every game's own,
// merged by the server: page_texts in web/webgame.py), put into every [data-i18n] element
// (and into the aria-label of every [data-i18n-label] element: a name only a screen
// reader says is worded too) and read with t(key, {name: value}) for "{name}" placeholders.  Loaded before the
// page's own script, which calls t() and loadTexts().  An argument may itself be a
// message ({key, args}: a card's or a pattern's name from the server), worded too.
const I18n = { texts: {}, lang: "de" };

function t(key, args) {
  let text = I18n.texts[key];
  if (text === undefined) return key;
  for (const [name, value] of Object.entries(args || {})) {
    const worded = value && typeof value === "object" && value.key ? t(value.key, value.args) : String(value);
    text = text.split("{" + name + "}").join(worded);
  }
  return text;
}

async function loadTexts(lang) {
  const response = await fetch(`/i18n/${lang}.json`);
  I18n.texts = await response.json();
  I18n.lang = lang;
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}
