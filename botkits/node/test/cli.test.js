'use strict';
// node --test: the command line (metropolis-bot's flags), ladder queueing and
// tournament Compete against a scripted matchmaker, replicas tried in turn, and
// TLS against a host with a throwaway CA's certificate.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync, execFileSync } = require('node:child_process');
const { parseSettings, main, usage, FLAGS } = require('../lib/cli');
const { splitAddresses } = require('../lib/matchmaker');
const { api, ScriptedServer, ScriptedHost, messages, readHello, deadAddress, grpc } = require('./scripted_host');

const deciders = { random: () => (d) => d.legal[0], 'search:': () => (d) => d.legal[0] };
const required = ['--host', 'h:1', '--game', 'g1', '--token', 't', '--bot', 'random'];

// The error of parsing `args`, or '' when they parse.
function parseError(args, env = {}) {
  try {
    parseSettings(args, { env, deciders });
    return '';
  } catch (e) {
    return e.message;
  }
}

test('the required flags, and the environment for the host and token', () => {
  const s = parseSettings(required, { env: {}, deciders });
  assert.deepEqual([s.client.host, s.client.gameId, s.client.token, s.bot], ['h:1', 'g1', 't', 'random']);
  assert.equal(s.seedGiven, false);
  assert.equal(s.client.takeOver, false);
  assert.match(parseError(['--game', 'g1', '--token', 't', '--bot', 'random']), /--host/);
  assert.match(parseError(['--host', 'h', '--token', 't', '--bot', 'random']), /--game/);
  assert.match(parseError(['--host', 'h', '--game', 'g', '--bot', 'random']), /--token/);
  assert.match(parseError(['--host', 'h', '--game', 'g', '--token', 't']), /--bot/);
  const env = { METROPOLIS_HOST: 'env:2', METROPOLIS_TOKEN: 'env-token' };
  const e = parseSettings(['--game', 'g', '--bot', 'random'], { env, deciders });
  assert.deepEqual([e.client.host, e.client.token], ['env:2', 'env-token']);
  assert.equal(parseSettings(['--game', 'g', '--bot', 'random', '--host', 'flag:3'], { env, deciders }).client.host, 'flag:3');
});

test('optional flags and testing aids', () => {
  const s = parseSettings([...required, '--seed', '18446744073709551615', '--take-over', '--quiet', '--disconnect-after', '3',
    '--reconnect-delay-ms=50', '--stall-after', '9', '--max-reconnects', '2', '--record', 'r.jsonl'], { env: {}, deciders });
  assert.equal(s.seed, 18446744073709551615n);
  assert.equal(s.seedGiven, true);
  assert.equal(s.client.takeOver, true);
  assert.equal(s.quiet, true);
  assert.deepEqual([s.client.disconnectAfter, s.client.reconnectDelayMs, s.client.stallAfter, s.client.maxReconnectAttempts], [3, 50, 9, 2]);
  assert.equal(s.record, 'r.jsonl');
  assert.equal(parseSettings([...required, '--verbose'], { env: {}, deciders }).client.wantText, true);
});

test('errors name the flag', () => {
  const cases = [
    [['--seed', 'x'], "flag '--seed': 'x' is not an unsigned 64-bit integer"],
    [['--seed', '18446744073709551616'], '--seed'],
    [['--disconnect-after', '0'], "flag '--disconnect-after': '0' is not an integer in [1, 1000000]"],
    [['--stall-after', '-1'], '--stall-after'],
    [['--reconnect-delay-ms', '5'], 'only applies with --disconnect-after'],
    [['--quiet', '--verbose'], 'exclude each other'],
    [['--frobnicate'], "unknown flag '--frobnicate'"],
    [['--quiet=yes'], "flag '--quiet' takes no value"],
    [['--seed'], "flag '--seed' needs a value (N)"],
    [['--seed', '1', '--seed', '2'], "flag '--seed' given more than once"],
    [['extra'], "unexpected argument 'extra'"],
    [['--tls-ca', '/nonexistent/ca.pem'], '--tls-ca: cannot read /nonexistent/ca.pem'],
    [['--tls-ca', __filename], 'holds no PEM certificate'],
  ];
  for (const [extra, expected] of cases) assert.ok(parseError([...required, ...extra]).includes(expected), `${extra}: ${parseError([...required, ...extra])}`);
  assert.match(parseError(['--host', 'h', '--game', 'g', '--token', 't', '--bot', 'nosuch']), /^--bot: unknown bot 'nosuch'/);
  assert.equal(parseError(['--host', 'h', '--game', 'g', '--token', 't', '--bot', 'search:ms=5']), '');
});

