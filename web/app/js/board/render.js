// The board in SVG: terrain, harbors and the sea drawn once per game; tokens,
// the robber, the merchant, roads, buildings, walls, metropolises, knights and
// the barbarian track drawn again at every step from the position
// (game.proto's Position, as the gateway renders it in JSON).
//
// Every piece carries data attributes naming what it is and where
// (data-piece="city" data-node="12" data-seat="2"), which the browser tests
// compare with the position, and a <title> for screen readers. Nothing relies on
// colour alone: seats carry letters and road patterns, knights show their level
// as pips and a number and their state as filled or hollow, the barbarian track
// is numbered and labelled.
import { TOPOLOGY } from './topology.js';
import { SEAT_LETTERS, TERRAIN_NAMES, TRACK_NAMES } from '../names.js';

const R = 40; // hex radius (centre to corner), in SVG units
const UX = (R * Math.sqrt(3)) / 2; // half a hex width
const UY = R / 2; // a quarter of a hex height
export const px = (x) => x * UX;
export const py = (y) => y * UY;

const TRACK_TOP = py(16) + 70; // the barbarian track's row, below the island
const VIEW_BOX = `-62 -62 ${px(10) + 124} ${TRACK_TOP + 62 + 62}`;

const TERRAIN_LETTERS = ['H', 'F', 'P', 'G', 'M', 'D'];
const HARBOR_LABELS = ['2:1 brick', '2:1 lumber', '2:1 wool', '2:1 grain', '2:1 ore', '3:1'];

function hexPoints(h) {
  return TOPOLOGY.hexNodes[h].map((v) => `${px(TOPOLOGY.nodes[v].x).toFixed(1)},${py(TOPOLOGY.nodes[v].y).toFixed(1)}`).join(' ');
}
const hexCentre = (h) => [px(TOPOLOGY.hexes[h].x), py(TOPOLOGY.hexes[h].y)];
const nodeXY = (v) => [px(TOPOLOGY.nodes[v].x), py(TOPOLOGY.nodes[v].y)];

// Dots under a number token: how many of the 36 rolls of two dice give it.
const pips = (n) => (n >= 2 && n <= 12 ? 6 - Math.abs(7 - n) : 0);

