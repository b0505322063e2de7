'use strict';
// node --test: the Client against scripted hosts on free loopback ports: the
// Play protocol, rejections, pauses, debug notes, redirects, reconnection and
// failover across hosts, as botkits/cpp/tests/client_test.cc checks the C++ kit.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Client, answerDebug, RESIGN } = require('../lib/client');
const { ScriptedHost, messages, readHello, deadAddress, SETTLEMENTS, grpc } = require('./scripted_host');

const { status } = grpc;

function options(host, extra = {}) {
  return {
    host, gameId: 'g1', token: 'secret',
    reconnectInitialBackoffMs: 5, reconnectMaxBackoffMs: 20, finishGraceMs: 2000,
    ...extra,
  };
}

// Answers the first legal action not refused yet.
const firstNotRejected = (d) => d.legal.find((a) => !d.rejected.some((r) => r.code === a.code)) ?? d.legal[0];

async function withHosts(hosts, body) {
  try {
    for (const h of hosts) if (!h.port) await h.start();
    return await body();
  } finally {
    for (const h of hosts) await h.stop();
  }
}

test('plays a game and answers again after a rejection', async () => {
  const answers = [];
  const host = new ScriptedHost(async (_, s) => {
    if (!(await readHello(s))) return { code: status.UNAUTHENTICATED, details: 'bad hello' };
    s.write(messages.welcome());
    s.write(messages.decision(0));
    for (let i = 0; i < 2; ++i) {
      const m = await s.read();
      if (!m) break;
      assert.equal(m.answer.step, 0);
      answers.push(m.answer.action.code);
      if (i === 0) s.write(messages.rejected(0, 'SET-1: not that one'));
    }
    s.write(messages.events(1, [{ type: 'EVENT_BARBARIANS_ADVANCE', seat: -1, a: 1 }]));
    s.write(messages.gameOver());
    return null;
  });
  const errorsSeen = [];
  let welcomes = 0;
  let eventsSeen = [];
  await withHosts([host], async () => {
    const client = new Client(options(host.address));
    const stats = await client.run((d) => {
      errorsSeen.push(d.rejectedError);
      assert.equal(d.step, 0);
      assert.equal(d.seat, 0);
      assert.equal(d.phase, 'setup');
      assert.equal(d.pending, null);
      assert.deepEqual(d.legal.map((a) => a.text), ['build_settlement n0', 'build_settlement n1', 'build_settlement n2', 'build_settlement n3']);
      return firstNotRejected(d);
    }, {
      onWelcome: (w) => { ++welcomes; assert.equal(w.seat, 0); assert.equal(w.config.num_seats, 4); },
      onEvents: (step, events) => { assert.equal(step, 1); eventsSeen = events; },
    });
    assert.deepEqual(errorsSeen, ['', 'SET-1: not that one']);
    assert.deepEqual(answers, SETTLEMENTS.slice(0, 2));
    assert.equal(welcomes, 1);
    assert.equal(eventsSeen.length, 1);
    assert.equal(eventsSeen[0].name, 'barbarians_advance');
    assert.equal(eventsSeen[0].type, 3);
    assert.equal(stats.gameOver, true);
    assert.equal(stats.result.winner, 2);
    assert.equal(stats.decisionsAnswered, 1);
    assert.equal(stats.rejections, 1);
  });
});

test('events inside a decision reach onEvents before the decider (CAPABILITY_EVENTS_IN_DECISION)', async () => {
  for (const ask of [true, false]) {
    let capabilities = null;
    const host = new ScriptedHost(async (_, s) => {
      await readHello(s);
      capabilities = s.hello.capabilities;
      s.write(messages.welcome());
      s.write(messages.decision(1, undefined, {
        events: { step: 1, events: [{ type: 'EVENT_BARBARIANS_ADVANCE', seat: -1, a: 1 }] },
      }));
      await s.read();
      s.write(messages.gameOver());
    });
    const order = [];
    await withHosts([host], async () => {
      await new Client(options(host.address, { eventsInDecision: ask })).run((d) => {
        order.push(`decide ${d.step}`);
        return d.legal[0];
      }, { onEvents: (step, events) => order.push(`events ${step} ${events.map((e) => e.name).join(',')}`) });
    });
    assert.deepEqual(order, ['events 1 barbarians_advance', 'decide 1']);
    assert.deepEqual(capabilities, ask ? ['CAPABILITY_EVENTS_IN_DECISION'] : []);
  }
});

