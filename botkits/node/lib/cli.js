'use strict';
// The command line of a Node.js bot: metropolis-bot's flags (botkits/cpp/
// bot_settings.cc) and what it does with them. One game (--host, --game,
// --token), games queued on a ladder (--ladder), or tournament games for as
// long as it runs (--compete); a summary line per finished game on stdout.
//
//   const { main } = require('./lib/cli');
//   main({ program: 'my_bot.js', deciders: { mine: () => (decision) => decision.legal[0] }, defaultBot: 'mine' })
//     .then((status) => { process.exitCode = status; });
//
// Exit status: 0 every game is over, 1 one could not be played to its end (the
// gRPC status is printed), 2 bad flags.

const fs = require('node:fs');
const { Client } = require('./client');
const { Protocol } = require('./protocol');
const { loadApi, credentials: makeCredentials, statusName, StatusError, grpc } = require('./api');
const { waitForSeat, compete } = require('./matchmaker');
const { SplitMix64, mixSeed, randomSeed } = require('./random');

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

class UsageError extends Error {}

// The flags, as metropolis-bot has them (bot_settings.cc), plus --proto.
const FLAGS = [
  ['host', 'ADDR', 'the game host, HOST:PORT (env METROPOLIS_HOST)'],
  ['tls-ca', 'FILE', 'PEM CA bundle: reach the game hosts and the matchmaker over TLS, verified against it (env METROPOLIS_TLS_CA; default: plaintext)'],
  ['ladder', 'ID', 'ladder mode: queue on this ladder instead of --host/--game/--token'],
  ['matchmaker', 'ADDR', 'ladder and compete modes: the matchmaker, or replicas A,B tried in turn (env METROPOLIS_MATCHMAKER)'],
  ['api-token', 'T', "ladder and compete modes: the bot's API token (env METROPOLIS_API_TOKEN)"],
  ['games', 'N', 'ladder mode: games to play one after another (default 1); compete mode: stop after N games (default: play until stopped)'],
  ['compete', '', 'tournament mode: stay available to the matchmaker and play every tournament game it sends'],
  ['capacity', 'N', 'compete mode: games at once (1..16, default 1)'],
  ['sessions', 'N', "compete mode: hold N Compete streams, each with --capacity; a duplicate set's rotations go to separate streams (1..16, default 1; with N > 1 it plays until stopped)"],
  ['game', 'ID', 'the game id'],
  ['token', 'T', "the seat's token from CreateGame (env METROPOLIS_TOKEN)"],
  ['bot', 'SPEC', 'the bot'],
  ['seed', 'N', "seed of the bot's random stream (default: unpredictable)"],
  ['take-over', '', 'replace a stream that already plays the seat'],
  ['quiet', '', 'print only the summary line and errors'],
  ['verbose', '', 'also log every decision and event'],
  ['debug-notes', '', "send a note with each answer (what the bot chose, of how many), which the bot's author reads in the replay (docs/GAMEHOST.md, \"Debug notes\")"],
  ['record', 'FILE', 'append one JSON line per finished game to FILE: what the seat saw (game, seat, steps, a digest of its events, the result), for the game checker'],
  ['max-reconnects', 'N', 'consecutive reconnect attempts after a dropped stream before giving up (default 20: about 70 s, the backoff doubling from 250 ms to 4 s)'],
  ['disconnect-after', 'N', 'testing aid: after N answered decisions, drop the stream at the next one (once), wait --reconnect-delay-ms, reconnect'],
  ['reconnect-delay-ms', 'N', 'testing aid: the wait of --disconnect-after (default 500)'],
  ['stall-after', 'N', 'testing aid: after N answered decisions, answer nothing more but keep the stream open to the end'],
  ['proto', 'DIR', 'folder of metropolis/v1/*.proto (default: $METROPOLIS_PROTO_DIR, else the tree\'s proto/)'],
  ['help', '', 'show this help and exit'],
].map(([name, value, help]) => ({ name, value, help }));

