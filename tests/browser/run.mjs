// The browser checks of tests/browser/browser_test.sh, which brings up the
// stack and passes, in the environment:
//
//   METROPOLIS_GATEWAY     the gateway's address (http://127.0.0.1:PORT), serving web/app
//   METROPOLIS_CHROMIUM    the Chromium binary
//   METROPOLIS_ARTIFACTS   where screenshots go
//   METROPOLIS_LIVE_CREATE JSON: a command that creates a game whose seat 0 waits for its
//                          player, and prints {"game_id", "seat_tokens"} (metropolisctl create-game --json)
//   METROPOLIS_LIVE_BOT    JSON: the command that plays a seat, given --game ID --token T; started
//                          once the page follows the game
//   METROPOLIS_TOURNAMENT  a finished tournament
//   METROPOLIS_REGISTERING a recurring tournament taking registrations, one entrant in
//   METROPOLIS_ARENA       a running arena
//
// A replay's analysis is asked for with the page's button and computed by the
// replays service's worker: the check waits for it (analysis.mjs).
//
// Every piece the board draws carries data attributes (web/app/js/board/render.js);
// the checks compare them, and every seat's score, with the position the
// gateway's position endpoint reports, which the replays service computes with
// the engine. Timings are printed, never asserted.
import { spawn, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { browserTest, DESKTOP, PHONE, quantile, expectedPieces, drawnPieces, phoneFaults } from './lib/harness.mjs';
import { checkReplayAnalysis, waitForAnalysis } from './analysis.mjs';
import { checkLanding, checkLadderChoice, openLanding, MAIN_LADDER } from './home.mjs';
import { checkAccount } from './account.mjs';

const t = browserTest('browser_test');
const { env, expect, expectSame, get } = t;
const GATEWAY = t.gateway;
const ARTIFACTS = t.artifacts;

async function checkStep(page, gameId, step, viewer = -1) {
  const pos = await get(`/api/v1/games/${gameId}/positions/${step}${viewer >= 0 ? `?viewer=${viewer}` : ''}`);
  await page.waitForSelector(`.viewer[data-step="${step}"][data-viewer="${viewer}"]`, { timeout: 15000 });
  expectSame(await drawnPieces(page), expectedPieces(pos.view.position), `game ${gameId} step ${step} viewer ${viewer}`);
  return pos;
}

const fmt = (x) => `${x.toFixed(2)} ms`;

// The Rating column of the games' table on the page: a rated game's cell is
// its history entry's change (ordinal after − (μ − 3σ) before), signed; any
// other game's is "–" with a title saying why. At least one game is rated.
async function checkRatingColumn(page, games, histories, what) {
  const entryOf = (g) => histories.find((h) => h && h.ladder === g.ladder && Number(h.season) === Number(g.season))?.entries.find((e) => e.game_id === g.game_id);
  const wanted = games.map((g) => {
    const e = entryOf(g);
    return e ? (e.ordinal_after - (e.mu_before - 3 * e.sigma_before)).toFixed(2) : '';
  });
  const headers = await page.$$eval('table.games thead th', (th) => th.map((x) => x.textContent));
  expect(headers.includes('Rating'), `${what}: the games' table has no Rating column (${headers.join(', ')})`);
  const cells = await page.$$eval('table.games tr[data-game] td.rating-change', (tds) => tds.map((td) => ({ change: td.dataset.ratingChange, text: td.textContent, title: td.title })));
  expectSame(cells.map((c) => c.change), wanted, `${what}: the rating changes`);
  expect(wanted.some((w) => w !== ''), `${what}: none of the ${games.length} games is in the rating history`);
  for (const [i, c] of cells.entries()) {
    const w = Number(wanted[i]);
    const text = wanted[i] === '' ? '–' : `${w > 0 ? '+' : w < 0 ? '−' : '±'}${Math.abs(w).toFixed(2)}`;
    expect(c.text === text, `${what}: game ${games[i].game_id} shows "${c.text}", its history says "${text}"`);
    expect(wanted[i] !== '' || c.title.length > 0, `${what}: game ${games[i].game_id} shows "–" without saying why`);
  }
}

async function main() {
  const { browser, watch } = await t.launchChromium();
  try {
    const desktop = await browser.newContext(DESKTOP);
    const page = await desktop.newPage();
    watch(page);
    page.setDefaultTimeout(20000);

    // ---- The landing page, and the ladder the lobby and leaderboards open on ------------------
    await checkLanding(t, browser, watch);
    await checkLadderChoice(t, browser, watch);
    await checkAccount(t, browser);

    // ---- A leaderboard ----------------------------------------------------------------
    // The Leaderboards of the header: the main ladder's, not the first id's.
    await page.goto(`${GATEWAY}/`);
    await page.click('header nav a[data-nav="ladders"]');
    await page.waitForSelector('table[data-leaderboard] tbody tr[data-player]');
    expect(new URL(page.url()).pathname === '/ladders', `the header's Leaderboards opened ${page.url()}`);
    const ladder = await page.getAttribute('table[data-leaderboard]', 'data-leaderboard');
    expect(ladder === MAIN_LADDER, `/ladders opens on ${ladder}, not on the main ladder ${MAIN_LADDER}`);
    const board = await get(`/api/v1/ladders/${ladder}/leaderboard`);
    const shown = await page.$$eval('tr[data-player]', (rows) => rows.map((r) => r.dataset.player));
    expectSame(shown, board.entries.map((e) => e.name), 'leaderboard rows');
    await page.screenshot({ path: join(ARTIFACTS, 'leaderboard.png'), fullPage: true });
    // The name search narrows it down.
    await page.fill('[data-leaderboard-form] input[name="q"]', shown[0]);
    await page.press('[data-leaderboard-form] input[name="q"]', 'Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('q') && document.querySelector('main').dataset.shown === location.pathname + location.search);
    const found = await page.$$eval('tr[data-player]', (rows) => rows.map((r) => r.dataset.player));
    expectSame(found, [shown[0]], 'the leaderboard searched by name');

    // ---- A player -----------------------------------------------------------------------
    await page.click(`tr[data-player="${shown[0]}"] a`);
    await page.waitForSelector(`h1[data-player-name="${shown[0]}"]`);
    const player = await get(`/api/v1/players/${shown[0]}?games=20&history=500`);
    const points = await page.getAttribute('svg[data-chart="rating"]', 'data-points');
    expect(Number(points) === player.history.entries.length, `the rating chart has ${points} games, the history ${player.history.entries.length}`);
    const gameRows = await page.$$eval('table.games tr[data-game]', (rows) => rows.map((r) => r.dataset.game));
    expectSame(gameRows, player.recent_games.map((g) => g.game_id), 'recent games');
    const opponents = await page.$$eval('tr[data-opponent]', (rows) => rows.map((r) => r.dataset.opponent));
    expectSame(opponents, player.opponents.opponents.map((o) => o.name), 'frequent opponents');
    // The player's figures: a row per ladder's season they played, and the total.
    const boards = await page.$$eval('tr[data-stats-board]', (rows) => rows.map((r) => r.dataset.statsBoard));
    expectSame(boards, player.stats.boards.map((b) => (b.ladder === null ? '' : `${b.ladder}/${b.season}`)), 'the statistics rows');
    expect(player.stats.all.games > 0, 'a player of the leaderboard has games in their statistics');
    const allGames = await page.$eval('tr[data-stats-all] td', (td) => Number(td.textContent));
    expect(allGames === player.stats.all.games, `the statistics say ${allGames} games, the API ${player.stats.all.games}`);
    // What each recent game did to their rating (issue 31, item 5): the change of
    // the history's entry of that game, worked out here from the API's numbers;
    // "–" for a game the history read has no entry for.
    await checkRatingColumn(page, player.recent_games, [player.history], 'the profile');
    await page.screenshot({ path: join(ARTIFACTS, 'player.png'), fullPage: true });

    // ---- One of their games, stepped to the end ---------------------------------------------
    // The longest of them: the timing below runs over all its steps.
    const longest = player.recent_games.reduce((a, b) => (b.result.actions > a.result.actions ? b : a));
    await page.click(`tr[data-game="${longest.game_id}"] a.button`);
    await page.waitForSelector('.viewer[data-step="0"]');
    const game = await get(`/api/v1/games/${longest.game_id}`);
    const steps = game.steps;
    const hexes = await page.$$eval('[data-piece="hex"]', (els) => els.map((e) => Number(e.dataset.terrain)));
    expectSame(hexes, game.config.board.terrain, 'terrain');
    const harbors = await page.$$eval('[data-piece="harbor"]', (els) => els.map((e) => Number(e.dataset.type)));
    expectSame(harbors, game.config.board.harbor, 'harbors');
    await checkStep(page, game.game_id, 0);
    // The log in sentences (issue "Players come back", item 10): a line a step,
    // the engine's notation nowhere, and most lines naming who acted (an answer
    // owed by another seat is named when its step is shown: checked below).
    const logLines = await page.$$eval('[data-log] li', (li) => li.map((x) => ({ text: x.textContent.replace(/\s+/g, ' ').trim(), who: Boolean(x.querySelector('.who .seat-badge')) })));
    expect(logLines.length === steps, `the replay's log has ${logLines.length} lines for ${steps} steps`);
    const notation = logLines.filter((l) => /\b(build_road|build_settlement|build_city|end_turn|bank_trade|move_robber|buy_improvement)\b|^\d+\. (roll|dice)\b/.test(l.text));
    expect(notation.length === 0, `${notation.length} lines of the replay's log in the engine's notation, as "${notation[0]?.text}"`);
    const named = logLines.filter((l) => l.who).length;
    expect(named >= 0.7 * steps, `only ${named} of ${steps} lines of the replay's log name a seat`);
    // Its dice (docs/CHANCE.md): the page hashes the revealed seed with WebCrypto and
    // finds the commitment the game announced; the gateway replayed every outcome.
    expect(game.chance.version === 2 && game.chance.verified === true, `the game's chance: ${JSON.stringify(game.chance)}`);
    await page.waitForSelector('[data-chance="verified"]', { timeout: 5000 });
    expect(await page.textContent('[data-chance-verdict]') !== null, 'no dice verdict shown');

    // The keyboard: → steps on, ← back, End and Home jump.
    for (let s = 1; s <= 12; ++s) {
      await page.keyboard.press('ArrowRight');
      await checkStep(page, game.game_id, s);
    }
    await page.keyboard.press('ArrowLeft');
    await checkStep(page, game.game_id, 11);
    await page.keyboard.press('End');
    await checkStep(page, game.game_id, steps);
    await page.screenshot({ path: join(ARTIFACTS, 'replay-end.png'), fullPage: true });
    await page.keyboard.press('Home');
    await checkStep(page, game.game_id, 0);
    // Space plays, and again pauses.
    await page.keyboard.press(' ');
    await page.waitForFunction(() => window.metropolisViewer.step >= 3, null, { timeout: 15000 });
    await page.keyboard.press(' ');
    expect((await page.getAttribute('.viewer', 'data-playing')) === '0', 'space did not pause the replay');

    // Every step, timed: the render of a step (drawing, style and layout), and
    // the whole step with its fetch from the gateway.
    const timed = await page.evaluate(async (n) => {
      const v = window.metropolisViewer;
      v.takeTimings();
      const total = [];
      for (let s = 0; s <= n; ++s) {
        const t0 = performance.now();
        await v.goTo(s, { measure: true });
        total.push(performance.now() - t0);
      }
      return { render: v.takeTimings(), total };
    }, steps);
    expect(timed.render.length === steps + 1, `${timed.render.length} of ${steps + 1} steps were drawn`);
    const timing =
      `stepping game ${game.game_id}, ${steps} steps: render median ${fmt(quantile(timed.render, 0.5))}, ` +
      `p99 ${fmt(quantile(timed.render, 0.99))}, max ${fmt(Math.max(...timed.render))}; ` +
      `with the fetch: median ${fmt(quantile(timed.total, 0.5))}, p99 ${fmt(quantile(timed.total, 0.99))}`;
    console.log(`browser_test: ${timing}`);
    await checkStep(page, game.game_id, steps);
    // Several steps, chosen across the game.
    const sample = [1, 2, 3, 8, Math.floor(steps / 4), Math.floor(steps / 2), Math.floor((3 * steps) / 4), steps - 1, steps];
    for (const s of sample) {
      await page.evaluate((x) => window.metropolisViewer.goTo(x), s);
      const at = await checkStep(page, game.game_id, s);
      // The line of a step shown names the seat its events say acted.
      const acted = at.events.find((e) => e.type === 'EVENT_ACTION');
      if (acted?.seat >= 0) {
        const badge = await page.$eval(`[data-log] li[data-step="${s}"]`, (li) => li.querySelector('.who .seat-badge')?.textContent ?? li.textContent);
        expect(badge === 'ABCD'[acted.seat], `the log's line of step ${s} names ${badge}, the step's actor is seat ${'ABCD'[acted.seat]}`);
      }
    }
    // A seat's view, after the game: the hands are that seat's to see.
    await page.selectOption('select[data-viewer]', '2');
    const seatView = await checkStep(page, game.game_id, steps, 2);
    const handShown = await page.$eval('.seat[data-seat="2"]', (el) => el.textContent);
    const hand = seatView.view.position.players[2].hand;
    expect(hand.every((n) => n === 0) || handShown.includes('hand:'), "seat C's own view does not show its hand");

    // ---- A step's link, opened directly (on a phone) -------------------------------------------
    const mid = Math.floor(steps / 3);
    await page.evaluate((x) => window.metropolisViewer.goTo(x), mid);
    await page.waitForSelector(`.viewer[data-step="${mid}"]`);
    const link = await page.$eval('[data-step-link]', (a) => a.href);
    expect(link.endsWith(`?step=${mid}&viewer=2`), `the step link is ${link}`);
    const phone = await browser.newContext(PHONE);
    const direct = await phone.newPage();
    watch(direct);
    await direct.goto(link);
    await checkStep(direct, game.game_id, mid, 2);
    const overflow = await direct.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow <= 1, `the phone page scrolls sideways by ${overflow}px`);
    await direct.screenshot({ path: join(ARTIFACTS, 'replay-phone.png'), fullPage: true });
    // Every page looked at on the phone (item 14): tap targets of 44 px inside
    // the screen, tables' wrappers inside it, chart labels of 11 px or more.
    // The faults of all the pages are gathered, then checked together.
    const phoneFaultsSeen = [];
    const noteFaults = async (what) => phoneFaultsSeen.push(...(await phoneFaults(direct)).map((f) => `${what}: ${f}`));
    await noteFaults('the replay');
    await openLanding(t, direct);
    await direct.screenshot({ path: join(ARTIFACTS, 'home-phone.png'), fullPage: true });
    await noteFaults('the landing page');
    await direct.goto(`${GATEWAY}/ladders/${ladder}`);
    await direct.waitForSelector('tr[data-player]');
    await direct.screenshot({ path: join(ARTIFACTS, 'leaderboard-phone.png'), fullPage: true });
    await noteFaults('the leaderboard');
    await direct.goto(`${GATEWAY}/games`);
    await direct.waitForSelector('table.games tr[data-game]');
    await direct.screenshot({ path: join(ARTIFACTS, 'games-phone.png'), fullPage: true });
    await noteFaults('the games');
    await direct.goto(`${GATEWAY}/players/${shown[0]}`);
    await direct.waitForSelector('svg[data-chart="rating"]');
    await direct.screenshot({ path: join(ARTIFACTS, 'player-phone.png'), fullPage: true });
    await noteFaults('a player');
    await direct.goto(`${GATEWAY}/tournaments/${env('METROPOLIS_TOURNAMENT')}`);
    await direct.waitForSelector('tr[data-standing] svg.interval');
    await direct.screenshot({ path: join(ARTIFACTS, 'tournament-phone.png'), fullPage: true });
    await noteFaults('a tournament');
    const standingsCut = await direct.$eval('table.standings', (t) => t.parentElement.scrollWidth - t.parentElement.clientWidth);
    if (standingsCut > 1) phoneFaultsSeen.push(`a tournament: the standings run ${standingsCut} px past the screen`);
    if (phoneFaultsSeen.length) console.log(`browser_test: on a phone:\n  ${phoneFaultsSeen.join('\n  ')}`);
    expect(phoneFaultsSeen.length === 0, `${phoneFaultsSeen.length} things do not fit a phone, as ${phoneFaultsSeen[0]}`);
    await phone.close();

    // ---- The game browser -----------------------------------------------------------------------
    await page.goto(`${GATEWAY}/games?player=${shown[0]}`);
    await page.waitForSelector('table.games tr[data-game]');
    const filtered = await get(`/api/v1/games?player=${shown[0]}`);
    const browsed = await page.$$eval('table.games tr[data-game]', (rows) => rows.map((r) => r.dataset.game));
    expectSame(browsed, filtered.games.map((g) => g.game_id), 'the game browser filtered by player');
    // The filtered player's rating changes, from their history on each ladder's season of the page.
    const ratedBoards = [...new Set(filtered.games.filter((g) => g.ladder).map((g) => `${g.ladder}/${g.season}`))];
    const histories = await Promise.all(ratedBoards.map(async (b) => {
      const [l, s] = b.split('/');
      return { ...(await get(`/api/v1/players/${shown[0]}/history?ladder=${l}&season=${s}&limit=500`)), season: Number(s) };
    }));
    await checkRatingColumn(page, filtered.games, histories, 'the game browser filtered by player');
    await page.screenshot({ path: join(ARTIFACTS, 'games.png'), fullPage: true });

    // ---- Tournament standings ---------------------------------------------------------------------
    const tournamentId = env('METROPOLIS_TOURNAMENT');
    await page.goto(`${GATEWAY}/tournaments`);
    await page.click(`tr[data-tournament="${tournamentId}"] a`);
    await page.waitForSelector('tr[data-standing] svg.interval');
    const tournament = await get(`/api/v1/tournaments/${tournamentId}`);
    const bars = await page.$$eval('tr[data-standing]', (rows) =>
      rows.map((r) => {
        const svg = r.querySelector('svg.interval');
        return `${r.dataset.standing} ${svg.dataset.score} ${svg.dataset.ciLow} ${svg.dataset.ciHigh}`;
      }),
    );
    expectSame(bars, tournament.standings.map((s) => `${s.name} ${s.score} ${s.ci_low ?? ''} ${s.ci_high ?? ''}`), 'standings');
    expect(tournament.standings.every((s) => s.ci_low !== null), 'an entrant of the finished tournament has no interval');
    // Every pair of the four entrants met at the one table, in all four games.
    const pairs = await page.$$eval('table.pairs tr[data-pair]', (rows) => rows.map((r) => r.dataset.pair));
    expectSame(pairs, tournament.pairs.map((p) => `${p.a.name} ${p.b.name}`), 'pairs');
    expect(tournament.pairs.length === 6 && tournament.pairs.every((p) => p.shared === 4), 'the pairs of a round robin of four');
    await page.screenshot({ path: join(ARTIFACTS, 'tournament.png'), fullPage: true });
    // A tournament taking registrations: listed with its start and period, and
    // its page says who entered, the room left and how to enter.
    const registeringId = env('METROPOLIS_REGISTERING');
    const registering = await get(`/api/v1/tournaments/${registeringId}`);
    await page.goto(`${GATEWAY}/tournaments`);
    const listed = await page.$eval(`tr[data-tournament="${registeringId}"]`, (r) => r.textContent);
    expect(/registering/.test(listed) && /every 1 day/.test(listed), `the list row of a recurring registration: ${listed}`);
    expect((await page.$eval(`tr[data-tournament="${registeringId}"] a`, (a) => a.getAttribute('href'))) === `/tournaments/${registeringId}`,
      'the registering tournament links to its page');
    await page.goto(`${GATEWAY}/tournaments/${registeringId}`);
    await page.waitForSelector(`section[data-registration="${registeringId}"]`);
    const section = await page.$eval('section[data-registration]', (s) => s.textContent);
    expect(section.includes(`1 of ${registering.max_entrants}`) && section.includes('join-tournament') && section.includes('recurs every 1 day'),
      `the registration section: ${section}`);
    expectSame(await page.$$eval('section[data-registration] ul.entrants li', (items) => items.map((i) => i.textContent)),
      registering.entrants.map((e) => e.name), 'the entrants of the registration');
    // An arena says until when it pairs, not a count of games to come.
    const arenaId = env('METROPOLIS_ARENA');
    const arena = await get(`/api/v1/tournaments/${arenaId}`);
    expect(arena.format === 'arena' && arena.arena_ends_unix_ms > arena.starts_unix_ms, `the arena's end: ${arena.arena_ends_unix_ms}`);
    await page.goto(`${GATEWAY}/tournaments/${arenaId}`);
    // The page draws itself once the tournament is fetched: wait for it (on a
    // loaded machine the fetch outlasted the navigation).
    await page.waitForSelector('p.meta');
    const arenaMeta = await page.$eval('p.meta', (p) => p.textContent);
    expect(/pairing until/.test(arenaMeta) && !/of 0 games/.test(arenaMeta), `the arena's progress: ${arenaMeta}`);

    // ---- The replay's analysis ----------------------------------------------------------------------
    // A game of bots is analysed when someone asks: a person signs up (in a
    // context of their own, which asks for less motion) and presses the button;
    // the replays service's worker computes it. Its marks and points then move
    // the replay. On a phone the page still does not scroll sideways.
    const analyst = await browser.newContext({ ...DESKTOP, reducedMotion: 'reduce' });
    const analysis = await checkReplayAnalysis(t, analyst, game.game_id, watch, { checkStep, shots: ARTIFACTS });
    await analyst.close();
    const phoneAgain = await browser.newContext(PHONE);
    const small = watch(await phoneAgain.newPage());
    await small.goto(`${GATEWAY}/games/${game.game_id}`);
    await waitForAnalysis(t, small, game.game_id);
    const wide = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wide <= 1, `the replay with its analysis scrolls sideways by ${wide}px on a phone`);
    await small.screenshot({ path: join(ARTIFACTS, 'analysis-phone.png'), fullPage: true });
    const chartFaults = await phoneFaults(small);
    expect(chartFaults.length === 0, `the replay with its analysis on a phone: ${chartFaults.slice(0, 5).join('; ')}`);
    await phoneAgain.close();
    console.log(`browser_test: game ${game.game_id} analysed on request: ${analysis.graph.length} points, ${analysis.marks.length} marks`);

    // ---- A live game, followed to its end ----------------------------------------------------------
    // Created now, not before the test: a seat that waits too long is played by
    // the host's fallback bot.
    const [createCommand, ...createArgs] = JSON.parse(env('METROPOLIS_LIVE_CREATE'));
    const created = JSON.parse(execFileSync(createCommand, createArgs, { encoding: 'utf8' }));
    const liveId = created.game_id;
    await page.goto(`${GATEWAY}/live`);
    await page.waitForSelector(`tr[data-live-game="${liveId}"]`);
    await page.click(`tr[data-live-game="${liveId}"] a.button`);
    await page.waitForSelector(`.viewer[data-live="1"][data-step]`);
    // Every step the page draws, as it draws it.
    await page.evaluate(() => {
      const el = document.querySelector('.viewer');
      window.liveStepsDrawn = new Set([el.dataset.step]);
      new MutationObserver(() => window.liveStepsDrawn.add(el.dataset.step)).observe(el, { attributeFilter: ['data-step'] });
      // Every seat whose clock was shown running (issue 31, item 2: every seat's clock).
      window.clocksRunning = new Set();
      new MutationObserver((changes) => {
        for (const c of changes) if (c.target.dataset?.running === '1') window.clocksRunning.add(c.target.dataset.seatClock);
      }).observe(el.querySelector('[data-seats]'), { subtree: true, attributeFilter: ['data-running'] });
    });
    const [command, ...args] = JSON.parse(env('METROPOLIS_LIVE_BOT'));
    const bot = spawn(command, [...args, '--game', liveId, '--token', created.seat_tokens[0]], { stdio: ['ignore', 'ignore', 'pipe'] });
    let botErr = '';
    bot.stderr.on('data', (d) => (botErr += d));
    const botDone = new Promise((resolve) => bot.on('exit', resolve));
    const deadline = Date.now() + 240000;
    let shot = false;
    while (!(await page.evaluate(() => window.metropolisLive?.over))) {
      if (Date.now() > deadline) throw new Error('the live game did not end within 4 minutes');
      if (!shot && (await page.evaluate(() => window.liveStepsDrawn.size)) >= 3) {
        await page.screenshot({ path: join(ARTIFACTS, 'live-playing.png'), fullPage: true });
        shot = true;
      }
      await page.waitForTimeout(100);
    }
    const code = await botDone;
    expect(code === 0, `the live game's bot exited ${code}: ${botErr.slice(0, 400)}`);
    const drawn = await page.evaluate(() => window.liveStepsDrawn.size);
    expect(drawn >= 3, `the live viewer drew only ${drawn} different steps while the game was played`);
    await page.waitForSelector('[data-game-over]');
    // The last view drawn is the final position: compare it with the stored game's.
    const stored = await t.stored(liveId, 100, 100);
    expect(stored, 'the live game was not stored');
    await page.waitForSelector(`.viewer[data-step="${stored.steps}"]`);
    const final = await get(`/api/v1/games/${liveId}/positions/${stored.steps}`);
    expectSame(await drawnPieces(page), expectedPieces(final.view.position), 'the live game at its end');
    const liveLog = await page.$$eval('[data-log] li', (els) => els.length);
    expect(liveLog === stored.steps, `the live log has ${liveLog} actions, the game ${stored.steps}`);
    // The network bot's seat (0) had its clock shown running while it decided;
    // at the end every clock stands still and shows its bank.
    const running = await page.evaluate(() => [...window.clocksRunning]);
    expectSame(running, ['0'], "the seats whose clocks the live page showed running (only seat 0 is played over the network)");
    const clocks = await page.$$eval('[data-seat-clock]', (els) => els.map((c) => `${c.dataset.seatClock}:${c.dataset.running === '1' ? 'running' : c.textContent}`));
    expect(clocks.length === 4 && clocks.every((c) => /^\d:bank \d+:\d\d$/.test(c)), `the live page's clocks at the end: ${clocks.join(', ')}`);
    await page.screenshot({ path: join(ARTIFACTS, 'live-end.png'), fullPage: true });

    t.expectNoPageErrors();
    console.log(`browser_test: ${t.checks()} checks passed; live game ${liveId} of ${stored.steps} steps followed, ${drawn} of its positions drawn`);
  } finally {
    await browser.close();
  }
}

t.run(main);
