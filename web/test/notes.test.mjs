// node --test web/test: the signed-in person's bots' notes beside a replay
// (web/app/js/viewer/notes.js): the latest answered step at or before the step
// shown, the think-time summary, whether a game may hold notes of theirs, and
// the panel's markup with every note escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { latestAtOrBefore, thinkSummary, formatMs, hasSeatOf, currentMarkup, notesMarkup } from '../app/js/viewer/notes.js';

// What GET /api/v1/me/games/{id}/debug answers (docs/GATEWAY.md).
const STEPS = [
  { step: 3, think_ms: 40, note: 'sams-bot chose build_road e17 of 9 legal', evaluation: 0.25 },
  { step: 8, think_ms: 10, note: '', evaluation: null },
  { step: 9, think_ms: 1500, note: '<img src=x onerror="window.pwned=1"> & "co"', evaluation: -1.5 },
  { step: 20, think_ms: 20, note: 'late', evaluation: null },
];
const DEBUG = {
  game_id: 'g-1',
  seats: [{ seat: 2, identity_id: 12, bot: 'sams-bot', recorded_from_step: 0, notes_dropped: 0, steps: STEPS }],
};
const PLAYERS = [{ seat: 0, name: 'ana', identity_id: 4 }, { seat: 1, name: 'bea', identity_id: null }, { seat: 2, name: 'sams-bot', identity_id: 12 }, { seat: 3, name: 'dee', identity_id: 7 }];

test('the latest answered step at or before n: none before the first, the step itself, the one before a gap', () => {
  assert.equal(latestAtOrBefore(STEPS, 0), null);
  assert.equal(latestAtOrBefore(STEPS, 2), null);
  assert.equal(latestAtOrBefore(STEPS, 3).step, 3);
  assert.equal(latestAtOrBefore(STEPS, 7).step, 3);
  assert.equal(latestAtOrBefore(STEPS, 8).step, 8);
  assert.equal(latestAtOrBefore(STEPS, 9).step, 9);
  assert.equal(latestAtOrBefore(STEPS, 19).step, 9);
  assert.equal(latestAtOrBefore(STEPS, 1000).step, 20);
  assert.equal(latestAtOrBefore([], 5), null);
  // Against a plain scan, at every step of a longer list.
  const many = Array.from({ length: 57 }, (_, i) => ({ step: 2 * i + (i % 3), think_ms: i }));
  for (let n = -1; n < 130; ++n) assert.equal(latestAtOrBefore(many, n), many.filter((s) => s.step <= n).at(-1) ?? null, `n = ${n}`);
});

test('the think-time summary: count, median (the middle two averaged) and max', () => {
  assert.deepEqual(thinkSummary(STEPS), { answered: 4, median: 30, max: 1500 });
  assert.deepEqual(thinkSummary(STEPS.slice(0, 3)), { answered: 3, median: 40, max: 1500 });
  assert.deepEqual(thinkSummary([]), { answered: 0, median: 0, max: 0 });
  assert.equal(formatMs(30), '30 ms');
  assert.equal(formatMs(1500), '1.50 s');
  assert.equal(formatMs(12500), '12.5 s');
});

test('a game may hold notes of the person only where a seat is theirs or their bots\'', () => {
  assert.equal(hasSeatOf(PLAYERS, [12]), true);
  assert.equal(hasSeatOf(PLAYERS, [99, 7]), true);
  assert.equal(hasSeatOf(PLAYERS, [99]), false);
  assert.equal(hasSeatOf(PLAYERS, []), false);
  assert.equal(hasSeatOf([{ seat: 0, identity_id: null }], [0]), false);
});

test('the line at a step: its note, evaluation and think time; before the first answer, none', () => {
  const seat = DEBUG.seats[0];
  assert.match(String(currentMarkup(seat, 5)), /step 3.*<q data-note>sams-bot chose build_road e17 of 9 legal<\/q>.*evaluation <span data-note-evaluation>0\.25<\/span>.*40 ms/);
  assert.match(String(currentMarkup(seat, 8)), /\(no note\)/);
  assert.doesNotMatch(String(currentMarkup(seat, 8)), /evaluation/);
  assert.match(String(currentMarkup(seat, 1)), /No answer of this seat yet at step 1/);
});

test('every note is escaped: a bot writes what it likes', () => {
  const line = String(currentMarkup(DEBUG.seats[0], 9));
  assert.ok(line.includes('&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt; &amp; &quot;co&quot;'), line);
  assert.ok(!line.includes('<img'));
  const panel = String(notesMarkup({ ...DEBUG, seats: [{ ...DEBUG.seats[0], bot: '<b>bot</b>' }] }, PLAYERS, 9));
  assert.ok(!panel.includes('<img') && !panel.includes('<b>bot'), panel);
});

test('the panel: its heading, each seat with its summary, and the download link', () => {
  const panel = String(notesMarkup({ ...DEBUG, seats: [{ ...DEBUG.seats[0], recorded_from_step: 2, notes_dropped: 1 }] }, PLAYERS, 20));
  assert.match(panel, /<h2>Your bot's notes<\/h2>/);
  assert.match(panel, /data-notes-seat="2"/);
  assert.match(panel, /C sams-bot/);
  assert.match(panel, /4 answers · think time median\s+30 ms, max 1\.50 s · recorded from step 2 · 1 note dropped past the limit/);
  assert.match(panel, /<q data-note>late<\/q>/);
  assert.match(panel, /href="\/api\/v1\/me\/games\/g-1\/debug\?download=1"[^>]*data-notes-download>Download your bot's notes<\/a>/);
});
