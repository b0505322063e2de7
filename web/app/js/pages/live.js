// Live games: the list of games being played, and the viewer following one
// over the gateway's server-sent events (docs/GATEWAY.md, "Live games").
import { api, enc, ApiError } from '../api.js';
import { html, raw, pageOf, formatDate, seatBadge, SEAT_LETTERS } from '../names.js';
import { GameViewer } from '../viewer/viewer.js';

// What the public reads when a backend does not answer: never the error's own
// text, which names internal addresses and RPC details.
export const HOST_DOWN = "This game's host is not answering; try again shortly.";

// An error of the gateway's API ({code, status, message, backend}) in words for
// a live game's page: a backend that does not answer (5xx, or a host's or the
// matchmaker's RPC status) gets HOST_DOWN; a refusal of the request itself
// (a game not found) keeps the gateway's message, which is about the request.
export function liveErrorText(error) {
  const code = Number(error?.code ?? 0);
  if (!error || code >= 500 || code === 0 || error.backend === 'gamehost' || error.backend === 'matchmaker') return HOST_DOWN;
  return error.message ?? HOST_DOWN;
}

// The list's warning about backends that did not answer (the hosts listed with
// an error, a matchmaker_error), in words: their games are missing from it.
export function hostWarnings(listed) {
  const down = (listed.hosts ?? []).filter((h) => h.error).length;
  const out = [];
  if (down) {
    out.push(`${down === 1 ? 'A game host is' : `${down} game hosts are`} not answering, so ${down === 1 ? 'its' : 'their'} games are missing from this list; try again shortly.`);
  }
  if (listed.matchmaker_error) out.push('The matchmaker is not answering, so some game hosts may be missing from this list; try again shortly.');
  return out;
}

const LIST_REFRESH_MS = 5000;

function liveRow(g) {
  return html`<tr data-live-game="${g.game_id}"><td>${formatDate(g.created_unix_ms)}</td><td>${g.ladder ?? '–'}</td>
      <td><ul class="players">${g.players.map((p) => html`<li>${seatBadge(p.seat)} ${p.name} <span class="vp">${g.vp[p.seat] ?? 0} VP</span></li>`)}</ul></td>
      <td class="num">${g.turn}</td><td class="num">${g.step}</td><td><a class="button" href="/live/${enc(g.game_id)}">Watch</a></td></tr>`.__raw;
}

export async function renderList() {
  const page = pageOf(
    html`<h1>Live games</h1>
    <p class="meta" data-live-meta></p>
    <ul class="warnings" data-live-warnings role="status" hidden></ul>
    <p data-live-none hidden>No game is being played right now.</p>
    <div class="table-wrap" data-live-table hidden><table class="live"><thead><tr><th>Started</th><th>Ladder</th><th>Players</th><th class="num">Turn</th><th class="num">Step</th><th></th></tr></thead><tbody></tbody></table></div>`,
    'Live games',
  );
  const el = page.element;
  const tbody = el.querySelector('tbody');
  // Rows are kept per game and changed in place: a row's cells are rewritten
  // only when its game moved, and its link is never replaced, so that the
  // keyboard's focus and a screen reader's place survive a refresh.
  const rowHtml = new Map(); // game id -> the markup its row shows
  function show(listed) {
    const focused = tbody.contains(document.activeElement) ? document.activeElement : null;
    const focusedGame = focused?.closest('tr')?.dataset.liveGame;
    el.querySelector('[data-live-meta]').textContent =
      `${listed.games.length} games on ${listed.hosts.length} game hosts · refreshed every ${LIST_REFRESH_MS / 1000} s`;
    const warnings = hostWarnings(listed);
    const warningsEl = el.querySelector('[data-live-warnings]');
    warningsEl.innerHTML = warnings.map((w) => html`<li>${w}</li>`.__raw).join('');
    warningsEl.hidden = !warnings.length;
    el.querySelector('[data-live-none]').hidden = listed.games.length > 0;
    el.querySelector('[data-live-table]').hidden = listed.games.length === 0;
    const ids = new Set(listed.games.map((g) => g.game_id));
    for (const tr of [...tbody.children]) {
      if (!ids.has(tr.dataset.liveGame)) {
        tr.remove();
        rowHtml.delete(tr.dataset.liveGame);
      }
    }
    let before = tbody.firstElementChild;
    for (const g of listed.games) {
      const markup = liveRow(g);
      let tr = [...tbody.children].find((r) => r.dataset.liveGame === g.game_id);
      if (!tr) {
        const holder = document.createElement('tbody');
        holder.innerHTML = markup;
        tr = holder.firstElementChild;
      } else if (rowHtml.get(g.game_id) !== markup) {
        const holder = document.createElement('tbody');
        holder.innerHTML = markup;
        const cells = holder.firstElementChild.children;
        // Every cell but the last, the link's.
        for (let i = 0; i < cells.length - 1; ++i) tr.children[i].replaceWith(cells[i].cloneNode(true));
      }
      rowHtml.set(g.game_id, markup);
      // In the list's order: a row moves only when the order changed.
      if (tr !== before) tbody.insertBefore(tr, before);
      before = tr.nextElementSibling;
    }
    // A moved row loses the focus its link had: the link takes it back.
    if (focused && document.activeElement !== focused) {
      [...tbody.children].find((r) => r.dataset.liveGame === focusedGame)?.querySelector('a')?.focus();
    }
  }
  let first;
  try {
    first = await api('/live');
  } catch (e) {
    // No host known at all, or the gateway's backends down: in words too.
    throw new ApiError(e.status ?? 503, { error: { message: 'The game servers are not answering, so live games cannot be listed; try again shortly.' } });
  }
  show(first);
  // The list refreshes itself while it is shown (the router's cleanup stops it);
  // a refresh that fails keeps the list and says the list is late.
  let timer = 0;
  let stopped = false;
  const refresh = async () => {
    try {
      const listed = await api('/live');
      if (!stopped) show(listed);
    } catch {
      if (!stopped) el.querySelector('[data-live-meta]').textContent = 'The list could not be refreshed; trying again shortly.';
    }
    if (!stopped) timer = setTimeout(refresh, LIST_REFRESH_MS);
  };
  timer = setTimeout(refresh, LIST_REFRESH_MS);
  return { ...page, cleanup: () => ((stopped = true), clearTimeout(timer)) };
}