test('a note the decider returns goes with its answer, and only with that answer', async () => {
  const answers = [];
  const host = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    for (let step = 0; step < 2; ++step) {
      s.write(messages.decision(step));
      const m = await s.read();
      if (!m) break;
      answers.push(m.answer);
    }
    s.write(messages.gameOver());
  });
  await withHosts([host], async () => {
    await new Client(options(host.address)).run((d) => (d.step === 0
      ? { action: d.legal[0], note: 'ore first', evaluation: 0.75 } : d.legal[0]));
  });
  assert.equal(answers.length, 2);
  assert.equal(answers[0].debug.note, 'ore first');
  assert.equal(answers[0].debug.evaluation, 0.75);
  assert.equal(answers[1].debug, null);
});

test('RESIGN sends the resignation, and the game ends', { timeout: 10000 }, async () => {
  const answers = [];
  const host = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    s.write(messages.decision(3));
    const m = await s.read();
    if (m) answers.push(m.answer);
    s.write(messages.gameOver());
  });
  const lines = [];
  await withHosts([host], async () => {
    await new Client(options(host.address)).run(() => RESIGN, { onLog: (line) => lines.push(line) });
  });
  assert.equal(answers.length, 1);
  assert.equal(answers[0].resign, true);
  assert.equal(answers[0].step, 3);
  assert.equal(answers[0].action, null);
  assert.ok(lines.some((l) => l.includes('the bot resigns')), lines.join('\n'));
});

test('a note is cut to the host\'s limit at a character boundary; a non-finite evaluation is left out', () => {
  assert.equal(answerDebug(`${'a'.repeat(255)}\u00e9tude`).note, 'a'.repeat(255));
  const long = answerDebug('b'.repeat(300), NaN);
  assert.equal(Buffer.byteLength(long.note), 256);
  assert.equal('evaluation' in long, false);
  assert.equal(answerDebug('', Infinity), null);
  assert.equal(answerDebug(undefined, undefined), null);
  assert.deepEqual(answerDebug('', -2.5), { note: '', evaluation: -2.5 });
  // A four-byte character across the limit goes whole.
  assert.equal(answerDebug(`${'c'.repeat(254)}\u{1F600}`).note, 'c'.repeat(254));
});

test('never resends a refused action', async () => {
  let extra = null;
  const host = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    s.write(messages.decision(0));
    await s.read();
    s.write(messages.rejected(0, 'no'));
    s.write(messages.gameOver());
    // The client half-closes after the game over; a resent answer would come first.
    extra = await s.read();
  });
  await withHosts([host], async () => {
    const stats = await new Client(options(host.address)).run((d) => d.legal[0]);
    assert.equal(stats.decisionsAnswered, 1);
  });
  assert.equal(extra, null);
});

test('a text answer goes as the legal action it names, or as text', async () => {
  const answers = [];
  const host = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    for (let step = 0; step < 2; ++step) {
      s.write(messages.decision(step));
      answers.push((await s.read()).answer.action);
    }
    s.write(messages.gameOver());
  });
  await withHosts([host], async () => {
    await new Client(options(host.address)).run((d) => (d.step === 0 ? 'build_settlement  n2' : 'offer give 1brick want 1ore to 1'));
  });
  assert.equal(answers[0].code, SETTLEMENTS[2]);
  assert.deepEqual([answers[1].code, answers[1].text], ['0', 'offer give 1brick want 1ore to 1']);
});

