// A player's page: ratings on each ladder, their games, wins and average place
// by ladder and season, the rating-history chart, their
// luck over their analysed games, recent games and results against frequent
// opponents.
import { api, enc } from '../api.js';
import { html, raw, pageOf, fixed, formatDate } from '../names.js';
import { ratingChart } from '../chart.js';
import { luckPanelMarkup, luckErrorMarkup } from '../analysis/summary.js';
import { gamesTable } from './games.js';
import { historyIndex } from '../games/rating.js';
import { statsMarkup } from '../players/stats.js';

// The luck panel is filled by a read of its own once the page shows: the rest
// of the page does not wait for it, and stays whole when it fails.
// data-luck-state says where it stands: loading, ready, error.
async function fillLuck(name, panel, signal) {
  const body = panel.querySelector('[data-luck-body]');
  try {
    const summary = await api(`/players/${enc(name)}/luck`, {}, { signal });
    body.innerHTML = String(luckPanelMarkup(summary));
    panel.dataset.luckState = 'ready';
  } catch (e) {
    if (e.name === 'AbortError') return;
    body.innerHTML = String(luckErrorMarkup());
    panel.dataset.luckState = 'error';
  }
}

export async function renderSearch(q) {
  const query = (q.get('q') || '').trim();
  if (!query) return pageOf(html`<h1>Players</h1><p>Type a name in the search box.</p>`, 'Players');
  const r = await api('/players', { q: query, limit: 50 });
  const exact = r.players.find((p) => p.name.toLowerCase() === query.toLowerCase());
  if (exact && r.players.length === 1) return { redirect: `/players/${enc(exact.name)}` };
  const items = r.players.map((p) => html`<li><a href="/players/${enc(p.name)}">${p.name}</a> ${p.kind === 'bot' ? raw('<span class="tag">bot</span>') : ''}</li>`);
  return pageOf(html`<h1>Players starting with “${query}”</h1>${items.length ? html`<ul class="plain">${items}</ul>` : html`<p>Nobody.</p>`}`, 'Players');
}

export async function render(name, q) {
  const params = { games: 20, history: 500 };
  if (q.get('ladder')) params.ladder = q.get('ladder');
  if (q.get('season')) params.season = q.get('season');
  const p = await api(`/players/${enc(name)}`, params);
  const ratings = p.ratings.map(
    (r) => html`<tr data-ladder="${r.ladder}"><td><a href="/ladders/${enc(r.ladder)}?around=${enc(p.name)}">${r.ladder}</a> s${r.season}</td>
      <td class="num">${r.provisional ? `placement (${r.games}/${r.placement_games})` : `${r.rank} of ${r.total}`}</td>
      <td class="num">${fixed(r.ordinal)}</td><td class="num">${fixed(r.mu)}</td><td class="num">${fixed(r.sigma)}</td><td class="num">${r.games}</td></tr>`,
  );
  const opponents = p.opponents.opponents.map((o) => {
    const pct = (n) => ((100 * n) / o.games).toFixed(0);
    return html`<tr data-opponent="${o.name}"><td><a href="/players/${enc(o.name)}">${o.name}</a></td><td class="num">${o.games}</td>
      <td class="num">${o.ahead}</td><td class="num">${o.behind}</td><td class="num">${o.level}</td>
      <td><span class="split" role="img" aria-label="${pct(o.ahead)}% ahead, ${pct(o.behind)}% behind">
        <span class="ahead" style="width:${pct(o.ahead)}%"></span><span class="level" style="width:${pct(o.level)}%"></span><span class="behind" style="width:${pct(o.behind)}%"></span></span></td></tr>`;
  });
  const history = p.history;
  const markup = html`
    <h1 data-player-name="${p.name}">${p.name} ${p.kind === 'bot' ? raw(html`<span class="tag">bot${p.owner ? ` of ${p.owner}` : ''}</span>`) : ''}</h1>
    <p class="meta">Joined ${formatDate(p.created_unix_ms)} · <a href="/games?player=${enc(p.name)}">all games</a></p>
    <h2>Ratings</h2>
    ${ratings.length ? html`<div class="table-wrap"><table class="ratings"><thead><tr><th>Ladder</th><th class="num">Rank</th><th class="num">Rating</th><th class="num">μ</th><th class="num">σ</th><th class="num">Games</th></tr></thead><tbody>${ratings}</tbody></table></div>` : html`<p>Not rated yet.</p>`}
    <h2>Statistics</h2>
    ${statsMarkup(p.stats)}
    ${history ? html`<h2>Rating history: ${history.ladder}, season ${history.season}</h2>${raw(ratingChart(history.entries))}` : ''}
    <section class="luck-summary" data-luck-panel data-luck-state="loading" aria-labelledby="luck-heading">
      <h2 id="luck-heading">Luck</h2><div data-luck-body aria-live="polite"><p class="loading">Loading…</p></div></section>
    <h2>Recent games</h2>
    ${gamesTable(p.recent_games, p.name, { ratings: historyIndex([p.history]) })}
    <h2>Against frequent opponents</h2>
    <p class="meta">Over the latest ${p.opponents.games_considered} games, ranked games only.</p>
    ${opponents.length ? html`<div class="table-wrap"><table class="opponents"><thead><tr><th>Opponent</th><th class="num">Games</th><th class="num">Ahead</th><th class="num">Behind</th><th class="num">Level</th><th>Share</th></tr></thead><tbody>${opponents}</tbody></table></div>` : html`<p>No opponents yet.</p>`}`;
  const abort = new AbortController();
  const page = pageOf(markup, p.name, { cleanup: () => abort.abort() });
  fillLuck(p.name, page.element.querySelector('[data-luck-panel]'), abort.signal);
  return page;
}
