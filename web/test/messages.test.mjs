// node --test web/test: what the public pages say when something fails, in
// words, never the API's or a backend's raw message (web/app/js/pages/live.js,
// web/app/js/pages/play.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveErrorText, hostWarnings, HOST_DOWN } from '../app/js/pages/live.js';
import { queueErrorText } from '../app/js/pages/play.js';
import { ApiError } from '../app/js/api.js';

// What the gateway sends for a host that does not answer (services/gateway/json.cc BackendError).
const DEAD_HOST = { code: 503, status: 'UNAVAILABLE', grpc_status: 'UNAVAILABLE', backend: 'gamehost',
  message: 'gamehost: failed to connect to all addresses; last error: UNAVAILABLE: ipv4:10.0.0.5:50051: Connection refused' };

test('a live game whose host does not answer says so in words', () => {
  assert.equal(liveErrorText(DEAD_HOST), "This game's host is not answering; try again shortly.");
  assert.equal(liveErrorText({ code: 504, message: 'gamehost: Deadline Exceeded' }), HOST_DOWN);
  assert.equal(liveErrorText(undefined), HOST_DOWN);
  // A refusal of the request itself keeps the gateway's words.
  assert.equal(liveErrorText({ code: 404, status: 'NOT_FOUND', message: "no game host knows game 'g-1'" }), "no game host knows game 'g-1'");
});

test('the live list names no host and no RPC error', () => {
  const listed = { games: [], hosts: [{ address: '10.0.0.5:50051', live: 0, error: DEAD_HOST }, { address: '10.0.0.6:50051', live: 3 }] };
  const [warning] = hostWarnings(listed);
  assert.equal(warning, 'A game host is not answering, so its games are missing from this list; try again shortly.');
  assert.doesNotMatch(hostWarnings(listed).join(' '), /10\.0\.0|UNAVAILABLE|failed to connect/);
  listed.hosts[1].error = DEAD_HOST;
  listed.matchmaker_error = { code: 503, message: 'matchmaker: Connection refused' };
  assert.deepEqual(hostWarnings(listed), [
    '2 game hosts are not answering, so their games are missing from this list; try again shortly.',
    'The matchmaker is not answering, so some game hosts may be missing from this list; try again shortly.',
  ]);
  assert.deepEqual(hostWarnings({ games: [], hosts: [{ address: 'h', live: 0 }] }), []);
});

test('joining a queue twice says where one is, not the API', () => {
  const twice = new ApiError(409, { error: { code: 409, message: "ann is already waiting in the queue of ladder 'open' (ticket t-1)" } });
  assert.equal(queueErrorText(twice), 'You are already waiting in a queue: leave it first to join another.');
  assert.equal(queueErrorText(new ApiError(503, { error: { message: 'matchmaker: Connection refused' } })), 'The queue is not answering; try again shortly.');
  assert.equal(queueErrorText(new TypeError('Failed to fetch')), 'The queue is not answering; try again shortly.');
});
