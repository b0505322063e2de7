// What a place on the board does when it is clicked, in words, and the piece it
// would show there: the target's label (its tooltip and accessible name), the
// preview's text (what a settlement or a city would yield, whom the robber
// could rob) and the ghost piece drawn before the action is confirmed. Read
// from the seat's view and the legal actions at the place (legal.js); nothing
// here decides what is legal.
import { TOPOLOGY } from '../board/topology.js';
import { SEAT_LETTERS, TERRAIN_NAMES, CARD_NAMES, html, isBaseRuleset } from '../names.js';

// Costs as the rules have them (docs/RULES.md BLD-1..4, KN-3..5), for the label only.
const COST = {
  build_road: 'brick, lumber',
  build_settlement: 'brick, lumber, wool, grain',
  build_city: '2 grain, 3 ore',
  build_wall: '2 brick',
  recruit_knight: 'wool, ore',
  promote_knight: 'wool, ore',
  activate_knight: 'grain',
};

// A city yields two cards of its hex: hills and fields twice the resource, the
// others the resource and a commodity (PRD-2); in the base game twice the
// resource everywhere (BG-3).
const CITY_COMMODITY = ['', 'paper', 'cloth', '', 'coin', ''];

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const defaultName = (s) => `seat ${SEAT_LETTERS[s] ?? s}`;

// "hex 7 (fields 9)", or "hex 9 (desert)".
export function hexName(view, config, h) {
  const t = config.board.terrain[h];
  const n = view.position.token?.[h];
  return `hex ${h} (${TERRAIN_NAMES[t] ?? '?'}${n ? ` ${n}` : ''})`;
}

// The hexes around a node that yield something: [{hex, token, terrain}], by hex number.
export function yieldingHexes(view, config, v) {
  const out = [];
  TOPOLOGY.hexNodes.forEach((ring, h) => {
    const token = view.position.token?.[h];
    const terrain = config.board.terrain[h];
    if (ring.includes(v) && token && terrain < 5) out.push({ hex: h, token, terrain });
  });
  return out;
}

// "yields: 6 brick, 8 grain, 11 ore" (a settlement), "yields: 6 brick ×2, 11 ore + coin" (a city).
export function yieldText(view, config, v, city) {
  const hexes = yieldingHexes(view, config, v);
  if (!hexes.length) return 'yields: nothing (no numbered hex next to it)';
  const robber = view.position.robber_hex;
  return `yields: ${hexes.map(({ hex, token, terrain }) => {
    const card = CARD_NAMES[terrain];
    const commodity = isBaseRuleset(config) ? '' : CITY_COMMODITY[terrain];
    const what = !city ? card : commodity ? `${card} + ${commodity}` : `${card} ×2`;
    return `${token} ${what}${hex === robber ? ' (robber there now)' : ''}`;
  }).join(', ')}`;
}

// The seats a robber action at the place may rob, from the legal texts ("... rob 2").
const robbed = (list) => [...new Set(list.map((d) => / rob (\d)\b/.exec(d.text)?.[1]).filter((s) => s !== undefined).map(Number))];

// The Bishop takes a card from every other seat with a building at the hex
// (C-P1): its action names no seat, so they are read from the board.
function bishopVictims(view, seat, h) {
  const p = view.position;
  const owners = (TOPOLOGY.hexNodes[h] ?? []).filter((v) => p.building?.[v]).map((v) => p.building_owner[v]);
  return [...new Set(owners)].filter((s) => s !== seat && s >= 0).sort((a, b) => a - b);
}

// Whether a piece stands at the place: its target is then drawn around it.
export function occupied(view, kind, id) {
  const p = view.position;
  if (kind === 'node') return Boolean(p.building?.[id] || p.knight_level?.[id]);
  if (kind === 'hex') return Boolean(p.token?.[id] || p.robber_hex === id || p.merchant_hex === id);
  return false;
}

// What one action at the place does, as a sentence: "Build a settlement here (brick, lumber, wool, grain)".
function sentence(d, view, config, role, nameOf) {
  const p = view.position;
  const cost = p.phase === 'PHASE_SETUP' ? ' (free in the setup)' : COST[d.verb] && !(p.pending ?? []).length ? ` (${COST[d.verb]})` : '';
  const t = d.text.split(' ');
  switch (d.verb) {
    case 'build_road': return `Build a road here${cost}`;
    case 'build_settlement': return `Build a settlement here${cost}`;
    case 'build_city': return `Build a city here${cost}`;
    case 'build_wall': return `Build a city wall here${cost}`;
    case 'recruit_knight': return `Recruit a knight here${cost}`;
    case 'activate_knight': return `Activate this knight${cost}`;
    case 'promote_knight': return `Promote this knight${cost}`;
    case 'move_robber': {
      const whom = robbed([d]);
      return `Move the robber to ${hexName(view, config, d.at.id)}${whom.length ? ` and rob ${nameOf(whom[0])}` : ''}`;
    }
    case 'move_knight':
      return role === 'to' ? `Move the knight from node ${d.at.id} here` : `Move this knight (then choose where)`;
    case 'displace_knight':
      return role === 'to' ? `Displace this knight with yours from node ${d.at.id}` : `Displace a knight with this one (then choose which)`;
    default:
      if (d.verb === 'play' && t[1] === 'inventor') return role === 'to' ? `Swap the numbers of hex ${d.at.id} and hex ${d.to.id}` : 'Play the inventor: swap this number (then choose the other hex)';
      return capital(d.label);
  }
}

