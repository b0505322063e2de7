// Leaderboards per ladder and season: pages by rank, a name search, and the
// entries around a player.
import { api, enc, ApiError } from '../api.js';
import { html, raw, pageOf, fixed } from '../names.js';
import { navigate } from '../nav.js';
import { session } from '../session.js';
import { chooseLadder, rememberedLadder } from '../ladders/choice.js';

export async function render(ladderId, q) {
  const { ladders } = await api('/ladders');
  if (!ladders.length) return pageOf(html`<h1>Leaderboards</h1><p>No ladder yet.</p>`, 'Leaderboards');
  // /ladders opens on the ladder the person plays (queued on, chosen last in
  // the lobby), else the main one: not whichever id sorts first.
  let ladder = ladders.find((l) => l.id === ladderId) || null;
  if (!ladderId) {
    const s = await session();
    ladder = chooseLadder(ladders, { asked: q.get('ladder') || '', queued: s?.queue?.ladder || '', remembered: rememberedLadder() });
  }
  if (!ladder) return pageOf(html`<h1>Not found</h1><p>No ladder ${ladderId}.</p>`, 'Not found');
  const season = q.get('season') || '';
  const search = q.get('q') || '';
  const around = q.get('around') || '';
  const limit = 50;
  const offset = Math.max(0, Number(q.get('offset')) || 0);
  const params = { season };
  if (search) Object.assign(params, { q: search, limit });
  else if (around) Object.assign(params, { around, limit: 21 });
  else Object.assign(params, { offset, limit });
  let notice = '';
  let board;
  try {
    board = await api(`/ladders/${enc(ladder.id)}/leaderboard`, params);
  } catch (e) {
    // A player still in placement has no rank to centre on: show the top instead.
    if (!(e instanceof ApiError && e.status === 404 && e.body?.error?.parameter === 'around')) throw e;
    notice = `${around} is not ranked on this board yet (no rating, or still in placement games).`;
    board = await api(`/ladders/${enc(ladder.id)}/leaderboard`, { season, offset: 0, limit });
  }

  const base = `/ladders/${enc(ladder.id)}`;
  const link = (extra) => {
    const p = new URLSearchParams();
    if (season) p.set('season', season);
    for (const [k, v] of Object.entries(extra)) if (v !== '' && v !== undefined) p.set(k, v);
    const s = p.toString();
    return s ? `${base}?${s}` : base;
  };
  const ladderTabs = ladders.map(
    (l) => html`<a href="/ladders/${enc(l.id)}" ${raw(l.id === ladder.id ? 'aria-current="page"' : '')}>${l.title || l.id}</a>`,
  );
  const seasons = ladder.seasons.map(
    (s) => html`<option value="${s.season}" ${raw(String(board.season) === String(s.season) ? 'selected' : '')}>Season ${s.season}${s.ends_unix_ms ? '' : ' (current)'}</option>`,
  );
  const rows = board.entries.map(
    (e) => html`<tr data-player="${e.name}">
      <td class="num">${e.rank ?? 'prov.'}</td>
      <td><a href="/players/${enc(e.name)}">${e.name}</a></td>
      <td class="num">${fixed(e.ordinal)}</td><td class="num">${fixed(e.mu)}</td><td class="num">${fixed(e.sigma)}</td>
      <td class="num">${e.games}</td></tr>`,
  );
  let paging = '';
  if (!search && !around) {
    const pages = Math.max(1, Math.ceil(board.total / limit));
    const at = Math.floor(board.offset / limit) + 1;
    paging = html`<nav class="paging" aria-label="Pages">
      ${raw(board.offset > 0 ? html`<a href="${link({ offset: 0 })}">« First</a> <a rel="prev" href="${link({ offset: Math.max(0, board.offset - limit) })}">‹ Previous</a>` : '')}
      <span>Page ${at} of ${pages} · ${board.total} ranked players</span>
      ${raw(board.offset + limit < board.total ? html`<a rel="next" href="${link({ offset: board.offset + limit })}">Next ›</a> <a href="${link({ offset: (pages - 1) * limit })}">Last »</a>` : '')}
    </nav>`;
  } else {
    paging = html`<p class="paging">${notice || (search ? `Names starting with “${search}”` : `Around ${around}`)} · <a href="${link({})}">back to the top</a></p>`;
  }
  const markup = html`
    <h1>Leaderboard: ${ladder.title || ladder.id}</h1>
    <nav class="tabs" aria-label="Ladders">${ladderTabs}</nav>
    <form class="filters" data-leaderboard-form>
      <label>Season <select name="season">${seasons}</select></label>
      <label>Player name starts with <input name="q" value="${search}" pattern="[A-Za-z0-9._\\-]{1,64}"></label>
      <button type="submit">Search</button>
    </form>
    ${raw(paging)}
    <div class="table-wrap"><table class="leaderboard" data-leaderboard="${ladder.id}">
      <caption class="visually-hidden">Leaderboard of ${ladder.id}, season ${board.season}</caption>
      <thead><tr><th class="num">Rank</th><th>Player</th><th class="num" title="μ − 3σ, what ranks">Rating</th><th class="num">μ</th><th class="num">σ</th><th class="num">Games</th></tr></thead>
      <tbody>${rows.length ? rows : raw('<tr><td colspan="6">Nobody here yet.</td></tr>')}</tbody>
    </table></div>
    <p class="hint">Rating is μ − 3σ: a player ranks by the rating they surely have.</p>`;
  const page = pageOf(markup, `Leaderboard ${ladder.id}`);
  const form = page.element.querySelector('[data-leaderboard-form]');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const p = new URLSearchParams();
    if (form.season.value) p.set('season', form.season.value);
    if (form.q.value.trim()) p.set('q', form.q.value.trim());
    navigate(`${base}${p.toString() ? `?${p}` : ''}`);
  });
  form.season.addEventListener('change', () => form.requestSubmit());
  return page;
}