test('a decision the game moved past, or paused, is not answered late; the one owed after a pause is', async () => {
  const received = [];
  const host = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    s.write(messages.decision(3));
    // The fallback bot moved before the bot answered.
    s.write(messages.events(4, []));
    s.write(messages.decision(7));
    s.write(messages.paused(true, 'the store cannot be written'));
    await new Promise((r) => setTimeout(r, 300));
    s.write(messages.paused(false));
    s.write(messages.decision(7));
    const m = await s.read();
    received.push(m.answer.step);
    s.write(messages.gameOver());
    let late;
    while ((late = await s.read())) received.push(late.answer?.step);
  });
  const logs = [];
  await withHosts([host], async () => {
    let calls = 0;
    const stats = await new Client(options(host.address)).run(async (d) => {
      // The first two decisions take 100 ms: the game moves on meanwhile.
      if (calls++ < 2) await new Promise((r) => setTimeout(r, 100));
      return d.legal[0];
    }, { onLog: (m) => logs.push(m) });
    assert.equal(stats.decisionsAnswered, 1);
  });
  assert.deepEqual(received, [7]);
  assert.ok(logs.some((m) => m.includes('paused by its host: the store cannot be written')), logs.join('\n'));
});

test('a decide that throws leaves the decision to the fallback bot and plays on', async () => {
  const answered = [];
  const host = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    s.write(messages.decision(0));
    await new Promise((r) => setTimeout(r, 100));
    s.write(messages.events(1, []));
    s.write(messages.decision(2));
    answered.push((await s.read()).answer.step);
    s.write(messages.gameOver());
  });
  await withHosts([host], async () => {
    const stats = await new Client(options(host.address)).run((d) => {
      if (d.step === 0) throw new Error('bug');
      return d.legal[0];
    }, { onLog: () => {} });
    assert.equal(stats.decideErrors, 1);
  });
  assert.deepEqual(answered, [2]);
});

test('follows a redirect', async () => {
  const target = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    s.write(messages.gameOver());
  });
  await target.start();
  const first = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.redirect(target.address));
  });
  await withHosts([first, target], async () => {
    const stats = await new Client(options(first.address)).run(firstNotRejected);
    assert.equal(stats.redirects, 1);
    assert.equal(target.calls, 1);
  });
});

test('reconnects after a dropped stream, telling the host the last step it saw', async () => {
  const hellos = [];
  const host = new ScriptedHost(async (call, s) => {
    await readHello(s);
    hellos.push(s.hello);
    // The host may not yet have noticed that the first stream is gone.
    if (call === 1) return { code: status.ALREADY_EXISTS, details: 'the old stream still plays the seat' };
    s.write(messages.welcome(call === 0 ? 0 : 5));
    if (call === 0) {
      s.write(messages.events(3, []));
      return { code: status.UNAVAILABLE, details: 'connection reset' };
    }
    s.write(messages.gameOver());
    return null;
  });
  await withHosts([host], async () => {
    const stats = await new Client(options(host.address)).run(firstNotRejected, { onLog: () => {} });
    assert.equal(host.calls, 3);
    assert.equal(stats.reconnects, 1);
  });
  assert.equal(hellos[0].last_step_seen, undefined);
  assert.equal(hellos[1].last_step_seen, 3);
  assert.equal(hellos[2].last_step_seen, 3);
});

test('gives up after the reconnect budget', async () => {
  const host = new ScriptedHost(async (call, s) => {
    await readHello(s);
    if (call === 0) s.write(messages.welcome());
    return { code: status.UNAVAILABLE, details: 'host restarting' };
  });
  await withHosts([host], async () => {
    await assert.rejects(new Client(options(host.address, { maxReconnectAttempts: 2 })).run(firstNotRejected),
      (err) => err.code === status.UNAVAILABLE && /gave up after 2 reconnect attempts/.test(err.details));
    assert.equal(host.calls, 3);
  });
});