test('compete and ladder modes take their seats from the matchmaker', () => {
  const compete = ['--compete', '--matchmaker', 'a:1,b:2', '--api-token', 'k', '--bot', 'random'];
  const s = parseSettings(compete, { env: {}, deciders });
  assert.equal(s.compete, true);
  assert.deepEqual(s.competeOptions, { matchmaker: 'a:1,b:2', apiToken: 'k', capacity: 1 });
  assert.equal(s.games, 0, 'until stopped');
  const c = parseSettings([...compete, '--capacity', '4', '--games', '10'], { env: {}, deciders });
  assert.deepEqual([c.competeOptions.capacity, c.games], [4, 10]);
  assert.match(parseError([...compete, '--capacity', '17']), /capacity/);
  assert.match(parseError([...compete, '--ladder', 'open']), /exclude/);
  assert.match(parseError([...compete, '--game', 'g']), /--compete/);
  assert.match(parseError(['--compete', '--api-token', 'k', '--bot', 'random']), /--matchmaker/);
  assert.match(parseError([...required, '--capacity', '2']), /--capacity needs --compete/);
  assert.equal(parseSettings([...compete, '--sessions', '4'], { env: {}, deciders }).sessions, 4);
  assert.match(parseError([...compete, '--sessions', '4', '--games', '3']), /--games needs one session/);
  assert.match(parseError([...required, '--sessions', '2']), /--sessions needs --compete/);
  const ladder = parseSettings(['--ladder', 'open', '--bot', 'random', '--games', '3'],
    { env: { METROPOLIS_MATCHMAKER: 'm:1', METROPOLIS_API_TOKEN: 'k' }, deciders });
  assert.deepEqual([ladder.ladder, ladder.games], [{ ladder: 'open', matchmaker: 'm:1', apiToken: 'k' }, 3]);
  assert.match(parseError(['--ladder', 'open', '--matchmaker', 'm', '--api-token', 'k', '--bot', 'random', '--game', 'g']), /come from the matchmaker/);
  assert.match(parseError([...required, '--games', '2']), /need --ladder or --compete/);
  assert.deepEqual(splitAddresses('a:1,,b:2,'), ['a:1', 'b:2']);
});

test('--help stops parsing; the usage names the program, the testing aids and the exit status', () => {
  assert.equal(parseSettings(['--help'], { deciders }), null);
  assert.equal(parseSettings(['--game', 'g', '--help'], { deciders }), null, 'nothing else is checked');
  const text = usage('my_bot.js', FLAGS, 'random');
  assert.ok(text.startsWith('usage: my_bot.js --host'), text);
  assert.match(text, /testing aid/);
  assert.match(text, /exit status/);
});

