'use strict';
// node --test: the arena through the engine addon (lib/arena.js) plays the
// games of `metropolis-engine arena` (METROPOLIS_ENGINE names the binary; ctest
// sets it and METROPOLIS_ENGINE_ADDON).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { runArena, arenaSeeds, wilson } = require('../../lib/arena');
const { decider: engineBot } = require('../../engine_bot');

// engine_bot.js's decide function, shown each decision as the kit reads a
// host's, plays the command line's games with the same bot.
test('the arena through the addon plays `metropolis-engine arena`\'s games with engine_bot.js', async () => {
  const binary = process.env.METROPOLIS_ENGINE;
  assert.ok(binary, 'METROPOLIS_ENGINE names the metropolis-engine binary (ctest sets it)');
  for (const [candidate, opponents] of [['heuristic', 'random'], ['heuristic', 'heuristic']]) {
    const ours = await runArena({
      makeDecide: ({ rng }) => engineBot({ spec: candidate, rng, notes: false }), opponents, games: 8, seed: 3,
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-'));
    const json = path.join(dir, 'a.json');
    execFileSync(binary, ['arena', '--candidate', candidate, '--opponents', opponents, '--games', '8', '--seed', '3',
      '--threads', '1', '--json', json], { stdio: 'pipe' });
    const theirs = JSON.parse(fs.readFileSync(json, 'utf8'));
    fs.rmSync(dir, { recursive: true });
    const label = `${candidate} against ${opponents}`;
    assert.equal(ours.errors, 0, ours.firstError);
    assert.equal(ours.games, theirs.games, label);
    assert.equal(ours.wins, theirs.wins, label);
    assert.deepEqual(ours.seatWins, theirs.seat_wins, label);
    // The command line prints means rounded (to 3 and 1 decimals; a tie to even).
    assert.ok(Math.abs(ours.candidateMeanVp - theirs.candidate_mean_vp) <= 0.0005, label);
    assert.ok(Math.abs(ours.opponentMeanVp - theirs.opponent_mean_vp) <= 0.0005, label);
    assert.ok(Math.abs(ours.meanActions - theirs.mean_actions) <= 0.05, label);
    assert.equal(ours.offers, theirs.offers, label);
    assert.equal(ours.trades, theirs.trades, label);
  }
});

test('seeds and intervals are the command line\'s', () => {
  // tools/engine/arena.cc: set j's seed SplitMixHash(seed + j); chance seed it ^ 0xC4A2CE5EED.
  const s = arenaSeeds(1n, 5, 4);
  assert.equal(s.chance, s.board ^ 0xc4a2ce5eedn);
  assert.equal(arenaSeeds(1n, 4, 4).board, s.board, 'one board per set');
  assert.notEqual(arenaSeeds(1n, 8, 4).board, s.board);
  assert.equal(new Set(s.players).size, 4);
  const [lo, hi] = wilson(50, 100);
  assert.ok(Math.abs(lo - 0.4038) < 1e-4 && Math.abs(hi - 0.5962) < 1e-4);
  assert.deepEqual(wilson(0, 0), [0, 1]);
});

test('engine_bot.js refuses a bad --bot before it connects, and without the addon says so', () => {
  const { spawnSync } = require('node:child_process');
  const bot = path.join(__dirname, '..', '..', 'engine_bot.js');
  const run = (args, env = {}) => spawnSync(process.execPath, [bot, '--host', 'h:1', '--game', 'g', '--token', 't', ...args],
    { encoding: 'utf8', env: { ...process.env, ...env } });
  const bad = run(['--bot', 'search:nosuch=1']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^engine_bot.js: --bot: search: unknown setting 'nosuch'/);
  assert.match(run(['--bot', 'nosuch']).stderr, /--bot: unknown bot 'nosuch' \(random, greedy, heuristic, search\)/);
  const missing = run([], { METROPOLIS_ENGINE_ADDON: '/nonexistent/metropolis_engine.node' });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--bot: heuristic needs the engine addon: .*does not exist/);
});
