'use strict';
// Seats from the matchmaker, as the C++ kit takes them (botkits/cpp/ladder.h,
// compete.h):
//
//   waitForSeat  queue on a ladder (Matchmaker.Enqueue) until a seat is found;
//   compete      hold the Tournaments.Compete stream and hand over every
//                tournament seat it sends (docs/TOURNAMENTS.md).
//
// Both take a list of matchmaker replicas ("A,B"): when a stream fails they
// go again, to the next replica, with backoff. The matchmaker resumes a queued
// ticket (its place in the queue is kept) and sends a tournament game sent
// while the stream was down on the next one.

const { loadApi, credentials: makeCredentials, StatusError, bearer, CHANNEL_OPTIONS, grpc } = require('./api');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// "A,B" → ["A", "B"].
function splitAddresses(list) {
  return String(list ?? '').split(',').filter((a) => a.length > 0);
}

// What a failed replica or connection looks like (worth retrying on another);
// anything else (a bad token, an unknown ladder) is final.
function retryable(code) {
  return [grpc.status.UNAVAILABLE, grpc.status.DEADLINE_EXCEEDED, grpc.status.CANCELLED, grpc.status.ABORTED].includes(code);
}

function setup(options) {
  const replicas = splitAddresses(options.matchmaker);
  if (replicas.length === 0) throw new StatusError(grpc.status.INVALID_ARGUMENT, 'no matchmaker address');
  return {
    replicas,
    api: options.api ?? loadApi(options.protoDir),
    credentials: options.credentials ?? makeCredentials(options.tlsCa),
  };
}

// One Enqueue stream; resolves to the assignment, rejects with its status.
function queueOnce(api, credentials, address, options, onQueued) {
  return new Promise((resolve, reject) => {
    const client = new api.Matchmaker(address, credentials, CHANNEL_OPTIONS);
    const call = client.Enqueue({ ladder: options.ladder }, bearer(options.apiToken));
    let assignment = null;
    call.on('data', (update) => {
      if (update.update === 'assignment') assignment = update.assignment;
      else if (update.update === 'queued') onQueued?.(update.queued);
    });
    call.on('error', () => {});
    call.on('status', (status) => {
      client.close();
      if (status.code !== grpc.status.OK) reject(new StatusError(status.code, status.details));
      else if (!assignment) reject(new StatusError(grpc.status.UNAVAILABLE, 'the queue ended without an assignment'));
      else resolve(assignment);
    });
  });
}

// Queues on options.ladder with options.apiToken (the bot's own API token) and
// resolves to the Assignment: {game_id, host, seat_token, seat, other_hosts, ...}.
// The stream is the ticket's heartbeat, so the ticket leaves the queue if this
// process dies. `onQueued` sees each progress update, `onRetry` each failure.
async function waitForSeat(options, { onQueued, onRetry } = {}) {
  const { replicas, api, credentials } = setup(options);
  const attempts = options.attempts ?? 12;
  let backoff = options.initialBackoffMs ?? 250;
  let last;
  for (let attempt = 0; attempt < attempts; ++attempt) {
    const address = replicas[attempt % replicas.length];
    try {
      return await queueOnce(api, credentials, address, options, onQueued);
    } catch (err) {
      if (!(err instanceof StatusError) || !retryable(err.code)) throw err;
      last = err;
      onRetry?.(`${address}: ${err.details}`);
      await sleep(backoff);
      backoff = Math.min(backoff * 2, options.maxBackoffMs ?? 4000);
    }
  }
  throw last;
}

// Holds the Compete stream with options.apiToken and options.capacity (games
// at once) and calls onSeat(assignment) for each tournament game; onSeat
// starts the game elsewhere and returns at once, false to stop. Resolves once
// onSeat asked to stop or options.signal (an AbortSignal) aborted; rejects
// with the final error. A stream that fails goes again to the next replica.
async function compete(options, onSeat, { onRetry, onStatus } = {}) {
  const { replicas, api, credentials } = setup(options);
  const initial = options.initialBackoffMs ?? 250;
  let backoff = initial;
  for (let attempt = 0; ; ++attempt) {
    if (options.signal?.aborted) return;
    const address = replicas[attempt % replicas.length];
    const { status, stopped, heard } = await new Promise((resolve) => {
      const client = new api.Tournaments(address, credentials, CHANNEL_OPTIONS);
      const call = client.Compete({ capacity: options.capacity ?? 1 }, bearer(options.apiToken));
      let stop = false;
      let any = false;
      const abort = () => { stop = true; call.cancel(); };
      options.signal?.addEventListener('abort', abort);
      call.on('data', (update) => {
        any = true;
        if (stop) return;
        if (update.update === 'assignment') {
          if (onSeat(update.assignment) === false) abort();
        } else if (update.update === 'status') {
          onStatus?.(update.status);
        }
      });
      call.on('error', () => {});
      call.on('status', (s) => {
        options.signal?.removeEventListener('abort', abort);
        client.close();
        resolve({ status: s, stopped: stop, heard: any });
      });
    });
    if (stopped) return;
    if (status.code !== grpc.status.OK && !retryable(status.code)) throw new StatusError(status.code, status.details);
    // A stream that worked for a while starts the backoff afresh.
    if (heard) backoff = initial;
    onRetry?.(`${address}: ${status.code === grpc.status.OK ? 'the stream ended' : status.details}`);
    await sleep(backoff);
    backoff = Math.min(backoff * 2, options.maxBackoffMs ?? 4000);
  }
}

module.exports = { waitForSeat, compete, splitAddresses, retryable };