test('each welcomed stream starts a fresh reconnect budget', async () => {
  // Welcomed, dropped, one failed attempt, welcomed again, ...: a budget of 2
  // attempts would run out by the second drop if a welcome did not renew it.
  const host = new ScriptedHost(async (call, s) => {
    await readHello(s);
    if (call % 2 === 1) return { code: status.UNAVAILABLE, details: 'not yet' };
    s.write(messages.welcome());
    if (call < 6) return { code: status.UNAVAILABLE, details: 'connection reset' };
    s.write(messages.gameOver());
    return null;
  });
  await withHosts([host], async () => {
    const stats = await new Client(options(host.address, { maxReconnectAttempts: 2 })).run(firstNotRejected);
    assert.equal(host.calls, 7);
    assert.equal(stats.reconnects, 3);
  });
});

test('a refused first connection is not retried', async () => {
  const host = new ScriptedHost(async () => ({ code: status.UNAUTHENTICATED, details: 'unknown token' }));
  await withHosts([host], async () => {
    await assert.rejects(new Client(options(host.address)).run(firstNotRejected),
      (err) => err.code === status.UNAUTHENTICATED && err.details.includes('unknown token') && err.details.includes('game g1'));
    assert.equal(host.calls, 1);
  });
});

test('an unreachable first host is left for the other hosts', async () => {
  // The host the game was created on died before the seat connected; another
  // host took the game over (docs/GAMEHOST.md, "Checkpoints and takeover").
  const other = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome(40));
    s.write(messages.gameOver());
  });
  await withHosts([other], async () => {
    const stats = await new Client(options(await deadAddress(), { otherHosts: [other.address] })).run(firstNotRejected);
    assert.equal(other.calls, 1);
    assert.equal(stats.reconnects, 0);  // its first welcome, not a return
  });
});

test('an unreachable first host without other hosts fails at once', async () => {
  await assert.rejects(new Client(options(await deadAddress())).run(firstNotRejected),
    (err) => err.code === status.UNAVAILABLE && !err.details.includes('gave up'));
});

test('a redirect to the unreachable host waits for the lease to lapse', async () => {
  const dead = await deadAddress();
  const other = new ScriptedHost(async (call, s) => {
    await readHello(s);
    if (call < 2) {
      s.write(messages.redirect(dead));
      return null;
    }
    s.write(messages.welcome(12));
    s.write(messages.gameOver());
    return null;
  });
  await withHosts([other], async () => {
    // Bouncing to the dead host would run out of redirects.
    await new Client(options(dead, { otherHosts: [other.address], maxRedirects: 1 })).run(firstNotRejected);
    assert.equal(other.calls, 3);
  });
});

test('a seat the old host no longer knows asks the other hosts', async () => {
  const b = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome(700));
    s.write(messages.gameOver());
  });
  const a = new ScriptedHost(async (call, s) => {
    await readHello(s);
    if (call > 0) return { code: status.NOT_FOUND, details: 'no game g1 on this host' };
    s.write(messages.welcome());
    return { code: status.UNAVAILABLE, details: 'moved to another host' };
  });
  await withHosts([a, b], async () => {
    const stats = await new Client(options(a.address, { otherHosts: [b.address] })).run(firstNotRejected);
    assert.equal(stats.gameOver, true);
    assert.equal(b.calls, 1);
  });
});

test('NOT_FOUND before any welcome is final', async () => {
  const b = new ScriptedHost(async () => null);
  const a = new ScriptedHost(async (_, s) => {
    await readHello(s);
    return { code: status.NOT_FOUND, details: 'no game g1 on this host' };
  });
  await withHosts([a, b], async () => {
    await assert.rejects(new Client(options(a.address, { otherHosts: [b.address] })).run(firstNotRejected),
      (err) => err.code === status.NOT_FOUND);
    assert.equal(b.calls, 0);
  });
});

