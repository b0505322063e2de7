// A player's figures on their page: games, wins and average place on each
// ladder's season and in all, from the gateway's "stats" (over the player's
// latest games, as the opponents' table). Wins and places are of ranked games
// only: a game without a winner places nobody.
import { html, raw } from '../names.js';

const place = (r) => (r.average_place === null || r.average_place === undefined ? '–' : r.average_place.toFixed(2));
const winShare = (r) => (r.ranked ? `${Math.round((100 * r.wins) / r.ranked)} %` : '–');

function row(label, r, attrs) {
  return html`<tr ${raw(attrs)}><th scope="row">${label}</th><td class="num">${r.games}</td><td class="num">${r.wins}</td>
    <td class="num">${winShare(r)}</td><td class="num">${place(r)}</td></tr>`;
}

// The table's markup, or a line saying there is nothing yet.
export function statsMarkup(stats) {
  if (!stats || !stats.all.games) return html`<p>No games yet.</p>`;
  const boards = stats.boards.map((b) =>
    b.ladder === null
      ? row('Other games (practice, tournaments)', b, 'data-stats-board=""')
      : row(`${b.ladder} season ${b.season}`, b, html`data-stats-board="${b.ladder}/${b.season}"`.__raw),
  );
  return html`<p class="meta">Over the latest ${stats.games_considered} games; wins and places of ranked games only.</p>
    <div class="table-wrap"><table class="stats"><thead><tr><th></th><th class="num">Games</th><th class="num">Wins</th><th class="num">Win share</th><th class="num">Average place</th></tr></thead>
    <tbody>${boards}</tbody><tfoot>${row('All', stats.all, 'data-stats-all')}</tfoot></table></div>`;
}
