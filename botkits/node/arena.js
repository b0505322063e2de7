#!/usr/bin/env node
// The arena with a Node.js bot as the candidate (docs/BOTS.md, "The arena"):
// the games `metropolis-engine arena` plays for the same seed, played here
// through the engine addon, the candidate's decisions made by a bot file's
// decide function on what a host would send it.
//
//   node botkits/node/arena.js --candidate engine_bot.js --bot heuristic --opponents random --games 400 --seed 1
//   node botkits/node/arena.js --candidate random_bot.js --opponents random --games 400
//
// A bot file exports {decider, defaultBot} as engine_bot.js and random_bot.js do.
'use strict';

const path = require('node:path');
const fs = require('node:fs');
const { parseArgs } = require('node:util');
const { runArena } = require('./lib/arena');
const { findAddon } = require('./lib/engine');

const USAGE = `usage: arena.js --candidate FILE [--bot SPEC] [--opponents SPEC[,SPEC...]] [--games N] [--seed N]
                [--seats N] [--options TEXT] [--concurrency N] [--json FILE]

  --candidate FILE  a bot file exporting {decider, defaultBot} (engine_bot.js, random_bot.js)
  --bot SPEC        the spec its decider is given (default: its defaultBot)
  --opponents SPECS built-in bots (bots::MakeBot specs), one for all opponent seats or one each
                    (default random)
  --games N         games, rounded up to whole sets of one per seat (default 400)
  --seed N          set j's board and chance from N + j, as metropolis-engine arena (default 1)
  --seats N         3 or 4 (default 4)
  --options TEXT    rules options, "name=value ..."
  --concurrency N   games in flight at once (default 1)
  --json FILE       write the summary as JSON
  -h, --help        show this help`;

function fail(message) {
  console.error(`arena.js: ${message}\n(see arena.js --help)`);
  process.exit(2);
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        candidate: { type: 'string' }, bot: { type: 'string' }, opponents: { type: 'string', default: 'random' },
        games: { type: 'string', default: '400' }, seed: { type: 'string', default: '1' }, seats: { type: 'string', default: '4' },
        options: { type: 'string', default: '' }, concurrency: { type: 'string', default: '1' }, json: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    fail(e.message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.candidate) fail('--candidate is required');
  const int = (name, lo, hi) => {
    const v = values[name];
    if (!/^\d+$/.test(v) || Number(v) < lo || Number(v) > hi) fail(`--${name}: '${v}' is not an integer in [${lo}, ${hi}]`);
    return Number(v);
  };
  const games = int('games', 1, 1000000);
  const seats = int('seats', 3, 4);
  const concurrency = int('concurrency', 1, 64);
  if (!/^\d{1,20}$/.test(values.seed)) fail(`--seed: '${values.seed}' is not an unsigned 64-bit integer`);
  let bot;
  try {
    bot = require(path.resolve(__dirname, values.candidate));
  } catch (e) {
    try {
      bot = require(path.resolve(values.candidate));
    } catch {
      fail(`--candidate: cannot load ${values.candidate}: ${e.message}`);
    }
  }
  if (typeof bot.decider !== 'function') fail(`--candidate: ${values.candidate} exports no decider`);
  const spec = values.bot ?? bot.defaultBot;
  const problem = bot.decider.check ? bot.decider.check(spec) : '';
  if (problem) fail(`--bot: ${problem}`);

  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let done = 0;
  const r = await runArena({
    makeDecide: ({ rng }) => bot.decider({ spec, rng, notes: false }),
    opponents: values.opponents.split(','),
    games,
    seed: BigInt(values.seed),
    config: { seats, options: values.options },
    concurrency,
    onGame: () => {
      if (++done % 50 === 0) process.stderr.write(`arena.js: ${done} games\n`);
    },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  const rows = [
    ['candidate', `${values.candidate} (${spec})`],
    ['opponents', values.opponents],
    ['addon', findAddon()],
    ['games', `${r.games} (${r.games / seats} sets of ${seats} seat rotations), seed ${values.seed}`],
    ['candidate wins', String(r.wins)],
    ['win share', pct(r.winShare)],
    ['95% Wilson interval', `${pct(r.wilson95[0])} .. ${pct(r.wilson95[1])}`],
    ['fair share', pct(1 / seats)],
    ['z against the fair share', r.z.toFixed(2)],
    ['candidate mean VP', r.candidateMeanVp.toFixed(2)],
    ['opponent mean VP', r.opponentMeanVp.toFixed(2)],
    ['mean length (actions)', r.meanActions.toFixed(1)],
    ['games at the length cap', String(r.capped)],
    ['errors', `${r.errors}${r.firstError ? ` (first: ${r.firstError})` : ''}`],
    ['candidate decisions', `${r.decisions} (${(r.decisions / Math.max(1, r.games)).toFixed(1)} per game)`],
    ['wall time (s)', seconds.toFixed(1)],
    ['CPU time of this process (s)', ((used.user + used.system) / 1e6).toFixed(1)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}${v}`);
  console.log('\ncandidate seat  games  wins');
  r.seatGames.forEach((g, seat) => console.log(`${String(seat).padEnd(16)}${String(g).padStart(5)}${String(r.seatWins[seat]).padStart(6)}`));
  if (values.json) {
    const { results, ...summary } = r;
    fs.writeFileSync(values.json, `${JSON.stringify({
      candidate: values.candidate, bot: spec, opponents: values.opponents.split(','), seats, seed: values.seed, ...summary,
      winners: results.map((g) => g.winner), seconds,
    })}\n`);
  }
  if (r.errors) process.exitCode = 1;
}

main();
