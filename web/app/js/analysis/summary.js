// A player's luck over their analysed games, on their page: what GET
// /api/v1/players/{name}/luck says (means a game of each game's luck account,
// docs/ANALYSIS.md), in words. luckSummaryText is pure and tested under node
// (web/test/summary.test.mjs); luckPanelMarkup escapes everything it writes.
import { html } from '../names.js';
import { signed } from './model.js';

// The service's numbers are means, so any finite number; anything else (an
// answer the page does not expect) reads as nothing rather than as "NaN".
const num = (x) => (x !== null && x !== '' && Number.isFinite(Number(x)) ? Number(x) : 0);

// The summary's lines as the panel shows them; null when no game of the
// player's is analysed (or the answer says no games at all).
export function luckSummaryText(summary) {
  const games = Math.max(0, Math.floor(num(summary?.games)));
  if (!games) return null;
  const luck = num(summary.luck_cards);
  const luckText = signed(luck);
  // What rounds to nothing is said as such: "+0.0 luckier" would mislead.
  const verdict = Number(luckText) === 0 ? 'as lucky as average' : luck > 0 ? 'luckier than average' : 'unluckier than average';
  const place = num(summary.place);
  const adjusted = num(summary.adjusted_place);
  // A lower place is a better one: luck taken out, a lucky player drops.
  const placeShift = (adjusted - place).toFixed(2);
  const placeVerdict = Number(placeShift) === 0 ? 'luck changed no place' :
    adjusted > place ? 'luck helped' : 'luck cost places';
  return {
    games,
    gamesText: `${games} analysed game${games === 1 ? '' : 's'}`,
    luck: luckText,
    headline: `${luckText} cards a game: ${verdict}`,
    verdict,
    dice: `${signed(num(summary.dice_surplus))} cards a game`,
    draws: `${signed(num(summary.draw_surplus), 2)} progress cards a game`,
    place: place.toFixed(2),
    adjustedPlace: adjusted.toFixed(2),
    placeVerdict,
  };
}

export const LUCK_EXPLAINED = 'Luck in cards is what the dice gave beyond their expectation from each position, ' +
  'plus two for each progress card drawn beyond its chance; the place with luck taken out ranks each game again ' +
  'after taking that luck out of the points, so a higher (worse) number there means luck helped.';

// The panel's contents. `summary` is the endpoint's answer.
export function luckPanelMarkup(summary) {
  const t = luckSummaryText(summary);
  if (!t) return html`<p data-luck-games="0">No analysed games yet.</p>`;
  return html`<p class="luck-headline" data-luck-games="${t.games}" data-luck-cards="${t.luck}">
      <strong>${t.headline}</strong> <span class="meta">over ${t.gamesText}</span></p>
    <dl class="luck-figures">
      <dt>Dice, beyond expectation</dt><dd data-luck-dice>${t.dice}</dd>
      <dt>Progress draws, beyond expectation</dt><dd data-luck-draws>${t.draws}</dd>
      <dt>Mean place</dt><dd data-luck-place>${t.place}</dd>
      <dt>With luck taken out</dt><dd data-luck-adjusted-place>${t.adjustedPlace} <span class="meta">(${t.placeVerdict})</span></dd>
    </dl>
    <p class="hint">${LUCK_EXPLAINED}</p>`;
}

// What the panel says when the summary could not be had: never the services' words.
export function luckErrorMarkup() {
  return html`<p class="meta" data-luck-error>The luck summary could not be loaded right now.</p>`;
}
