// The browser checks of friends' tables (issue "players come back", item 3),
// run by tests/browser/play_test.sh after play.mjs, on the same stack. The
// script passes, in the environment:
//
//   METROPOLIS_GATEWAY         the gateway's address, serving web/app
//   METROPOLIS_CHROMIUM        the Chromium binary
//   METROPOLIS_ARTIFACTS       where screenshots go
//   METROPOLIS_CASUAL_LADDER   a 4-seat ladder with a season open, ranking a
//                              player after one game, where nobody queues
//
// dee (a laptop) creates a 4-seat table in the lobby, rated on the casual
// ladder, the heuristic bot for the empty seats, 60 s a decision; eli (a phone)
// opens the link dee's page shows and joins; dee starts, and both pages open
// the round's game by themselves. They play by clicking what the page offers
// (lib/playing.mjs, as play.mjs's two people do) until one has offered the
// other a trade the other accepted; then one resigns. Both see the game-over
// summary (the VP by source, the stored places, the rating change on the
// ladder), go "Back to the table", where the round's game does not open again;
// a rematch opens round 2's game for both. On the phone, the table's actions
// and the play page's Roll or End turn are on the screen without scrolling
// sideways.
import { join } from 'node:path';
import { browserTest, DESKTOP, PHONE, sleep, phoneFaults } from './lib/harness.mjs';
import { playing } from './lib/playing.mjs';

const t = browserTest('play_test');
const { env, expect, get, ok } = t;
const GATEWAY = t.gateway;
const ARTIFACTS = t.artifacts;
const LADDER = env('METROPOLIS_CASUAL_LADDER');
const { signUp, offered, decide, checkSummary, playTogether, checkRatingChange } = playing(t, { shots: 'friends' });

// Whether the element lies across the window's width (not past either side),
// and how far the page scrolls sideways.
function acrossWidth(page, selector) {
  return page.evaluate((sel) => {
    const e = document.querySelector(sel);
    const r = e?.getBoundingClientRect();
    return {
      found: !!e,
      inside: !!r && r.width > 0 && r.left >= 0 && r.right <= window.innerWidth,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    };
  }, selector);
}

// The page of the table's game for round `round`, opened by the table's page.
function atGame(page, tableId, round) {
  const gameId = `table-${tableId}-${round}`;
  return page.waitForFunction(
    (id) => location.pathname === `/play/${id}` && window.metropolisPlay?.gameId === id,
    gameId,
    { timeout: 30000 },
  );
}

const actionsOf = (page) => page.$$eval('[data-table-actions] [data-table-action]', (as) => as.map((a) => a.dataset.tableAction));

