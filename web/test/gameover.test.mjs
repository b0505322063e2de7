// node --test web/test: the game-over summary (web/app/js/play/summary.js):
// each seat's VP by source adding up to its total, places, the rating change,
// the replay link at the last step, a table's game's link back to its table,
// names escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vpSources, placesOf, ratingChange, summaryMarkup } from '../app/js/play/summary.js';

// A final position of two seats: seat 0 with 2 settlements, 3 cities, the
// science metropolis, the longest road, a Defender card and the Printer
// (14 VP); seat 1 with 4 settlements, a city and the merchant (7 VP).
function position() {
  const building = new Array(54).fill(0);
  const owner = new Array(54).fill(-1);
  const put = (v, s, b) => ((owner[v] = s), (building[v] = b));
  [1, 2].forEach((v) => put(v, 0, 1));
  [10, 11, 12].forEach((v) => put(v, 0, 2));
  [20, 21, 22, 23].forEach((v) => put(v, 1, 1));
  put(30, 1, 2);
  return {
    building, building_owner: owner,
    metropolis_owner: [-1, -1, 0], longest_road_holder: 0, largest_army_holder: -1,
    merchant_owner: 1, merchant_hex: 4,
    players: [
      { vp: 14, vp_cards: 1, defender: 1 },
      { vp: 7, vp_cards: 0, defender: 0 },
    ],
  };
}

test('the sources add up to the VP, each with its count', () => {
  const a = vpSources(position(), 0);
  assert.deepEqual(a.map((x) => [x.source, x.vp]), [['settlements', 2], ['cities', 6], ['metropolises', 2], ['longest_road', 2], ['defender', 1], ['progress', 1]]);
  assert.match(a.find((x) => x.source === 'metropolises').label, /science/);
  assert.match(a.find((x) => x.source === 'progress').label, /Printer/);
  const b = vpSources(position(), 1);
  assert.deepEqual(b.map((x) => [x.source, x.vp]), [['settlements', 4], ['cities', 2], ['merchant', 1]]);
});

test('points the app cannot place show as "other", so the rows still add up', () => {
  const p = position();
  p.players[1].vp = 9;
  assert.deepEqual(vpSources(p, 1).at(-1), { source: 'other', label: 'other', vp: 2 });
});

test('places: the winner first, then by VP, ties sharing', () => {
  assert.deepEqual(placesOf([10, 13, 10, 6], 1), [2, 1, 2, 4]);
  assert.deepEqual(placesOf([13, 13, 4], 1), [2, 1, 3]);
});

test('the rating change is the change of μ − 3σ', () => {
  const entry = { mu_before: 25, sigma_before: 8, mu_after: 27, sigma_after: 7, ordinal_after: 6 };
  assert.equal(ratingChange(entry), 5);
  assert.equal(ratingChange(undefined), null);
});

test('the summary: rows by place, VP and sources, the replay at its last step, names escaped', () => {
  const out = String(summaryMarkup({
    gameId: 'g-1', seat: 1, players: [{ name: '<b>ana</b>' }, { name: 'bo' }],
    result: { winner: 0, turns: 40, vp: [14, 7] }, position: position(), places: null, steps: 812,
    rating: { change: -1.5, after: 3.25 },
  }));
  assert.ok(out.indexOf('data-summary-seat="0"') < out.indexOf('data-summary-seat="1"'));
  assert.match(out, /data-summary-seat="0" data-vp="14" data-place="1"/);
  assert.match(out, /href="\/games\/g-1\?step=812"/);
  assert.match(out, /&lt;b&gt;ana&lt;\/b&gt; won after 40 turns/);
  assert.ok(!out.includes('<b>ana'));
  assert.match(out, /data-rating-change="-1.50">Your rating: <strong>−1.50<\/strong> \(now 3.25\)/);
  assert.match(out, /bo \(you\)/);
});

test('the rating line says the new rank, or that placement goes on', () => {
  const summary = (standing) => String(summaryMarkup({
    gameId: 'g-1', seat: 0, players: [{ name: 'ana' }, { name: 'bo' }],
    result: { winner: 0, turns: 40, vp: [14, 7] }, position: position(), places: null, steps: 812,
    rating: { change: 2, after: 5, standing },
  }));
  assert.match(summary({ rank: 3, total: 12, games: 9 }), /data-rating-rank="3">Rank <strong>3<\/strong> of 12\./);
  assert.match(summary({ rank: null, total: 12, games: 1 }), /data-rating-rank="placement">Not ranked yet: 1 placement game played\./);
  assert.ok(!summary(null).includes('data-rating-rank'));
});

test('before the final position: totals and places from the result, no rating line', () => {
  const out = String(summaryMarkup({ gameId: 'g-2', seat: 0, players: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
    result: { winner: 2, turns: 9, vp: [5, 7, 10] }, position: null, places: null, steps: 0, rating: null }));
  assert.match(out, /data-summary-seat="2" data-vp="10" data-place="1"/);
  assert.match(out, /data-summary-seat="0" data-vp="5" data-place="3"/);
  assert.ok(!out.includes('data-rating-change'));
  assert.match(out, /href="\/games\/g-2"/);
});

test('a resigned game: who resigned, and that seat last whatever its points', () => {
  assert.deepEqual(placesOf([10, 13, 10, 6], -1, 1), [1, 4, 1, 3]);
  const out = String(summaryMarkup({ gameId: 'g-3', seat: 1, players: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
    result: { reason: 'END_REASON_RESIGNED', resigned_seat: 1, winner: -1, turns: 12, vp: [5, 7, 4] }, position: null, places: null, steps: 0, rating: null }));
  assert.match(out, /b \(you\) resigned after 12 turns/);
  assert.match(out, /data-summary-seat="1" data-vp="7" data-place="3"/);
  assert.match(out, /data-summary-seat="0" data-vp="5" data-place="1"/);
  const stored = String(summaryMarkup({ gameId: 'g-3', seat: 0, players: [{ name: 'a' }, { name: 'b' }],
    result: { reason: 'resigned', resigned_seat: 0, winner: null, turns: 3, vp: [2, 2] }, position: null, places: null, steps: 0, rating: null }));
  assert.match(stored, /a \(you\) resigned/);
});

test('a friends\' table\'s game links back to its table, for a rematch; other games do not', () => {
  const summary = (gameId) => String(summaryMarkup({ gameId, seat: 0, players: [{ name: 'a' }, { name: 'b' }],
    result: { winner: 0, turns: 9, vp: [10, 7] }, position: null, places: null, steps: 300, rating: null }));
  const out = summary('table-aB3dE5gH7jK9-2');
  assert.match(out, /<a class="button" data-back-to-table href="\/tables\/aB3dE5gH7jK9">Back to the table<\/a>/);
  assert.match(out, /href="\/games\/table-aB3dE5gH7jK9-2\?step=300"/);
  assert.ok(!summary('g-1').includes('data-back-to-table'));
  assert.ok(!summary('practice-3').includes('Back to the table'));
});