test('gives up on a game leased to an unreachable host forever', async () => {
  const dead = await deadAddress();
  const other = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.redirect(dead));
  });
  await withHosts([other], async () => {
    await assert.rejects(
      new Client(options(dead, { otherHosts: [other.address], maxReconnectAttempts: 3 })).run(firstNotRejected),
      (err) => err.code === status.UNAVAILABLE && /gave up after/.test(err.details));
  });
});

test('finds its game on a host that came back at its address', async () => {
  const dead = await deadAddress();
  const other = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.redirect(dead));
  });
  const back = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    s.write(messages.gameOver());
  });
  await withHosts([other], async () => {
    const restart = new Promise((r) => setTimeout(r, 800)).then(() => back.start(Number(dead.split(':')[1])));
    try {
      // Seconds of trying: longer than the host takes to come back.
      await new Client(options(dead, {
        otherHosts: [other.address], reconnectInitialBackoffMs: 100, reconnectMaxBackoffMs: 400, maxReconnectAttempts: 30,
      })).run(firstNotRejected);
      await restart;
      assert.equal(back.calls, 1);
    } finally {
      await restart.catch(() => {});
      await back.stop();
    }
  });
});

test('disconnectAfter drops the stream at the next decision and comes back', async () => {
  let firstStreamAnswers = 0;
  const host = new ScriptedHost(async (call, s) => {
    await readHello(s);
    s.write(messages.welcome());
    if (call === 0) {
      s.write(messages.decision(0));
      if (await s.read()) ++firstStreamAnswers;
      s.write(messages.decision(1));
      // The client hangs up instead of answering.
      while (await s.read()) ++firstStreamAnswers;
      return null;
    }
    s.write(messages.gameOver());
    return null;
  });
  await withHosts([host], async () => {
    const stats = await new Client(options(host.address, { disconnectAfter: 1, reconnectDelayMs: 10 })).run(firstNotRejected);
    assert.equal(firstStreamAnswers, 1);
    assert.equal(host.calls, 2);
    assert.equal(stats.reconnects, 1);
    assert.equal(stats.decisionsAnswered, 1);
  });
});

test('stallAfter keeps the stream but stops answering', async () => {
  let answers = 0;
  const host = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome());
    s.write(messages.decision(0));
    if (await s.read()) ++answers;
    s.write(messages.decision(1));
    s.write(messages.decision(2));
    s.write(messages.gameOver());
    while (await s.read()) ++answers;
  });
  await withHosts([host], async () => {
    const stats = await new Client(options(host.address, { stallAfter: 1 })).run(firstNotRejected, { onLog: () => {} });
    assert.equal(answers, 1);
    assert.equal(stats.decisionsReceived, 3);
    assert.equal(stats.decisionsAnswered, 1);
  });
});

test('a welcome naming a seat the game does not have ends the run without retrying', async () => {
  const host = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome(0, 7));
    while (await s.read());
  });
  await withHosts([host], async () => {
    await assert.rejects(new Client(options(host.address)).run(firstNotRejected),
      (err) => err.code === status.INTERNAL && /seat 7 is not a seat/.test(err.details));
    assert.equal(host.calls, 1);
  });
});

test('the seat record holds what the seat saw', async () => {
  const host = new ScriptedHost(async (_, s) => {
    await readHello(s);
    s.write(messages.welcome(2));
    s.write(messages.events(5, [{ type: 'EVENT_PRODUCED', seat: 0, a: 1, b: 4 }]));
    s.write(messages.gameOver());
  });
  await withHosts([host], async () => {
    const client = new Client(options(host.address));
    await client.run(firstNotRejected);
    const record = JSON.parse(client.record());
    assert.equal(record.game, 'g1');
    assert.equal(record.seat, 0);
    assert.deepEqual(record.segments, [[2, 5]]);
    assert.equal(record.last_step, 5);
    assert.equal(record.reason, 'WON');
    assert.match(record.events_sha256, /^[0-9a-f]{64}$/);
  });
});