export async function render(gameId) {
  let info;
  try {
    info = await api(`/live/${enc(gameId)}`);
  } catch (e) {
    // The error page says it in words; a refusal of the request keeps its own.
    if (e instanceof ApiError) throw new ApiError(e.status, { error: { message: liveErrorText(e.body?.error ?? { code: e.status }) } });
    throw new Error(HOST_DOWN);
  }
  if (info.status === 'finished') return { redirect: `/games/${enc(gameId)}` };
  return new Promise((resolve, reject) => {
    // from_start: the log then holds every action since the first.
    const source = new EventSource(`/api/v1/live/${enc(gameId)}/events?from_start=1`);
    let viewer = null;
    let latest = null;
    // The latest events, newest last: views skip steps, so "this step" is
    // "lately" here.
    let recentEvents = [];
    let frame = 0;
    let clockTimer = 0;
    let over = false;
    const stateEl = () => viewer?.element.querySelector('[data-live-state]');

    // Views can come faster than frames: draw the newest once per frame.
    const draw = () => {
      frame = 0;
      if (!latest) return;
      viewer.show(latest.view, latest.step, recentEvents, { highlightLog: false });
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };

    source.addEventListener('welcome', (e) => {
      const welcome = JSON.parse(e.data);
      // A reconnection's welcome: the page stands; only the clocks are the moment's.
      if (viewer) return viewer.setClocks(welcome.clocks);
      const players = welcome.players.map((p) => ({ seat: p.seat, name: p.name }));
      const title = html`<h1>Live <span class="game-id">${gameId}</span> <span class="live-badge" data-live-state="live">● live</span></h1>
        <p class="meta">${info.ladder ?? 'no ladder'} · ${players.map((p) => `${SEAT_LETTERS[p.seat]} ${p.name}`).join(', ')}</p>`;
      viewer = new GameViewer(welcome.config, players, { title: String(title) });
      viewer.element.dataset.game = gameId;
      viewer.element.dataset.live = '1';
      viewer.element.querySelector('.step-events h2').textContent = 'Latest events';
      viewer.setClocks(welcome.clocks);
      clockTimer = setInterval(() => viewer.paintClocks(), 500);
      resolve({
        element: viewer.element,
        title: `Live ${gameId}`,
        ready: () => {
          schedule();
          window.metropolisLive = { gameId, get over() { return over; }, get step() { return latest?.step ?? 0; } };
        },
        cleanup: () => {
          source.close();
          cancelAnimationFrame(frame);
          clearInterval(clockTimer);
          delete window.metropolisLive;
        },
      });
    });
    source.addEventListener('view', (e) => {
      latest = { view: JSON.parse(e.data), step: Number(e.lastEventId) };
      if (viewer) schedule();
    });
    source.addEventListener('events', (e) => {
      const { events, clocks } = JSON.parse(e.data);
      viewer?.setClocks(clocks);
      for (const ev of events) {
        if (ev.type === 'EVENT_ACTION') viewer?.appendLog(viewer.logEl.children.length + 1, viewer.eventLine(ev));
      }
      recentEvents = recentEvents.concat(events).slice(-12);
    });
    source.addEventListener('paused', (e) => {
      const p = JSON.parse(e.data);
      const badge = stateEl();
      if (!badge) return;
      badge.dataset.liveState = p.paused ? 'paused' : 'live';
      if (p.paused) viewer?.stopClocks(); // the host stops them; the next events start them again
      if (p.paused) badge.textContent = 'paused: the game server cannot save moves for now';
      else badge.textContent = '● live';
    });
    source.addEventListener('game_over', (e) => {
      over = true;
      viewer?.stopClocks();
      source.close(); // the stream ends here; EventSource would otherwise reconnect
      const { result } = JSON.parse(e.data);
      const badge = stateEl();
      if (badge) {
        badge.dataset.liveState = 'over';
        badge.textContent = 'game over';
      }
      const done = document.createElement('p');
      done.className = 'game-over';
      done.dataset.gameOver = '1';
      done.innerHTML = html`Game over: ${result.winner >= 0 ? `won by ${viewer.seatName(result.winner)}` : 'no winner'} after ${result.turns} turns.
        <a href="/games/${enc(gameId)}">Open the replay</a> (once stored).`.__raw;
      viewer.element.querySelector('.board-pane').append(done);
      schedule();
    });
    // A server-sent "error" event carries data; the browser's own error event
    // (connection lost) does not, and EventSource then retries by itself.
    source.addEventListener('error', (e) => {
      if (e.data) {
        const message = liveErrorText(JSON.parse(e.data).error);
        source.close();
        if (!viewer) reject(new Error(message));
        else stateEl()?.replaceChildren(`stream ended: ${message}`);
      } else if (!viewer && source.readyState === EventSource.CLOSED) {
        reject(new Error('the live stream could not be opened'));
      }
    });
    source.addEventListener('notice', (e) => {
      if (viewer) viewer.appendLog('·', JSON.parse(e.data).message ?? e.data);
    });
  });
}
