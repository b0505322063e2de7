// The analysis's markup: the win-probability chart (SVG), the marks and the
// luck table, as strings from model.js's numbers. Every name goes through
// html`` and is escaped. Seats differ by dash as well as colour, as the
// board's roads do (docs/WEB.md, "Readable without colour").
import { html, raw, seatBadge, SEAT_LETTERS } from '../names.js';
import { chartGeometry, pathOf, percent, seatName, markText, luckRows } from './model.js';

// One line per seat, a dot for each mark on the acting seat's line, a column
// per graph point to click (the replay goes to its step), and a cursor at the
// replay's step.
export function winChartMarkup(analysis, players, numSeats) {
  const g = chartGeometry(analysis, numSeats);
  const { width, height, left, right, top, bottom } = g.size;
  const grid = g.yTicks.map((t) => html`<line class="grid" x1="${left}" x2="${width - right}" y1="${t.y}" y2="${t.y}"/>
    <text class="tick" x="${left - 6}" y="${t.y + 4}" text-anchor="end">${t.pct} %</text>`);
  const xTicks = g.xTicks.map((t) => html`<text class="tick" x="${t.x}" y="${height - bottom + 16}" text-anchor="middle">${t.step}</text>`);
  const final = analysis.graph?.[analysis.graph.length - 1];
  const names = (win) => g.lines.map((l) => `${SEAT_LETTERS[l.seat]} ${seatName(players, l.seat)} ${percent(win?.[l.seat])}`).join(', ');
  const columns = g.columns.map((c) => html`<rect class="win-hit" data-step="${c.step}" x="${c.x}" y="${top}" width="${c.width}" height="${height - top - bottom}"><title>Move ${c.step + 1}, turn ${c.turn}: ${names(c.win)}</title></rect>`);
  const lines = g.lines.map((l) => html`<path class="win-line seat-${l.seat}" data-seat="${l.seat}" d="${pathOf(l.points)}"/>`);
  const marks = g.marks.map((m) => html`<circle class="win-mark seat-${m.seat}" data-mark-step="${m.step}" data-seat="${m.seat}" cx="${m.x}" cy="${m.y}" r="5"><title>${markText(m, players)}</title></circle>`);
  const label = `Each seat's chance of winning over ${g.last} moves, as each judged it from what it could see` +
    (final ? `; at the end: ${names(final.win)}` : '');
  return html`<svg class="chart win-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}"
      data-chart="win" data-seats="${numSeats}" data-points="${g.columns.length}" data-last="${g.last}">
    ${grid}${xTicks}
    <text class="tick" x="${width - right}" y="${height - 2}" text-anchor="end">move</text>
    <line class="win-cursor" data-cursor x1="${left}" x2="${left}" y1="${top}" y2="${height - bottom}"/>
    ${columns}${lines}${marks}
  </svg>
  <ul class="win-legend" aria-label="Seats">${g.lines.map((l) => html`<li>${seatBadge(l.seat)}
    <svg class="key" viewBox="0 0 28 8" aria-hidden="true"><line class="win-line seat-${l.seat}" x1="0" x2="28" y1="4" y2="4"/></svg>
    ${seatName(players, l.seat)}</li>`)}</ul>`;
}

// The marks as buttons: each moves the replay to the position of its decision.
export function marksMarkup(analysis, players) {
  const marks = analysis.marks ?? [];
  if (!marks.length) return html`<p class="marks-none" data-marks="0">The search bot would have played no sampled decision clearly differently.</p>`;
  return html`<ol class="marks" data-marks="${marks.length}">${marks.map((m) => html`<li>
    <button type="button" class="mark" data-mark-step="${m.step}" data-seat="${m.seat}">${seatBadge(m.seat)} ${markText(m, players)}</button></li>`)}</ol>`;
}

// The luck account, a row per seat.
export function luckTableMarkup(analysis, players) {
  const luck = analysis.luck ?? {};
  const rows = luckRows(luck, players).map((r) => html`<tr data-luck-seat="${r.seat}">
    <th scope="row">${seatBadge(r.seat)} ${r.name}</th>
    <td class="num">${r.dice} <span class="delta">(${r.diceLuck})</span></td>
    <td class="num">${r.draws} <span class="delta">(${r.drawsLuck})</span></td>
    <td class="num">${r.stolenLost}</td><td class="num">${r.discarded}</td>
    <td class="num">${r.pillaged}</td><td class="num">${r.defender}</td>
    <td class="num luck-cards" data-luck="${r.luck}">${r.luck}</td>
    <td class="num">${r.vp}</td><td class="num">${r.adjustedVp}</td>
    <td class="num">${r.place} → ${r.adjustedPlace}</td></tr>`);
  return html`<div class="table-wrap"><table class="luck" data-luck-table>
    <thead><tr><th>Player</th><th class="num">Dice cards / expected</th><th class="num">Progress draws / expected</th>
      <th class="num">Stolen / lost</th><th class="num">Discarded</th><th class="num">Cities pillaged</th>
      <th class="num">Defender</th><th class="num">Luck (cards)</th><th class="num">VP</th>
      <th class="num">Luck-adjusted VP</th><th class="num">Place → adjusted</th></tr></thead>
    <tbody>${rows}</tbody></table></div>
    <p class="hint">Luck in cards = dice cards above expectation + 2 × progress draws above expectation
      (${luck.production_rolls ?? 0} production rolls). The luck-adjusted VP takes that luck out at this game's rate of
      ${Number(luck.cards_per_vp ?? 0).toFixed(1)} cards per point, and ranks the seats again. Steals, discards and
      pillaged cities follow from decisions, so they are shown but not counted as luck.</p>`;
}

// How it is computed, in short (the full method is docs/ANALYSIS.md, which
// the gateway does not serve).
export const METHOD = raw(`<details class="method" data-method><summary>How this is computed</summary>
  <p><strong>Chance of winning.</strong> At about forty positions spread over the game, each seat's chance is
    estimated from its own view only: its own hand, the others' hands by their size, never the hidden cards. The
    search bot's evaluation of that view is turned into probabilities; a won game ends at 100 % for its winner.</p>
  <p><strong>Marks.</strong> At each of those positions the search bot is asked what it would play from the acting
    seat's view. A decision is marked when it prefers another move and values the one played at least 0.02 lower on
    its 0–1 scale, or did not consider it at all. Smaller differences are taste or noise.</p>
  <p><strong>Luck.</strong> Every production roll is compared with the mean of all its outcomes from the position
    just before it; the same for progress cards drawn on the event die, each worth two cards.</p>
</details>`);
