'use strict';
// The Node.js bot kit's client: plays one seat of a game on a Metropolis game
// host (proto/metropolis/v1/gamehost.proto) and asks the bot only to decide.
// It behaves as the C++ kit does (botkits/cpp/client.h):
//
//   const client = new Client({ host, gameId, token });
//   const stats = await client.run(async (decision) => decision.legal[0]);
//
//   * the Play stream: bearer token, hello (with last_step_seen once the seat
//     has seen a step), welcome, events, decisions, rejections (decide is asked
//     again, told what was refused; a refused action is never sent twice for one
//     decision: the decision is then left to the host's fallback bot), pauses
//     (the decision owed comes again afterwards), game over;
//   * Redirect: the game runs on another host; run() follows, a bounded number
//     of times in a row;
//   * a dropped stream: the host's fallback bot plays the seat meanwhile, and
//     reconnecting continues where the game stands, so run() reconnects with
//     exponential backoff, a bounded number of consecutive attempts; a host that
//     cannot be reached (or no longer knows the game) is left for the other hosts
//     (Assignment.other_hosts) in turn, which play the game when one of them took
//     it over and redirect to the one that did otherwise.
//
// run() resolves with the run's counts once the game is over (whatever its end
// reason) and rejects with a StatusError (code, details) otherwise.
//
// decide(decision) may be async. It returns one of decision.legal (or a trade
// offer or counter it builds): an Action, a code (BigInt, or a decimal or hex
// string), an action text ("build_road e17"), or {action, note, evaluation} to
// send a debug note with the answer (docs/GAMEHOST.md, "Debug notes"), or
// RESIGN to resign the seat: the game ends at once for every seat, stored as
// resigned with this seat last (docs/GAMEHOST.md, "Resigning").

const { loadApi, credentials: makeCredentials, statusName, StatusError, bearer, CHANNEL_OPTIONS, grpc } = require('./api');
const { Protocol, Action, toCode } = require('./protocol');
const { SeatLog } = require('./seat_log');

// What decide returns to resign (PlayAnswer.resign). Final.
const RESIGN = Object.freeze({ resign: true, toString: () => 'RESIGN' });

const MAX_NOTE_BYTES = 256;  // the host refuses a longer note (lib/protocol/debug_limits.h)

// The debug part of an answer, or null: the note cut to the host's 256 bytes
// at a UTF-8 character boundary, the evaluation only when finite (the host
// refuses an answer with any other).
function answerDebug(note, evaluation) {
  const text = note === undefined || note === null ? '' : String(note);
  const finite = typeof evaluation === 'number' && Number.isFinite(evaluation);
  if (!text && !finite) return null;
  let bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_NOTE_BYTES) {
    let length = MAX_NOTE_BYTES;
    // Back off continuation bytes (10xxxxxx) so the cut never splits a character.
    while (length > 0 && (bytes[length] & 0xc0) === 0x80) --length;
    bytes = bytes.subarray(0, length);
  }
  const debug = { note: bytes.toString('utf8') };
  if (finite) debug.evaluation = evaluation;
  return debug;
}

// Whether a stream that ended with `code` after it had been welcomed is worth
// reconnecting: the connection or the host failed, not the request.
// `reconnecting`: ALREADY_EXISTS then means the host has not yet noticed that
// our previous stream is gone, which resolves itself.
function retryableAfterDrop(code, reconnecting) {
  switch (code) {
    case grpc.status.UNAVAILABLE:  // connection lost, host restarting
    case grpc.status.CANCELLED:    // the host cancelled the call (shutting down)
    case grpc.status.DEADLINE_EXCEEDED:
    case grpc.status.UNKNOWN:
    case grpc.status.INTERNAL:
    case grpc.status.RESOURCE_EXHAUSTED:
      return true;
    case grpc.status.ALREADY_EXISTS:
      return reconnecting;
    default:
      // Refusals of the request itself (UNAUTHENTICATED, NOT_FOUND, ...) and
      // ABORTED: another stream took the seat over, and fighting it back would
      // make two programs play one seat in turn.
      return false;
  }
}

