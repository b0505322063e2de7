#!/usr/bin/env node
// A Metropolis bot that plays uniformly random legal moves: the smallest complete
// example of the Play protocol (proto/metropolis/v1/gamehost.proto), in Node.js.
//
//   npm ci --prefix botkits/node       # once: @grpc/grpc-js and @grpc/proto-loader
//   node botkits/node/random_bot.js --host 127.0.0.1:50051 --game GAME_ID --token TOKEN
//
// The .proto files are read at run time; nothing is generated. Exit status: 0 when the
// game is over, 1 when the stream failed or ended early (the gRPC status is printed),
// 2 for bad arguments.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const USAGE = `usage: random_bot.js --host HOST:PORT --game GAME_ID --token TOKEN [--seed N] [--proto DIR]
                    [--tls-ca FILE] [--record FILE] [--verbose]

Play one seat of a Metropolis game with uniformly random legal moves.

  --host HOST:PORT  the game host
  --game GAME_ID    the game id
  --token TOKEN     the seat's token, from CreateGame
  --seed N          seed of the random choices (default: unpredictable)
  --proto DIR       folder of metropolis/v1/*.proto (default: $METROPOLIS_PROTO_DIR, else ../../proto)
  --tls-ca FILE     PEM CA bundle: reach the host over TLS, verified against it
                    (default: $METROPOLIS_TLS_CA, else plaintext)
  --record FILE     append one JSON line for the finished game to FILE: what the seat saw,
                    for the game checker (docs/FAILURES.md)
  --verbose         log every decision
  -h, --help        show this help`;

const log = (msg) => console.error(`random_bot: ${msg}`);

function parseCommandLine() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: 'string' }, game: { type: 'string' }, token: { type: 'string' },
        seed: { type: 'string' }, proto: { type: 'string' }, 'tls-ca': { type: 'string' },
        record: { type: 'string' },
        verbose: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    console.error(`${e.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const missing = ['host', 'game', 'token'].filter((k) => !values[k]);
  if (missing.length || (values.seed !== undefined && !/^\d+$/.test(values.seed))) {
    console.error(`${missing.length ? `missing --${missing.join(', --')}` : '--seed takes a number'}\n\n${USAGE}`);
    process.exit(2);
  }
  const ca = values['tls-ca'] ?? process.env.METROPOLIS_TLS_CA ?? '';
  try {
    values.credentials = ca ? grpc.credentials.createSsl(fs.readFileSync(ca)) : grpc.credentials.createInsecure();
  } catch (e) {
    console.error(`--tls-ca: ${e.message}`);
    process.exit(2);
  }
  return values;
}

// Math.random cannot be seeded: with --seed, use mulberry32, a small 32-bit generator.
function makeRandom(seed) {
  if (seed === undefined) return Math.random;
  let s = Number(BigInt(seed) & 0xffffffffn);
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Loads the API. Action codes are fixed64: `longs: String` gives them as decimal
// strings (a JavaScript number would lose bits), and we send the same strings back.
// Enums come as names; the seat log needs the event types' numbers too.
function loadApi(protoDir) {
  const definition = protoLoader.loadSync('metropolis/v1/gamehost.proto', {
    includeDirs: [protoDir], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
  });
  const api = grpc.loadPackageDefinition(definition).metropolis.v1;
  api.eventTypeNumber = Object.fromEntries(
    definition['metropolis.v1.EventType'].type.value.map((v) => [v.name, v.number]));
  return api;
}

// What the seat saw, as every Metropolis bot kit records it: per stream session the
// welcome step and the last events step, a SHA-256 over every event received as the
// line "type seat other a b c code\n", and the result. The game checker recomputes
// the digest from the stored game (docs/FAILURES.md, "The checker").
class SeatLog {
  constructor() {
    this.digest = crypto.createHash('sha256');
    this.segments = [];
    this.lastStep = 0;
    this.seen = false;
    this.backwards = 0;
  }

  see(step) {
    if (this.seen && step < this.lastStep) this.backwards += 1;
    this.lastStep = this.seen ? Math.max(this.lastStep, step) : step;
    this.seen = true;
  }

  welcome(step) {
    this.see(step);
    this.segments.push([step, step]);
  }

  events(events, typeNumber) {
    this.see(events.step);
    if (this.segments.length === 0) this.segments.push([0, 0]);
    this.segments[this.segments.length - 1][1] = events.step;
    for (const e of events.events) {
      const code = e.action ? e.action.code : '0';
      this.digest.update(`${typeNumber[e.type]} ${e.seat} ${e.other} ${e.a} ${e.b} ${e.c} ${code}\n`);
    }
  }

  record(game, seat, result) {
    return JSON.stringify({
      game, seat, segments: this.segments, events_sha256: this.digest.copy().digest('hex'),
      last_step: this.lastStep, backwards: this.backwards, reason: result.reason.replace(/^END_REASON_/, ''),
      winner: result.winner, vp: result.vp, actions: result.actions,
    });
  }
}

const args = parseCommandLine();
const api = loadApi(args.proto || process.env.METROPOLIS_PROTO_DIR || path.join(__dirname, '..', '..', 'proto'));
const random = makeRandom(args.seed);
const stats = { seat: null, answered: 0, rejected: 0 };
const seatLog = new SeatLog();

// Plays one Play stream on `host`. Resolves to the last PlayUpdate (game_over or
// redirect); rejects with the gRPC error when the stream fails.
function play(host) {
  return new Promise((resolve, reject) => {
    const client = new api.GameHost(host, args.credentials);
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${args.token}`);
    const call = client.Play(metadata);
    // How far this seat saw the game: a host whose copy is behind voids the game
    // rather than show the seat a different one from there.
    const hello = { game_id: args.game };
    if (seatLog.seen) hello.last_step_seen = seatLog.lastStep;
    call.write({ hello });

    let decision = null;  // the decision we are answering
    let untried = [];     // its legal codes we have not tried yet
    let finish = null;    // the game_over or redirect update, once received
    let timer = null;
    let settled = false;
    const settle = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.close();
      fn(value);
    };

    // Pick one of the untried legal codes uniformly and send it with the step.
    const answer = () => {
      const [code] = untried.splice(Math.floor(random() * untried.length), 1);
      if (args.verbose) log(`step ${decision.step}: 0x${BigInt(code).toString(16)}`);
      call.write({ answer: { step: decision.step, action: { code } } });
    };

    call.on('data', (update) => {
      switch (update.msg) {  // which field of the oneof is set
        case 'welcome':
          stats.seat = update.welcome.seat;
          seatLog.welcome(update.welcome.step);
          log(`playing seat ${stats.seat} of game ${update.welcome.game_id} on ${host}`);
          break;
        case 'decision':
          decision = update.decision;
          seatLog.see(decision.step);
          untried = [...decision.view.legal];
          if (untried.length === 0) {
            call.cancel();
            settle(reject, new Error(`decision at step ${decision.step} lists no legal action`));
            break;
          }
          answer();
          stats.answered++;
          break;
        case 'events':
          seatLog.events(update.events, api.eventTypeNumber);
          // What happened; a random bot needs none of it, except that the game has
          // moved past our decision (answered, or taken by the fallback bot after
          // the deadline).
          if (decision && update.events.step > decision.step) decision = null;
          break;
        case 'rejected':
          // Our answer was refused. If the decision is still open, try another legal
          // action; if the game has moved on (we were too late), do nothing: a new
          // decision will come when it is our turn.
          stats.rejected++;
          log(`rejected at step ${update.rejected.step}: ${update.rejected.error}`);
          if (decision && update.rejected.step === decision.step) {
            if (untried.length === 0) {
              call.cancel();
              settle(reject, new Error('every legal action was rejected'));
            } else {
              answer();
            }
          }
          break;
        case 'paused':
          // The host cannot save the game for now: nothing moves, and the decision
          // owed comes again when it goes on (an answer sent meanwhile is refused).
          if (update.paused.paused) decision = null;
          log(update.paused.paused ? `game paused by its host: ${update.paused.reason}` : 'game goes on after a pause');
          break;
        case 'game_over':
        case 'redirect':
          // The host ends the stream after these: half-close ours, read on until it
          // does, and hang up if that takes more than 5 seconds.
          finish = update;
          call.end();
          timer = setTimeout(() => call.cancel(), 5000);
          break;
        default:
          break;
      }
    });
    // A non-OK status: a failure, unless the game is over or redirected (the host
    // ends a redirected stream with FAILED_PRECONDITION; our own hang-up is CANCELLED).
    call.on('error', (err) => (finish ? settle(resolve, finish) : settle(reject, err)));
    // The host ended the stream with OK, after every message was read.
    call.on('end', () => (finish
      ? settle(resolve, finish)
      : settle(reject, new Error('the host ended the stream before the game was over'))));
  });
}

async function main() {
  let host = args.host;
  let redirected = false;
  let update;
  try {
    for (;;) {
      update = await play(host);
      if (update.msg !== 'redirect') break;
      const { game_id: game, host: next } = update.redirect;
      if (redirected) throw new Error(`redirected twice (now to ${next}); giving up`);
      log(`game ${game} runs on ${next}: reconnecting`);
      host = next;
      redirected = true;
    }
  } catch (err) {
    if (err.code !== undefined) {  // a gRPC status
      const name = Object.keys(grpc.status).find((k) => grpc.status[k] === err.code);
      log(`stream failed: ${name}: ${err.details}`);
    } else {
      log(err.message);
    }
    return 1;
  }

  const r = update.game_over.result;
  if (args.record) fs.appendFileSync(args.record, `${seatLog.record(args.game, stats.seat, r)}\n`);
  const winner = r.winner >= 0 ? `seat ${r.winner}` : 'nobody';
  console.log(`random_bot: game over: seat ${stats.seat}, ${stats.answered} decisions answered, `
    + `${stats.rejected} rejected, winner ${winner} (${r.reason}), vp [${r.vp.join(', ')}], `
    + `${r.actions} actions, ${r.turns} turns`);
  return 0;
}

main().then((status) => { process.exitCode = status; });
