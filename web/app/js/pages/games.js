// The game browser: stored games, newest first, with filters and keyset paging.
import { api, enc } from '../api.js';
import { html, raw, pageOf, formatDate, seatBadge, playedByTag } from '../names.js';
import { navigate } from '../nav.js';
import { resultText } from '../games/result.js';
import { historyIndex, ratingCell, boardsOf } from '../games/rating.js';

// A table of stored games (the gateway's game summaries); `me` is a player
// whose place each row shows first. With `ratings` (games/rating.js
// historyIndex), a column says what each game did to `ratingsOf`'s rating.
export function gamesTable(games, me = '', { ratings = null, ratingsOf = me } = {}) {
  if (!games.length) return html`<p>No games.</p>`;
  const ratingTd = (g) => {
    const c = ratingCell(g, ratings);
    return html`<td class="num rating-change ${c.tone}" data-rating-change="${c.change === null ? '' : c.change.toFixed(2)}" title="${c.title}">${c.text}</td>`;
  };
  const rows = games.map((g) => {
    const mine = g.players.find((p) => p.name === me);
    const players = g.players.map(
      (p) => html`<li class="${p.place === 1 ? 'winner' : ''}">${seatBadge(p.seat)} ${raw(p.identity_id ? html`<a href="/players/${enc(p.name)}">${p.name}</a>` : html`<span>${p.name}</span>`)}${playedByTag(p)} <span class="vp">${p.vp ?? '–'} VP${p.place === 1 ? ' · won' : ''}</span></li>`,
    );
    return html`<tr data-game="${g.game_id}">
      <td>${formatDate(g.finished_unix_ms)}</td>
      <td>${g.tournament ? raw(html`<a href="/tournaments/${enc(g.tournament)}">${g.tournament}</a>`) : `${g.ladder ?? '–'}${g.season ? ` s${g.season}` : ''}`}</td>
      ${raw(me ? html`<td class="num">${mine?.place ?? '–'}</td>` : '')}
      ${raw(ratings ? ratingTd(g) : '')}
      <td><ul class="players">${players}</ul></td>
      <td>${resultText(g)}</td>
      <td><a class="button" href="/games/${enc(g.game_id)}">Replay</a></td></tr>`;
  });
  return html`<div class="table-wrap"><table class="games">
    <thead><tr><th>Finished</th><th>Ladder</th>${raw(me ? '<th class="num">Place</th>' : '')}${raw(ratings ? html`<th class="num" title="${ratingsOf}'s rating change (μ − 3σ)">Rating</th>` : '')}<th>Players</th><th>Result</th><th></th></tr></thead>
    <tbody>${rows}</tbody></table></div>`;
}

// The filtered player's rating history on each ladder's season of the page's
// games, a read each, as many as the rating changes can show (500): a failed
// read leaves its games' cells saying so, never the page.
async function playerHistories(player, games) {
  const boards = boardsOf(games);
  const read = await Promise.all(
    boards.map((b) =>
      api(`/players/${enc(player)}/history`, { ladder: b.ladder, season: b.season, limit: 500 }).then(
        (h) => ({ ...h, season: b.season }),
        () => null,
      ),
    ),
  );
  return historyIndex(read.filter(Boolean), boards.filter((_, i) => !read[i]));
}

const FILTERS = ['ladder', 'season', 'player', 'tournament', 'after', 'before', 'limit', 'page_token'];

export async function render(q) {
  const params = {};
  for (const f of FILTERS) if (q.get(f)) params[f] = q.get(f);
  // Dates come from <input type="date">: whole days, UTC.
  for (const f of ['after', 'before']) if (params[f] && !/^\d+$/.test(params[f])) params[f] = String(Date.parse(params[f]));
  const [{ ladders }, listed] = await Promise.all([api('/ladders'), api('/games', params)]);
  const ratings = params.player ? await playerHistories(params.player, listed.games) : null;
  const day = (ms) => (ms ? new Date(Number(ms)).toISOString().slice(0, 10) : '');
  const next = new URLSearchParams(q);
  next.set('page_token', listed.next_page_token || '');
  const first = new URLSearchParams(q);
  first.delete('page_token');
  const markup = html`
    <h1>Games</h1>
    <form class="filters" data-games-form>
      <label>Ladder <select name="ladder"><option value="">any</option>${ladders.map((l) => html`<option value="${l.id}" ${raw(q.get('ladder') === l.id ? 'selected' : '')}>${l.id}</option>`)}</select></label>
      <label>Season <input name="season" type="number" min="1" value="${q.get('season') || ''}" size="4"></label>
      <label>Player <input name="player" value="${q.get('player') || ''}" pattern="[A-Za-z0-9._\\-]{1,64}"></label>
      <label>Tournament <input name="tournament" value="${q.get('tournament') || ''}" pattern="[A-Za-z0-9_\\-]{1,64}"></label>
      <label>Finished after <input name="after" type="date" value="${day(params.after)}"></label>
      <label>before <input name="before" type="date" value="${day(params.before)}"></label>
      <button type="submit">Filter</button> <a href="/games">Clear</a>
    </form>
    ${gamesTable(listed.games, '', { ratings, ratingsOf: params.player })}
    <nav class="paging" aria-label="Pages">
      ${raw(q.get('page_token') ? html`<a href="/games?${first.toString()}">« Newest</a>` : '')}
      ${raw(listed.next_page_token ? html`<a rel="next" href="/games?${next.toString()}">Older ›</a>` : '<span>No older games.</span>')}
    </nav>`;
  const page = pageOf(markup, 'Games');
  const form = page.element.querySelector('[data-games-form]');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const p = new URLSearchParams();
    for (const el of form.elements) {
      if (!el.name || !el.value) continue;
      p.set(el.name, el.type === 'date' ? String(Date.parse(el.value)) : el.value);
    }
    navigate(`/games${p.toString() ? `?${p}` : ''}`);
  });
  return page;
}
