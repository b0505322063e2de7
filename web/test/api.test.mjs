// The app's reads (app/js/api.js) over a stub of fetch: a 429 from the
// gateway's rate limits waits its Retry-After and is asked again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, ApiError, refusalText } from '../app/js/api.js';

// Answers each call with the next of `replies` ({status, retryAfter, body}).
function stubFetch(replies) {
  const calls = [];
  globalThis.fetch = async (url) => {
    calls.push(url);
    const r = replies[Math.min(calls.length - 1, replies.length - 1)];
    return {
      status: r.status,
      ok: r.status >= 200 && r.status < 300,
      headers: { get: (name) => (name === 'Retry-After' && r.retryAfter !== undefined ? String(r.retryAfter) : null) },
      json: async () => r.body ?? { error: { message: `HTTP ${r.status}` } },
    };
  };
  return calls;
}

test('a read refused with 429 waits Retry-After and is asked again', async () => {
  const calls = stubFetch([{ status: 429, retryAfter: 1 }, { status: 200, body: { ladders: [] } }]);
  const started = Date.now();
  assert.deepEqual(await api('/ladders'), { ladders: [] });
  assert.equal(calls.length, 2);
  assert.ok(Date.now() - started >= 900, 'it did not wait the Retry-After');
});

test('a 429 asking for a long wait is an error at once, as every other failure', async () => {
  const calls = stubFetch([{ status: 429, retryAfter: 30 }]);
  await assert.rejects(api('/ladders'), (e) => e instanceof ApiError && e.status === 429);
  assert.equal(calls.length, 1);
});

test('other failures are never retried', async () => {
  const calls = stubFetch([{ status: 503, retryAfter: 1 }]);
  await assert.rejects(api('/live'), (e) => e instanceof ApiError && e.status === 503);
  assert.equal(calls.length, 1);
});

test("a refusal reads as the gateway's words, or as plain words when it is not the request's fault", () => {
  const refused = new ApiError(400, { error: { message: 'name: taken' } });
  assert.equal(refusalText(refused), 'name: taken');
  assert.equal(refusalText(new ApiError(401, { error: { message: 'no session' } })), 'You are signed out: sign in again.');
  assert.equal(refusalText(new ApiError(503, {})), 'The service cannot be reached just now; try again in a moment.');
  assert.equal(refusalText(new TypeError('Failed to fetch')), 'The gateway cannot be reached; check your connection.');
});