// --name value, --name=value; no positional arguments (lib/flags' rules).
function parseFlags(specs, args) {
  const values = new Map();
  for (let i = 0; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '-h') {
      values.set('help', '');
      continue;
    }
    if (arg.length < 3 || !arg.startsWith('--')) throw new UsageError(`unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = specs.find((s) => s.name === name);
    if (!spec) throw new UsageError(`unknown flag '--${name}'`);
    let value = '';
    if (!spec.value) {
      if (eq >= 0) throw new UsageError(`flag '--${name}' takes no value`);
    } else if (eq >= 0) {
      value = arg.slice(eq + 1);
    } else if (i + 1 < args.length) {
      value = args[++i];
    } else {
      throw new UsageError(`flag '--${name}' needs a value (${spec.value})`);
    }
    if (values.has(name)) throw new UsageError(`flag '--${name}' given more than once`);
    values.set(name, value);
  }
  return values;
}

function intFlag(values, name, min, max) {
  const v = values.get(name);
  if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new UsageError(`flag '--${name}': '${v}' is not an integer in [${min}, ${max}]`);
  }
  return Number(v);
}

function usage(program, specs, bots) {
  const rows = specs.map((s) => [`  --${s.name}${s.value ? ` ${s.value}` : ''}`, s.name === 'bot' ? `the bot: ${bots}` : s.help]);
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  const wrap = (text) => {
    const lines = [];
    let line = '';
    for (const word of text.split(' ')) {
      if (line && line.length + word.length + 1 > 100 - width) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    lines.push(line);
    return lines.join(`\n${' '.repeat(width)}`);
  };
  return `usage: ${program} --host ADDR --game ID --token T [flags]
       ${program} --ladder ID --matchmaker ADDR --api-token T [--games N] [flags]
       ${program} --compete --matchmaker ADDR --api-token T [--capacity N] [--sessions N] [--games N] [flags]

Plays one seat of a game on a Metropolis game host, reconnecting when the stream drops (the
host's fallback bot plays the seat meanwhile), and prints one summary line when the game is over.

flags:
${rows.map(([l, h]) => `${l.padEnd(width)}${wrap(h)}`).join('\n')}

exit status: 0 the game is over (whoever won), 1 it could not be played to its end (the gRPC
status code and message are printed), 2 bad flags.
`;
}

// Reads the arguments (without the program name) into settings; throws a
// UsageError for bad flags. Returns null for --help.
function parseSettings(args, { env = process.env, specs = FLAGS, deciders = {}, defaultBot = null } = {}) {
  const f = parseFlags(specs, args);
  if (f.has('help')) return null;
  const flagOrEnv = (name, variable) => (f.has(name) ? f.get(name) : env[variable] ?? '');
  const s = {
    client: { host: flagOrEnv('host', 'METROPOLIS_HOST'), token: flagOrEnv('token', 'METROPOLIS_TOKEN'), gameId: f.get('game') ?? '' },
    ladder: { ladder: f.get('ladder') ?? '', matchmaker: '', apiToken: '' },
    compete: f.has('compete'),
    competeOptions: { matchmaker: '', apiToken: '', capacity: 1 },
    sessions: 1,
    games: 1,
    tlsCa: flagOrEnv('tls-ca', 'METROPOLIS_TLS_CA'),
    bot: f.get('bot') ?? defaultBot ?? '',
    seed: 0n,
    seedGiven: false,
    quiet: f.has('quiet'),
    verbose: f.has('verbose'),
    debugNotes: f.has('debug-notes'),
    record: f.get('record') ?? '',
    protoDir: f.get('proto') || env.METROPOLIS_PROTO_DIR || undefined,
  };
  if (s.tlsCa) {
    let pem;
    try {
      pem = fs.readFileSync(s.tlsCa, 'utf8');
    } catch (err) {
      throw new UsageError(`--tls-ca: cannot read ${s.tlsCa}: ${err.message}`);
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`--tls-ca: ${s.tlsCa} holds no PEM certificate`);
  }
  if (f.has('capacity') && !s.compete) throw new UsageError('--capacity needs --compete');
  if (f.has('sessions') && !s.compete) throw new UsageError('--sessions needs --compete');
  if (s.compete) {
    if (s.ladder.ladder) throw new UsageError('--compete and --ladder exclude each other');
    s.competeOptions.matchmaker = flagOrEnv('matchmaker', 'METROPOLIS_MATCHMAKER');
    s.competeOptions.apiToken = flagOrEnv('api-token', 'METROPOLIS_API_TOKEN');
    if (!s.competeOptions.matchmaker) throw new UsageError('--matchmaker (or METROPOLIS_MATCHMAKER) is required with --compete');
    if (!s.competeOptions.apiToken) throw new UsageError('--api-token (or METROPOLIS_API_TOKEN) is required with --compete');
    if (f.has('game') || f.has('token') || f.has('host')) throw new UsageError('--host, --game and --token come from the matchmaker with --compete');
    s.games = f.has('games') ? intFlag(f, 'games', 1, 1000000) : 0;
    if (f.has('capacity')) s.competeOptions.capacity = intFlag(f, 'capacity', 1, 16);
    if (f.has('sessions')) s.sessions = intFlag(f, 'sessions', 1, 16);
    // Stopping after N games would leave the other streams waiting for a seat.
    if (s.sessions > 1 && f.has('games')) throw new UsageError('--games needs one session (--sessions 1)');
  } else if (s.ladder.ladder) {
    s.ladder.matchmaker = flagOrEnv('matchmaker', 'METROPOLIS_MATCHMAKER');
    s.ladder.apiToken = flagOrEnv('api-token', 'METROPOLIS_API_TOKEN');
    if (!s.ladder.matchmaker) throw new UsageError('--matchmaker (or METROPOLIS_MATCHMAKER) is required with --ladder');
    if (!s.ladder.apiToken) throw new UsageError('--api-token (or METROPOLIS_API_TOKEN) is required with --ladder');
    if (f.has('game') || f.has('token')) throw new UsageError('--game and --token come from the matchmaker with --ladder');
    if (f.has('games')) s.games = intFlag(f, 'games', 1, 1000000);
  } else {
    if (f.has('games') || f.has('matchmaker') || f.has('api-token')) {
      throw new UsageError('--games, --matchmaker and --api-token need --ladder or --compete');
    }
    if (!s.client.host) throw new UsageError('--host (or METROPOLIS_HOST) is required');
    if (!s.client.gameId) throw new UsageError('--game is required');
    if (!s.client.token) throw new UsageError('--token (or METROPOLIS_TOKEN) is required');
  }
  // "search:" stands for the kind with settings ("search:ms=50").
  const kinds = [...new Set(Object.keys(deciders).map((k) => (k.endsWith(':') ? k.slice(0, -1) : k)))];
  if (!s.bot) throw new UsageError(`--bot is required (${kinds.join(', ')})`);
  const factory = deciderFor(deciders, s.bot);
  if (!factory) throw new UsageError(`--bot: unknown bot '${s.bot}' (${kinds.join(', ')})`);
  // A factory may check its spec first (factory.check returns an error, or '').
  const problem = factory.check ? factory.check(s.bot) : '';
  if (problem) throw new UsageError(`--bot: ${problem}`);
  if (f.has('seed')) {
    const v = f.get('seed');
    if (!/^\d{1,20}$/.test(v) || BigInt(v) >= 1n << 64n) throw new UsageError(`flag '--seed': '${v}' is not an unsigned 64-bit integer`);
    s.seed = BigInt(v);
    s.seedGiven = true;
  }
  if (f.has('record') && !s.record) throw new UsageError('--record needs a file');
  if (s.quiet && s.verbose) throw new UsageError('--quiet and --verbose exclude each other');
  s.client.takeOver = f.has('take-over');
  s.client.wantText = s.verbose;
  const ints = [['max-reconnects', 0, 1000, 'maxReconnectAttempts'], ['disconnect-after', 1, 1000000, 'disconnectAfter'],
    ['reconnect-delay-ms', 0, 600000, 'reconnectDelayMs'], ['stall-after', 1, 1000000, 'stallAfter']];
  for (const [name, min, max, key] of ints) if (f.has(name)) s.client[key] = intFlag(f, name, min, max);
  if (f.has('reconnect-delay-ms') && !f.has('disconnect-after')) throw new UsageError('--reconnect-delay-ms only applies with --disconnect-after');
  return s;
}

// The decider factory for a --bot spec: an exact kind ("random"), or a kind
// taking settings after a colon ("search:ms=50" under "search").
function deciderFor(deciders, spec) {
  if (deciders[spec]) return deciders[spec];
  const kind = spec.split(':')[0];
  return deciders[`${kind}:`] ?? null;
}

function reasonName(reason) {
  return String(reason).replace(/^END_REASON_/, '');
}

// One line, key=value, as metropolis-bot prints it: scripts read it.
function summary(program, gameId, stats) {
  const r = stats.result;
  return `${program}: game over: game=${gameId} seat=${stats.seat} decisions=${stats.decisionsAnswered} `
    + `rejected=${stats.rejections} reconnects=${stats.reconnects} winner=${r.winner} result=${reasonName(r.reason)} `
    + `vp=${r.vp.join(',')} actions=${r.actions} turns=${r.turns}`;
}

// Runs a bot from the command line; resolves to the exit status.
//   program   the name in messages and --help
//   deciders  {kind: (context) => decide}; context: {spec, rng (a SplitMix64 of
//             the game's own stream), notes (--debug-notes), settings, log}
//   defaultBot  the --bot when none is given (else --bot is required)
async function main({ program, deciders, defaultBot = null, argv = process.argv.slice(2),
  env = process.env, out = (l) => console.log(l), err = (l) => console.error(l), signal } = {}) {
  let settings;
  try {
    settings = parseSettings(argv, { env, deciders, defaultBot });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`${program}: ${e.message}\n(see ${program} --help)`);
    return EXIT_USAGE;
  }
  if (!settings) {
    const kinds = Object.keys(deciders).filter((k) => !deciders[`${k}:`] || k.endsWith(':'))
      .map((k) => (k.endsWith(':') ? `${k.slice(0, -1)}[:settings]` : k));
    out(usage(program, FLAGS, kinds.join(', ')).trimEnd());
    return EXIT_OK;
  }
  const log = (message) => { if (!settings.quiet) err(`${program}: ${message}`); };
  let api;
  let credentials;
  let protocol;
  try {
    api = loadApi(settings.protoDir);
    credentials = makeCredentials(settings.tlsCa);
    protocol = Protocol.load();
  } catch (e) {
    err(`${program}: ${e.message}`);
    return EXIT_FAILED;
  }
  const seed = settings.seedGiven ? settings.seed : randomSeed();
  const factory = deciderFor(deciders, settings.bot);
  // The seed makes a run repeatable (but for a search on the clock).
  log(`bot ${settings.bot}, seed ${seed}${settings.client.host ? `, host ${settings.client.host}` : ''}`);

  // Plays one seat; game `number` draws from a stream of its own (0: --seed's).
  const playSeat = async (clientOptions, number) => {
    const rng = new SplitMix64(number === 0 ? seed : mixSeed(seed, number));
    let decide;
    try {
      decide = await factory({ spec: settings.bot, rng, notes: settings.debugNotes, settings, log });
    } catch (e) {
      throw new StatusError(grpc.status.UNKNOWN, `--bot ${settings.bot}: ${e.message}`);
    }
    if (settings.verbose) {
      const inner = decide;
      decide = async (d) => {
        const choice = await inner(d);
        const shown = choice?.action ?? choice;
        log(`step ${d.step}: ${shown?.text ?? String(shown)} (of ${d.legal.length}, ${d.decisionMsLeft} ms left)`);
        return choice;
      };
    }
    const client = new Client({ ...settings.client, ...clientOptions, api, credentials, protocol });
    const callbacks = { onLog: log };
    if (settings.verbose) {
      callbacks.onEvents = (step, events) => {
        for (const e of events) {
          log(`event (to step ${step}): ${e.name} seat=${e.seat} other=${e.other} a=${e.a} b=${e.b} c=${e.c}`
            + `${e.action ? ` ${e.action.text}` : ''}`);
        }
      };
    }
    const stats = await client.run(decide, callbacks);
    if (settings.record) {
      try {
        fs.appendFileSync(settings.record, `${client.record()}\n`);
      } catch (e) {
        log(`cannot append to --record file ${settings.record}: ${e.message}`);
      }
    }
    out(summary(program, clientOptions.gameId ?? settings.client.gameId, stats));
    return stats;
  };
  const describe = (e) => (e instanceof StatusError || e.code !== undefined
    ? `${statusName(e.code)}: ${e.details ?? e.message}` : String(e?.stack ?? e));
  const seatOptions = (a) => ({ host: a.host, otherHosts: a.other_hosts ?? [], gameId: a.game_id, token: a.seat_token });

  if (settings.compete) return runCompete(settings, { api, credentials, playSeat, log, err, program, describe, seatOptions, signal });
  for (let game = 0; game < settings.games; ++game) {
    let clientOptions = {};
    if (settings.ladder.ladder) {
      // Queue, then play the seat the matchmaker found, like any other.
      let seat;
      try {
        seat = await waitForSeat({ ...settings.ladder, api, credentials }, {
          onQueued: (q) => { if (settings.verbose) log(`queued: position ${q.position} of ${q.queue_size}, waited ${q.waited_ms} ms`); },
          onRetry: (why) => log(`queueing again after: ${why}`),
        });
      } catch (e) {
        err(`${program}: queueing on ${settings.ladder.ladder}: ${describe(e)}`);
        return EXIT_FAILED;
      }
      clientOptions = seatOptions(seat);
      log(`seated in game ${seat.game_id} on ${seat.host}`);
    }
    try {
      await playSeat(clientOptions, game);
    } catch (e) {
      err(`${program}: ${describe(e)}`);
      return EXIT_FAILED;
    }
  }
  return EXIT_OK;
}

// Compete mode: every tournament seat the matchmaker sends is played at once,
// each with its own random stream, until --games were started (0: until the
// process is stopped); --sessions streams at once.
async function runCompete(settings, { api, credentials, playSeat, log, err, program, describe, seatOptions, signal }) {
  let started = 0;
  let failed = 0;
  const games = [];
  const onSeat = (seat) => {
    const number = ++started;
    log(`seated in game ${seat.game_id} of tournament ${seat.tournament} on ${seat.host}`);
    games.push(playSeat(seatOptions(seat), number).catch((e) => {
      ++failed;
      err(`${program}: game ${seat.game_id}: ${describe(e)}`);
    }));
    return settings.games === 0 || started < settings.games;
  };
  const onRetry = (why) => log(`competing again after: ${why}`);
  // Each session its own stream: the matchmaker sends a duplicate set's
  // rotations to separate ones (docs/TOURNAMENTS.md, "Rotations in lockstep").
  const sessions = Array.from({ length: settings.sessions }, () => compete(
    { ...settings.competeOptions, api, credentials, signal }, onSeat, { onRetry }));
  const results = await Promise.allSettled(sessions);
  await Promise.all(games);
  const rejected = results.find((r) => r.status === 'rejected');
  if (rejected) {
    err(`${program}: competing: ${describe(rejected.reason)}`);
    return EXIT_FAILED;
  }
  return failed ? EXIT_FAILED : EXIT_OK;
}

module.exports = { main, parseSettings, parseFlags, usage, summary, UsageError, FLAGS, EXIT_OK, EXIT_FAILED, EXIT_USAGE };