const sleep = (ms) => new Promise((resolve) => { if (ms > 0) setTimeout(resolve, ms); else resolve(); });

// What decide is given: the seat's view as the host sent it, and typed access
// to what a bot needs most.
class Decision {
  constructor(fields) { Object.assign(this, fields); }

  // The top of the pending stack: what is being decided ({kind, name, role,
  // seat, a, b, c}); null on the seat's own turn with nothing pending.
  get pending() {
    const stack = this.view?.position?.pending ?? [];
    if (stack.length === 0) return null;
    const top = stack[stack.length - 1];
    const info = this.protocol.pending(top.kind);
    return { kind: top.kind, name: info?.name ?? null, role: info?.role ?? null, seat: top.seat, a: top.a, b: top.b, c: top.c };
  }

  // 'setup', 'before_roll', 'action' or 'game_over'.
  get phase() { return String(this.view?.position?.phase ?? '').replace(/^PHASE_/, '').toLowerCase(); }

  // The legal action whose text is `text`, or undefined.
  find(text) { return this.legal.find((a) => a.text === text); }

  // The engine's View of this decision (the engine addon, engine.js), for
  // searching and for the built-in bots; read once, when first asked for.
  get engineView() {
    if (!this.cachedEngineView) {
      Object.defineProperty(this, 'cachedEngineView', { value: require('./engine').viewOf(this), writable: true });
    }
    return this.cachedEngineView;
  }
}

// The Decision of a decision update (PlayUpdate{decision} as read from the
// wire): also how the arena (arena.js) shows a local game's decisions to a bot,
// so that a bot decides on exactly what it would get from a host.
function makeDecision(protocol, update, { seat, gameId, config, welcomeBytes }) {
  const d = update.decision;
  const texts = d.legal_text ?? [];
  const legal = (d.view?.legal ?? []).map((code, i) => {
    const action = protocol.action(code);
    // The host's text when it sent it (want_text), else ours from the reference.
    if (texts[i]) Object.defineProperty(action, 'text', { value: texts[i], enumerable: true });
    return action;
  });
  const decision = new Decision({
    step: d.step, seat, gameId, config, view: d.view, legal,
    decisionMsLeft: d.decision_ms_left, timeBankMsLeft: d.time_bank_ms_left,
    // Earlier answers to this decision the host refused, oldest first, and
    // the reason it gave for the last one.
    rejected: [], rejectedError: '',
    // The serialized PlayUpdate and the welcome it belongs to, for the engine
    // addon (engine.js: engineView).
    bytes: update.raw ?? null, welcomeBytes,
  });
  Object.defineProperty(decision, 'protocol', { value: protocol });
  return decision;
}

class Client {
  constructor(options) {
    const o = {
      otherHosts: [], takeOver: false, wantText: false,
      // Ask for the events owed at a decision inside it (CAPABILITY_EVENTS_IN_DECISION):
      // one message per decision instead of two; onEvents sees the same events.
      eventsInDecision: true,
      maxRedirects: 3,
      // 20 attempts with the backoff below are about 70 s: longer than a host
      // restarted in place takes to come back, or a dead host's lease to lapse.
      maxReconnectAttempts: 20, reconnectInitialBackoffMs: 250, reconnectMaxBackoffMs: 4000,
      finishGraceMs: 5000,
      // Testing aids, as the C++ kit's: drop the stream at the next decision
      // once `disconnectAfter` are answered (then reconnect after
      // reconnectDelayMs); answer nothing more once `stallAfter` are answered.
      disconnectAfter: 0, reconnectDelayMs: 500, stallAfter: 0,
      ...options,
    };
    for (const k of ['host', 'gameId', 'token']) if (!o[k]) throw new TypeError(`Client: options.${k} is required`);
    this.options = o;
    this.api = o.api ?? loadApi(o.protoDir);
    this.protocol = o.protocol ?? Protocol.load();
    this.credentials = o.credentials ?? makeCredentials(o.tlsCa);
    this.stats = null;
    this.seatLog = new SeatLog();
  }

