'use strict';
// What the seat saw, as every Metropolis bot kit records it
// (lib/protocol/seat_record.h): per stream session the welcome step and the
// last events step, a SHA-256 over every event received as the line
// "type seat other a b c code\n", and the result. The game checker recomputes
// the digest from the stored game (docs/FAILURES.md, "The checker").

const crypto = require('node:crypto');

class SeatLog {
  constructor() {
    this.digest = crypto.createHash('sha256');
    this.segments = [];
    this.lastStep = 0;
    this.seen = false;
    this.backwards = 0;
    this.result = null;
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

  // `events` as the host sent it (Events message); `typeNumber` maps the
  // event types' proto names to their numbers.
  events(events, typeNumber) {
    this.see(events.step);
    if (this.segments.length === 0) this.segments.push([0, 0]);
    this.segments[this.segments.length - 1][1] = events.step;
    for (const e of events.events) {
      const code = e.action ? e.action.code : '0';
      this.digest.update(`${typeNumber[e.type]} ${e.seat} ${e.other} ${e.a} ${e.b} ${e.c} ${code}\n`);
    }
  }

  gameOver(result) { this.result = result; }

  // One JSON line for --record.
  record(game, seat) {
    const r = this.result ?? { reason: 'END_REASON_UNSPECIFIED', winner: -1, vp: [], actions: 0 };
    return JSON.stringify({
      game, seat, segments: this.segments, events_sha256: this.digest.copy().digest('hex'),
      last_step: this.lastStep, backwards: this.backwards, reason: String(r.reason).replace(/^END_REASON_/, ''),
      winner: r.winner, vp: r.vp, actions: r.actions,
    });
  }
}

module.exports = { SeatLog };