// The ghost of the piece the action would put at the place, if any:
// {piece: 'settlement'|'city'|'wall'|'road'|'knight'|'robber'|'merchant', seat, level, active}.
function ghostOf(d, view, seat, role) {
  const p = view.position;
  const v = role === 'to' ? d.to.id : d.at.id;
  switch (d.verb) {
    case 'build_settlement': return { piece: 'settlement', seat };
    case 'build_city': return { piece: 'city', seat };
    case 'build_wall': return { piece: 'wall', seat };
    case 'build_road': return { piece: 'road', seat };
    case 'recruit_knight': return { piece: 'knight', seat, level: 1, active: false };
    case 'place_knight': return { piece: 'knight', seat, level: Number(d.text.split(' ')[2]) || 1, active: false };
    case 'promote_knight': return { piece: 'knight', seat, level: Math.min(3, (p.knight_level?.[v] ?? 0) + 1), active: Boolean(p.knight_flags?.[v] & 1) };
    case 'activate_knight': return { piece: 'knight', seat, level: p.knight_level?.[v] || 1, active: true };
    case 'move_knight':
    case 'displace_knight':
      return role === 'to' ? { piece: 'knight', seat, level: p.knight_level?.[d.at.id] || 1, active: true } : null;
    case 'move_robber': return { piece: 'robber' };
    default:
      if (d.verb === 'play' && /^play bishop /.test(d.text)) return { piece: 'robber' };
      if (d.verb === 'play' && /^play merchant /.test(d.text)) return { piece: 'merchant', seat };
      if (d.verb === 'play' && /^play medicine /.test(d.text)) return { piece: 'city', seat };
      if (d.verb === 'play' && /^play engineer /.test(d.text)) return { piece: 'wall', seat };
      return null;
  }
}

// Everything the page shows about one place: {kind, id, label, occupied, ghost, detail, yields}.
//   key    "node:12"; list: the described legal actions clicked there
//   role   'to' when the place is the second of a two-place action (a knight's destination)
//   nameOf a seat's name ("B bea"), for whom the robber would rob
export function targetInfo(view, seat, config, key, list, { role = 'at', nameOf = defaultName } = {}) {
  const [kind, idText] = key.split(':');
  const id = Number(idText);
  const sentences = [...new Set(list.map((d) => sentence(d, view, config, role, nameOf)))];
  let label = sentences.length === 1 ? sentences[0] : `${sentences.length} choices here: ${sentences.join('; ')}`;
  const ghost = list.length ? ghostOf(list[0], view, seat, role) : null;
  let detail = '';
  let yields = [];
  if (ghost?.piece === 'settlement' || ghost?.piece === 'city') {
    detail = yieldText(view, config, id, ghost.piece === 'city');
    yields = yieldingHexes(view, config, id).map((y) => y.hex);
  } else if (ghost?.piece === 'robber') {
    const whom = robbed(list);
    const robberList = list.some((d) => d.verb === 'move_robber');
    // Several actions at one hex differ only by whom they rob: one label says it all.
    if (robberList && whom.length > 1) label = `Move the robber to ${hexName(view, config, id)}`;
    const bishop = list.some((d) => d.verb === 'play' && /^play bishop /.test(d.text));
    if (bishop) {
      const victims = bishopVictims(view, seat, id);
      detail = `${hexName(view, config, id)}: ${victims.length ? `takes a card from ${victims.map(nameOf).join(' and ')}` : 'nobody to take from there'}`;
    } else {
      detail = `${hexName(view, config, id)}: ${whom.length ? `you may rob ${whom.map(nameOf).join(' or ')}` : 'nobody to rob there'}`;
    }
  }
  return { kind, id, label, occupied: occupied(view, kind, id), ghost: ghost && { ...ghost, kind, id, yields }, detail };
}

// The bar above the board while a place is chosen: what it does, then Confirm and Cancel.
export function previewMarkup(info) {
  return html`<span class="target-preview" data-target-preview="${info.kind}:${info.id}"><strong data-preview-label>${info.label}</strong>${info.detail ? html` <span data-preview-detail>${info.detail}.</span>` : ''}</span>
    <button type="button" data-preview-confirm>Confirm</button> <button type="button" data-preview-cancel>Cancel</button>
    <span class="hint">Click the place again, or Confirm; Escape cancels.</span>`;
}