  // One JSON line: what the seat saw, for the game checker (--record).
  record() { return this.seatLog.record(this.options.gameId, this.stats?.seat ?? -1); }

  backoff(failedAttempts) {
    return Math.min(this.options.reconnectInitialBackoffMs * 2 ** Math.min(failedAttempts, 20), this.options.reconnectMaxBackoffMs);
  }

  log(message) { this.callbacks.onLog?.(message); }

  async run(decide, callbacks = {}) {
    const o = this.options;
    this.decide = decide;
    this.callbacks = callbacks;
    this.stats = {
      seat: -1, decisionsReceived: 0, decisionsAnswered: 0, rejections: 0, reconnects: 0, redirects: 0,
      decideErrors: 0, gameOver: false, result: null,
    };
    this.seatLog = new SeatLog();
    this.welcomed = false;        // some stream of this run was welcomed
    this.streamWelcomed = false;  // the last stream that failed was welcomed first
    this.droppedForTest = false;
    this.welcomeBytes = null;
    this.config = null;

    let host = o.host;
    let nextHost = 0;  // in otherHosts, for reconnecting elsewhere
    let reconnecting = false;
    let failedAttempts = 0;  // consecutive, since a stream was last welcomed
    let redirects = 0;       // likewise
    let unreachable = '';    // the host whose stream last failed UNAVAILABLE
    for (;;) {
      const end = await this.playOnce(host, reconnecting);
      if (end.kind === 'gameOver') return this.stats;
      if (end.kind === 'redirect') {
        ++this.stats.redirects;
        if (this.streamWelcomed) redirects = 0;
        if (end.redirect === unreachable) {
          // The lease still names the host we could not reach.
          if (failedAttempts >= o.maxReconnectAttempts) {
            throw new StatusError(grpc.status.UNAVAILABLE,
              `game ${o.gameId} stays on unreachable host ${end.redirect} (gave up after ${failedAttempts} attempts)`);
          }
          // Its lease lapses and another host takes the game over, or it comes
          // back at its address and plays the game on: after a backoff, try it
          // again; if it is still down, the other hosts next.
          const wait = this.backoff(failedAttempts++);
          this.log(`game ${o.gameId} is still leased to unreachable ${end.redirect}; trying it again in ${wait} ms`);
          await sleep(wait);
          host = end.redirect;
          reconnecting = this.welcomed;
          continue;
        }
        if (++redirects > o.maxRedirects) {
          throw new StatusError(grpc.status.ABORTED, `redirected more than ${o.maxRedirects} times (last to ${end.redirect})`);
        }
        this.log(`game ${o.gameId} runs on ${end.redirect}: connecting there`);
        host = end.redirect;
        reconnecting = this.welcomed;
        failedAttempts = 0;
        continue;
      }
      if (end.kind === 'droppedByUs') {
        this.log(`dropped the stream (disconnectAfter); reconnecting in ${o.reconnectDelayMs} ms`);
        await sleep(o.reconnectDelayMs);
        reconnecting = true;
        continue;
      }
      const { code, details } = end.status;
      if (end.kind === 'localError') throw new StatusError(code, details);
      // A failed stream. A seat that was playing reconnects; before any welcome
      // the failure is about the address, the token or the game, unless the
      // host is unreachable and other hosts are known: it may have died with
      // the game, which one of them takes over. A seat that was playing and asks
      // a host that no longer knows the game asks the others too: the one that
      // finished it has the result.
      const moved = code === grpc.status.UNAVAILABLE || (this.welcomed && code === grpc.status.NOT_FOUND);
      const lostHost = moved && o.otherHosts.length > 0;
      const retry = (this.welcomed && retryableAfterDrop(code, reconnecting)) || lostHost;
      if (!retry) throw new StatusError(code, details);
      // A stream that got as far as a welcome worked: its drop starts a fresh budget.
      if (this.streamWelcomed) failedAttempts = redirects = 0;
      unreachable = code === grpc.status.UNAVAILABLE ? host : '';
      if (failedAttempts >= o.maxReconnectAttempts) {
        throw new StatusError(code, `${details} (gave up after ${failedAttempts} reconnect attempts)`);
      }
      const wait = this.backoff(failedAttempts++);
      this.log(`stream to ${host} ended: ${statusName(code)}: ${details}; reconnecting in ${wait} ms `
        + `(attempt ${failedAttempts} of ${o.maxReconnectAttempts})`);
      await sleep(wait);
      reconnecting = this.welcomed;
      // A host that cannot be reached may be dead: its games go on elsewhere.
      if (lostHost) {
        const pick = nextHost++ % (o.otherHosts.length + 1);
        host = pick === 0 ? o.host : o.otherHosts[pick - 1];
        this.log(`trying game host ${host}`);
      }
    }
  }

