// The landing page (/) and the ladder the lobby and the leaderboards open on
// (issue 31, item 4), for tests/browser/run.mjs. browser_test.sh adds a
// three-seat ladder whose id sorts before "open": the main ladder is chosen
// for what it is, not for sorting first.
import { join } from 'node:path';
import { DESKTOP } from './lib/harness.mjs';

export const MAIN_LADDER = 'open';
export const FIRST_LADDER = 'casual';
const HEADINGS = ['Play now', 'Ladders', 'Live now', 'Recent games', 'For bot authors'];

// / with all its boxes filled; returns the page's links (same origin, not the API).
export async function openLanding(t, page) {
  await page.goto(`${t.gateway}/`);
  await page.waitForFunction(() => ['ladders', 'live', 'recent'].every((b) => document.querySelector(`[data-home="${b}"]`)?.dataset.state));
  return page.$$eval('main a[href]', (as) => [...new Set(as.map((a) => a.getAttribute('href')).filter((h) => h.startsWith('/') && !h.startsWith('/api/')))]);
}

// The landing page's headings, its boxes against the API, and every link of it
// opening a page of the app (not "Not found", not an error).
export async function checkLanding(t, browser, watch) {
  const { expect, expectSame, get } = t;
  const context = await browser.newContext(DESKTOP);
  const page = watch(await context.newPage());
  const links = await openLanding(t, page);
  expect(new URL(page.url()).pathname === '/', `/ went on to ${page.url()}`);
  expect((await page.textContent('main h1')) === 'Metropolis', 'the landing page has no "Metropolis" heading');
  expectSame(await page.$$eval('main h2', (hs) => hs.map((h) => h.textContent.trim())), HEADINGS, "the landing page's headings");
  const states = await page.$$eval('[data-home][data-state]', (bs) => bs.map((b) => `${b.dataset.home} ${b.dataset.state}`));
  expectSame(states, ['ladders ready', 'live ready', 'recent ready'], "the landing page's boxes");
  expect(/Cities & Knights/.test(await page.textContent('main .lead')), 'the landing page does not say what Metropolis is');
  // Anonymous: the way in is signing up to play.
  expect((await page.getAttribute('[data-home-play]', 'href')) === '/signup?next=/play', 'the anonymous call to play');
  // The top players: the main ladder's, as its leaderboard API ranks them.
  const ladder = await page.getAttribute('[data-home-ladder]', 'data-home-ladder');
  expect(ladder === MAIN_LADDER, `the landing page shows the top of ${ladder}, not of the main ladder ${MAIN_LADDER}`);
  const board = await get(`/api/v1/ladders/${ladder}/leaderboard?offset=0&limit=5`);
  expect(board.entries.length > 0, 'the main ladder has nobody ranked');
  expectSame(await page.$$eval('tr[data-top-player]', (rs) => rs.map((r) => r.dataset.topPlayer)), board.entries.map((e) => e.name), 'the top players');
  const live = await get('/api/v1/live');
  expect(Number(await page.getAttribute('[data-live-count]', 'data-live-count')) === live.games.length, 'the count of live games');
  const recent = await get('/api/v1/games?limit=5');
  expectSame(await page.$$eval('[data-recent-game]', (ls) => ls.map((l) => l.dataset.recentGame)), recent.games.map((g) => g.game_id), 'the recent games');
  await page.screenshot({ path: join(t.artifacts, 'home.png'), fullPage: true });
  // Every link, opened.
  for (const want of ['/live', '/games', '/bots', `/ladders/${MAIN_LADDER}`, '/signup?next=/play']) {
    expect(links.includes(want), `the landing page has no link to ${want} (${links.join(' ')})`);
  }
  for (const href of links) {
    await page.goto(`${t.gateway}${href}`);
    const url = new URL(href, t.gateway);
    // A page shown, an error, or the router's "Not found" (which marks no address shown).
    await page
      .waitForFunction((shown) => {
        const main = document.querySelector('main');
        return main.dataset.shown === shown || main.querySelector('.error') || main.querySelector('h1')?.textContent === 'Not found';
      }, url.pathname + url.search)
      .catch(async (e) => {
        // Which link, what the page shows, and what the browser said (a refused module leaves "Loading…").
        const shows = await page.evaluate(() => `${document.querySelector('main').dataset.shown}: ${document.querySelector('main').textContent.trim().slice(0, 160)}`);
        throw new Error(`the landing page's link ${href} did not finish opening (${e.message}); the page shows ${shows}; the pages said ${t.pageErrors().slice(-3).join(' | ')}`);
      });
    const error = await page.$eval('main', (m) => (m.querySelector('.error') ? m.textContent.trim().slice(0, 120) : ''));
    const h1 = await page.textContent('main h1');
    expect(!error && h1 !== 'Not found', `the landing page's link ${href} opens "${error || h1}"`);
  }
  console.log(`browser_test: the landing page's ${links.length} links open`);
  await context.close();
}

// The lobby's ladder for a person signed in: the main one, not the first id;
// the address's; then the one last chosen, kept over a reload, which the
// leaderboards open on too. The signed-in landing page offers the lobby.
export async function checkLadderChoice(t, browser, watch) {
  const { expect } = t;
  const context = await browser.newContext(DESKTOP);
  const page = watch(await context.newPage());
  await page.goto(`${t.gateway}/signup`);
  await page.fill('[data-account-form] input[name="name"]', 'chooser');
  await page.fill('[data-account-form] input[name="password"]', 'a long secret 1');
  await page.fill('[data-account-form] input[name="again"]', 'a long secret 1');
  await page.click('[data-account-form] button[type="submit"]');
  await page.waitForSelector('[data-signed-in="chooser"]');
  await openLanding(t, page);
  expect((await page.getAttribute('[data-home-play]', 'href')) === '/play', 'the landing page does not offer a signed-in person the lobby first');
  const selected = async (path) => {
    await page.goto(`${t.gateway}${path}`);
    await page.waitForFunction((shown) => document.querySelector('main').dataset.shown === shown, path);
    return page.$eval('[data-queue-form] select[name="ladder"]', (s) => s.value);
  };
  const ladders = await t.get('/api/v1/ladders');
  expect(ladders.ladders[0].id === FIRST_LADDER, `the ladders sort ${ladders.ladders.map((l) => l.id)}: ${FIRST_LADDER} should be first`);
  let chosen = await selected('/play');
  expect(chosen === MAIN_LADDER, `the lobby preselects ${chosen}, not the main ladder ${MAIN_LADDER}`);
  chosen = await selected(`/play?ladder=${FIRST_LADDER}`);
  expect(chosen === FIRST_LADDER, `the lobby asked for ${FIRST_LADDER} preselects ${chosen}`);
  // The address does not choose for next time; choosing in the form does.
  chosen = await selected('/play');
  expect(chosen === MAIN_LADDER, `the lobby remembered the address's ladder: ${chosen}`);
  await page.selectOption('[data-queue-form] select[name="ladder"]', FIRST_LADDER);
  chosen = await selected('/play');
  expect(chosen === FIRST_LADDER, `the lobby forgot the ladder chosen last: ${chosen}`);
  await page.goto(`${t.gateway}/ladders`);
  await page.waitForSelector('table[data-leaderboard]');
  const board = await page.getAttribute('table[data-leaderboard]', 'data-leaderboard');
  expect(board === FIRST_LADDER, `/ladders opens on ${board}, not on the ladder chosen last (${FIRST_LADDER})`);
  await context.close();
}
