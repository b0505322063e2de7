// A finished game's analysis (docs/ANALYSIS.md; GET /api/v1/games/{id}/analysis)
// turned into what the page shows: each seat's chance of winning scaled onto a
// chart, the search bot's marks in words, and the luck account's rows. Pure
// functions of the analysis JSON, tested under node (web/test/analysis.test.mjs).
import { SEAT_LETTERS } from '../names.js';
import { describeAction } from '../play/legal.js';

// The chart's size in SVG units and its margins (the axes' labels live there).
export const CHART = { width: 640, height: 240, left: 60, right: 12, top: 10, bottom: 30 };

const clamp01 = (p) => Math.max(0, Math.min(1, Number(p) || 0));
const round1 = (v) => Math.round(v * 10) / 10;

// A seat's name from the game's players ([{seat, name}]), or its letter.
export function seatName(players, seat) {
  return players.find((p) => p.seat === seat)?.name || `seat ${SEAT_LETTERS[seat] ?? seat}`;
}

// Round steps for an axis from 0 to `max`: about `count` of them, the step
// 1, 2 or 5 times a power of ten, whichever is nearest max / count.
export function axisTicks(max, count = 6) {
  if (!(max > 0)) return [0];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const off = (s) => Math.abs(Math.log(s / rough));
  const step = [1, 2, 5, 10].map((m) => Math.max(1, m * power)).reduce((a, b) => (off(b) < off(a) ? b : a));
  const ticks = [];
  for (let v = 0; v <= max + 1e-9; v += step) ticks.push(Math.round(v));
  return ticks;
}

// The x of a step on a chart whose last step is `last`.
export function stepX(step, last, size = CHART) {
  const plotW = size.width - size.left - size.right;
  return round1(size.left + (Math.max(0, Math.min(last, step)) / Math.max(1, last)) * plotW);
}

// Where everything of the chart goes: x is the step (0 to the game's last,
// which is the graph's final point), y the chance of winning, 100 % at the
// top. One line per seat through every point of the graph, each point with
// its step; the marks sit on the acting seat's line at their step.
export function chartGeometry(analysis, numSeats, size = CHART) {
  const graph = analysis.graph ?? [];
  const last = Math.max(1, ...graph.map((g) => g.step));
  const plotH = size.height - size.top - size.bottom;
  const x = (step) => stepX(step, last, size);
  const y = (p) => round1(size.top + (1 - clamp01(p)) * plotH);
  const lines = [];
  for (let seat = 0; seat < numSeats; ++seat) {
    lines.push({ seat, points: graph.map((g) => ({ step: g.step, x: x(g.step), y: y(g.win?.[seat]) })) });
  }
  // Each point's column: from halfway to the point before to halfway to the next,
  // so that a click anywhere on the chart finds the nearest point.
  const columns = graph.map((g, i) => {
    const from = i === 0 ? size.left : (x(graph[i - 1].step) + x(g.step)) / 2;
    const to = i === graph.length - 1 ? size.width - size.right : (x(g.step) + x(graph[i + 1].step)) / 2;
    return { step: g.step, turn: g.turn, x: round1(from), width: round1(Math.max(0, to - from)), win: g.win ?? [] };
  });
  const marks = (analysis.marks ?? []).map((m) => {
    const at = graph.find((g) => g.step === m.step);
    return { ...m, x: x(m.step), y: y(at ? at.win?.[m.seat] : 0) };
  });
  return {
    size,
    last,
    x,
    y,
    lines,
    columns,
    marks,
    yTicks: [0, 25, 50, 75, 100].map((pct) => ({ pct, y: y(pct / 100) })),
    xTicks: axisTicks(last).map((step) => ({ step, x: x(step) })),
  };
}

// An SVG path through points: "M x,y L x,y …".
export const pathOf = (points) => points.map((p, i) => `${i ? 'L' : 'M'}${p.x},${p.y}`).join(' ');

export const percent = (p) => `${Math.round(clamp01(p) * 100)} %`;

// An action of the engine's notation as words to follow "chose to" and "would":
// the legal-action reader's label (js/play/legal.js), with its place named
// ("recruit a knight at node 17"), since here no board is pointed at.
export function actionPhrase(text) {
  const d = describeAction(text);
  const where = (p) => `${p.kind} ${p.id}`;
  let phrase = d.label;
  if (d.verb === 'play' && d.at && d.to) {
    phrase = `play the inventor: swap the numbers of hex ${d.at.id} and hex ${d.to.id}`;
  } else if (d.verb === 'displace_knight' && d.to) {
    phrase = `displace the knight at node ${d.to.id} with the knight at node ${d.at.id}`;
  } else if (d.at) {
    if (/\bthis \w+/.test(phrase)) phrase = phrase.replace(/\bthis (\w+)/, `the $1 at ${where(d.at)}`);
    else if (/ here\b/.test(phrase)) phrase = phrase.replace(/ here\b/, `${/^move\b/.test(phrase) ? ' to' : ' at'} ${where(d.at)}`);
    else phrase = `${phrase} at ${where(d.at)}`;
    if (/^the barbarians\b/.test(phrase)) phrase = `let ${phrase}`;
  }
  return phrase.charAt(0).toLowerCase() + phrase.slice(1);
}

// A mark in words. `step` is the position before the move (the replay's step
// N shows it), so the move itself is the log's number step + 1.
export function markText(mark, players) {
  const cost = mark.cost === null || mark.cost === undefined ? 'it had not considered that move' : `value lost ${Number(mark.cost).toFixed(2)}`;
  return `Move ${mark.step + 1} — ${seatName(players, mark.seat)} chose to ${actionPhrase(mark.played)}; ` +
    `the search bot would ${actionPhrase(mark.suggested)} (${cost})`;
}

// A number with its sign always written: "+3.2", "−7.8" (a minus sign, not a
// hyphen), and "0.0" when it rounds to nothing.
export function signed(x, digits = 1) {
  const text = Math.abs(Number(x)).toFixed(digits);
  if (Number(text) === 0) return text;
  return `${x > 0 ? '+' : '−'}${text}`;
}

// The luck table's rows, one per seat, in seat order, every cell as it is shown.
export function luckRows(luck, players) {
  return (luck?.seats ?? []).map((s) => ({
    seat: s.seat,
    name: seatName(players, s.seat),
    dice: `${s.dice_cards} / ${Number(s.expected_cards).toFixed(1)}`,
    diceLuck: signed(s.dice_cards - s.expected_cards),
    draws: `${s.draws} / ${Number(s.expected_draws).toFixed(1)}`,
    drawsLuck: signed(s.draws - s.expected_draws),
    stolenLost: `${s.cards_stolen} / ${s.cards_lost}`,
    discarded: String(s.cards_discarded),
    pillaged: String(s.cities_pillaged),
    defender: String(s.defender_points),
    luck: signed(s.luck_cards),
    vp: String(s.vp),
    adjustedVp: Number(s.adjusted_vp).toFixed(1),
    place: String(s.place),
    adjustedPlace: String(s.adjusted_place),
  }));
}