  // Plays one Play stream on `host`. Resolves to {kind, status, redirect}: kind
  // 'gameOver', 'redirect', 'droppedByUs', 'localError' (we hung up on a message
  // we could not read; never retried) or 'failed' (status from gRPC).
  playOnce(host, reconnecting) {
    const o = this.options;
    return new Promise((resolve) => {
      const client = new this.api.GameHost(host, this.credentials, CHANNEL_OPTIONS);
      const call = client.Play(bearer(o.token));
      const s = {
        host, reconnecting, call, welcomed: false, finish: null, localError: null, closed: false, halfClosed: false,
        stallLogged: false,
        // The decision being answered: its Decision, its number among this
        // stream's decisions (an answer that comes back for an older one is
        // dropped), and the action last sent for it.
        pending: null, serial: 0, lastAnswer: null, refused: new Set(),
      };
      this.stream = s;
      let timer = null;
      // How far this seat saw the game: a host whose copy is behind voids it
      // rather than show the seat a different game from there (PlayHello.last_step_seen).
      const hello = { game_id: o.gameId, take_over: o.takeOver, want_text: o.wantText };
      if (this.seatLog.seen) hello.last_step_seen = this.seatLog.lastStep;
      if (o.eventsInDecision) hello.capabilities = ['CAPABILITY_EVENTS_IN_DECISION'];
      call.write({ hello });

      // Ends our side: after a game over or redirect we half-close and let the
      // host end the stream (hanging up after finishGraceMs); otherwise we
      // hang up at once.
      const stop = (finish) => {
        if (s.finish) return;
        s.finish = finish;
        s.pending = null;
        if (finish === 'gameOver' || finish === 'redirect') {
          s.halfClosed = true;
          call.end();
          timer = setTimeout(() => call.cancel(), o.finishGraceMs);
        } else {
          call.cancel();
        }
      };
      s.stop = stop;

      call.on('data', (update) => {
        if (s.finish) return;
        try {
          this.handle(s, update);
        } catch (err) {
          s.localError = { code: grpc.status.INTERNAL, details: err.message };
          stop('localError');
        }
      });
      call.on('error', () => {});  // the status below says it all
      call.on('status', (status) => {
        s.closed = true;
        clearTimeout(timer);
        client.close();
        if (s.finish === 'gameOver' || s.finish === 'redirect') {
          resolve({ kind: s.finish, redirect: s.redirect });
          return;
        }
        if (s.finish === 'droppedByUs') {
          resolve({ kind: 'droppedByUs' });
          return;
        }
        if (s.finish === 'localError') {
          resolve({ kind: 'localError', status: s.localError });
          return;
        }
        this.streamWelcomed = s.welcomed;
        let { code, details } = status;
        // The host closed the stream cleanly mid-game (shutting down, or handing
        // the game over): like a drop, the game goes on without us.
        if (code === grpc.status.OK) {
          code = grpc.status.UNAVAILABLE;
          details = 'the host ended the stream before the game was over';
        }
        if (!s.welcomed) details = `${details} (${host}, game ${o.gameId})`;
        resolve({ kind: 'failed', status: { code, details } });
      });
    });
  }

