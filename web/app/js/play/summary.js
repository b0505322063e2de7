// The game-over summary of a game played here: each seat's place and final
// VP, broken down by where the points come from, the person's rating change
// when the ladder has rated the game, a link to the replay at its last
// step, and for a friends' table's game a link back to the table (for a
// rematch). Pure: markup from the final position and the stored summary.
import { html, raw, seatBadge, TRACK_NAMES } from '../names.js';
import { tableOfGame } from '../friends/model.js';

const DEV_VICTORY_POINT = 1; // engine/types.h kDevVictoryPoint
const popcount = (x) => {
  let n = 0;
  for (let v = Number(x) >>> 0; v; v &= v - 1) ++n;
  return n;
};

// Where a seat's VP come from, as engine State::ComputeVictoryPoints counts
// them: [{source, label, vp}] with the points it has. Whatever the position's
// VP hold beyond these (a rule the app does not know) shows as "other".
export function vpSources(position, seat) {
  const p = position;
  const pl = p.players[seat];
  let settlements = 0;
  let cities = 0;
  for (let v = 0; v < p.building.length; ++v) {
    if (p.building_owner[v] !== seat) continue;
    if (p.building[v] === 1) ++settlements;
    else if (p.building[v] === 2) ++cities;
  }
  const metropolises = (p.metropolis_owner ?? []).map((o, t) => (o === seat ? TRACK_NAMES[t] : null)).filter(Boolean);
  const vpCards = popcount(pl.vp_cards ?? 0);
  const cardNames = [(pl.vp_cards & 1) && 'Printer', (pl.vp_cards & 2) && 'Constitution'].filter(Boolean).join(', ');
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const defenders = pl.defender ?? 0;
  const devVp = pl.dev?.[DEV_VICTORY_POINT] ?? 0;
  const out = [
    { source: 'settlements', label: plural(settlements, 'settlement', 'settlements'), vp: settlements },
    { source: 'cities', label: plural(cities, 'city', 'cities'), vp: 2 * cities },
    { source: 'metropolises', label: `${metropolises.join(' and ')} metropolis${metropolises.length > 1 ? 'es' : ''}`, vp: 2 * metropolises.length },
    { source: 'longest_road', label: 'longest road', vp: p.longest_road_holder === seat ? 2 : 0 },
    { source: 'largest_army', label: 'largest army', vp: p.largest_army_holder === seat ? 2 : 0 },
    { source: 'merchant', label: 'the merchant', vp: p.merchant_owner === seat && p.merchant_hex >= 0 ? 1 : 0 },
    { source: 'defender', label: plural(defenders, 'Defender of Catan card', 'Defender of Catan cards'), vp: defenders },
    { source: 'progress', label: cardNames, vp: vpCards },
    { source: 'dev', label: plural(devVp, 'victory point card', 'victory point cards'), vp: devVp },
  ].filter((x) => x.vp);
  const counted = out.reduce((a, x) => a + x.vp, 0);
  if (pl.vp !== counted) out.push({ source: 'other', label: 'other', vp: pl.vp - counted });
  return out;
}

// The seat that resigned the game, or null: the play stream names the reason
// as the proto does, the gateway's game JSON in short.
export function resignedSeat(result) {
  const resigned = result.reason === 'END_REASON_RESIGNED' || result.reason === 'resigned';
  return resigned && result.resigned_seat !== undefined && result.resigned_seat !== null ? Number(result.resigned_seat) : null;
}

// Places from the final VP when the stored places are not known yet: the
// winner first, then by VP, equal VP sharing a place.
// A seat that resigned is last.
export function placesOf(vp, winner, resigned = null) {
  const key = (s) => (s === resigned ? -Infinity : s === winner ? Infinity : vp[s]);
  return vp.map((_, s) => 1 + vp.filter((_, o) => o !== s && key(o) > key(s)).length);
}

// A rating history entry's change of rating (μ − 3σ, as the leaderboard
// shows it), or null without an entry.
export function ratingChange(entry) {
  if (!entry) return null;
  return entry.ordinal_after - (entry.mu_before - 3 * entry.sigma_before);
}

const signed = (x) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(2)}`;
const ordinal = (n) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

// Where the game left the person on the ladder's leaderboard: {rank, total,
// games} (rank null while still in the placement games), or null when it
// could not be read.
function standingText(standing) {
  if (!standing) return '';
  if (standing.rank == null) {
    return html` <span data-rating-rank="placement">Not ranked yet: ${standing.games} placement ${standing.games === 1 ? 'game' : 'games'} played.</span>`.__raw;
  }
  return html` <span data-rating-rank="${standing.rank}">Rank <strong>${standing.rank}</strong> of ${standing.total}.</span>`.__raw;
}

// The summary. position: the final position (null while it is not known:
// the totals and places come from the result then); players [{seat, name}];
// places: the stored places, or null; rating: {change, after} when the game
// was rated (and standing: standingText's), 'none' when it was not (practice),
// null while unknown.
export function summaryMarkup({ gameId, seat, players, result, position, places, steps, rating }) {
  const vp = position ? position.players.map((pl) => pl.vp) : result.vp ?? [];
  const resigned = resignedSeat(result);
  const place = places ?? placesOf(vp, result.winner, resigned);
  const order = vp.map((_, s) => s).sort((a, b) => place[a] - place[b] || a - b);
  const rows = order.map((s) => {
    const sources = position ? vpSources(position, s) : [];
    return html`<tr data-summary-seat="${s}" data-vp="${vp[s]}" data-place="${place[s]}"${raw(s === seat ? ' class="me"' : '')}>
      <td class="num">${ordinal(place[s])}</td>
      <th scope="row">${seatBadge(s)} ${players[s]?.name ?? `seat ${s}`}${s === seat ? ' (you)' : ''}</th>
      <td class="num"><strong>${vp[s]}</strong></td>
      <td><ul class="vp-sources">${sources.map((x) => html`<li data-vp-source="${x.source}" data-source-vp="${x.vp}">${x.label}: <strong>${x.vp}</strong></li>`)}</ul></td></tr>`;
  });
  const named = (s) => `${players[s]?.name ?? `seat ${s}`}${s === seat ? ' (you)' : ''}`;
  const winner = resigned !== null ? `${named(resigned)} resigned` : result.winner >= 0 ? `${named(result.winner)} won` : 'Nobody won';
  const change = rating && rating !== 'none'
    ? html`<p data-rating-change="${rating.change.toFixed(2)}">Your rating: <strong>${signed(rating.change)}</strong> (now ${rating.after.toFixed(2)}).${raw(standingText(rating.standing))}</p>`
    : '';
  const table = tableOfGame(gameId);
  const replay = steps ? `/games/${encodeURIComponent(gameId)}?step=${steps}` : `/games/${encodeURIComponent(gameId)}`;
  return html`<h2>Game over</h2>
    <p>${winner} after ${result.turns} turns.</p>
    <div class="table-wrap"><table class="summary"><thead><tr><th class="num">Place</th><th>Seat</th><th class="num">VP</th><th>From</th></tr></thead>
    <tbody>${rows}</tbody></table></div>
    ${change}
    <p class="summary-links">${table ? html`<a class="button" data-back-to-table href="/tables/${encodeURIComponent(table)}">Back to the table</a> ` : ''}<a class="button" data-replay-link href="${replay}">Open the replay at the end</a> <a class="button" href="/play">Play again</a></p>`;
}