async function main() {
  const { browser, watch: watchErrors } = await t.launchChromium({ quiet: /401|Unauthorized/ });
  const watch = (page) => {
    watchErrors(page);
    page.setDefaultTimeout(30000);
    return page;
  };
  const started = Date.now();
  const open = [];
  try {
    const dee = watch(await (await browser.newContext(DESKTOP)).newPage());
    const eli = watch(await (await browser.newContext(PHONE)).newPage());
    open.push(dee, eli);
    await signUp(dee, 'dee');
    await signUp(eli, 'eli');

    // ---- (1) dee sets up a table in the lobby ------------------------------------------------------
    await dee.goto(`${GATEWAY}/play`);
    const form = '[data-table-form]';
    await dee.selectOption(`${form} select[name="seats"]`, '4');
    await dee.selectOption(`${form} select[name="ruleset"]`, 'cities_and_knights');
    await dee.selectOption(`${form} select[name="bot"]`, 'heuristic');
    await dee.fill(`${form} input[name="decision_s"]`, '60');
    await dee.fill(`${form} input[name="ladder"]`, LADDER);
    await dee.fill(`${form} input[name="spectator_delay_min"]`, '0');
    await dee.click('[data-table-create]');
    await dee.waitForFunction(() => /^\/tables\/[^/]+$/.test(location.pathname) && document.querySelector('[data-table-link]'));
    const tableId = await dee.evaluate(() => decodeURIComponent(location.pathname.split('/')[2]));
    const link = await dee.inputValue('[data-table-link]');
    expect(link === `${GATEWAY}/tables/${tableId}`, `the table's link reads ${link}, not ${GATEWAY}/tables/${tableId}`);
    const created = await get(`/api/v1/tables/${tableId}`);
    expect(created.state === 'open' && created.settings.ladder === LADDER && created.settings.seats === 4 && created.settings.bot === 'heuristic' && created.settings.decision_ms === 60000,
      `the table was created as ${JSON.stringify(created)}`);
    const rules = await dee.$$eval('[data-table-settings] [data-setting]', (li) => Object.fromEntries(li.map((l) => [l.dataset.setting, l.textContent])));
    expect(rules.ladder === `Rated on the ladder ${LADDER}` && /heuristic bot/.test(rules.seats) && /^1 min for each decision/.test(rules.clock), `the table's rules read ${JSON.stringify(rules)}`);
    expect(JSON.stringify(await actionsOf(dee)) === '["start"]', `dee, the creator, is offered ${await actionsOf(dee)}`);
    await dee.screenshot({ path: join(ARTIFACTS, 'friends-table-open.png'), fullPage: true });

    // ---- (2) Signed out, the link asks to sign in and comes back; eli joins on a phone ---------------
    const visitor = watch(await (await browser.newContext(DESKTOP)).newPage());
    await visitor.goto(link);
    await visitor.waitForSelector(`[data-table-action="signin"][href="/signin?next=/tables/${tableId}"]`);
    await visitor.context().close();
    ok();
    await eli.goto(link);
    await eli.waitForSelector('[data-table-action="join"]');
    const join1 = await acrossWidth(eli, '[data-table-action="join"]');
    expect(join1.inside && join1.overflow <= 1, `on a phone the table's Join is not across the screen: ${JSON.stringify(join1)}`);
    const faults = await phoneFaults(eli);
    expect(faults.length === 0, `the table's page on a phone: ${faults.slice(0, 5).join('; ')}`);
    await eli.click('[data-table-action="join"]');
    await eli.waitForSelector('[data-table-action="leave"]');
    // The page asks again every 2 s and keeps the keyboard's focus: after the
    // join it is on the action that replaced Join, and stays there.
    await sleep(2500);
    const focused = await eli.evaluate(() => document.activeElement?.dataset.tableAction ?? document.activeElement?.tagName);
    expect(focused === 'leave', `after joining and a refresh eli's focus is on ${focused}, not Leave`);
    await eli.screenshot({ path: join(ARTIFACTS, 'friends-table-phone.png'), fullPage: true });
    await dee.waitForSelector('[data-table-person="eli"]', { timeout: 10000 });
    const hint = await dee.textContent('[data-action-hint="start"]');
    expect(hint === '2 empty seats go to the heuristic bot (a sound beginner).', `dee's Start says "${hint}"`);

    // ---- (3) dee starts: both pages open the round's game ------------------------------------------
    await dee.click('[data-table-action="start"]');
    await Promise.all([atGame(dee, tableId, 1), atGame(eli, tableId, 1)]);
    const gameId = `table-${tableId}-1`;
    const seats = { dee: await dee.evaluate(() => window.metropolisPlay.seat), eli: await eli.evaluate(() => window.metropolisPlay.seat) };
    expect(seats.dee !== seats.eli, `dee and eli hold one seat (${seats.dee})`);
    const playing1 = await get(`/api/v1/tables/${tableId}`);
    expect(playing1.state === 'playing' && playing1.game_id === gameId && playing1.seating.filter((s) => s.bot).length === 2,
      `the started table reads ${JSON.stringify(playing1)}`);
    console.log(`play_test: friends' table ${tableId} started in ${((Date.now() - started) / 1000).toFixed(1)} s: dee at seat ${seats.dee}, eli at seat ${seats.eli}`);

    // ---- (4) They play; one offers the other a trade the other accepts --------------------------------
    const people = [
      { name: 'dee', page: dee, seat: seats.dee },
      { name: 'eli', page: eli, seat: seats.eli },
    ];
    let phoneTurn = false;
    const together = await playTogether(people, {
      what: "the friends' game",
      // Until the trade, and a turn of eli's on the phone (a trade in dee's
      // first turn may come before it).
      stop: (s) => !!s.traded && phoneTurn,
      // On the phone the turn's buttons are on the screen without scrolling sideways.
      async before(me, o) {
        const button = o.legal?.includes('roll') ? 'roll' : o.legal?.includes('end_turn') && !o.dialog ? 'end_turn' : null;
        if (me.page !== eli || phoneTurn || !button) return false;
        const shown = await acrossWidth(eli, `[data-turn="${button}"]`);
        expect(shown.found && shown.inside && shown.overflow <= 1, `on a phone the play page's ${button} is not across the screen: ${JSON.stringify(shown)}`);
        phoneTurn = true;
        await eli.screenshot({ path: join(ARTIFACTS, 'friends-play-phone.png') });
        return false;
      },
    });
    expect(together.traded && !together.over, `the friends' game ended ${together.traded ? 'before eli had a turn on the phone' : 'without a trade'}`);
    expect(phoneTurn, 'eli was never offered Roll or End turn on the phone');

    // ---- (5) One of them resigns: both see the summary, the VP by source and the rating change -------
    // The resignation is clicked on the page of the person whose turn it is,
    // outside a dialog: nobody can raise a prompt on it meanwhile (a modal
    // dialog keeps the page under it from being clicked). A prompt due is
    // answered first.
    let resigner = null;
    for (let i = 0; i < 80 && !resigner; ++i) {
      let answered = false;
      for (const me of people) {
        const o = await offered(me.page);
        if (o.step === undefined) continue;
        if (!o.dialog) {
          resigner = me;
          break;
        }
        if (!answered) {
          await decide(me.page, o, { next: false });
          answered = true;
        }
      }
      if (!resigner && !answered) await sleep(250);
    }
    expect(resigner, 'neither person had a decision outside a dialog to resign at');
    await resigner.page.click('[data-resign]');
    await resigner.page.click('[data-resign-confirm]');
    for (const me of people) await me.page.waitForSelector('[data-game-summary]', { timeout: 20000 });
    const said = (await resigner.page.textContent('[data-game-summary]')).replace(/\s+/g, ' ');
    expect(said.includes(`${resigner.name} (you) resigned`), `the resigned game's summary says "${said.slice(0, 80)}"`);
    const stored = await t.stored(gameId, 150, 200);
    expect(stored?.result?.reason === 'resigned' && stored.result.resigned_seat === resigner.seat && stored.ladder === LADDER,
      `game ${gameId} is stored with ${JSON.stringify(stored?.result)} on ladder ${stored?.ladder}, not resigned by seat ${resigner.seat} on ${LADDER}`);
    for (const me of people) {
      await checkSummary(me.page, gameId, me.seat, stored);
      const change = await checkRatingChange(me.page, me.name, gameId, LADDER);
      console.log(`play_test: friends' game ${gameId}: ${me.name}'s summary shows the VP by source and a rating change of ${change}`);
    }
    await eli.screenshot({ path: join(ARTIFACTS, 'friends-over-phone.png'), fullPage: true });

    // ---- (6) Back to the table, where the game does not open again; a rematch opens round 2 ------------
    for (const me of people) {
      const back = await me.page.getAttribute('[data-game-summary] a[data-back-to-table]', 'href');
      expect(back === `/tables/${tableId}`, `${me.name}'s "Back to the table" goes to ${back}`);
      await me.page.click('[data-game-summary] a[data-back-to-table]');
      await me.page.waitForSelector('[data-table-action="rematch"]', { timeout: 15000 });
    }
    await sleep(2500);
    for (const me of people) {
      const path = await me.page.evaluate(() => location.pathname);
      expect(path === `/tables/${tableId}`, `back at the table, ${me.name}'s page went on to ${path}`);
    }
    await dee.screenshot({ path: join(ARTIFACTS, 'friends-table-over.png'), fullPage: true });
    await eli.click('[data-table-action="rematch"]');
    await Promise.all([atGame(dee, tableId, 2), atGame(eli, tableId, 2)]);
    const round2 = await get(`/api/v1/tables/${tableId}`);
    expect(round2.round === 2 && round2.game_id === `table-${tableId}-2` && round2.state === 'playing', `after the rematch the table reads ${JSON.stringify(round2)}`);

    t.expectNoPageErrors();
    console.log(`play_test: friends' table: ${t.checks()} checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
      `(the game to its trade in ${(together.ms / 1000).toFixed(1)} s; ${together.traded.from} offered, the other accepted; ${resigner.name} resigned)`);
  } catch (e) {
    for (const [i, page] of open.entries()) {
      // The refusal a form or the table's page shows, first: it says most.
      const shown = await page.evaluate(() => {
        const refused = [...document.querySelectorAll('.form-error, [data-rejected]:not([hidden])')].map((e) => e.textContent.trim()).filter(Boolean).join(' | ');
        return `${location.pathname}: ${refused ? `(refused: ${refused}) ` : ''}${document.querySelector('main')?.innerText.slice(0, 400).replace(/\s+/g, ' ')}`;
      }).catch(() => '?');
      console.error(`play_test: friends' page ${i} at ${shown}`);
      await page.screenshot({ path: join(ARTIFACTS, `friends-failed-${i}.png`), fullPage: true }).catch(() => {});
    }
    throw e;
  } finally {
    await browser.close();
  }
}

t.run(main);
