// The "Play" page: queue on a ladder (the wait and the queue's size shown while
// waiting), start a practice game against built-in bots, or set up a table to
// play with friends. A match or a new practice game opens the game
// (/play/{game_id}), a new table its page (/tables/{id}, pages/friends.js); a
// game already being played is offered first.
import { api, send, enc, refusalText } from '../api.js';
import { html, pageOf } from '../names.js';
import { navigate } from '../nav.js';
import { session, refreshSession } from '../session.js';
import { chooseLadder, rememberedLadder, rememberLadder } from '../ladders/choice.js';
import { TABLE_DEFAULTS, DECISION_SECONDS, TIME_BANK_MINUTES, SPECTATOR_DELAY_MINUTES, tableRequest, tableRequestProblem, formFieldOf } from '../friends/model.js';

const STRENGTHS = [
  ['random', 'random (plays any legal action)'],
  ['heuristic', 'heuristic (a sound beginner)'],
  ['search', 'search (the strongest)'],
];

// What a refused queue request tells the person, in words rather than the API's:
// a second join while waiting (409) says where they are.
export function queueErrorText(e) {
  if (e?.status === 409) return 'You are already waiting in a queue: leave it first to join another.';
  if (e?.status === 404) return 'That ladder does not exist any more.';
  if (e?.status === 401) return 'Your session has ended: sign in again to queue.';
  if (e?.status >= 500 || !e?.status) return 'The queue is not answering; try again shortly.';
  return e.message;
}