// The island and its harbors: what never changes during a game.
function staticLayer(board) {
  let out = `<rect class="sea" x="-62" y="-62" width="${px(10) + 124}" height="${py(16) + 124}" rx="24"/>`;
  // Harbors first, under the coast: a pier to each of the slot's two nodes.
  TOPOLOGY.harbors.forEach((slot, k) => {
    const type = board.harbor[k];
    const [ax, ay] = nodeXY(slot.nodes[0]);
    const [bx, by] = nodeXY(slot.nodes[1]);
    const [hx, hy] = hexCentre(slot.hex);
    const mx = (ax + bx) / 2;
    const my = (ay + by) / 2;
    const len = Math.hypot(mx - hx, my - hy);
    const cx = mx + ((mx - hx) / len) * 30;
    const cy = my + ((my - hy) / len) * 30;
    const label = HARBOR_LABELS[type] ?? '?';
    const [ratio, card] = label.split(' ');
    out +=
      `<g class="harbor harbor-${type}" data-piece="harbor" data-harbor="${k}" data-type="${type}">` +
      `<title>Harbor ${k}: ${label}</title>` +
      `<line class="pier" x1="${ax.toFixed(1)}" y1="${ay.toFixed(1)}" x2="${cx.toFixed(1)}" y2="${cy.toFixed(1)}"/>` +
      `<line class="pier" x1="${bx.toFixed(1)}" y1="${by.toFixed(1)}" x2="${cx.toFixed(1)}" y2="${cy.toFixed(1)}"/>` +
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="15"/>` +
      `<text x="${cx.toFixed(1)}" y="${(cy + (card ? -1 : 4)).toFixed(1)}" class="harbor-ratio">${ratio}</text>` +
      (card ? `<text x="${cx.toFixed(1)}" y="${(cy + 9).toFixed(1)}" class="harbor-card">${card}</text>` : '') +
      `</g>`;
  });
  for (let h = 0; h < 19; ++h) {
    const t = board.terrain[h];
    const [cx, cy] = hexCentre(h);
    out +=
      `<g class="hex terrain-${t}" data-piece="hex" data-hex="${h}" data-terrain="${t}">` +
      `<title>Hex ${h}: ${TERRAIN_NAMES[t]}</title>` +
      `<polygon points="${hexPoints(h)}"/>` +
      `<text class="terrain-label" x="${cx.toFixed(1)}" y="${(cy - 21).toFixed(1)}">${TERRAIN_LETTERS[t]} ${TERRAIN_NAMES[t]}</text>` +
      `<text class="hex-id" x="${cx.toFixed(1)}" y="${(cy + 30).toFixed(1)}">${h}</text>` +
      `</g>`;
  }
  return out;
}

function token(h, n) {
  if (!n) return '';
  const [cx, cy] = hexCentre(h);
  const p = pips(n);
  let dots = '';
  for (let i = 0; i < p; ++i) dots += `<circle cx="${(cx - (p - 1) * 2 + i * 4).toFixed(1)}" cy="${(cy + 8).toFixed(1)}" r="1.3"/>`;
  const hot = n === 6 || n === 8 ? ' hot' : '';
  return (
    `<g class="token${hot}" data-piece="token" data-hex="${h}" data-token="${n}"><title>Number ${n} on hex ${h}</title>` +
    `<circle class="token-disc" cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="13"/>` +
    `<text x="${cx.toFixed(1)}" y="${(cy + 3).toFixed(1)}">${n}</text>${dots}</g>`
  );
}

function road(e, seat) {
  const [a, b] = TOPOLOGY.edges[e];
  const [ax, ay] = nodeXY(a);
  const [bx, by] = nodeXY(b);
  // Shortened so that the buildings at both ends stay visible.
  const sx = ax + (bx - ax) * 0.18;
  const sy = ay + (by - ay) * 0.18;
  const ex = bx - (bx - ax) * 0.18;
  const ey = by - (by - ay) * 0.18;
  const line = `x1="${sx.toFixed(1)}" y1="${sy.toFixed(1)}" x2="${ex.toFixed(1)}" y2="${ey.toFixed(1)}"`;
  return (
    `<g class="road seat-${seat}" data-piece="road" data-edge="${e}" data-seat="${seat}">` +
    `<title>Road of seat ${SEAT_LETTERS[seat]} on edge ${e}</title>` +
    `<line class="road-edge" ${line}/><line class="road-fill" ${line}/><line class="road-mark" ${line}/></g>`
  );
}

function building(v, seat, kind, flags) {
  const [x, y] = nodeXY(v);
  const wall = flags & 1;
  const sabotaged = (flags & 2) !== 0;
  let out = '';
  if (kind === 2 && wall) {
    out +=
      `<g class="wall seat-${seat}" data-piece="wall" data-node="${v}" data-seat="${seat}">` +
      `<title>City wall of seat ${SEAT_LETTERS[seat]} at node ${v}</title>` +
      `<rect x="${(x - 15).toFixed(1)}" y="${(y - 15).toFixed(1)}" width="30" height="30" rx="3"/></g>`;
  }
  const what = kind === 2 ? 'city' : 'settlement';
  const shape =
    kind === 2
      ? `M${x - 11},${y + 9} V${y - 3} H${x - 3} V${y - 9} L${x + 3},${y - 14} L${x + 9},${y - 9} V${y + 9} Z`
      : `M${x - 8},${y + 7} V${y - 3} L${x},${y - 11} L${x + 8},${y - 3} V${y + 7} Z`;
  out +=
    `<g class="${what} seat-${seat}${sabotaged ? ' sabotaged' : ''}" data-piece="${what}" data-node="${v}" data-seat="${seat}"` +
    `${kind === 2 ? ` data-wall="${wall ? 1 : 0}" data-sabotaged="${sabotaged ? 1 : 0}"` : ''}>` +
    `<title>${what === 'city' ? 'City' : 'Settlement'} of seat ${SEAT_LETTERS[seat]} at node ${v}${wall && kind === 2 ? ', walled' : ''}${sabotaged ? ', sabotaged' : ''}</title>` +
    `<path d="${shape}"/><text x="${x.toFixed(1)}" y="${(y + 5).toFixed(1)}">${SEAT_LETTERS[seat]}</text>` +
    (sabotaged ? `<path class="sabotage-mark" d="M${x - 9},${y - 9} L${x + 9},${y + 9} M${x + 9},${y - 9} L${x - 9},${y + 9}"/>` : '') +
    `</g>`;
  return out;
}

function metropolis(v, track, seat) {
  const [x, y] = nodeXY(v);
  const letter = 'TPS'[track];
  return (
    `<g class="metropolis track-${track} seat-${seat}" data-piece="metropolis" data-node="${v}" data-track="${track}" data-seat="${seat}">` +
    `<title>${TRACK_NAMES[track]} metropolis of seat ${SEAT_LETTERS[seat] ?? '?'} at node ${v}</title>` +
    `<path d="M${x - 7},${y - 13} V${y - 25} L${x - 3.5},${y - 21} L${x},${y - 27} L${x + 3.5},${y - 21} L${x + 7},${y - 25} V${y - 13} Z"/>` +
    `<text x="${x.toFixed(1)}" y="${(y - 15).toFixed(1)}">${letter}</text></g>`
  );
}

function knight(v, seat, level, flags) {
  const [x, y] = nodeXY(v);
  const active = (flags & 1) !== 0;
  let dots = '';
  for (let i = 0; i < level; ++i) dots += `<circle class="pip" cx="${(x - (level - 1) * 4 + i * 8).toFixed(1)}" cy="${(y - 16).toFixed(1)}" r="2.6"/>`;
  return (
    `<g class="knight seat-${seat} ${active ? 'active' : 'inactive'}" data-piece="knight" data-node="${v}" data-seat="${seat}" data-level="${level}" data-active="${active ? 1 : 0}">` +
    `<title>Knight of seat ${SEAT_LETTERS[seat]} at node ${v}: level ${level}, ${active ? 'active' : 'inactive'}</title>` +
    `<circle class="knight-body" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="11"/>` +
    `<text x="${x.toFixed(1)}" y="${(y + 4).toFixed(1)}">${SEAT_LETTERS[seat]}${level}</text>${dots}</g>`
  );
}

function robber(h) {
  const [cx, cy] = hexCentre(h);
  const x = cx + 20;
  const y = cy - 4;
  return (
    `<g class="robber" data-piece="robber" data-hex="${h}"><title>Robber on hex ${h}</title>` +
    `<path d="M${x - 7},${y + 14} Q${x - 8},${y} ${x - 4},${y - 3} A5.5,5.5 0 1 1 ${x + 4},${y - 3} Q${x + 8},${y} ${x + 7},${y + 14} Z"/>` +
    `<text x="${x.toFixed(1)}" y="${(y + 11).toFixed(1)}">R</text></g>`
  );
}

function merchant(h, seat) {
  const [cx, cy] = hexCentre(h);
  const x = cx - 21;
  const y = cy - 2;
  return (
    `<g class="merchant seat-${seat}" data-piece="merchant" data-hex="${h}" data-seat="${seat}">` +
    `<title>Merchant of seat ${SEAT_LETTERS[seat] ?? '?'} on hex ${h}</title>` +
    `<path d="M${x},${y - 13} L${x + 10},${y + 10} L${x - 10},${y + 10} Z"/>` +
    `<text x="${x.toFixed(1)}" y="${(y + 7).toFixed(1)}">M</text></g>`
  );
}

// Barbarian strength is the number of cities (metropolises are cities too);
// Catan's is the sum of active knights' levels (BAR-3).
function barbarianTrack(p) {
  let cities = 0;
  let knights = 0;
  for (let v = 0; v < 54; ++v) {
    if (p.building[v] === 2) ++cities;
    if (p.knight_level[v] && p.knight_flags[v] & 1) knights += p.knight_level[v];
  }
  const at = p.barbarian_position;
  const left = 0;
  const step = (px(10) - 40) / 7;
  let out = `<g class="barbarians" data-piece="barbarian" data-position="${at}" data-attacks="${p.barbarian_attacks}">`;
  out += `<title>Barbarian ship at ${at} of 7; ${p.barbarian_attacks} attacks so far</title>`;
  out += `<text class="track-title" x="${left}" y="${TRACK_TOP - 34}">Barbarians ${at}/7 · attacks ${p.barbarian_attacks} · strength ${cities} vs knights ${knights}</text>`;
  for (let i = 0; i <= 7; ++i) {
    const x = left + 20 + i * step;
    const cls = i === at ? 'space here' : i < at ? 'space passed' : 'space';
    out += `<circle class="${cls}" cx="${x.toFixed(1)}" cy="${TRACK_TOP}" r="13"/>`;
    out += `<text class="space-label" x="${x.toFixed(1)}" y="${TRACK_TOP + 4}">${i}</text>`;
    if (i === 7) out += `<text class="ship-label" x="${x.toFixed(1)}" y="${TRACK_TOP - 17}">attack</text>`;
    if (i === at) {
      out += `<path class="ship" d="M${x - 14},${TRACK_TOP + 18} H${x + 14} L${x + 9},${TRACK_TOP + 27} H${x - 9} Z M${x},${TRACK_TOP + 18} V${TRACK_TOP + 30}"/>`;
      out += `<text class="ship-label" x="${x.toFixed(1)}" y="${TRACK_TOP + 42}">ship</text>`;
    }
  }
  return out + '</g>';
}

// The pieces of one position, as SVG markup, in layers from the bottom up.
// Most steps change one layer or none (a roll, a trade, a card), so the board
// redraws only the layers whose markup changed.
export function pieceLayers(p) {
  let tokens = '';
  for (let h = 0; h < 19; ++h) tokens += token(h, p.token[h]);
  let roads = '';
  for (let e = 0; e < 72; ++e) if (p.road_owner[e] >= 0) roads += road(e, p.road_owner[e]);
  let buildings = '';
  let knights = '';
  for (let v = 0; v < 54; ++v) {
    if (p.building[v]) buildings += building(v, p.building_owner[v], p.building[v], p.node_flags[v]);
    if (p.knight_level[v]) knights += knight(v, p.knight_owner[v], p.knight_level[v], p.knight_flags[v]);
  }
  (p.metropolis_node || []).forEach((v, track) => {
    if (v >= 0) buildings += metropolis(v, track, p.metropolis_owner[track]);
  });
  let movers = '';
  if (p.robber_hex >= 0) movers += robber(p.robber_hex);
  if (p.merchant_hex >= 0) movers += merchant(p.merchant_hex, p.merchant_owner);
  return [tokens, roads, buildings, knights, movers, barbarianTrack(p)];
}

// A place to click. On an empty spot a dashed ring with a "+"; around a piece a
// larger hollow ring, so that the piece stays seen (a knight's level, a city's
// wall); an edge a dashed line along its middle, ending short of its nodes, so
// that a building or a knight at either end is not drawn over; a hex only
// outlined, so that the board is not washed out while the robber moves. The hit
// areas are transparent.
function targetMarkup(t) {
  const key = `${t.kind}:${t.id}`;
  const cls = `target target-${t.kind}${t.occupied ? ' occupied' : ''}${t.selected ? ' selected' : ''}`;
  const common = `class="${cls}" data-target="${key}" data-${t.kind}="${t.id}" role="button" tabindex="0" aria-label="${escapeAttr(t.label)}"${t.selected ? ' aria-pressed="true"' : ''}`;
  const title = `<title>${escapeAttr(t.label)}</title>`;
  if (t.kind === 'node') {
    const [x, y] = nodeXY(t.id);
    const at = `cx="${x.toFixed(1)}" cy="${y.toFixed(1)}"`;
    if (t.occupied) return `<g ${common}>${title}<circle class="target-hit" ${at} r="19"/><circle class="target-ring" ${at} r="18"/></g>`;
    return `<g ${common}>${title}<circle class="target-hit" ${at} r="15"/>` +
      `<circle class="target-ring" ${at} r="11"/><path class="target-mark" d="M${x - 4},${y} H${x + 4} M${x},${y - 4} V${y + 4}"/></g>`;
  }
  if (t.kind === 'edge') {
    const [a, b] = TOPOLOGY.edges[t.id];
    const [ax, ay] = nodeXY(a);
    const [bx, by] = nodeXY(b);
    const line = (f) => `x1="${(ax + (bx - ax) * f).toFixed(1)}" y1="${(ay + (by - ay) * f).toFixed(1)}" x2="${(bx - (bx - ax) * f).toFixed(1)}" y2="${(by - (by - ay) * f).toFixed(1)}"`;
    const [mx, my] = [(ax + bx) / 2, (ay + by) / 2];
    return `<g ${common}>${title}<line class="target-hit" ${line(0.2)}/><line class="target-ring" ${line(0.35)}/>` +
      `<circle class="target-dot" cx="${mx.toFixed(1)}" cy="${my.toFixed(1)}" r="4"/></g>`;
  }
  return `<g ${common}>${title}<polygon class="target-hit" points="${hexPoints(t.id)}"/><polygon class="target-ring target-outline" points="${hexPoints(t.id)}"/></g>`;
}

// The ghost of a piece not yet placed (preview before a confirmation): the
// piece's own drawing in its seat's colour, without the data attributes and
// titles that make a piece a piece for the tests and for screen readers, and
// the hexes a settlement or a city would yield from.
function ghostMarkup(g) {
  let piece = '';
  if (g.piece === 'settlement') piece = building(g.id, g.seat, 1, 0);
  else if (g.piece === 'city') piece = building(g.id, g.seat, 2, 0);
  else if (g.piece === 'wall') piece = building(g.id, g.seat, 2, 1);
  else if (g.piece === 'road') piece = road(g.id, g.seat);
  else if (g.piece === 'knight') piece = knight(g.id, g.seat, g.level, g.active ? 1 : 0);
  else if (g.piece === 'robber') piece = robber(g.id);
  else if (g.piece === 'merchant') piece = merchant(g.id, g.seat);
  piece = piece.replace(/<title>[^<]*<\/title>/g, '').replace(/ data-[a-z]+="[^"]*"/g, '');
  const yields = (g.yields ?? []).map((h) => `<polygon class="ghost-yield" points="${hexPoints(h)}"/>`).join('');
  return `${yields}<g class="ghost-piece" data-ghost="${g.piece}">${piece}</g>`;
}

const escapeAttr = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

// A board for one game's configuration; update(position) redraws the pieces.
export class BoardView {
  constructor(container, config) {
    const board = config.board;
    container.innerHTML =
      `<svg class="board" viewBox="${VIEW_BOX}" role="img" aria-label="The board" xmlns="http://www.w3.org/2000/svg">` +
      `<g class="static">${staticLayer(board)}</g><g class="pieces">${'<g></g>'.repeat(6)}</g><g class="ghost" aria-hidden="true"></g><g class="targets"></g></svg>`;
    this.svg = container.firstElementChild;
    this.layers = [...this.svg.querySelector('.pieces').children];
    this.drawn = this.layers.map(() => '');
    this.targetLayer = this.svg.querySelector('.targets');
    this.ghostLayer = this.svg.querySelector('.ghost');
    this.onPick = null;
    this.onHover = null; // (key or null): a target pointed at or focused, for its preview
    this.onMiss = null; // a click on the board beside every target
    // One listener for every target, by click or by key (targets are focusable).
    const pick = (e) => {
      const t = e.target.closest('[data-target]');
      if (!t || !this.onPick) return;
      if (e.type === 'keydown' && e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      this.onPick(t.dataset.target, t);
    };
    this.targetLayer.addEventListener('click', pick);
    this.targetLayer.addEventListener('keydown', pick);
    this.svg.addEventListener('click', (e) => {
      if (!e.target.closest('[data-target]') && this.targetLayer.childElementCount) this.onMiss?.();
    });
    const hover = (e) => {
      const t = e.target.closest('[data-target]');
      const into = e.type === 'pointerover' || e.type === 'focusin';
      this.onHover?.(into && t ? t.dataset.target : null);
    };
    for (const type of ['pointerover', 'pointerout', 'focusin', 'focusout']) this.targetLayer.addEventListener(type, hover);
  }

  // The ghost of a piece about to be placed (see ghostMarkup), or none (null).
  setPreview(ghost) {
    this.ghostLayer.innerHTML = ghost ? ghostMarkup(ghost) : '';
  }

  // The places a player may click now, above every piece: [{kind: 'node' |
  // 'edge' | 'hex', id, label, selected, occupied}] (occupied: a piece stands
  // there, and the target is drawn around it). onPick(key, element) gets
  // "node:12" and the target's element (for a popover beside it). Hexes are
  // drawn first so that the nodes and edges on their rims stay clickable.
  // A target is a dashed outline with a mark as well as a colour.
  setTargets(targets, onPick) {
    this.onPick = onPick;
    const order = { hex: 0, edge: 1, node: 2 };
    this.targetLayer.innerHTML = [...targets].sort((a, b) => order[a.kind] - order[b.kind]).map(targetMarkup).join('');
    // An img's children are hidden from assistive technology: with places to
    // click the board becomes a group, so that each target is a button.
    this.svg.setAttribute('role', targets.length ? 'group' : 'img');
  }

  // Where a target is on the screen, for the popover.
  targetElement(key) {
    return this.targetLayer.querySelector(`[data-target="${key}"]`);
  }

  update(position) {
    pieceLayers(position).forEach((markup, i) => {
      if (markup === this.drawn[i]) return;
      this.layers[i].innerHTML = markup;
      this.drawn[i] = markup;
    });
  }
}
