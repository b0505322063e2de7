// node --test web/test: a player's luck over their analysed games, as their page
// says it (web/app/js/analysis/summary.js): the sign and its words, the
// figures' rounding, nothing for no games, and nothing of the answer written
// into the markup unescaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { luckSummaryText, luckPanelMarkup, luckErrorMarkup } from '../app/js/analysis/summary.js';

// What GET /api/v1/players/{name}/luck answers.
const LUCKY = { player: 'ana', games: 3, luck_cards: 1.8333333333333333, dice_surplus: -0.5, draw_surplus: 1.1666666666666667, place: 1.6666666666666667, adjusted_place: 2.3333333333333335 };

test('a lucky player: the luck with its sign, each figure a game, both places', () => {
  assert.deepEqual(luckSummaryText(LUCKY), {
    games: 3,
    gamesText: '3 analysed games',
    luck: '+1.8',
    headline: '+1.8 cards a game: luckier than average',
    verdict: 'luckier than average',
    dice: '−0.5 cards a game',
    draws: '+1.17 progress cards a game',
    place: '1.67',
    adjustedPlace: '2.33',
    placeVerdict: 'luck helped',
  });
});

test('an unlucky player reads as such, and one game is one game', () => {
  const t = luckSummaryText({ games: 1, luck_cards: -7.833, dice_surplus: -5.5, draw_surplus: -1.167, place: 3, adjusted_place: 2 });
  assert.equal(t.gamesText, '1 analysed game');
  assert.equal(t.headline, '−7.8 cards a game: unluckier than average');
  assert.equal(t.dice, '−5.5 cards a game');
  assert.equal(t.draws, '−1.17 progress cards a game');
  assert.equal(t.place, '3.00');
  assert.equal(t.adjustedPlace, '2.00');
  assert.equal(t.placeVerdict, 'luck cost places');
});

test('luck that rounds to nothing is neither luckier nor unluckier', () => {
  for (const luck of [0, 0.04, -0.04]) {
    const t = luckSummaryText({ ...LUCKY, luck_cards: luck, place: 2, adjusted_place: 2.004 });
    assert.equal(t.headline, '0.0 cards a game: as lucky as average', String(luck));
    assert.equal(t.placeVerdict, 'luck changed no place');
  }
  assert.equal(luckSummaryText({ ...LUCKY, luck_cards: 0.05 }).verdict, 'luckier than average');
  assert.equal(luckSummaryText({ ...LUCKY, luck_cards: -0.05 }).verdict, 'unluckier than average');
});

test('no analysed games: nothing to say but that', () => {
  for (const s of [{ games: 0, luck_cards: 0, dice_surplus: 0, draw_surplus: 0, place: 0, adjusted_place: 0 }, {}, null, { games: 'x' }]) {
    assert.equal(luckSummaryText(s), null, JSON.stringify(s));
    const markup = String(luckPanelMarkup(s));
    assert.match(markup, /No analysed games yet\./);
    assert.match(markup, /data-luck-games="0"/);
    assert.doesNotMatch(markup, /luckier|<dl/);
  }
});

test('the panel: the headline, the figures, and one sentence saying what they mean', () => {
  const markup = String(luckPanelMarkup(LUCKY));
  assert.match(markup, /data-luck-games="3"/);
  assert.match(markup, /data-luck-cards="\+1\.8"/);
  assert.match(markup, /<strong>\+1\.8 cards a game: luckier than average<\/strong>/);
  assert.match(markup, /over 3 analysed games/);
  assert.match(markup, /<dd data-luck-dice>−0\.5 cards a game<\/dd>/);
  assert.match(markup, /<dd data-luck-draws>\+1\.17 progress cards a game<\/dd>/);
  assert.match(markup, /<dd data-luck-place>1\.67<\/dd>/);
  assert.match(markup, /<dd data-luck-adjusted-place>2\.33 <span class="meta">\(luck helped\)<\/span><\/dd>/);
  assert.match(markup, /<p class="hint">Luck in cards is what the dice gave beyond their expectation/);
  assert.doesNotMatch(markup, /NaN|undefined|null/);
});

test("nothing of the answer reaches the markup unescaped, nor as 'NaN'", () => {
  const evil = '<img src=x onerror=alert(1)>';
  const markup = String(luckPanelMarkup({ games: 2, luck_cards: evil, dice_surplus: null, draw_surplus: '"><b>', place: evil, adjusted_place: undefined, player: evil }));
  assert.doesNotMatch(markup, /<img|<b>|onerror|NaN|undefined/);
  assert.match(markup, /0\.0 cards a game: as lucky as average/);
  assert.match(markup, /data-luck-games="2"/);
  assert.match(String(luckErrorMarkup()), /could not be loaded right now/);
});
