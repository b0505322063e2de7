// The rating-history chart in SVG: μ after each game with its ±σ band, and the
// rating (μ − 3σ) that ranks. The lines differ by dash as well as colour.
import { escapeXml, formatDate } from './names.js';

export function ratingChart(entries) {
  // The service lists the newest first; the chart reads left to right in time.
  const games = [...entries].reverse();
  if (!games.length) return '<p>No rated games yet.</p>';
  const points = [{ mu: games[0].mu_before, sigma: games[0].sigma_before, label: 'start' }].concat(
    games.map((g) => ({ mu: g.mu_after, sigma: g.sigma_after, label: `${formatDate(g.at_unix_ms)}: place ${g.rank} of ${g.seats}`, game: g.game_id })),
  );
  const W = 640;
  const H = 260;
  const left = 56;
  const right = 12;
  const top = 12;
  const bottom = 30;
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    lo = Math.min(lo, p.mu - 3 * p.sigma);
    hi = Math.max(hi, p.mu + p.sigma);
  }
  const pad = (hi - lo) * 0.05 || 1;
  lo -= pad;
  hi += pad;
  const x = (i) => left + (points.length === 1 ? 0 : (i * (W - left - right)) / (points.length - 1));
  const y = (v) => top + ((hi - v) * (H - top - bottom)) / (hi - lo);
  const path = (f) => points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(f(p)).toFixed(1)}`).join(' ');
  const band =
    points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.mu + p.sigma).toFixed(1)}`).join(' ') +
    [...points].reverse().map((p, j) => `L${x(points.length - 1 - j).toFixed(1)},${y(p.mu - p.sigma).toFixed(1)}`).join(' ') + ' Z';
  let ticks = '';
  const step = niceStep((hi - lo) / 5);
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
    ticks += `<line class="grid" x1="${left}" x2="${W - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>`;
    ticks += `<text class="tick" x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${Number(v.toFixed(2))}</text>`;
  }
  const dots = points
    .map((p, i) => (i ? `<circle class="dot" cx="${x(i).toFixed(1)}" cy="${y(p.mu).toFixed(1)}" r="3"><title>${escapeXml(p.label)}: μ ${p.mu.toFixed(2)}, σ ${p.sigma.toFixed(2)}</title></circle>` : ''))
    .join('');
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" data-chart="rating" data-points="${games.length}"
      aria-label="Rating history over ${games.length} games: μ from ${points[0].mu.toFixed(1)} to ${points[points.length - 1].mu.toFixed(1)}">
    ${ticks}
    <path class="band" d="${band}"/>
    <path class="line-mu" d="${path((p) => p.mu)}"/>
    <path class="line-ordinal" d="${path((p) => p.mu - 3 * p.sigma)}"/>
    ${dots}
    <text class="tick" x="${left}" y="${H - 8}">oldest</text>
    <text class="tick" x="${W - right}" y="${H - 8}" text-anchor="end">latest (${games.length} games)</text>
  </svg>
  <p class="legend"><span class="key key-mu"></span> μ (solid) with ±σ band · <span class="key key-ordinal"></span> rating μ − 3σ (dashed)</p>`;
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}
