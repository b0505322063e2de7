'use strict';
// A scripted game host (and matchmaker) in this process, on a free loopback
// port: each Play call runs the test's script, which reads the seat's messages
// and writes what a host would. The counterpart of botkits/cpp/tests/client_test.cc's.

const net = require('node:net');
const { loadApi, grpc } = require('../lib/api');

const api = loadApi();

// One call's messages as a queue: read() resolves to the next one, or null once
// the client half-closed or hung up.
function reader(call) {
  const queue = [];
  const waiting = [];
  let ended = false;
  const settle = () => {
    while (waiting.length && (queue.length || ended)) waiting.shift()(queue.length ? queue.shift() : null);
  };
  call.on('data', (m) => { queue.push(m); settle(); });
  call.on('end', () => { ended = true; settle(); });
  call.on('cancelled', () => { ended = true; settle(); });
  call.on('error', () => { ended = true; settle(); });
  return () => new Promise((resolve) => { waiting.push(resolve); settle(); });
}

class ScriptedServer {
  // `handlers`: the service's methods, e.g. {Play(call)}, on `service`'s definition.
  constructor(service, handlers, options = {}) {
    this.server = new grpc.Server();
    this.server.addService(service, handlers);
    this.options = options;
  }

  async start(port = 0) {
    const creds = this.options.credentials ?? grpc.ServerCredentials.createInsecure();
    this.port = await new Promise((resolve, reject) => {
      this.server.bindAsync(`127.0.0.1:${port}`, creds, (err, p) => (err ? reject(err) : resolve(p)));
    });
    return this;
  }

  get address() { return `127.0.0.1:${this.port}`; }

  stop() {
    return new Promise((resolve) => this.server.tryShutdown(() => resolve()));
  }
}

// A game host whose Play calls each run `script(index, stream)`; index counts
// the calls from 0. The stream: read(), write(update), token (the bearer
// token's value) and end(status) ({code, details}, or nothing for OK). The
// script's return value, when it is a status, ends the call with it.
class ScriptedHost extends ScriptedServer {
  constructor(script, options) {
    super(api.definition['metropolis.v1.GameHost'], {
      Play: (call) => {
        const index = this.calls++;
        const stream = {
          call,
          read: reader(call),
          write: (update) => { if (!call.writableEnded) call.write(update); },
          token: String(call.metadata.get('authorization')[0] ?? '').replace(/^Bearer /, ''),
        };
        Promise.resolve(script(index, stream)).then((status) => {
          if (call.writableEnded) return;
          if (status && status.code) call.emit('error', status);
          else call.end();
        }, (err) => call.emit('error', { code: grpc.status.INTERNAL, details: String(err) }));
      },
    }, options);
    this.calls = 0;
  }
}

// The messages of a game as the host sends them. Seat 0's first decision of a
// game: settlements on nodes 0..3.
const SETTLEMENTS = [0, 1, 2, 3].map((n) => ((13n << 56n) | (BigInt(n) << 16n)).toString());

const messages = {
  welcome: (step = 0, seat = 0) => ({
    welcome: { game_id: 'g1', seat, step, config: { num_seats: 4 }, players: [], deadlines: { decision_ms: 1000 } },
  }),
  decision: (step, legal = SETTLEMENTS, extra = {}) => ({
    decision: {
      step,
      view: { viewer: 0, legal, position: { phase: 'PHASE_SETUP', current_seat: 0, pending: [] } },
      decision_ms_left: 1000,
      ...extra,
    },
  }),
  events: (step, events) => ({ events: { step, events } }),
  rejected: (step, error = '') => ({ rejected: { step, error } }),
  paused: (paused, reason = '') => ({ paused: { paused, reason } }),
  redirect: (host) => ({ redirect: { game_id: 'g1', host } }),
  gameOver: () => ({ game_over: { result: { reason: 'END_REASON_WON', winner: 2, vp: [3, 5, 13, 4], actions: 700, turns: 60 } } }),
};

// Reads the hello; true when it names game g1 with the token "secret".
async function readHello(stream) {
  const hello = await stream.read();
  stream.hello = hello?.hello ?? null;
  return Boolean(hello && hello.msg === 'hello' && hello.hello.game_id === 'g1' && stream.token === 'secret');
}

// A loopback address nothing listens on: a port taken and released.
async function deadAddress() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `127.0.0.1:${port}`;
}

module.exports = { api, ScriptedServer, ScriptedHost, messages, readHello, deadAddress, reader, SETTLEMENTS, grpc };
