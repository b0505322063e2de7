// "Your bot's notes" beside a replay: what the signed-in person's bots wrote
// with their answers (docs/GATEWAY.md, "Your bots' notes"), which only their
// author reads. At each step the panel shows, per seat of theirs, the latest
// answered step at or before it (its note, evaluation and think time), with the
// seat's think times summed up and a link to download them all.
//
// The panel's root says where it stands in data-notes-state: loading, none
// (nothing to show: not signed in, no seat of the person's, or the gateway said
// no) and shown. Notes are the bots' own text: every one is escaped.
import { api, enc } from '../api.js';
import { html, SEAT_LETTERS, seatBadge } from '../names.js';
import { session } from '../session.js';

// ---- Pure parts (web/test/notes.test.mjs) ----------------------------------------

// The entry of `steps` (sorted by .step, as the gateway sends them) with the
// largest step at or before `n`; null when every one is later.
export function latestAtOrBefore(steps, n) {
  let lo = 0;
  let hi = steps.length; // the first entry past n is in [lo, hi]
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid].step <= n) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? steps[lo - 1] : null;
}

// {answered, median, max} of the steps' think times (ms); the median of an even
// count is the mean of the middle two. Zeros for no steps.
export function thinkSummary(steps) {
  const times = steps.map((s) => s.think_ms).sort((a, b) => a - b);
  const n = times.length;
  if (n === 0) return { answered: 0, median: 0, max: 0 };
  const median = n % 2 ? times[(n - 1) >> 1] : (times[n / 2 - 1] + times[n / 2]) / 2;
  return { answered: n, median, max: times[n - 1] };
}

export function formatMs(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
}

// Whether a game may hold notes of the person's: one of its seats was played by
// an identity of `mine` (the person and their bots' ids).
export function hasSeatOf(players, mine) {
  const ids = new Set(mine.map(Number));
  return players.some((p) => p.identity_id !== null && p.identity_id !== undefined && ids.has(Number(p.identity_id)));
}

// The line of one seat at step `n`.
export function currentMarkup(seat, n) {
  const s = latestAtOrBefore(seat.steps, n);
  if (!s) return html`<span class="meta">No answer of this seat yet at step ${n}.</span>`;
  const evaluation = s.evaluation === null || s.evaluation === undefined ? '' : html` · evaluation <span data-note-evaluation>${Number(s.evaluation.toPrecision(6))}</span>`;
  const note = s.note === '' ? html`<span class="meta">(no note)</span>` : html`<q data-note>${s.note}</q>`;
  return html`<span class="note-step">step ${s.step}</span> ${note}${evaluation} · thought <span data-note-think>${formatMs(s.think_ms)}</span>`;
}

// The panel for the gateway's answer `debug` ({game_id, seats}) at step `n`;
// players as the replay has them ([{seat, name}]).
export function notesMarkup(debug, players, n) {
  const seats = debug.seats.map((seat) => {
    const t = thinkSummary(seat.steps);
    const who = seat.bot ?? players[seat.seat]?.name ?? '';
    const extra = [];
    if (seat.recorded_from_step > 0) extra.push(`recorded from step ${seat.recorded_from_step}`);
    if (seat.notes_dropped > 0) extra.push(`${seat.notes_dropped} ${seat.notes_dropped === 1 ? 'note' : 'notes'} dropped past the limit`);
    return html`<div class="notes-seat seat-${seat.seat}" data-notes-seat="${seat.seat}">
        <div class="seat-head">${seatBadge(seat.seat)}<span class="seat-name">${SEAT_LETTERS[seat.seat] ?? '?'} ${who}</span></div>
        <p class="notes-current" data-notes-current>${currentMarkup(seat, n)}</p>
        <p class="hint" data-notes-summary>${t.answered} ${t.answered === 1 ? 'answer' : 'answers'} · think time median
          ${formatMs(t.median)}, max ${formatMs(t.max)}${extra.map((e) => ` · ${e}`).join('')}</p>
      </div>`;
  });
  return html`<h2>Your bot's notes</h2>${seats}
    <p><a href="/api/v1/me/games/${enc(debug.game_id)}/debug?download=1" download="${debug.game_id}-debug.json"
      data-notes-download>Download your bot's notes</a></p>`;
}

// ---- The panel ------------------------------------------------------------------

// The panel for `game` (the gateway's replay JSON): hidden until it knows there
// is something to show. setStep(n) follows the replay.
export function notesPanel(game) {
  const element = document.createElement('section');
  element.className = 'bot-notes';
  element.setAttribute('aria-label', "Your bot's notes");
  element.dataset.notesState = 'loading';
  element.hidden = true;
  let debug = null;
  let step = 0;
  const drawn = new Map(); // each seat's line as last written, to write only what changed
  let stopped = false;
  const abort = new AbortController();

  const none = () => {
    element.dataset.notesState = 'none';
    element.hidden = true;
  };

  // Only for a person signed in, and only when a seat may be theirs: a replay
  // that is not theirs is the usual case, and asking would be a 403 each time,
  // which the browser logs as an error. The gateway decides all the same.
  async function load() {
    try {
      const s = await session();
      const person = s?.player?.id;
      if (stopped || !person || !game.players.some((p) => p.identity_id)) return none();
      if (!hasSeatOf(game.players, [person])) {
        const mine = await api('/me/bots', {}, { signal: abort.signal });
        if (stopped) return;
        if (!hasSeatOf(game.players, [person, ...mine.bots.map((b) => b.id)])) return none();
      }
      const answer = await api(`/me/games/${enc(game.game_id)}/debug`, {}, { signal: abort.signal });
      if (stopped) return;
      if (!answer.seats.length) return none();
      debug = answer;
      element.innerHTML = String(notesMarkup(debug, game.players, step));
      element.hidden = false;
      element.dataset.notesState = 'shown';
    } catch (e) {
      // 401, 403, the services down: the replay is whole without the notes.
      if (!stopped && e.name !== 'AbortError') none();
    }
  }
  load();

  return {
    element,
    setStep(n) {
      step = n;
      if (!debug) return;
      element.querySelectorAll('[data-notes-seat]').forEach((box) => {
        const seat = debug.seats.find((d) => String(d.seat) === box.dataset.notesSeat);
        const markup = String(currentMarkup(seat, n));
        if (drawn.get(seat.seat) === markup) return;
        drawn.set(seat.seat, markup);
        box.querySelector('[data-notes-current]').innerHTML = markup;
      });
    },
    stop() {
      stopped = true;
      abort.abort();
    },
  };
}
