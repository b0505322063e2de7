// node --test web/test: every seat's clock (web/app/js/viewer/clocks.js), read
// from the host's Clocks (gamehost.proto) as the host counts them: the running
// seat spends its per-decision limit first, then its bank; the others' banks
// stand still (issue 31: "every seat's clock visible").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatClock, clockReadings, clockText, clockUrgent, stoppedClocks, decisionClocks, countdownText } from '../app/js/viewer/clocks.js';

const clocks = { time_bank_ms_left: [60000, 45000, 60000, 30000], running: 1, decision_ms_left: 20000 };

test('a clock reads minutes and seconds, rounded up, hours when it has them', () => {
  assert.equal(formatClock(0), '0:00');
  assert.equal(formatClock(1), '0:01');
  assert.equal(formatClock(59_001), '1:00');
  assert.equal(formatClock(245_000), '4:05');
  assert.equal(formatClock(3_723_000), '1:02:03');
  assert.equal(formatClock(-5), '0:00');
});

test('the running seat spends its decision time first, then its bank; the others stand still', () => {
  const at5 = clockReadings(clocks, 5000);
  assert.deepEqual(at5[1], { seat: 1, running: true, decisionMs: 15000, bankMs: 45000 });
  assert.deepEqual(at5[0], { seat: 0, running: false, decisionMs: 0, bankMs: 60000 });
  assert.equal(at5[3].bankMs, 30000);
  const at25 = clockReadings(clocks, 25000);
  assert.equal(at25[1].decisionMs, 0);
  assert.equal(at25[1].bankMs, 40000, 'five seconds past the limit come out of the bank');
  assert.equal(clockReadings(clocks, 999_999)[1].bankMs, 0, 'never below nothing');
});

test('no running seat: every bank stands still', () => {
  const readings = clockReadings({ time_bank_ms_left: [1000, 2000], running: -1, decision_ms_left: 0 }, 50_000);
  assert.deepEqual(readings.map((r) => [r.running, r.bankMs]), [[false, 1000], [false, 2000]]);
  assert.deepEqual(clockReadings(null, 0), []);
});

test('the words say whose clock runs and what is left of each part', () => {
  const [idle, running] = clockReadings(clocks, 5000);
  assert.equal(clockText(idle), 'bank 1:00');
  assert.equal(clockText(running), '▸ 0:15 + bank 0:45');
  assert.equal(clockText(clockReadings(clocks, 25000)[1]), '▸ bank 0:40');
  assert.equal(clockText(undefined), '');
});

test('a clock is urgent under ten seconds left in all, and only while it runs', () => {
  assert.equal(clockUrgent(clockReadings(clocks, 5000)[1]), false);
  assert.equal(clockUrgent(clockReadings(clocks, 56_000)[1]), true);
  assert.equal(clockUrgent(clockReadings({ time_bank_ms_left: [5000], running: -1 }, 0)[0]), false);
});

test('stopped clocks run no more and show the banks as the host keeps them (a pause charges nothing)', () => {
  const stopped = stoppedClocks(clocks);
  assert.deepEqual(stopped, { time_bank_ms_left: [60000, 45000, 60000, 30000], running: -1, decision_ms_left: 0 });
  assert.deepEqual(clockReadings(stopped, 99_000).map((r) => r.bankMs), [60000, 45000, 60000, 30000]);
  assert.notEqual(stopped.time_bank_ms_left, clocks.time_bank_ms_left, 'a copy: the host figures stay as they came');
  assert.equal(stoppedClocks(null), null);
});

test('the seat\'s own countdown is its decision\'s clock, read and made urgent as every clock', () => {
  const decision = { step: 40, decision_ms_left: '20000', time_bank_ms_left: 45000 };
  assert.deepEqual(decisionClocks(decision), { time_bank_ms_left: [45000], running: 0, decision_ms_left: 20000 });
  const at = (ms) => clockReadings(decisionClocks(decision), ms)[0];
  assert.equal(countdownText(at(4500)), 'Your decision: 16 s left, then the time bank: 45 s.', 'seconds rounded up');
  assert.equal(countdownText(at(30000)), 'Your decision: 0 s left, then the time bank: 35 s.');
  assert.equal(countdownText(undefined), '');
  // One rule for urgent: under ten seconds of decision and bank together, not
  // the decision's last seconds while the bank still holds plenty.
  assert.equal(clockUrgent(at(17000)), false, '3 s of the decision and 45 s of bank left');
  assert.equal(clockUrgent(at(56000)), true, '9 s of bank left');
  assert.equal(clockUrgent(clockReadings(decisionClocks({ decision_ms_left: 8000, time_bank_ms_left: 0 }), 0)[0]), true);
  assert.deepEqual(decisionClocks(null), { time_bank_ms_left: [0], running: 0, decision_ms_left: 0 });
});
