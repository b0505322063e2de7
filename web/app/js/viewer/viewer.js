// The game viewer shared by replays and live games: the board, the seats with
// their scores, the position's status line, this step's events and the log of
// every action. It draws a View (game.proto) it is given; where views come from
// (the replay's positions, a live stream) is the caller's business.
import { BoardView } from '../board/render.js';
import { html, raw, escapeXml, isBaseRuleset, SEAT_LETTERS, CARD_NAMES, TRACK_NAMES, PROGRESS_NAMES, PHASES } from '../names.js';
import { Narrator } from './sentences.js';
import { diceMarkup } from './dice.js';
import { costCardMarkup } from './costs.js';
import { clockReadings, clockText, clockUrgent, stoppedClocks } from './clocks.js';

const HIDDEN = 254;

function card(c, n = 1) {
  if (c === HIDDEN) return n === 1 ? 'a hidden card' : `${n} hidden cards`;
  return `${n === 1 ? '' : `${n} `}${CARD_NAMES[c] ?? `card ${c}`}`;
}

// One event in words (game.proto's EventType says what a, b and c mean).
export function describeEvent(e, seatName) {
  const who = (s) => (s === -2 ? 'chance' : s < 0 ? 'nobody' : seatName(s));
  switch (e.type) {
    case 'EVENT_ACTION':
      return `${who(e.seat)}: ${e.action?.text || 'an action'}`;
    case 'EVENT_PRODUCED':
      return `${who(e.seat)} receives ${card(e.b, e.a)}`;
    case 'EVENT_BANK_SHORTAGE':
      return `nobody receives ${CARD_NAMES[e.b]}: the bank is short`;
    case 'EVENT_BARBARIANS_ADVANCE':
      return `the barbarians advance to ${e.a} of 7`;
    case 'EVENT_BARBARIAN_ATTACK':
      return `the barbarians attack with ${e.a} against ${e.b}: Catan ${e.c ? 'holds' : 'loses'}`;
    case 'EVENT_BARBARIAN_SHARE':
      return `${who(e.seat)} defends with strength ${e.a}`;
    case 'EVENT_DEFENDER':
      return `${who(e.seat)} is a Defender of Catan`;
    case 'EVENT_CITY_PILLAGED':
      return `${who(e.seat)} loses the city at node ${e.a}`;
    case 'EVENT_MUST_DISCARD':
      return `${who(e.seat)} must discard ${e.a} cards`;
    case 'EVENT_STOLE':
      return `${who(e.seat)} steals ${card(e.b)} from ${who(e.other)}`;
    case 'EVENT_PROGRESS_DRAWN':
      return `${who(e.seat)} draws ${e.b === HIDDEN ? 'a card' : PROGRESS_NAMES[e.b]} from the ${TRACK_NAMES[e.a]} deck`;
    case 'EVENT_VICTORY_CARD_REVEALED':
      return `${who(e.seat)} reveals ${PROGRESS_NAMES[e.b]}`;
    case 'EVENT_KNIGHT_REMOVED':
    case 'EVENT_KNIGHT_DESERTED':
      return `${who(e.seat)}'s knight at node ${e.a} returns to the supply`;
    case 'EVENT_LONGEST_ROAD':
      return e.seat >= 0 ? `${who(e.seat)} holds the longest road` : 'nobody holds the longest road';
    case 'EVENT_LARGEST_ARMY':
      return e.seat >= 0 ? `${who(e.seat)} holds the largest army` : 'nobody holds the largest army';
    case 'EVENT_METROPOLIS':
      return `${who(e.seat)} owns the ${TRACK_NAMES[e.a]} metropolis at node ${e.b}`;
    case 'EVENT_TRADE_EXECUTED':
      return `${who(e.seat)} and ${who(e.other)} trade${e.action?.text ? `: ${e.action.text}` : ''}`;
    case 'EVENT_GAME_OVER':
      return e.seat >= 0 ? `${who(e.seat)} wins` : 'the game ends without a winner';
    case 'EVENT_PAID':
      return `${who(e.seat)} pays ${card(e.b, e.a)}`;
    case 'EVENT_CARD_GIVEN':
      return `${who(e.seat)} gives ${card(e.b, e.a)} to ${who(e.other)}`;
    case 'EVENT_PROGRESS_SEEN':
      return `${who(e.seat)} sees ${PROGRESS_NAMES[e.b] ?? 'a card'} in ${who(e.other)}'s hand`;
    case 'EVENT_HAND_SEEN':
      return `${who(e.seat)} sees ${card(e.b, e.a)} in ${who(e.other)}'s hand`;
    case 'EVENT_PROGRESS_TAKEN':
      return `${who(e.seat)} takes ${e.b === HIDDEN ? 'a card' : PROGRESS_NAMES[e.b]} from ${who(e.other)}`;
    case 'EVENT_TOKENS_SWAPPED':
      return `the numbers of hexes ${e.a} and ${e.b} swap`;
    case 'EVENT_ROAD_REMOVED':
      return `${who(e.seat)}'s road at edge ${e.a} returns to the supply`;
    case 'EVENT_MERCHANT_PLACED':
      return `${who(e.seat)} places the merchant on hex ${e.a}`;
    case 'EVENT_CITY_SABOTAGED':
      return `${who(e.seat)}'s city at node ${e.a} is ${e.b ? 'sabotaged' : 'repaired'}`;
    case 'EVENT_DEV_REVEALED':
      return `${who(e.seat)} shows ${e.a} victory point cards`;
    default:
      return `${String(e.type).toLowerCase()} seat ${e.seat} ${e.a} ${e.b} ${e.c}`;
  }
}

