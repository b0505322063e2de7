// The replay viewer: a stored game step by step. Positions come from the
// gateway (the replays service computes them with the engine); each is fetched
// once per viewer and kept, and the next few are fetched ahead while playing.
//
// /games/{id}?step=N&viewer=V opens it at step N as seat V saw it (-1, the
// default, is the public view). The address follows the viewer as it steps.
import { api, enc } from '../api.js';
import { html, raw, SEAT_LETTERS, formatDate } from '../names.js';
import { GameViewer } from './viewer.js';
import { actorsOf } from './sentences.js';
import * as chance from './chance.js';
import { analysisSection, reducedMotion } from '../analysis/section.js';
import { notesPanel } from './notes.js';

const SPEEDS = [1, 2, 5, 10, 20, 50];
const PREFETCH = 8;
// Positions kept per game: a long game has thousands, each some kilobytes.
const CACHE_SIZE = 400;

export async function render(gameId, q) {
  const game = await api(`/games/${enc(gameId)}`);
  const steps = game.steps;
  const clamp = (s) => Math.max(0, Math.min(steps, s));
  let step = clamp(Number.parseInt(q.get('step') ?? '0', 10) || 0);
  let viewer = Number.parseInt(q.get('viewer') ?? '-1', 10);
  if (!(viewer >= -1 && viewer < game.players.length)) viewer = -1;

  const seatOptions = game.players.map((p) => html`<option value="${p.seat}">Seat ${SEAT_LETTERS[p.seat]}: ${p.name}${p.played_by === 'built_in' ? ' (built-in bot)' : p.identity_id ? '' : ' (network)'}</option>`);
  const controls = html`
    <div class="controls" role="group" aria-label="Replay controls">
      <button type="button" data-act="first" title="First step (Home)" aria-label="First step">|◀</button>
      <button type="button" data-act="prev" title="Previous step (←)" aria-label="Previous step">◀</button>
      <button type="button" data-act="play" title="Play or pause (space)" aria-label="Play">Play</button>
      <button type="button" data-act="next" title="Next step (→)" aria-label="Next step">▶</button>
      <button type="button" data-act="last" title="Last step (End)" aria-label="Last step">▶|</button>
      <label class="scrub"><span class="visually-hidden">Step</span>
        <input type="range" min="0" max="${steps}" value="${step}" data-scrub aria-label="Step"></label>
      <span class="counter"><span data-counter>${step}</span> / ${steps}</span>
      <label>Speed <select data-speed>${SPEEDS.map((s) => html`<option value="${s}" ${raw(s === 5 ? 'selected' : '')}>${s}/s</option>`)}</select></label>
      <label>View <select data-viewer><option value="-1">Public</option>${seatOptions}</select></label>
      <a class="step-link" data-step-link href="#">Link to this step</a>
    </div>`;
  const result = game.result;
  const winner = result.winner === null ? 'no winner' : `won by ${SEAT_LETTERS[result.winner]} ${game.players[result.winner]?.name}`;
  const title = html`<h1>Replay <span class="game-id">${game.game_id}</span></h1>
    <p class="meta">${game.tournament ? `tournament ${game.tournament}` : `${game.ladder ?? 'no ladder'}${game.season ? ` season ${game.season}` : ''}`} ·
      finished ${formatDate(game.finished_unix_ms)} · ${winner} · ${steps} steps ·
      keys: ← → step, space play, Home End</p>
    ${chance.panel(game)}`;
  // The controls above the board: on a laptop's screen the board fills the
  // height, and controls under it would be below the fold.
  const view = new GameViewer(game.config, game.players, { title: String(title), controls: String(controls), controlsFirst: true });
  const el = view.element;
  el.dataset.game = game.game_id;
  el.dataset.steps = steps;
  chance.check(el, game);
  const scrub = el.querySelector('[data-scrub]');
  const counter = el.querySelector('[data-counter]');
  const playButton = el.querySelector('[data-act="play"]');
  const speed = el.querySelector('[data-speed]');
  const viewerSelect = el.querySelector('[data-viewer]');
  const stepLink = el.querySelector('[data-step-link]');
  viewerSelect.value = String(viewer);
  // The signed-in person's bots' notes, beside the seats; nothing for anyone else.
  const notes = notesPanel(game);
  el.querySelector('.side').insertBefore(notes.element, el.querySelector('.step-events'));

  // Positions by "viewer/step"; a promise while being fetched.
  const cache = new Map();
  const fetchPosition = (s, v = viewer) => {
    const key = `${v}/${s}`;
    if (!cache.has(key)) {
      const p = api(`/games/${enc(gameId)}/positions/${s}`, v >= 0 ? { viewer: v } : {}).then(
        (r) => (cache.set(key, r), r),
        (e) => (cache.delete(key), Promise.reject(e)),
      );
      cache.set(key, p);
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value); // the oldest
    }
    return Promise.resolve(cache.get(key));
  };

  const hrefFor = (s) => `/games/${enc(gameId)}?step=${s}${viewer >= 0 ? `&viewer=${viewer}` : ''}`;
  // The address bar follows the step, but not at every step: browsers throttle
  // history updates (Chromium at a few hundred per 10 s), which playing at 50
  // steps a second would hit. The link beside the controls is always current.
  let urlTimer = 0;
  const syncUrl = () => {
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => {
      const href = hrefFor(step);
      if (location.pathname + location.search !== href) history.replaceState(null, '', href);
    }, 300);
  };

  // The step's own events say who acted: a line that could not name its seat does now.
  let actors = [];
  const nameActor = (s, events) => {
    const acted = (events ?? []).find((e) => e.type === 'EVENT_ACTION');
    if (s < 1 || !acted || actors[s - 1] !== null) return;
    actors[s - 1] = acted.seat;
    view.setLogLine(s, view.narrator.action(game.actions[s - 1].text, acted.seat));
  };

  let wanted = step;
  let timings = [];
  let analysis = null; // the analysis section, made once the first position is in
  // Shows step s: fetched (or cached), then drawn if it is still the step
  // wanted (scrubbing asks for many; only the last one is drawn).
  async function goTo(s, { measure = false } = {}) {
    s = clamp(s);
    wanted = s;
    const requestedViewer = viewer;
    const position = await fetchPosition(s, requestedViewer);
    if (wanted !== s || requestedViewer !== viewer) return false;
    const t0 = performance.now();
    step = s;
    view.show(position.view, s, position.events);
    nameActor(s, position.events);
    scrub.value = String(s);
    counter.textContent = String(s);
    stepLink.href = hrefFor(s);
    analysis?.setStep(s);
    notes.setStep(s);
    if (measure) {
      // Style and layout are part of a step's cost: reading a size forces them now.
      void el.offsetHeight;
      timings.push(performance.now() - t0);
    }
    syncUrl();
    return true;
  }

  let playTimer = 0;
  const stopPlaying = () => {
    clearInterval(playTimer);
    playTimer = 0;
    playButton.textContent = 'Play';
    playButton.setAttribute('aria-label', 'Play');
    el.dataset.playing = '0';
  };
  let inFlight = false;
  const startPlaying = () => {
    if (step >= steps) goTo(0);
    playButton.textContent = 'Pause';
    playButton.setAttribute('aria-label', 'Pause');
    el.dataset.playing = '1';
    playTimer = setInterval(async () => {
      if (inFlight) return; // a slow answer holds the clock rather than skipping steps
      if (wanted >= steps) return stopPlaying();
      inFlight = true;
      try {
        await goTo(wanted + 1);
        for (let k = 1; k <= PREFETCH && wanted + k <= steps; ++k) fetchPosition(wanted + k).catch(() => {});
      } finally {
        inFlight = false;
      }
    }, 1000 / Number(speed.value));
  };
  const togglePlay = () => (playTimer ? stopPlaying() : startPlaying());
  speed.addEventListener('change', () => {
    if (playTimer) {
      stopPlaying();
      startPlaying();
    }
  });

  const act = {
    first: () => goTo(0),
    prev: () => goTo(wanted - 1),
    next: () => goTo(wanted + 1),
    last: () => goTo(steps),
    play: togglePlay,
  };
  el.querySelectorAll('[data-act]').forEach((b) =>
    b.addEventListener('click', () => {
      if (b.dataset.act !== 'play') stopPlaying();
      act[b.dataset.act]();
    }),
  );
  scrub.addEventListener('input', () => {
    stopPlaying();
    goTo(Number(scrub.value));
  });
  viewerSelect.addEventListener('change', () => {
    viewer = Number(viewerSelect.value);
    goTo(wanted);
  });
  el.querySelector('[data-log]').addEventListener('click', (e) => {
    const li = e.target.closest('li[data-step]');
    if (!li) return;
    e.preventDefault();
    stopPlaying();
    goTo(Number(li.dataset.step));
  });

  const onKey = (e) => {
    if (e.target.closest('input, select, textarea') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === ' ' && e.target.closest('button, a')) return; // space presses the focused button

    const keys = { ArrowLeft: act.prev, ArrowRight: act.next, Home: act.first, End: act.last, ' ': togglePlay };
    const f = keys[e.key];
    if (!f) return;
    e.preventDefault();
    if (e.key !== ' ') stopPlaying();
    f();
  };
  document.addEventListener('keydown', onKey);

  const first = await fetchPosition(step);
  // The log in sentences, naming who acted: worked out from the actions where
  // they tell (the setup's order, the turn's player); an answer owed by
  // another seat is named when its step is shown, from the step's events.
  const texts = game.actions.map((a) => a.text);
  actors = actorsOf(texts, game.config.num_seats || game.players.length, first.view.position.start_seat);
  view.setLog(texts.map((text, i) => view.narrator.action(text, actors[i])));
  // The finished game's analysis, under the replay: its marks and the chart's
  // points move the replay to their step, and bring the board into view when
  // it scrolled away (at once when the person prefers less motion).
  analysis = analysisSection(game.game_id, game.players, game.config.num_seats || game.players.length, {
    onStep(s) {
      stopPlaying();
      goTo(s);
      const pane = el.querySelector('.board-pane');
      const box = pane.getBoundingClientRect();
      if (box.bottom < 120 || box.top > window.innerHeight) pane.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
    },
  });
  const page = document.createElement('div');
  page.className = 'replay-page';
  page.append(el, analysis.element);

  // The browser tests drive and time the viewer through this handle.
  const handle = {
    gameId,
    steps,
    get step() {
      return step;
    },
    goTo,
    setViewer(v) {
      viewer = v;
      viewerSelect.value = String(v);
    },
    takeTimings() {
      const t = timings;
      timings = [];
      return t;
    },
  };

  return {
    element: page,
    title: `Replay ${game.game_id} step ${step}`,
    ready() {
      view.show(first.view, step, first.events);
      nameActor(step, first.events);
      counter.textContent = String(step);
      stepLink.href = hrefFor(step);
      analysis.setStep(step);
      notes.setStep(step);
      window.metropolisViewer = handle;
    },
    cleanup() {
      analysis.stop();
      notes.stop();
      stopPlaying();
      clearTimeout(urlTimer);
      document.removeEventListener('keydown', onKey);
      if (window.metropolisViewer === handle) delete window.metropolisViewer;
    },
  };
}
