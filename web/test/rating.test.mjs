// node --test web/test: what each game of a list did to a player's rating
// (web/app/js/games/rating.js): the change from the rating history's entry of
// that game, signed as the summary signs it, and "–" with the reason when the
// history has no entry for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signedChange, historyIndex, ratingCell, boardsOf } from '../app/js/games/rating.js';

// μ − 3σ before: 25 − 3·8.333 = 0.001; after: 1.231.
const up = { game_id: 'g-up', rank: 1, mu_before: 25, sigma_before: 8.333, mu_after: 26, sigma_after: 8, ordinal_after: 1.231, at_unix_ms: 3000 };
const down = { game_id: 'g-down', rank: 4, mu_before: 26, sigma_before: 8, mu_after: 25, sigma_after: 7.9, ordinal_after: 1.13, at_unix_ms: 2000 };
const level = { game_id: 'g-level', rank: 2, mu_before: 20, sigma_before: 5, mu_after: 20.003, sigma_after: 5.001, ordinal_after: 5, at_unix_ms: 1000 };
const history = { ladder: 'open', season: 2, entries: [up, down, level], next_page_token: null };
const game = (game_id, ladder = 'open', season = 2, finished_unix_ms = 500) => ({ game_id, ladder, season, finished_unix_ms });

test('a change is signed with two decimals, the minus a real minus, nought as ±', () => {
  assert.equal(signedChange(1.234), '+1.23');
  assert.equal(signedChange(-0.87), '−0.87');
  assert.equal(signedChange(0), '±0.00');
  // What rounds to nought is level, whichever side it was on.
  assert.equal(signedChange(-0.001), '±0.00');
  assert.equal(signedChange(0.004), '±0.00');
  assert.equal(signedChange(0.005), '+0.01');
});

test("a game of the history shows its entry's change: ordinal after − (μ − 3σ) before", () => {
  const index = historyIndex([history]);
  const a = ratingCell(game('g-up'), index);
  assert.equal(a.text, '+1.23');
  assert.equal(a.tone, 'up');
  assert.ok(Math.abs(a.change - 1.23) < 1e-9);
  assert.match(a.title, /0\.00 → 1\.23/);
  const b = ratingCell(game('g-down'), index);
  assert.equal(b.text, '−0.87');
  assert.equal(b.tone, 'down');
  const c = ratingCell(game('g-level'), index);
  assert.equal(c.text, '±0.00');
  assert.equal(c.tone, 'level');
});

test('a game of no ladder is not rated', () => {
  const c = ratingCell(game('p1', null, 0), historyIndex([history]));
  assert.deepEqual([c.change, c.text, c.tone], [null, '–', 'none']);
  assert.match(c.title, /^not rated: a game of no ladder/);
});

test("a game of another ladder's season than the history read says which was read", () => {
  const index = historyIndex([history]);
  assert.match(ratingCell(game('x', 'blitz', 2), index).title, /^not shown: the rating history here is of open season 2$/);
  assert.match(ratingCell(game('x', 'open', 1), index).title, /^not shown: the rating history here is of open season 2$/);
  // No history at all (a player never rated): none is named.
  const c = ratingCell(game('x'), historyIndex([null]));
  assert.equal(c.text, '–');
  assert.equal(c.title, 'not shown: no rating history of open season 2 here');
});

test('a game of the same board missing from a whole history was not rated', () => {
  const c = ratingCell(game('aborted', 'open', 2, 2500), historyIndex([history]));
  assert.deepEqual([c.text, c.title], ['–', 'not rated on open season 2']);
});

test('a game older than a history read in part may have been rated: it says only that it is not among those read', () => {
  const partial = historyIndex([{ ...history, next_page_token: 'more' }]);
  assert.equal(ratingCell(game('old', 'open', 2, 500), partial).title, 'not among the 3 latest rating changes read on open season 2');
  // Newer than the oldest change read: its change would have been read.
  assert.equal(ratingCell(game('new', 'open', 2, 2500), partial).title, 'not rated on open season 2');
});

test('a board whose history could not be read says so', () => {
  const index = historyIndex([history], [{ ladder: 'blitz', season: 1 }]);
  const c = ratingCell(game('b', 'blitz', 1), index);
  assert.deepEqual([c.change, c.text], [null, '–']);
  assert.equal(c.title, 'the rating history of blitz season 1 could not be read');
  assert.equal(ratingCell(game('g-up'), index).text, '+1.23');
});

test('the boards of a list are its ladders’ seasons, each once, in order, none for games of no ladder', () => {
  const games = [game('a'), game('b', 'blitz', 1), game('c', null, 0), game('d'), game('e', 'open', 1)];
  assert.deepEqual(boardsOf(games), [
    { ladder: 'open', season: 2 },
    { ladder: 'blitz', season: 1 },
    { ladder: 'open', season: 1 },
  ]);
});

test("the games' table has the column only when given the histories, a cell a game with its change and reason", async () => {
  const { gamesTable } = await import('../app/js/pages/games.js');
  const players = [{ seat: 0, name: 'ana', place: 1, vp: 13, identity_id: 1 }];
  const row = (id, ladder) => ({ ...game(id, ladder), tournament: null, players, result: { reason: 'won', winner: 0, turns: 50, actions: 900 } });
  const games = [row('g-up', 'open'), row('g-down', 'open'), row('practice', null)];
  const plain = String(gamesTable(games, 'ana'));
  assert.doesNotMatch(plain, /rating-change|>Rating</);
  const shown = String(gamesTable(games, 'ana', { ratings: historyIndex([history]) }));
  assert.match(shown, /<th class="num" title="ana's rating change \(μ − 3σ\)">Rating<\/th>/);
  assert.match(shown, /<td class="num rating-change up" data-rating-change="1.23" title="[^"]*">\+1\.23<\/td>/);
  assert.match(shown, /<td class="num rating-change down" data-rating-change="-0.87" title="[^"]*">−0\.87<\/td>/);
  assert.match(shown, /<td class="num rating-change none" data-rating-change="" title="not rated: a game of no ladder[^"]*">–<\/td>/);
  // The header and each row have as many cells.
  const cells = (tr) => (tr.match(/<t[hd][ >]/g) ?? []).length;
  const trs = shown.split('<tr').slice(1);
  assert.ok(trs.every((tr) => cells(tr) === cells(trs[0])), 'a row with more or fewer cells than the header');
  // Names in the title are escaped.
  assert.match(String(gamesTable(games, '', { ratings: historyIndex([]), ratingsOf: '<b>' })), /title="&lt;b&gt;'s rating change/);
});
