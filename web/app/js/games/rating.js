// What each game of a list did to one player's rating, for the games' tables
// of a profile and of the game browser. Pure: from the player's rating
// histories (the gateway's {ladder, season, entries, next_page_token}), a cell
// per game with the signed change, or "–" and why there is none.
import { ratingChange } from '../play/summary.js';

// "+1.23", "−0.87", "±0.00": rounded first, so that −0.001 is not "−0.00".
export function signedChange(x) {
  const r = Number(x.toFixed(2));
  return `${r > 0 ? '+' : r < 0 ? '−' : '±'}${Math.abs(r).toFixed(2)}`;
}

const boardKey = (ladder, season) => `${ladder}\u0000${Number(season)}`;

// The histories read, by ladder and season. `failed` lists the boards whose
// history could not be read: their games say so rather than "not rated".
export function historyIndex(histories = [], failed = []) {
  const index = new Map();
  for (const h of histories) {
    if (!h) continue;
    const byGame = new Map(h.entries.map((e) => [e.game_id, e]));
    const oldest = h.entries.reduce((a, e) => Math.min(a, Number(e.at_unix_ms)), Infinity);
    index.set(boardKey(h.ladder, h.season), { ...h, byGame, oldest, truncated: Boolean(h.next_page_token) });
  }
  for (const f of failed) index.set(boardKey(f.ladder, f.season), { ...f, failed: true });
  return index;
}

// A game's cell: {change (a number, or null), text, tone ('up', 'down',
// 'level' or 'none'), title}.
export function ratingCell(game, index) {
  const none = (title) => ({ change: null, text: '–', tone: 'none', title });
  if (!game.ladder) return none('not rated: a game of no ladder (practice, a tournament or a game made by hand)');
  const board = index.get(boardKey(game.ladder, game.season));
  if (!board) {
    // A profile reads one ladder's season (its ?ladder= and &season= pick another).
    const read = [...index.values()].map((b) => `${b.ladder} season ${b.season}`).join(', ');
    return none(`not shown: ${read ? `the rating history here is of ${read}` : `no rating history of ${game.ladder} season ${game.season} here`}`);
  }
  if (board.failed) return none(`the rating history of ${game.ladder} season ${game.season} could not be read`);
  const entry = board.byGame.get(game.game_id);
  if (!entry) {
    // Past the changes read, it may have been rated: say only what is known.
    if (board.truncated && Number(game.finished_unix_ms) < board.oldest) {
      return none(`not among the ${board.entries.length} latest rating changes read on ${game.ladder} season ${game.season}`);
    }
    return none(`not rated on ${game.ladder} season ${game.season}`);
  }
  const change = ratingChange(entry);
  const r = Number(change.toFixed(2));
  return {
    change,
    text: signedChange(change),
    tone: r > 0 ? 'up' : r < 0 ? 'down' : 'level',
    title: `rating ${(entry.mu_before - 3 * entry.sigma_before).toFixed(2)} → ${entry.ordinal_after.toFixed(2)} (μ − 3σ) on ${game.ladder} season ${game.season}`,
  };
}

// The boards (ladder and season) of a list's games that have one, each once:
// the histories the game browser reads.
export function boardsOf(games) {
  const seen = new Map();
  for (const g of games) if (g.ladder && !seen.has(boardKey(g.ladder, g.season))) seen.set(boardKey(g.ladder, g.season), { ladder: g.ladder, season: g.season });
  return [...seen.values()];
}