// Who decides in a position: the seat of the top pending decision (a discard,
// a trade answer), else the setup's seat in setup (engine SetupSeat: the start
// seat onwards, then back), else the current seat.
export function actingSeat(p) {
  const pending = p.pending ?? [];
  if (pending.length) return pending[pending.length - 1].seat;
  if (p.phase === 'PHASE_SETUP') {
    const n = p.num_seats;
    const pair = Math.floor(p.setup_step / 2);
    return pair < n ? (p.start_seat + pair) % n : (p.start_seat + (2 * n - 1 - pair)) % n;
  }
  return p.current_seat;
}

export class GameViewer {
  // players: [{seat, name}]; config: GameConfig (complete, with its board).
  // controlsFirst puts the controls between the title and the board (the
  // replay's step buttons and slider, visible without scrolling); by default
  // they follow the board.
  constructor(config, players, { title = '', controls = '', controlsFirst = false } = {}) {
    this.players = players;
    this.numSeats = config.num_seats || 4;
    this.base = isBaseRuleset(config);
    this.element = document.createElement('div');
    this.element.className = 'viewer';
    this.element.innerHTML = html`
      <div class="board-pane">
        <div class="viewer-title">${raw(title)}</div>
        ${raw(controlsFirst ? controls : '')}
        <div class="board-host"></div>
        <p class="status" aria-live="polite" data-status></p>
        <div class="dice-tray" aria-live="polite" data-dice-tray></div>
        ${raw(controlsFirst ? '' : controls)}
      </div>
      <aside class="side">
        <section class="seats" aria-label="Seats" data-seats></section>
        ${costCardMarkup(this.base)}
        <section class="step-events" aria-label="What this step did"><h2>This step</h2><ul data-step-events></ul></section>
        <section class="log-box" aria-label="Every action"><h2>Log</h2><ol class="log" data-log></ol></section>
      </aside>`.__raw;
    this.board = new BoardView(this.element.querySelector('.board-host'), config);
    this.statusEl = this.element.querySelector('[data-status]');
    this.seatsEl = this.element.querySelector('[data-seats]');
    this.stepEventsEl = this.element.querySelector('[data-step-events]');
    this.logEl = this.element.querySelector('[data-log]');
    this.currentLogItem = null;
    this.drawn = { status: '', seats: '', events: null, dice: '', step: -1, pieces: null };
    this.diceEl = this.element.querySelector('[data-dice-tray]');
    this.logBox = this.element.querySelector('.log-box');
    // The log box's size and scroll position, kept here: reading them from the
    // page at every step would force a layout of the whole log.
    this.logView = { top: 0, height: 0, line: 0 };
    this.followFrame = 0;
    this.logBox.addEventListener('scroll', () => (this.logView.top = this.logBox.scrollTop), { passive: true });
    new ResizeObserver(([entry]) => (this.logView.height = entry.contentRect.height)).observe(this.logBox);
    this.seatName = (s) => `${SEAT_LETTERS[s] ?? '?'} ${this.players[s]?.name ?? ''}`.trim();
    this.narrator = new Narrator(players);
    this.clocks = null; // the host's last Clocks, and when they arrived (setClocks)
    this.clocksAt = 0;
  }

  // Every seat's clock (clocks.js): the host's figures, counted down from now.
  setClocks(clocks) {
    if (!clocks?.time_bank_ms_left?.length) return;
    this.clocks = clocks;
    this.clocksAt = performance.now();
    this.paintClocks();
  }

  // A paused or finished game: no clock runs (clocks.js, stoppedClocks).
  stopClocks() {
    if (!this.clocks) return;
    this.clocks = stoppedClocks(this.clocks);
    this.clocksAt = performance.now();
    this.paintClocks();
  }