test('random_bot.js: bad flags exit 2 with the error, --help exits 0', () => {
  const bot = path.join(__dirname, '..', 'random_bot.js');
  const bad = spawnSync(process.execPath, [bot, '--frobnicate'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, "random_bot.js: unknown flag '--frobnicate'\n(see random_bot.js --help)\n");
  const help = spawnSync(process.execPath, [bot, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: random_bot.js --host ADDR/);
});

// A host that plays a whole short game with whichever seat connects: one
// decision, then the game over. Counts the answers per token.
function gameHost(answers = {}) {
  return new ScriptedHost(async (_, s) => {
    const hello = await s.read();
    s.write({ welcome: { ...messages.welcome().welcome, game_id: hello.hello.game_id } });
    s.write(messages.decision(0));
    const m = await s.read();
    if (m) answers[s.token] = (answers[s.token] ?? 0) + 1;
    s.write(messages.gameOver());
  });
}

// Runs main() with the arguments; returns {status, out, err} (the lines printed).
async function run(argv) {
  const out = [];
  const err = [];
  const status = await main({ program: 't', deciders, argv, env: {}, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { status, out, err };
}

test('ladder mode: queues (on the next replica when one is down), then plays each seat', async () => {
  const answers = {};
  const host = await gameHost(answers).start();
  const tickets = [];
  let games = 0;
  const matchmaker = await new ScriptedServer(api.definition['metropolis.v1.Matchmaker'], {
    Enqueue: (call) => {
      const token = String(call.metadata.get('authorization')[0]);
      tickets.push([call.request.ladder, token]);
      const n = ++games;
      call.write({ queued: { ticket_id: 't1', position: 0, queue_size: 1 } });
      call.write({ assignment: { ticket_id: 't1', game_id: `g${n}`, host: host.address, seat_token: `seat${n}`, seat: 0 } });
      call.end();
    },
  }).start();
  const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nodekit-')), 'r.jsonl');
  try {
    const dead = await deadAddress();
    const r = await run(['--ladder', 'open', '--matchmaker', `${dead},${matchmaker.address}`, '--api-token', 'bot-key',
      '--bot', 'random', '--games', '2', '--record', record, '--verbose']);
    assert.equal(r.status, 0, r.err.join('\n'));
    assert.deepEqual(tickets, [['open', 'Bearer bot-key'], ['open', 'Bearer bot-key']]);
    assert.deepEqual(answers, { seat1: 1, seat2: 1 });
    assert.equal(r.out.length, 2);
    assert.match(r.out[0], /^t: game over: game=g1 seat=0 decisions=1 rejected=0 reconnects=0 winner=2 result=WON vp=3,5,13,4 actions=700 turns=60$/);
    assert.ok(r.err.some((l) => l.includes('queueing again after')), r.err.join('\n'));
    assert.ok(r.err.some((l) => l.includes('queued: position 0 of 1')), r.err.join('\n'));
    assert.deepEqual(fs.readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l).game), ['g1', 'g2']);
  } finally {
    await matchmaker.stop();
    await host.stop();
  }
});

test('ladder mode: a refusal of the queue is final', async () => {
  const matchmaker = await new ScriptedServer(api.definition['metropolis.v1.Matchmaker'], {
    Enqueue: (call) => call.emit('error', { code: grpc.status.NOT_FOUND, details: 'no ladder nosuch' }),
  }).start();
  try {
    const r = await run(['--ladder', 'nosuch', '--matchmaker', matchmaker.address, '--api-token', 'k', '--bot', 'random', '--quiet']);
    assert.equal(r.status, 1);
    assert.deepEqual(r.err, ['t: queueing on nosuch: NOT_FOUND: no ladder nosuch']);
  } finally {
    await matchmaker.stop();
  }
});

test('compete mode: plays the tournament seats it is sent, again after its stream fails', async () => {
  const answers = {};
  const host = await gameHost(answers).start();
  const capacities = [];
  let calls = 0;
  const tournaments = await new ScriptedServer(api.definition['metropolis.v1.Tournaments'], {
    Compete: (call) => {
      capacities.push(call.request.capacity);
      if (calls++ === 0) {
        call.write({ status: { identity_id: 7 } });
        call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'replica going away' });
        return;
      }
      for (const n of [1, 2]) {
        call.write({ assignment: { game_id: `t${n}`, host: host.address, seat_token: `ts${n}`, tournament: 'cup' } });
      }
      // The stream stays open, as the matchmaker's does, until the bot hangs up.
    },
  }).start();
  try {
    const r = await run(['--compete', '--matchmaker', tournaments.address, '--api-token', 'k', '--bot', 'random',
      '--capacity', '2', '--games', '2']);
    assert.equal(r.status, 0, r.err.join('\n'));
    assert.deepEqual(capacities, [2, 2]);
    assert.deepEqual(answers, { ts1: 1, ts2: 1 });
    assert.deepEqual(r.out.map((l) => l.split(' ')[3]).sort(), ['game=t1', 'game=t2']);
    assert.ok(r.err.some((l) => l.includes('competing again after') && l.includes('replica going away')), r.err.join('\n'));
  } finally {
    await tournaments.stop();
    await host.stop();
  }
});

test('TLS: plays over TLS verified against --tls-ca, and fails against another CA', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekit-pki-'));
  const openssl = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=kit-test-ca');
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other.key', '-out', 'other.pem', '-days', '1', '-subj', '/CN=other-ca');
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
    fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem',
      '-days', '1', '-extfile', 'san.ext');
  } catch (e) {
    assert.fail(`openssl could not make the certificates: ${e.stderr ?? e.message}`);
  }
  const read = (f) => fs.readFileSync(path.join(dir, f));
  const tlsHost = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    s.write(messages.gameOver());
  }, { credentials: grpc.ServerCredentials.createSsl(null, [{ private_key: read('server.key'), cert_chain: read('server.pem') }]) });
  await tlsHost.start();
  t.after(() => tlsHost.stop());
  const ok = await run(['--host', tlsHost.address, '--game', 'g1', '--token', 'secret', '--bot', 'random', '--tls-ca', path.join(dir, 'ca.pem')]);
  assert.equal(ok.status, 0, ok.err.join('\n'));
  assert.match(ok.out[0], /game over: game=g1/);
  const bad = await run(['--host', tlsHost.address, '--game', 'g1', '--token', 'secret', '--bot', 'random', '--tls-ca', path.join(dir, 'other.pem')]);
  assert.equal(bad.status, 1);
  assert.match(bad.err.at(-1), /^t: UNAVAILABLE: /);
});
