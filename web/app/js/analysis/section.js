// The "Analysis" section of a finished game, under its replay and on the
// game-over screen of a game played here: the win-probability chart, the
// search bot's marks and the luck table once the analysis is ready; "in
// progress" (asked again every few seconds) while the replays service's worker
// has it; an "Analyse this game" button, for a signed-in person, when nobody
// asked yet. Clicking a mark or a point of the chart calls onStep(step).
//
// The section's root says where it stands in data-analysis-state: loading,
// storing (a game just finished, not stored yet), queued, not_analysed, ready,
// error.
import { api, send, enc, ApiError } from '../api.js';
import { html } from '../names.js';
import { navigate } from '../nav.js';
import { session } from '../session.js';
import { winChartMarkup, marksMarkup, luckTableMarkup, METHOD } from './markup.js';
import { stepX } from './model.js';

// How often a game waiting for its analysis (or to be stored) is asked about again.
const POLL_MS = 3000;
// A game that has just ended is stored within seconds; after this many
// answers of "not stored" the page stops asking and says where to look later.
const MAX_STORING_POLLS = 40;

// What the page says when something fails: never the services' own words.
function politeError(e, asking) {
  const status = e instanceof ApiError ? e.status : 0;
  if (asking && status === 401) return 'Your session has ended: sign in again to ask for the analysis.';
  if (status === 503 && e.body?.error?.grpc_status === 'RESOURCE_EXHAUSTED') return 'The analysis queue is full; try again later.';
  if (status === 409) return 'This game is hidden until its tournament reveals it.';
  if (status === 404) return 'This game is not stored.';
  if (status === 429 || status === 503) return 'The analysis service is busy or unavailable right now; try again in a little while.';
  return 'The analysis could not be loaded right now.';
}

// gameId; players [{seat, name}]; numSeats. Options: onStep(step), called by
// marks and chart points (none: they link to the replay); storedBy, a player
// of a game that has just ended and may not be stored yet: their list of games
// is asked until it has the game (it answers either way, where asking for the
// game itself would be a 404, which the browser logs as an error).
export function analysisSection(gameId, players, numSeats, { onStep = null, storedBy = null } = {}) {
  const element = document.createElement('section');
  element.className = 'analysis';
  element.dataset.analysis = gameId;
  element.setAttribute('aria-labelledby', `analysis-${gameId}`);
  const body = document.createElement('div');
  element.innerHTML = html`<h2 id="analysis-${gameId}">Analysis</h2>`.__raw;
  element.append(body);

  let stopped = false;
  let timer = 0;
  let abort = new AbortController();
  let cursorStep = 0;
  let storingPolls = 0;
  let waitingToBeStored = Boolean(storedBy);

  const show = (state, markup) => {
    element.dataset.analysisState = state;
    body.innerHTML = String(markup);
  };
  const later = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(load, POLL_MS);
  };

  async function load() {
    if (stopped) return;
    try {
      if (waitingToBeStored) {
        const mine = await api('/games', { player: storedBy, limit: 10 }, { signal: abort.signal });
        if (stopped) return;
        if (!mine.games.some((g) => g.game_id === gameId)) {
          if (++storingPolls > MAX_STORING_POLLS) {
            return show('error', html`<p class="notice" data-analysis-error>The game is not stored yet: its analysis will
              be on <a href="/games/${enc(gameId)}">its replay</a>.</p>`);
          }
          show('storing', html`<p class="in-progress" role="status">The game is being stored; its analysis follows…</p>`);
          return later();
        }
        waitingToBeStored = false;
      }
      render(await api(`/games/${enc(gameId)}/analysis`, {}, { signal: abort.signal }));
    } catch (e) {
      if (!stopped && e.name !== 'AbortError') failed(e, false);
    }
  }

  function failed(e, asking) {
    show('error', html`<p class="notice" role="status" data-analysis-error>${politeError(e, asking)}</p>
      <button type="button" data-analysis-retry>Try again</button>`);
  }

  async function render(a) {
    if (stopped) return;
    if (a.state === 'ready') return showReady(a);
    if (a.state === 'queued') {
      show('queued', html`<p class="in-progress" role="status">Analysis in progress…</p>`);
      return later();
    }
    // Not analysed: asking is a signed-in person's (docs/GATEWAY.md).
    const s = await session();
    if (stopped) return;
    show('not_analysed', s?.player
      ? html`<p>This game has not been analysed yet.</p>
        <button type="button" data-analysis-request>Analyse this game</button>`
      : html`<p>An analysis of this game is available on request:
        <a href="/signin?next=${enc(location.pathname + location.search)}">sign in</a> to ask for it.</p>`);
  }

  function showReady(a) {
    const analysis = a.analysis;
    show('ready', html`<h3>Chance of winning</h3>${winChartMarkup(analysis, players, numSeats)}
      <h3>Where the search bot would have played otherwise</h3>${marksMarkup(analysis, players)}
      <h3>Luck</h3>${luckTableMarkup(analysis, players)}
      ${METHOD}
      <p class="hint">Analysis method ${a.method_version}, ${analysis.decisions} decisions, computed in
        ${Number(a.cpu_seconds).toFixed(2)} CPU seconds.</p>`);
    setStep(cursorStep);
  }

  async function request(button) {
    button.disabled = true;
    try {
      render(await send('POST', `/games/${enc(gameId)}/analysis`));
    } catch (e) {
      if (!stopped) failed(e, true);
    }
  }

  // The replay's step, drawn as the chart's cursor.
  function setStep(step) {
    cursorStep = step;
    const cursor = body.querySelector('[data-cursor]');
    const svg = body.querySelector('svg[data-chart="win"]');
    if (!cursor || !svg) return;
    const x = stepX(step, Number(svg.dataset.last));
    cursor.setAttribute('x1', x);
    cursor.setAttribute('x2', x);
  }

  body.addEventListener('click', (e) => {
    if (e.target.closest('[data-analysis-request]')) return request(e.target.closest('button'));
    if (e.target.closest('[data-analysis-retry]')) {
      show('loading', html`<p class="loading">Loading…</p>`);
      return load();
    }
    const at = e.target.closest('[data-mark-step], [data-step]');
    if (!at) return;
    const step = Number(at.dataset.markStep ?? at.dataset.step);
    if (onStep) onStep(step);
    else navigate(`/games/${enc(gameId)}?step=${step}`);
  });

  show('loading', html`<p class="loading">Loading the analysis…</p>`);
  load();
  return {
    element,
    setStep,
    stop() {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      abort = new AbortController();
    },
  };
}

// Whether the page should move without animation (the person asked for less motion).
export const reducedMotion = () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
