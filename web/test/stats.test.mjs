// node --test web/test: a player's figures on their page
// (web/app/js/players/stats.js): a row per ladder's season, the games of no
// ladder, the total; averages to two places, none without a ranked game; the
// ladder's id escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statsMarkup } from '../app/js/players/stats.js';

const STATS = {
  games_considered: 9,
  boards: [
    { ladder: 'open', season: 2, games: 4, ranked: 3, wins: 1, average_place: 7 / 3 },
    { ladder: '<b>x', season: 1, games: 1, ranked: 0, wins: 0, average_place: null },
    { ladder: null, season: null, games: 2, ranked: 2, wins: 2, average_place: 1 },
  ],
  all: { games: 7, ranked: 5, wins: 3, average_place: 1.8 },
};

const cells = (markup, selector) => {
  const at = markup.indexOf(selector);
  assert.ok(at >= 0, `no ${selector}`);
  const rowText = markup.slice(at, markup.indexOf('</tr>', at));
  return [...rowText.matchAll(/<t[dh][^>]*>([^<]*)<\/t[dh]>/g)].map((m) => m[1]);
};

test('a row per board and the total, with win shares and average places', () => {
  const m = String(statsMarkup(STATS));
  assert.deepEqual(cells(m, 'data-stats-board="open/2"'), ['open season 2', '4', '1', '33 %', '2.33']);
  assert.deepEqual(cells(m, 'data-stats-board=""'), ['Other games (practice, tournaments)', '2', '2', '100 %', '1.00']);
  assert.deepEqual(cells(m, 'data-stats-all'), ['All', '7', '3', '60 %', '1.80']);
  assert.match(m, /Over the latest 9 games/);
});

test('no ranked game: no share and no average', () => {
  const m = String(statsMarkup(STATS));
  assert.deepEqual(cells(m, 'data-stats-board="&lt;b&gt;x/1"'), ['&lt;b&gt;x season 1', '1', '0', '–', '–']);
  assert.ok(!m.includes('<b>x'), 'the ladder id is escaped');
});

test('nothing played: a line, not an empty table', () => {
  assert.equal(String(statsMarkup({ games_considered: 0, boards: [], all: { games: 0, ranked: 0, wins: 0, average_place: null } })), '<p>No games yet.</p>');
  assert.equal(String(statsMarkup(undefined)), '<p>No games yet.</p>');
});
