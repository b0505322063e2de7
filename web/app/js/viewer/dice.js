// The dice of the last roll drawn as dice (RULES.md 1.3): the yellow and the
// red production die with their pips, and the event die's face, the
// barbarian ship or a city gate in its track's colour. One image with the
// roll in words for screen readers. Markup only.
import { html, raw, EVENT_FACES } from '../names.js';

// Pip centres on a 0..30 face, by the die's value.
const L = 8;
const M = 15;
const H = 22;
const PIPS = {
  1: [[M, M]],
  2: [[L, L], [H, H]],
  3: [[L, L], [M, M], [H, H]],
  4: [[L, L], [H, L], [L, H], [H, H]],
  5: [[L, L], [H, L], [M, M], [L, H], [H, H]],
  6: [[L, L], [H, L], [L, M], [H, M], [L, H], [H, H]],
};
const GATE_COLOURS = ['var(--trade)', 'var(--politics)', 'var(--science)'];

export function pipsOf(value) {
  return PIPS[value] ?? [];
}

function numberDie(value, colour) {
  const pips = pipsOf(value).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.8"/>`).join('');
  return raw(`<svg class="die die-${colour}" data-die="${colour}" data-value="${value}" viewBox="0 0 30 30" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="28" height="28" rx="5"/><g class="pips">${pips}</g></svg>`);
}

function eventDie(face) {
  const inner = face === 0
    // The barbarian ship: a hull under a sail.
    ? '<path class="ship" d="M5 18 H25 L21 24 H9 Z M15 5 V17 M15 6 L23 15 H15 Z"/>'
    // A city gate: an arch in the track's colour.
    : `<path class="gate" style="fill:${GATE_COLOURS[face - 1]}" d="M6 25 V13 A9 9 0 0 1 24 13 V25 H19 V15 A4 4 0 0 0 11 15 V25 Z"/>`;
  return raw(`<svg class="die die-event" data-die="event" data-face="${face}" viewBox="0 0 30 30" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="28" height="28" rx="5"/>${inner}</svg>`);
}

// The roll in words, as the image's text alternative.
export function diceLabel(yellow, red, event, { base = false } = {}) {
  const dice = `yellow die ${yellow}, red die ${red}: ${yellow + red}`;
  return base ? `Dice: ${dice}` : `Dice: ${dice}; event die: ${EVENT_FACES[event] ?? 'unknown'}`;
}

// The dice of a position, or '' before the first roll. `base`: the base game
// has no event die.
export function diceMarkup(p, { base = false } = {}) {
  const y = Number(p.dice_yellow ?? 0);
  const r = Number(p.dice_red ?? 0);
  if (!y || !r) return '';
  const event = Number(p.dice_event ?? 0);
  return html`<span class="dice" role="img" aria-label="${diceLabel(y, r, event, { base })}" data-dice="${y} ${r}${base ? '' : ` ${event}`}">${numberDie(y, 'yellow')}${numberDie(r, 'red')}${base ? '' : eventDie(event)}</span>`;
}