export async function render(q = new URLSearchParams()) {
  const s = await session();
  if (!s?.player) {
    return pageOf(html`<h1>Play</h1><p data-need-signin><a href="/signin?next=/play">Sign in</a> or <a href="/signup?next=/play">sign up</a> to play.</p>`, 'Play');
  }
  const { ladders } = await api('/ladders');
  const active = s.active_game;
  // Preselected: the ladder asked for, queued on or chosen last, else the main one.
  const chosen = chooseLadder(ladders, { asked: q.get('ladder') || '', queued: s.queue?.ladder || '', remembered: rememberedLadder() });
  const page = pageOf(
    html`<h1>Play</h1>
    ${active ? html`<p class="notice" data-active-game="${active.game_id}">You are playing <a href="/play/${enc(active.game_id)}">game ${active.game_id}</a> (seat ${'ABCD'[active.seat]}).</p>` : ''}
    <div class="lobby">
      <section class="panel" aria-labelledby="queue-h">
        <h2 id="queue-h">Ladder game</h2>
        <form data-queue-form>
          <label>Ladder <select name="ladder">${ladders.map((l) => html`<option value="${l.id}"${l === chosen ? ' selected' : ''}>${l.title || l.id} (${l.seats} seats)</option>`)}</select></label>
          <button type="submit" data-queue-join>Join the queue</button>
        </form>
        <div data-queue-state aria-live="polite"></div>
        <p class="form-error" role="alert" data-queue-error></p>
      </section>
      <section class="panel" aria-labelledby="practice-h">
        <h2 id="practice-h">Practice</h2>
        <p class="hint">An unrated game against built-in bots, started at once.</p>
        <form data-practice-form>
          <label>Opponents <select name="bots"><option value="3">3 bots</option><option value="2">2 bots</option></select></label>
          <label>Strength <select name="strength">${STRENGTHS.map(([v, t]) => html`<option value="${v}"${v === 'heuristic' ? ' selected' : ''}>${t}</option>`)}</select></label>
          <button type="submit" data-practice-start>Start a practice game</button>
        </form>
        <p class="form-error" role="alert" data-practice-error></p>
      </section>
      <section class="panel" aria-labelledby="friends-h">
        <h2 id="friends-h">Play with friends</h2>
        <p class="hint">A table of your own: share its link, friends join, you start; a bot plays the seats nobody takes.</p>
        <form data-table-form novalidate>
          <label>Seats <select name="seats"><option value="4" selected>4 seats</option><option value="3">3 seats</option></select></label>
          <label>Game <select name="ruleset"><option value="cities_and_knights" selected>Cities &amp; Knights</option><option value="base">the base game</option></select></label>
          <label>Bot for empty seats <select name="bot">${STRENGTHS.map(([v, t]) => html`<option value="${v}"${v === TABLE_DEFAULTS.bot ? ' selected' : ''}>${t}</option>`)}</select></label>
          <label>Seconds a decision <input name="decision_s" type="number" inputmode="numeric" min="${DECISION_SECONDS.min}" max="${DECISION_SECONDS.max}" step="1" value="${TABLE_DEFAULTS.decision_ms / 1000}" aria-describedby="table-error"></label>
          <label>Time bank, minutes <input name="time_bank_min" type="number" inputmode="decimal" min="${TIME_BANK_MINUTES.min}" max="${TIME_BANK_MINUTES.max}" step="0.5" value="${TABLE_DEFAULTS.time_bank_ms / 60000}" aria-describedby="table-error"></label>
          <label>Rated on a casual ladder <input name="ladder" autocomplete="off" placeholder="not rated" list="table-ladders" aria-describedby="table-ladder-hint table-error"></label>
          <datalist id="table-ladders">${ladders.map((l) => html`<option value="${l.id}">${l.title || l.id}</option>`)}</datalist>
          <label>Spectators' delay, minutes <input name="spectator_delay_min" type="number" inputmode="numeric" min="${SPECTATOR_DELAY_MINUTES.min}" max="${SPECTATOR_DELAY_MINUTES.max}" step="1" value="0" aria-describedby="table-error"></label>
          <button type="submit" data-table-create>Create the table</button>
        </form>
        <p class="hint" id="table-ladder-hint">Leave the ladder empty for a friendly game; a casual ladder's id rates the game there.</p>
        <p class="form-error" id="table-error" role="alert" data-table-error></p>
      </section>
    </div>`,
    'Play',
  );
  const el = page.element;
  const stateEl = el.querySelector('[data-queue-state]');
  const queueForm = el.querySelector('[data-queue-form]');
  const queueError = el.querySelector('[data-queue-error]');
  const joinButton = queueForm.querySelector('[data-queue-join]');
  let timer = 0;
  let stopped = false;
  queueForm.elements.ladder.addEventListener('change', () => rememberLadder(queueForm.elements.ladder.value));

  const showQueue = (q) => {
    if (!q || q.state === 'none') {
      // A queue that ended without a seat says why.
      stateEl.innerHTML = q?.error ? html`<p class="form-error" data-queue-ended>The queue ended: ${q.error}</p>`.__raw : '';
      queueForm.hidden = false;
      joinButton.disabled = false;
      return;
    }
    queueForm.hidden = true;
    const waited = Math.round((q.waited_ms ?? 0) / 1000);
    stateEl.innerHTML = html`<p data-queue="${q.state}" data-queue-ladder="${q.ladder}">
      ${q.state === 'matched' ? 'Matched: opening the game…' : html`Waiting on <strong>${q.ladder}</strong> for <span data-waited>${waited}</span> s${q.queue_size !== undefined && q.queue_size !== null ? html` · <span data-queue-size="${q.queue_size}">${q.queue_size} in the queue</span>` : ''}`}</p>
      ${q.state === 'waiting' ? html`<button type="button" data-queue-leave>Leave the queue</button>` : ''}`.__raw;
    stateEl.querySelector('[data-queue-leave]')?.addEventListener('click', async () => {
      clearTimeout(timer);
      try {
        await send('DELETE', '/queue');
      } catch (e) {
        queueError.textContent = queueErrorText(e);
      }
      showQueue(null);
    });
  };
  // While queued, the state is asked every second: a match opens the game.
  const poll = async () => {
    if (stopped) return;
    try {
      const q = await send('GET', '/queue');
      if (stopped) return;
      showQueue(q);
      if (q.state === 'matched' && q.game_id) {
        await refreshSession();
        return navigate(`/play/${enc(q.game_id)}`);
      }
      if (q.state === 'waiting') timer = setTimeout(poll, 1000);
    } catch (e) {
      queueError.textContent = queueErrorText(e);
      timer = setTimeout(poll, 2000);
    }
  };
  queueForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    // One join at a time: the button stays disabled until the queue's state
    // hides the form, or the join fails.
    if (joinButton.disabled) return;
    joinButton.disabled = true;
    queueError.textContent = '';
    try {
      rememberLadder(queueForm.elements.ladder.value);
      await send('POST', '/queue', { ladder: queueForm.elements.ladder.value });
      poll();
    } catch (err) {
      queueError.textContent = queueErrorText(err);
      joinButton.disabled = false;
      // Already waiting (joined from another tab): the page shows that queue.
      if (err.status === 409) poll();
    }
  });
  const practiceForm = el.querySelector('[data-practice-form]');
  practiceForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const error = el.querySelector('[data-practice-error]');
    error.textContent = '';
    const button = practiceForm.querySelector('button');
    button.disabled = true;
    try {
      const started = await send('POST', '/practice', { bots: Number(practiceForm.elements.bots.value), strength: practiceForm.elements.strength.value });
      await refreshSession();
      navigate(`/play/${enc(started.game_id)}`);
    } catch (err) {
      error.textContent = err.message;
      button.disabled = false;
    }
  });
  const tableForm = el.querySelector('[data-table-form]');
  tableForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const error = el.querySelector('[data-table-error]');
    const fields = Object.fromEntries(new FormData(tableForm));
    const body = tableRequest(fields);
    tableForm.querySelectorAll('input').forEach((i) => i.removeAttribute('aria-invalid'));
    const problem = tableRequestProblem(body);
    if (problem) {
      error.textContent = problem.message;
      tableForm.elements[problem.field].setAttribute('aria-invalid', 'true');
      return tableForm.elements[problem.field].focus();
    }
    error.textContent = '';
    const button = tableForm.querySelector('[data-table-create]');
    button.disabled = true;
    try {
      const created = await send('POST', '/tables', body);
      navigate(`/tables/${enc(created.id)}`);
    } catch (err) {
      error.textContent = refusalText(err);
      const field = formFieldOf(err.body?.error?.parameter);
      if (field && tableForm.elements[field]) tableForm.elements[field].setAttribute('aria-invalid', 'true');
      button.disabled = false;
    }
  });
  if (s.queue && s.queue.state !== 'none') poll();
  return { ...page, cleanup: () => ((stopped = true), clearTimeout(timer)) };
}
