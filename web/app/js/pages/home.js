// The landing page (/): what Metropolis is, and the ways in — play, the main
// ladder's top players, the games being played now, the latest games, and
// bots. Its three boxes read the API in parallel, each on its own: one that
// fails says so politely in its box and the rest of the page stands.
import { api, enc } from '../api.js';
import { html, raw, pageOf, formatDate, fixed } from '../names.js';
import { session } from '../session.js';
import { chooseLadder, rememberedLadder } from '../ladders/choice.js';

const TOP = 5;
const RECENT = 5;

// What a box shows when its read failed: never the error's own text, which
// may name backends.
const UNAVAILABLE = (what) => html`<p class="hint" data-unavailable>${what} cannot be shown right now; try again shortly.</p>`;

function playBox(s) {
  const active = s?.active_game;
  if (active) {
    return html`<p class="notice" data-active-game="${active.game_id}">You are playing game ${active.game_id} (seat ${'ABCD'[active.seat]}).</p>
      <p><a class="button" href="/play/${enc(active.game_id)}" data-home-play>Back to your game</a></p>`;
  }
  if (s?.player) {
    return html`<p>Queue on a ladder for a rated game, or practise against the built-in bots at once.</p>
      <p><a class="button" href="/play" data-home-play>Play now</a></p>`;
  }
  return html`<p>Sign up to queue on a ladder or to practise against the built-in bots; watching needs no account.</p>
    <p><a class="button" href="/signup?next=/play" data-home-play>Sign up and play</a> <a class="button" href="/signin?next=/play">Sign in</a></p>`;
}

async function topPlayers(s) {
  const { ladders } = await api('/ladders');
  const ladder = chooseLadder(ladders, { queued: s?.queue?.ladder || '', remembered: rememberedLadder() });
  if (!ladder) return html`<p>No ladder yet.</p>`;
  const board = await api(`/ladders/${enc(ladder.id)}/leaderboard`, { offset: 0, limit: TOP });
  const rows = board.entries.map(
    (e) => html`<tr data-top-player="${e.name}"><td class="num">${e.rank ?? 'prov.'}</td><td><a href="/players/${enc(e.name)}">${e.name}</a></td><td class="num">${fixed(e.ordinal)}</td><td class="num">${e.games}</td></tr>`,
  );
  const others = ladders.filter((l) => l !== ladder);
  return html`<p>The top of <a href="/ladders/${enc(ladder.id)}" data-home-ladder="${ladder.id}">${ladder.title || ladder.id}</a>, season ${board.season}:</p>
    <div class="table-wrap"><table class="leaderboard top"><thead><tr><th class="num">Rank</th><th>Player</th><th class="num" title="μ − 3σ">Rating</th><th class="num">Games</th></tr></thead>
    <tbody>${rows.length ? rows : raw('<tr><td colspan="4">Nobody ranked yet.</td></tr>')}</tbody></table></div>
    <p><a href="/ladders/${enc(ladder.id)}">The whole leaderboard</a>${others.length ? html` · other ladders: ${others.map((l, i) => html`${i ? ', ' : ''}<a href="/ladders/${enc(l.id)}">${l.title || l.id}</a>`)}` : ''}</p>`;
}

async function liveNow() {
  const listed = await api('/live');
  const n = listed.games.length;
  return html`<p data-live-count="${n}">${n === 0 ? 'No game is being played right now.' : n === 1 ? 'One game is being played right now.' : `${n} games are being played right now.`}</p>
    <p><a href="/live">Watch the live games</a></p>`;
}

async function recentGames() {
  const { games } = await api('/games', { limit: RECENT });
  if (!games.length) return html`<p>No game finished yet.</p>`;
  const items = games.map((g) => {
    const winner = g.players.find((p) => p.place === 1);
    return html`<li data-recent-game="${g.game_id}"><a href="/games/${enc(g.game_id)}">${formatDate(g.finished_unix_ms)}</a> · ${g.tournament ?? g.ladder ?? 'practice'}${winner ? ` · won by ${winner.name}` : ''}</li>`;
  });
  return html`<ul class="recent">${items}</ul><p><a href="/games">All games</a></p>`;
}

export async function render() {
  const s = await session();
  const page = pageOf(
    html`<h1>Metropolis</h1>
    <p class="lead">Metropolis runs online ladders and bot competitions of Catan: Cities &amp; Knights.
      Play in the browser against other people and bots, watch any game live or replay it move by move,
      and enter a bot of your own, written in any language.</p>
    <div class="lobby home">
      <section class="panel" aria-labelledby="home-play-h" data-home="play"><h2 id="home-play-h">Play now</h2>${playBox(s)}</section>
      <section class="panel" aria-labelledby="home-ladders-h" data-home="ladders"><h2 id="home-ladders-h">Ladders</h2><p class="loading">Loading…</p></section>
      <section class="panel" aria-labelledby="home-live-h" data-home="live"><h2 id="home-live-h">Live now</h2><p class="loading">Loading…</p></section>
      <section class="panel" aria-labelledby="home-recent-h" data-home="recent"><h2 id="home-recent-h">Recent games</h2><p class="loading">Loading…</p></section>
      <section class="panel" aria-labelledby="home-bots-h" data-home="bots"><h2 id="home-bots-h">For bot authors</h2>
        <p>A bot connects to the matchmaker with an API token and plays rated ladder games and tournaments like anyone else; the protocol and kits are in the project's docs (BOTS.md).</p>
        <p><a href="/bots">Create a bot and its token</a> · <a href="/tournaments">Tournaments</a></p></section>
    </div>`,
    null,
  );
  const el = page.element;
  // Each box fills itself when its read ends, whatever the others do.
  const fill = (name, what, load) =>
    load().then(
      (markup) => ({ markup, state: 'ready' }),
      () => ({ markup: UNAVAILABLE(what), state: 'failed' }),
    ).then(({ markup, state }) => {
      const box = el.querySelector(`[data-home="${name}"]`);
      box.querySelector('.loading')?.replaceWith(document.createRange().createContextualFragment(String(markup)));
      box.dataset.state = state;
    });
  fill('ladders', 'The leaderboard', () => topPlayers(s));
  fill('live', 'The live games', liveNow);
  fill('recent', 'The recent games', recentGames);
  return page;
}