  // Called by the page's timer and after every redraw of the seats.
  paintClocks() {
    if (!this.clocks) return;
    const readings = clockReadings(this.clocks, performance.now() - this.clocksAt);
    for (const el of this.seatsEl.querySelectorAll('[data-seat-clock]')) {
      const reading = readings[Number(el.dataset.seatClock)];
      const text = clockText(reading);
      if (el.textContent !== text) el.textContent = text;
      const running = reading?.running ? '1' : '';
      if (el.dataset.running !== running) el.dataset.running = running;
      el.classList.toggle('urgent', clockUrgent(reading));
    }
  }

  // The action log: one line per step (step N is the position after action N),
  // each line markup from the narrator (sentences.js).
  setLog(lines) {
    this.logEl.innerHTML = lines.map((line, i) => `<li data-step="${i + 1}"><a href="?step=${i + 1}">${i + 1}. ${line.__raw ?? escapeXml(line)}</a></li>`).join('');
    this.currentLogItem = null;
  }

  // Rewrites step N's line (the replay names who acted once it shows the step).
  setLogLine(step, line) {
    const a = this.logEl.children[step - 1]?.querySelector('a');
    if (a) a.innerHTML = `${step}. ${line.__raw ?? escapeXml(line)}`;
  }

  // One line more: markup from the narrator, or plain text.
  appendLog(step, line) {
    const li = document.createElement('li');
    li.dataset.step = step;
    li.className = 'fresh'; // a line just come glows for a moment (style.css)
    li.innerHTML = `${escapeXml(step)}. ${line?.__raw ?? escapeXml(line)}`;
    this.logEl.append(li);
    if (this.logEl.children.length > 5000) this.logEl.firstElementChild.remove();
    this.followLog();
  }

  // A game's event in words: the narrator's sentence, else the engine's.
  eventLine(e) {
    return this.narrator.event(e) ?? describeEvent(e, this.seatName);
  }

  // Keeps the newest line in view by scrolling the log box alone: scrollIntoView
  // would scroll the page as well, taking the board and the turn's buttons away
  // at every move. The box follows only when it showed its end before the
  // lines came (someone reading earlier lines keeps their place), and once per
  // frame: a stream from the start appends thousands of lines at once.
  followLog() {
    if (this.followFrame) return;
    const box = this.logBox;
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 3 * (this.logView.line || 20);
    this.followFrame = requestAnimationFrame(() => {
      this.followFrame = 0;
      if (atEnd) box.scrollTop = box.scrollHeight;
    });
  }

  // Draws a view; `step` is its action count, `events` what its last action did.
  show(view, step, events = [], { highlightLog = true } = {}) {
    const p = view.position;
    this.board.update(p);
    this.markNewPieces(step);
    this.element.dataset.step = step;
    // The dice are drawn anew (and roll, style.css) only when another roll shows.
    const dice = diceMarkup(p, { base: this.base });
    const diceKey = `${p.turn}:${dice}`;
    if (diceKey !== this.drawn.dice) {
      this.drawn.dice = diceKey;
      this.diceEl.innerHTML = String(dice);
    }
    this.element.dataset.viewer = view.viewer;
    // Each panel is rewritten only when its text changed.
    const status = this.statusMarkup(p, step);
    if (status !== this.drawn.status) this.statusEl.innerHTML = this.drawn.status = status;
    const seats = this.seatsMarkup(view);
    if (seats !== this.drawn.seats) {
      this.seatsEl.innerHTML = this.drawn.seats = seats;
      this.paintClocks();
    }
    if (events !== this.drawn.events) {
      this.drawn.events = events;
      this.stepEventsEl.innerHTML = events.length
        ? events.map((e) => {
            // A narrator of its own: the log's remembers whose roll the dice answer.
            const line = new Narrator(this.players).event(e) ?? describeEvent(e, this.seatName);
            return `<li class="ev-${escapeXml(String(e.type).toLowerCase())}">${line.__raw ?? escapeXml(line)}</li>`;
          }).join('')
        : '<li class="meta">the start of the game</li>';
    }
    if (highlightLog) this.highlight(step);
  }

  // Pieces that were not on the board one step or a few before get the class
  // 'appeared' (they grow in, style.css); a jump through the game (the replay's
  // slider, the first view) animates nothing.
  markNewPieces(step) {
    const pieces = this.element.querySelectorAll('.board-host [data-piece]');
    const keyOf = (e) => {
      const a = e.dataset;
      return ['settlement', 'city', 'road', 'wall', 'knight', 'metropolis', 'robber', 'merchant'].includes(a.piece)
        ? `${a.piece}:${a.node ?? a.edge ?? a.hex}:${a.seat ?? ''}:${a.level ?? ''}`
        : '';
    };
    const keys = new Set();
    const before = this.drawn.pieces;
    const near = before && step > this.drawn.step && step - this.drawn.step <= 4;
    for (const e of pieces) {
      const k = keyOf(e);
      if (!k) continue;
      keys.add(k);
      if (near && !before.has(k)) e.classList.add('appeared');
    }
    this.drawn.pieces = keys;
    this.drawn.step = step;
  }

