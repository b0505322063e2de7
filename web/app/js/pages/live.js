// Live games: the list of games being played, and the viewer following one
// over the gateway's server-sent events (docs/GATEWAY.md, "Live games").
import { api, enc } from '../api.js';
import { html, raw, pageOf, formatDate, seatBadge, SEAT_LETTERS } from '../names.js';
import { GameViewer, describeEvent } from '../viewer/viewer.js';

export async function renderList() {
  const listed = await api('/live');
  const rows = listed.games.map(
    (g) => html`<tr data-live-game="${g.game_id}"><td>${formatDate(g.created_unix_ms)}</td><td>${g.ladder ?? '–'}</td>
      <td><ul class="players">${g.players.map((p) => html`<li>${seatBadge(p.seat)} ${p.name} <span class="vp">${g.vp[p.seat] ?? 0} VP</span></li>`)}</ul></td>
      <td class="num">${g.turn}</td><td class="num">${g.step}</td><td><a class="button" href="/live/${enc(g.game_id)}">Watch</a></td></tr>`,
  );
  const hostErrors = listed.hosts.filter((h) => h.error).map((h) => html`<li>${h.address}: ${h.error.message}</li>`);
  const page = pageOf(
    html`<h1>Live games</h1>
    <p class="meta">${listed.games.length} games on ${listed.hosts.length} game hosts · refreshed every 5 s</p>
    ${hostErrors.length ? html`<ul class="warnings">${hostErrors}</ul>` : ''}
    ${rows.length ? html`<div class="table-wrap"><table class="live"><thead><tr><th>Started</th><th>Ladder</th><th>Players</th><th class="num">Turn</th><th class="num">Step</th><th></th></tr></thead><tbody>${rows}</tbody></table></div>` : html`<p>No game is being played right now.</p>`}`,
    'Live games',
  );
  // The list refreshes itself while it is shown (the router's cleanup stops it).
  const timer = setTimeout(() => {
    if (location.pathname === '/live') window.dispatchEvent(new PopStateEvent('popstate'));
  }, 5000);
  return { ...page, cleanup: () => clearTimeout(timer) };
}

export async function render(gameId) {
  const info = await api(`/live/${enc(gameId)}`);
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
      const players = welcome.players.map((p) => ({ seat: p.seat, name: p.name }));
      const title = html`<h1>Live <span class="game-id">${gameId}</span> <span class="live-badge" data-live-state="live">● live</span></h1>
        <p class="meta">${info.ladder ?? 'no ladder'} · ${players.map((p) => `${SEAT_LETTERS[p.seat]} ${p.name}`).join(', ')}</p>`;
      viewer = new GameViewer(welcome.config, players, { title: String(title) });
      viewer.element.dataset.game = gameId;
      viewer.element.dataset.live = '1';
      viewer.element.querySelector('.step-events h2').textContent = 'Latest events';
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
          delete window.metropolisLive;
        },
      });
    });
    source.addEventListener('view', (e) => {
      latest = { view: JSON.parse(e.data), step: Number(e.lastEventId) };
      if (viewer) schedule();
    });
    source.addEventListener('events', (e) => {
      const { events } = JSON.parse(e.data);
      for (const ev of events) {
        if (ev.type === 'EVENT_ACTION') viewer?.appendLog(viewer.logEl.children.length + 1, describeEvent(ev, viewer.seatName));
      }
      recentEvents = recentEvents.concat(events).slice(-12);
    });
    source.addEventListener('paused', (e) => {
      const p = JSON.parse(e.data);
      const badge = stateEl();
      if (!badge) return;
      badge.dataset.liveState = p.paused ? 'paused' : 'live';
      if (p.paused) badge.textContent = 'paused: the game server cannot save moves for now';
      else badge.textContent = '● live';
    });
    source.addEventListener('game_over', (e) => {
      over = true;
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
        const message = JSON.parse(e.data).error?.message ?? 'the stream failed';
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
