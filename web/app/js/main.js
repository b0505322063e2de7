// The app's router: every page is a URL (/ladders/open, /players/alice,
// /games/g-1?step=120), so any view can be linked, bookmarked and reloaded; the
// gateway answers those paths with index.html (docs/GATEWAY.md, "Web app files").
import { api, ApiError } from './api.js';
import { html } from './names.js';
import { navigate } from './nav.js';
import * as home from './pages/home.js';
import * as leaderboard from './pages/leaderboard.js';
import * as player from './pages/player.js';
import * as games from './pages/games.js';
import * as tournaments from './pages/tournaments.js';
import * as live from './pages/live.js';
import * as replay from './viewer/replay.js';
import * as account from './pages/account.js';
import * as settings from './pages/settings.js';
import * as play from './pages/play.js';
import * as bots from './pages/bots.js';
import * as friends from './pages/friends.js';
import * as table from './play/table.js';
import { session } from './session.js';

const ROUTES = [
  [/^\/$/, () => home.render(), 'home'],
  [/^\/ladders$/, (m, q) => leaderboard.render(null, q), 'ladders'],
  [/^\/ladders\/([^/]+)$/, (m, q) => leaderboard.render(m[1], q), 'ladders'],
  [/^\/players$/, (m, q) => player.renderSearch(q), 'ladders'],
  [/^\/players\/([^/]+)$/, (m, q) => player.render(m[1], q), 'ladders'],
  [/^\/games$/, (m, q) => games.render(q), 'games'],
  [/^\/games\/([^/]+)$/, (m, q) => replay.render(m[1], q), 'games'],
  [/^\/live$/, (m, q) => live.renderList(q), 'live'],
  [/^\/live\/([^/]+)$/, (m, q) => live.render(m[1], q), 'live'],
  [/^\/tournaments$/, (m, q) => tournaments.renderList(q), 'tournaments'],
  [/^\/tournaments\/([^/]+)$/, (m, q) => tournaments.render(m[1], q), 'tournaments'],
  [/^\/signup$/, (m, q) => account.renderSignUp(q), 'signup'],
  [/^\/signin$/, (m, q) => account.renderSignIn(q), 'signin'],
  [/^\/account$/, () => settings.render(), 'account'],
  [/^\/play$/, (m, q) => play.render(q), 'play'],
  [/^\/bots$/, () => bots.render(), 'bots'],
  [/^\/play\/([^/]+)$/, (m) => table.render(m[1]), 'play'],
  [/^\/tables\/([^/]+)$/, (m) => friends.render(m[1]), 'play'],
];

const main = document.getElementById('main');
let cleanup = null;
let generation = 0;

// Shows a page: its render function fills a fresh element and may return a
// cleanup (the viewers stop timers, key handlers and live streams with it).
async function route(event) {
  const url = new URL(location.href);
  // A link followed opens the new page at its top, as a browser's own
  // navigation would; the page scrolled down stays where it was otherwise.
  const toTop = event?.state?.navigated === true;
  const gen = ++generation;
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  for (const [pattern, handler, nav] of ROUTES) {
    const m = url.pathname.match(pattern);
    if (!m) continue;
    document.querySelectorAll('[data-nav]').forEach((a) => a.toggleAttribute('aria-current', a.dataset.nav === nav));
    const decoded = m.map((part, i) => (i === 0 ? part : decodeURIComponent(part)));
    try {
      const page = await handler(decoded, url.searchParams);
      if (gen !== generation) {
        page?.cleanup?.();
        return;
      }
      if (page?.redirect) {
        history.replaceState(null, '', page.redirect);
        return route(event);
      }
      main.replaceChildren(page.element);
      if (toTop) window.scrollTo(0, 0);
      // Which address the page shows, for tests waiting for a navigation to finish.
      main.dataset.shown = url.pathname + url.search;
      document.title = page.title ? `${page.title} · Metropolis` : 'Metropolis';
      cleanup = page.cleanup || null;
      page.ready?.();
    } catch (e) {
      if (gen !== generation) return;
      main.innerHTML = errorMarkup(e);
      document.title = 'Error · Metropolis';
    }
    return;
  }
  main.innerHTML = html`<section class="page"><h1>Not found</h1><p>No page at ${url.pathname}.</p></section>`.__raw;
  document.title = 'Not found · Metropolis';
}

function errorMarkup(e) {
  const status = e instanceof ApiError ? e.status : 0;
  const title = status === 404 ? 'Not found' : status >= 500 ? 'The service is unavailable' : 'Something went wrong';
  return html`<section class="page error" data-error="${status}"><h1>${title}</h1><p>${e.message}</p></section>`.__raw;
}


document.addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = e.target.closest('a[href]');
  if (!a || a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
  e.preventDefault();
  if (url.href !== location.href) navigate(url.pathname + url.search);
});
window.addEventListener('popstate', route);

// The header's player search: suggestions while typing, the page on submit.
const findForm = document.querySelector('[data-find-player]');
const findInput = findForm.querySelector('input');
const suggestions = document.getElementById('find-player-names');
let suggestTimer = 0;
findInput.addEventListener('input', () => {
  clearTimeout(suggestTimer);
  const q = findInput.value.trim();
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(q)) return;
  suggestTimer = setTimeout(async () => {
    try {
      const r = await api('/players', { q, limit: 10 });
      suggestions.innerHTML = r.players.map((p) => html`<option value="${p.name}"></option>`.__raw).join('');
    } catch {
      // Suggestions are a convenience: the search page reports errors.
    }
  }, 150);
});
findForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const q = findInput.value.trim();
  if (q) navigate(`/players?q=${encodeURIComponent(q)}`);
});

session();
route();