  // Marks the log's line of `step` and keeps it in view, scrolling the log box
  // only (scrollIntoView would move the page too). Lines are one height, so
  // where a line is follows from its number, without asking the page.
  highlight(step) {
    this.currentLogItem?.classList.remove('current');
    this.currentLogItem?.removeAttribute('aria-current');
    const li = step > 0 ? this.logEl.children[step - 1] : null;
    this.currentLogItem = li;
    if (!li) return;
    li.classList.add('current');
    li.setAttribute('aria-current', 'step');
    const v = this.logView;
    if (!v.line) {
      v.line = li.getBoundingClientRect().height || 20;
      v.offset = this.logEl.offsetTop;
    }
    const at = v.offset + (step - 1) * v.line;
    if (at < v.top || at > v.top + v.height - 2 * v.line) {
      v.top = Math.max(0, at - v.height / 2);
      this.logBox.scrollTop = v.top;
    }
  }

  statusMarkup(p, step) {
    const phase = PHASES[p.phase] ?? p.phase;
    // The dice themselves are drawn below the line (dice.js).
    const dice = p.dice_yellow ? `rolled ${p.dice_yellow + p.dice_red}` : 'no roll yet';
    const over = p.phase === 'PHASE_GAME_OVER';
    return html`<span data-piece="step">Step ${step}</span> · turn ${p.turn} · ${phase} ·
      ${over ? (p.winner >= 0 ? `won by ${this.seatName(p.winner)}` : 'no winner') : `${this.seatName(actingSeat(p))} to act`} · ${dice}`.__raw;
  }

  seatsMarkup(view) {
    const p = view.position;
    let out = '';
    for (let s = 0; s < p.num_seats; ++s) {
      const pl = p.players[s];
      let knights = 0;
      let strength = 0;
      for (let v = 0; v < 54; ++v) {
        if (p.knight_owner[v] === s && p.knight_level[v]) {
          ++knights;
          if (p.knight_flags[v] & 1) strength += p.knight_level[v];
        }
      }
      const marks = [];
      if (p.longest_road_holder === s) marks.push(`longest road (${pl.road_length})`);
      if (p.largest_army_holder === s) marks.push('largest army');
      p.metropolis_owner.forEach((o, t) => o === s && marks.push(`${TRACK_NAMES[t]} metropolis`));
      if (pl.defender) marks.push(`defender ×${pl.defender}`);
      if (p.merchant_owner === s && p.merchant_hex >= 0) marks.push('merchant');
      const hand = pl.hand.map((n, c) => (n ? `${n} ${CARD_NAMES[c]}` : '')).filter(Boolean).join(', ');
      const progress = (pl.progress || []).map((c) => (c === HIDDEN ? '?' : PROGRESS_NAMES[c])).join(', ');
      const acting = p.phase !== 'PHASE_GAME_OVER' && actingSeat(p) === s;
      out += html`<div class="seat seat-${s}${acting ? ' acting' : ''}${p.winner === s ? ' won' : ''}" data-seat="${s}">
        <div class="seat-head"><span class="seat-badge seat-${s}">${SEAT_LETTERS[s]}</span>
          <span class="seat-name">${this.players[s]?.name ?? `seat ${s}`}</span>
          ${acting ? raw('<span class="tag">to act</span>') : ''}${p.winner === s ? raw('<span class="tag">winner</span>') : ''}
          <span class="score" data-piece="score" data-seat="${s}" data-vp="${pl.vp}">${pl.vp} VP</span></div>
        <div class="seat-line">${view.hand_total[s]} cards · ${view.progress_count[s]} ${p.dev_deck?.length && !p.players[0].level?.length ? 'development' : 'progress'} · knights ${knights} (strength ${strength}) · road ${pl.road_length}</div>
        <div class="seat-line seat-clock" data-seat-clock="${s}" aria-label="${this.players[s]?.name ?? `seat ${s}`}'s clock"></div>
        ${pl.level?.length ? html`<div class="seat-line levels">${pl.level.map((l, t) => html`<span class="track track-${t}">${TRACK_NAMES[t]} ${l}</span>`)}</div>` : ''}
        ${marks.length ? html`<div class="seat-line marks">${marks.join(' · ')}</div>` : ''}
        ${hand ? html`<div class="seat-line hand">hand: ${hand}</div>` : ''}
        ${progress ? html`<div class="seat-line hand">progress: ${progress}</div>` : ''}
      </div>`.__raw;
    }
    return out;
  }
}
