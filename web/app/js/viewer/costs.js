// The building-cost card beside the board (docs/RULES.md 7.1 and IMP-1; BG-4
// for the base game): what each piece, knight action and city improvement
// costs, folded away in a <details> until it is wanted. Markup only.
import { html, TRACK_NAMES } from '../names.js';

// The commodity each improvement track is paid in (RULES.md 9.1).
const TRACK_COMMODITY = ['cloth', 'coin', 'paper'];

const BUILDINGS = [
  ['Road', '1 brick + 1 lumber'],
  ['Settlement', '1 brick + 1 lumber + 1 wool + 1 grain'],
  ['City (from a settlement)', '2 grain + 3 ore'],
];
const CITIES_AND_KNIGHTS = [
  ['City wall', '2 brick'],
  ['Knight: recruit (basic)', '1 wool + 1 ore'],
  ['Knight: promote one level', '1 wool + 1 ore'],
  ['Knight: activate', '1 grain'],
];
const BASE = [['Development card', '1 wool + 1 grain + 1 ore']];

// The rows of the card for a ruleset: [what, cost].
export function costRows(base) {
  if (base) return [...BUILDINGS, ...BASE];
  // Level n of a track costs n of its commodity: 1 to 5, 15 for a whole track.
  const improvements = TRACK_NAMES.map((t, i) => [`Improvement: ${t}, level n`, `n ${TRACK_COMMODITY[i]} (1 to 5)`]);
  return [...BUILDINGS, ...CITIES_AND_KNIGHTS, ...improvements];
}

export function costCardMarkup(base) {
  const rows = costRows(base).map(([what, cost]) => html`<tr><th scope="row">${what}</th><td>${cost}</td></tr>`);
  return html`<details class="costs" data-costs="${base ? 'base' : 'cities-and-knights'}">
    <summary>Building costs</summary>
    <table class="cost-table"><tbody>${rows}</tbody></table>
    ${base ? '' : html`<p class="hint">Commodities pay for city improvements only.</p>`}
  </details>`;
}