  // Handles one update; throws for a message we cannot read.
  handle(s, update) {
    switch (update.msg) {
      case 'welcome': {
        const w = update.welcome;
        const seats = w.config?.num_seats || 4;
        if (w.seat < 0 || w.seat >= seats) throw new Error(`welcome: seat ${w.seat} is not a seat of the game`);
        s.welcomed = true;
        if (s.reconnecting) ++this.stats.reconnects;
        this.welcomed = true;
        this.stats.seat = w.seat;
        this.config = w.config;
        this.welcomeBytes = update.raw ?? null;
        this.seatLog.welcome(w.step);
        this.log(`${s.reconnecting ? 'playing again seat' : 'playing seat'} ${w.seat} of game ${w.game_id} at step ${w.step} on ${s.host}`);
        this.callbacks.onWelcome?.({
          gameId: w.game_id, host: s.host, seat: w.seat, config: w.config, step: w.step, reconnected: s.reconnecting,
          players: w.players, deadlines: w.deadlines, message: w,
        });
        return;
      }
      case 'events':
        this.handleEvents(s, update.events);
        return;
      case 'decision':
        this.handleDecision(s, update);
        return;
      case 'rejected': {
        const r = update.rejected;
        ++this.stats.rejections;
        this.log(`step ${r.step}: answer rejected: ${r.error}`);
        // A rejection of an older step (the fallback bot moved when the deadline
        // ran out) needs nothing: a new decision follows if the seat is to act.
        const d = s.pending;
        if (!d || r.step !== d.step || !s.lastAnswer) return;
        d.rejected = [...d.rejected, s.lastAnswer.action];
        s.refused.add(s.lastAnswer.key);
        d.rejectedError = r.error;
        this.answer(s, d);
        return;
      }
      case 'paused': {
        const p = update.paused;
        // The host holds the game until it can save it; the decision owed, if
        // any, comes again afterwards (an answer sent meanwhile is refused as
        // "paused", which says nothing about the action).
        if (p.paused) s.pending = null;
        this.log(p.paused ? `game paused by its host: ${p.reason}` : 'game goes on after a pause');
        this.callbacks.onPaused?.(p);
        return;
      }
      case 'game_over':
        this.stats.gameOver = true;
        this.stats.result = update.game_over.result;
        this.seatLog.gameOver(this.stats.result);
        this.callbacks.onGameOver?.(this.stats.result);
        s.stop('gameOver');
        return;
      case 'redirect':
        if (!update.redirect.host) throw new Error('redirect without a host');
        s.redirect = update.redirect.host;
        s.stop('redirect');
        return;
      default:
        // A message kind newer than this kit: skipping it is what proto3 readers do.
    }
  }

  handleEvents(s, ev) {
    this.seatLog.events(ev, this.api.eventTypeNumber);
    // The game moved past our decision (answered, or taken by the fallback
    // bot after the deadline): an answer still being thought out is late.
    if (s.pending && ev.step > s.pending.step) s.pending = null;
    if (this.callbacks.onEvents) {
      const events = [];
      for (const e of ev.events) {
        try {
          events.push(this.protocol.event(e));
        } catch (err) {
          // Events only inform; one we cannot read is reported, not fatal.
          this.log(`skipped an event we cannot read: ${err.message}`);
        }
      }
      this.callbacks.onEvents(ev.step, events, ev);
    }
  }

