// The game-over box of a game played here: at once from the result (and the
// public stream's final position when it has come), then, once the game is
// stored, from the seat's own final view (the hand as it ended, every point
// counted) with the stored places, and the rating change and new rank when
// the ladder rated it; a friends' table's game links back to its table, where
// its players ask for a rematch. The box's markup is summary.js's; this is the
// asking and waiting, kept out of the table.
import { api, enc } from '../api.js';
import { summaryMarkup, ratingChange } from './summary.js';

// `latest()` is the public stream's last {view, step} (or null); `adopt(view,
// step)` hands the stored final view to the table, and `redraw()` redraws it;
// `stopped()` is true once the page is left, which ends the waiting.
export function gameOverSummary({ gameId, me, seat, viewer, latest, adopt, redraw, stopped }) {
  const ended = { result: null, position: null, places: null, steps: 0, rating: null, state: 'result' };

  function draw() {
    let box = viewer.element.querySelector('[data-game-summary]');
    if (!box) {
      box = document.createElement('section');
      box.className = 'game-over';
      box.dataset.gameSummary = '';
      box.setAttribute('aria-label', 'The game is over');
      viewer.element.querySelector('.board-pane').append(box);
    }
    box.dataset.gameOver = ended.result.winner ?? -1;
    box.dataset.summaryState = ended.state;
    box.innerHTML = String(summaryMarkup({ gameId, seat, players: viewer.players, ...ended }));
  }

  async function show(result) {
    ended.result = result;
    const publicView = latest();
    if (publicView && publicView.step === Number(result.actions)) {
      ended.position = publicView.view.position;
      ended.steps = publicView.step;
    }
    draw();
    const stored = await storedSummary();
    if (!stored) return;
    ended.steps = Number(stored.result.actions);
    // The stored places are the ratings' (a game without a winner has none).
    const places = [];
    for (const p of stored.players) places[p.seat] = p.place;
    ended.places = places.every((x) => x >= 1) ? places : null;
    try {
      const final = await api(`/games/${enc(gameId)}/positions/${ended.steps}`, { viewer: seat });
      ended.position = final.view.position;
      adopt(final.view, ended.steps);
      ended.state = 'final';
    } catch {
      // The summary stands on the result; the hand stays as last drawn.
    }
    draw();
    redraw();
    if (!stored.ladder) return;
    ended.rating = await ratingOf(stored);
    if (ended.rating) draw();
  }

  // The stored game's summary, asked for among the person's games (a game
  // just ended is stored within seconds; asking for the game itself before
  // would be a 404).
  async function storedSummary() {
    for (let i = 0; i < 60 && !stopped(); ++i) {
      try {
        const mine = await api('/games', { player: me, limit: 10 });
        const g = mine.games.find((x) => x.game_id === gameId);
        if (g) return g;
      } catch {
        // asked again below
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    return null;
  }

  // The person's place on the game's ladder now that it is rated, or null:
  // the summary then says the change alone.
  async function standingOf(stored) {
    const path = `/ladders/${enc(stored.ladder)}/leaderboard`;
    const season = stored.season ? { season: stored.season } : {};
    // A ranked person's own row (exact, whoever else shares the name's
    // start); a person still in placement is not "around" anything (404),
    // and the name search gives their row with its games.
    for (const query of [{ around: me, limit: 1 }, { q: me, limit: 5 }]) {
      try {
        const board = await api(path, { ...query, ...season });
        const mine = board.entries.find((x) => x.name === me);
        if (mine) return { rank: mine.rank ?? null, total: board.total, games: mine.games };
      } catch {
        // not ranked yet, or the leaderboard is not answering: the next query, or nothing
      }
    }
    return null;
  }

  // The person's rating change for this game, from the ladder's rating
  // history, once the ratings service has taken the result.
  async function ratingOf(stored) {
    for (let i = 0; i < 60 && !stopped(); ++i) {
      try {
        const h = await api(`/players/${enc(me)}/history`, { ladder: stored.ladder, ...(stored.season ? { season: stored.season } : {}), limit: 5 });
        const entry = h.entries.find((x) => x.game_id === gameId);
        if (entry) return { change: ratingChange(entry), after: entry.ordinal_after, standing: await standingOf(stored) };
      } catch {
        // not rated yet, or the history is not answering: asked again
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    return null;
  }

  return { show };
}
