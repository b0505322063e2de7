// The board's numbering, built exactly as engine/topology.cc builds it
// (docs/BOARD.md): hexes row by row, nodes in reading order of their screen
// position, edges in reading order of their midpoints, harbor slots clockwise
// from the top left. The numbers are those of the positions the gateway
// sends, so they must match the engine's to the last id; the browser test
// checks every drawn piece against the position, which would catch a drift.

// Corners of a pointy-top hex, clockwise from the top: N, NE, SE, S, SW, NW,
// in half hex widths (x) and quarter hex heights (y).
const CORNER_DX = [0, 1, 1, 0, -1, -1];
const CORNER_DY = [-2, -1, 1, 2, 1, -1];
const SHIFT_X = 5;
const SHIFT_Y = 8;

// The printed frame's harbors: the land hex each faces and that hex's coastal
// side (0 N-NE, 1 NE-SE, 2 SE-S, 3 S-SW, 4 SW-NW, 5 NW-N), clockwise.
const HARBOR_SPOTS = [
  [0, -2, 5], [1, -2, 0], [2, -1, 0], [2, 0, 1], [1, 1, 2],
  [-1, 2, 2], [-2, 2, 3], [-2, 1, 4], [-1, -1, 4],
];

function byReadingOrder(a, b) {
  return a.y - b.y || a.x - b.x;
}

function build() {
  const hexes = [];
  for (let r = -2; r <= 2; ++r) {
    for (let q = Math.max(-2, -2 - r); q <= Math.min(2, 2 - r); ++q) {
      hexes.push({ q, r, x: 2 * q + r + SHIFT_X, y: 3 * r + SHIFT_Y });
    }
  }
  const corner = (h, i) => ({ x: hexes[h].x + CORNER_DX[i], y: hexes[h].y + CORNER_DY[i] });

  const key = (p) => `${p.x},${p.y}`;
  const seen = new Map();
  for (let h = 0; h < hexes.length; ++h) {
    for (let i = 0; i < 6; ++i) seen.set(key(corner(h, i)), corner(h, i));
  }
  const nodes = [...seen.values()].sort(byReadingOrder);
  const nodeId = new Map(nodes.map((p, id) => [key(p), id]));
  const hexNodes = hexes.map((_, h) => [0, 1, 2, 3, 4, 5].map((i) => nodeId.get(key(corner(h, i)))));

  // Edges: distinct corner pairs, ordered by twice their midpoint.
  const sides = new Map();
  for (const ring of hexNodes) {
    for (let i = 0; i < 6; ++i) {
      let a = ring[i];
      let b = ring[(i + 1) % 6];
      if (a > b) [a, b] = [b, a];
      const mid = { x: nodes[a].x + nodes[b].x, y: nodes[a].y + nodes[b].y, a, b };
      sides.set(key(mid), mid);
    }
  }
  const edges = [...sides.values()].sort(byReadingOrder).map((m) => [m.a, m.b]);
  const edgeBetween = new Map(edges.map(([a, b], e) => [`${a}-${b}`, e]));

  const harbors = HARBOR_SPOTS.map(([q, r, side]) => {
    const hex = hexes.findIndex((h) => h.q === q && h.r === r);
    const a = hexNodes[hex][side];
    const b = hexNodes[hex][(side + 1) % 6];
    const nodesOfSlot = [Math.min(a, b), Math.max(a, b)];
    return { hex, side, nodes: nodesOfSlot, edge: edgeBetween.get(nodesOfSlot.join('-')) };
  });
  return { hexes, nodes, edges, hexNodes, harbors };
}

export const TOPOLOGY = build();
export const NUM_HEXES = 19;
export const NUM_NODES = 54;
export const NUM_EDGES = 72;