  handleDecision(s, update) {
    const o = this.options;
    const d = update.decision;
    if (d.events) this.handleEvents(s, d.events);  // they happened before it
    ++this.stats.decisionsReceived;
    this.seatLog.see(d.step);
    s.pending = null;
    if (!s.welcomed) throw new Error('a decision came before the welcome');
    if (o.stallAfter > 0 && this.stats.decisionsAnswered >= o.stallAfter) {
      if (!s.stallLogged) this.log('stalling (stallAfter): decisions from now on are left to the deadline');
      s.stallLogged = true;
      return;
    }
    if (o.disconnectAfter > 0 && !this.droppedForTest && this.stats.decisionsAnswered >= o.disconnectAfter) {
      this.droppedForTest = true;
      s.stop('droppedByUs');
      return;
    }
    const codes = d.view?.legal ?? [];
    if (codes.length === 0) {
      // The host only asks a seat that has a choice; answering nothing lets the
      // fallback bot take it rather than guessing.
      this.log(`decision at step ${d.step} without legal actions: not answered`);
      return;
    }
    const decision = makeDecision(this.protocol, update, {
      seat: this.stats.seat, gameId: o.gameId, config: this.config, welcomeBytes: this.welcomeBytes,
    });
    s.pending = decision;
    s.refused = new Set();  // the keys of decision.rejected
    this.answer(s, decision);
  }

  // Asks decide for the pending decision and sends the answer, unless the
  // action was refused before for this decision or the game moved on meanwhile.
  async answer(s, decision) {
    const serial = ++s.serial;
    let result;
    try {
      result = await this.decide(decision);
    } catch (err) {
      ++this.stats.decideErrors;
      this.log(`step ${decision.step}: decide failed (${err?.stack ?? err}); leaving the decision to the fallback bot`);
      if (s.pending === decision) s.pending = null;
      return;
    }
    if (s.closed || s.finish || s.pending !== decision || serial !== s.serial) return;
    if (result === RESIGN) {
      this.log(`step ${decision.step}: the bot resigns`);
      s.pending = null;
      s.call.write({ answer: { step: decision.step, resign: true } });
      return;
    }
    let answer;
    try {
      answer = this.toAnswer(result, decision);
    } catch (err) {
      ++this.stats.decideErrors;
      this.log(`step ${decision.step}: decide returned no action (${err.message}); leaving the decision to the fallback bot`);
      s.pending = null;
      return;
    }
    if (s.refused.has(answer.key)) {
      // Sending it again would be refused again, forever.
      this.log(`step ${decision.step}: the bot chose ${answer.action.text} again after it was rejected; `
        + 'leaving this decision to the fallback bot');
      s.pending = null;
      return;
    }
    if (decision.rejected.length === 0) ++this.stats.decisionsAnswered;
    s.lastAnswer = answer;
    const request = { answer: { step: decision.step, action: answer.wire } };
    if (answer.debug) request.answer.debug = answer.debug;
    // A failed write means the stream is gone; its status says how.
    s.call.write(request);
  }

  toAnswer(result, decision) { return toAnswer(this.protocol, result, decision); }
}

// What decide returned, as {action, key, wire, debug}: the Action (or {text}
// for a text that names no legal action), the key by which a refused answer
// is known again, the message's Action and the debug note.
function toAnswer(protocol, result, decision) {
  let note;
  let evaluation;
  let choice = result;
  if (result && typeof result === 'object' && !(result instanceof Action) && 'action' in result) {
    ({ action: choice, note, evaluation } = result);
  }
  const debug = answerDebug(note, evaluation);
  let action;
  if (choice instanceof Action) {
    action = choice;
  } else if (typeof choice === 'bigint' || typeof choice === 'number'
    || (typeof choice === 'string' && /^(0x[0-9a-fA-F]{1,16}|\d{1,20})$/.test(choice))) {
    action = protocol.action(toCode(choice));
  } else if (typeof choice === 'string' && choice.trim()) {
    const text = choice.trim().replace(/\s+/g, ' ');
    action = decision.find(text);
    // Not a listed action (a trade offer, say): the host parses the text
    // (Action.text, read when code is 0).
    if (!action) return { action: { text }, key: `text:${text}`, wire: { code: '0', text }, debug };
  } else {
    throw new TypeError(`not an action: ${String(choice)}`);
  }
  return { action, key: action.code.toString(), wire: { code: action.code.toString() }, debug };
}

module.exports = { Client, Decision, makeDecision, toAnswer, answerDebug, retryableAfterDrop, MAX_NOTE_BYTES, RESIGN };
