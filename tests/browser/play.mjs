// The browser checks of tests/browser/play_test.sh: people playing from the web
// app. The script brings up the stack and passes, in the environment:
//
//   METROPOLIS_GATEWAY     the gateway's address, serving web/app
//   METROPOLIS_CHROMIUM    the Chromium binary
//   METROPOLIS_ARTIFACTS   where screenshots go
//   METROPOLIS_LADDER      a 4-seat ladder where two network bots are queued,
//                          ranking a player after one game
//
// Every decision is taken by clicking what the page offers: a highlighted place
// on the board (intersection, edge, hex, knight) for every action that lives
// there, the prompt's or the panel's buttons for the rest. Nothing is answered
// through the API. The board is compared, at several steps, with the stored
// game's positions as the seat saw them, which the replays service computes
// with the engine. The practice game's analysis, computed by the replays
// service as the game is stored, must come to its game-over screen
// (analysis.mjs waits for it), and then count in the luck panel of the
// player's page (on a phone too). Timings are printed, never asserted.
import { join } from 'node:path';
import { browserTest, DESKTOP, PHONE, sleep, quantile, expectedPieces, drawnPieces, phoneFaults } from './lib/harness.mjs';
import { playing } from './lib/playing.mjs';
import { waitForAnalysis, checkDrawn } from './analysis.mjs';

const t = browserTest('play_test');
const { env, expect, expectSame, get, ok } = t;
const GATEWAY = t.gateway;
const ARTIFACTS = t.artifacts;
const LADDER = env('METROPOLIS_LADDER');
// Signing up, reading and taking decisions by clicking, two people trading,
// the game-over summary (lib/playing.mjs, shared with friends.mjs).
const { stats, signUp, offered, decide, nextDecision, compareWithStored, checkSummary, inViewport, playTogether, checkRatingChange } = playing(t);

// The targets say what a click does (their accessible name and tooltip), and
// those around a piece leave it seen: at a few points of each piece at a target
// (a building or a knight at a node, a number token on a hex) the piece is what
// the pointer finds, under nothing painted more than faintly.
function targetFaults(page) {
  return page.evaluate(() => {
    const faults = [];
    let pieces = 0;
    const alpha = (paint) => {
      if (!paint || paint === 'none' || paint === 'transparent') return 0;
      const m = /rgba?\(([^)]+)\)/.exec(paint);
      return m ? Number(m[1].split(',')[3] ?? 1) : 1;
    };
    const shown = (e) => {
      const cs = getComputedStyle(e);
      let opacity = 1;
      for (let a = e; a && a.nodeType === 1; a = a.parentElement) opacity *= Number(getComputedStyle(a).opacity);
      return Math.max(alpha(cs.fill) * Number(cs.fillOpacity), alpha(cs.stroke) * Number(cs.strokeOpacity)) * opacity;
    };
    for (const t of document.querySelectorAll('.board [data-target]')) {
      const label = t.getAttribute('aria-label') ?? '';
      const title = t.querySelector('title')?.textContent ?? '';
      if (!/^[A-Z0-9]/.test(label) || title !== label) faults.push(`${t.dataset.target}: label "${label}", tooltip "${title}"`);
      if (/settlement/i.test(label) && /^Build/.test(label) && !/^(\d+ choices here: )?Build a settlement here \((brick, lumber, wool, grain|free in the setup)\)/.test(label)) faults.push(`${t.dataset.target}: "${label}"`);
      const [kind, id] = t.dataset.target.split(':');
      const sel = kind === 'node'
        ? `.board .pieces [data-node="${id}"]:is([data-piece="settlement"], [data-piece="city"], [data-piece="knight"])`
        : kind === 'hex' ? `.board .pieces [data-piece="token"][data-hex="${id}"]` : null;
      if (!sel || t.classList.contains('selected')) continue;
      for (const piece of document.querySelectorAll(sel)) {
        ++pieces;
        piece.scrollIntoView({ block: 'center', inline: 'center' });
        const r = piece.getBoundingClientRect();
        for (const [fx, fy] of [[0.5, 0.5], [0.3, 0.5], [0.7, 0.5], [0.5, 0.3], [0.5, 0.7]]) {
          const stack = document.elementsFromPoint(r.left + r.width * fx, r.top + r.height * fy);
          const at = stack.findIndex((e) => piece.contains(e));
          const over = at < 0 ? [] : stack.slice(0, at).filter((e) => shown(e) > 0.1);
          if (at < 0) faults.push(`the ${piece.dataset.piece} at ${t.dataset.target} is not found at (${fx}, ${fy}) of it`);
          else if (over.length) faults.push(`the ${piece.dataset.piece} at ${t.dataset.target} is under ${over.map((e) => `${e.tagName}.${e.getAttribute('class')}`).join(', ')}`);
        }
      }
    }
    return { faults, pieces };
  });
}


// The board drawn at some decisions, kept to compare with the stored game.
async function snapshot(page, o, list) {
  await page.waitForFunction((s) => document.querySelector('.viewer').dataset.decision === String(s), o.step);
  list.push({ step: o.viewStep, pieces: await drawnPieces(page) });
}



const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// A move leaves the page where it was: the log scrolls inside its own box, and
// the turn's buttons stay on the screen. Rolls from the top of the page, waits
// for the next decision, and compares.
async function rollKeepsScroll(page, o) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await frames(page);
  expect(await inViewport(page, '[data-turn="roll"]'), `step ${o.step}: the Roll button is not on the screen at the top of the page`);
  const logBefore = await page.$$eval('[data-log] li', (li) => li.length);
  await decide(page, o);
  // The roll's lines are in the log, and the log has had its frame to follow them.
  await page.waitForFunction((n) => document.querySelectorAll('[data-log] li').length > n, logBefore);
  await frames(page);
  const after = await page.evaluate(() => window.scrollY);
  expect(after === 0, `step ${o.step}: rolling scrolled the page to ${after}px`);
  const next = await offered(page);
  if (next.legal?.includes('end_turn') && !next.dialog) {
    expect(await inViewport(page, '[data-turn="end_turn"]'), `step ${next.step}: after the roll End turn is off the screen`);
  }
}

// Every bank trade the panel offers says its rate before it is sent, and the
// first one is made: the hand pays what the button said.
async function checkBankTrade(page, o, trade) {
  const form = await page.evaluate(() => {
    const f = document.querySelector('[data-bank-form]');
    if (!f) return null;
    const send = f.querySelector('[data-bank-send]');
    return { gives: [...f.elements.give.options].map((x) => x.textContent), give: f.elements.give.value, take: f.elements.take.selectedOptions[0]?.textContent, button: send.textContent, rate: Number(send.dataset.bankRate) };
  });
  expect(form, `step ${o.step}: bank trades are legal but no bank form shows`);
  expect(form.gives.every((g) => /^\w+ \([234]:1( or [234]:1)*\)$/.test(g)), `step ${o.step}: a card to give shows no rate: ${form.gives.join(', ')}`);
  const m = form.button.match(/^Trade ([234]) (\w+) → 1 (\w+) \(([234]):1\)$/);
  expect(m && m[1] === m[4] && Number(m[1]) === form.rate && m[2] === form.give && m[3] === form.take,
    `step ${o.step}: the bank trade's button says "${form.button}" for ${form.give} -> ${form.take}`);
  if (!trade || !o.legal.includes('end_turn') || o.dialog) return false;
  const names = ['brick', 'lumber', 'wool', 'grain', 'ore', 'cloth', 'coin', 'paper'];
  const give = names.indexOf(form.give);
  const take = names.indexOf(form.take);
  await page.click('[data-bank-send]');
  await page.waitForFunction((step) => { const p = window.metropolisPlay; return p.over || (p.decision && p.decision.step !== step) || !document.querySelector('[data-rejected]').hidden; }, o.step);
  const after = await offered(page);
  expect(!after.rejected, `step ${o.step}: the bank trade was refused: ${after.rejected}`);
  expect(after.hand[give] === o.hand[give] - form.rate && after.hand[take] === o.hand[take] + 1,
    `step ${o.step}: "${form.button}" took the hand from ${o.hand.join(' ')} to ${after.hand.join(' ')}`);
  console.log(`play_test: bank trade made in the practice game: ${form.button}`);
  return true;
}

// The table talks like a board game (issue 31, item 2), at ann's first
// decision: the tab's title says it is her turn, the building-cost card opens
// with C&K's costs, and the sound is off until she switches it on (kept in
// localStorage, beeping once then). Titles are recorded from here on, to see
// the mark go once she answers.
async function checkTableAtStart(page) {
  // The router titles the page once it is drawn; the mark follows within the page's clock tick.
  await page.waitForFunction(() => document.title.startsWith('● Your turn · '), null, { timeout: 3000 }).catch(() => {});
  const title = await page.evaluate(() => document.title);
  expect(title.startsWith('● Your turn · '), `at ann's first decision the tab's title is "${title}"`);
  await page.evaluate(() => {
    window.titles = [document.title];
    new MutationObserver(() => window.titles.push(document.title)).observe(document.querySelector('title'), { childList: true, characterData: true, subtree: true });
  });
  expect(!(await page.$('[data-costs][open]')), 'the building-cost card is open before it is asked for');
  await page.click('[data-costs] summary');
  const costs = await page.$$eval('[data-costs="cities-and-knights"][open] tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim()).join(' ')));
  for (const row of ['Road 1 brick + 1 lumber', 'City wall 2 brick', 'Knight: promote one level 1 wool + 1 ore', 'Knight: activate 1 grain', 'Improvement: science, level n n paper (1 to 5)']) {
    expect(costs.includes(row), `the building-cost card has no row "${row}": ${costs.join(' | ')}`);
  }
  const sound = await page.evaluate(() => ({ checked: document.querySelector('[data-sound-toggle]').checked, kept: localStorage.getItem('metropolis.sound'), beeps: window.metropolisPlay.beeps }));
  expect(!sound.checked && sound.kept === null && sound.beeps === 0, `the sound is not off by default: ${JSON.stringify(sound)}`);
  await page.click('[data-sound-toggle]');
  const on = await page.evaluate(() => ({ kept: localStorage.getItem('metropolis.sound'), beeps: window.metropolisPlay.beeps }));
  expect(on.kept === 'on' && on.beeps === 1, `switching the sound on kept ${on.kept} and beeped ${on.beeps} times`);
}

// Every seat's clock (issue 31, item 2), from the host's Clocks: every seat
// shows its bank; only the seat deciding (ann, at her decision) shows a running
// clock, which counts down, and agrees with her own countdown to the second.
async function checkClocks(page) {
  const read = () => page.evaluate(() => {
    const seat = document.querySelector('.viewer').dataset.seat;
    return {
      seat,
      clocks: [...document.querySelectorAll('[data-seat-clock]')].map((c) => ({ seat: c.dataset.seatClock, text: c.textContent, running: c.dataset.running === '1' })),
      countdown: document.querySelector('[data-countdown]').textContent,
    };
  });
  await page.waitForFunction(() => document.querySelector('[data-seat-clock][data-running="1"]'), null, { timeout: 5000 }).catch(() => {});
  const first = await read();
  expect(first.clocks.length === 4, `${first.clocks.length} seat clocks shown, not 4`);
  for (const c of first.clocks) {
    if (c.seat === first.seat) expect(c.running && /^▸ \d+:\d\d \+ bank \d+:\d\d$/.test(c.text), `ann's own clock, at her decision, reads "${c.text}" (running ${c.running})`);
    else expect(!c.running && /^bank \d+:\d\d$/.test(c.text), `seat ${c.seat}'s clock, while ann decides, reads "${c.text}" (running ${c.running})`);
  }
  const mine = (r) => r.clocks.find((c) => c.seat === r.seat).text;
  const seconds = (t) => { const m = /▸ (\d+):(\d\d)/.exec(t); return m ? Number(m[1]) * 60 + Number(m[2]) : NaN; };
  const own = Number(/(\d+) s left/.exec(first.countdown)?.[1]);
  expect(Math.abs(seconds(mine(first)) - own) <= 1, `ann's seat clock says "${mine(first)}", her countdown "${first.countdown}"`);
  await page.waitForTimeout(2100);
  const later = await read();
  expect(seconds(mine(later)) < seconds(mine(first)), `ann's running clock did not count down: "${mine(first)}", 2 s later "${mine(later)}"`);
}

// Once dice have been rolled: they are drawn as dice whose words match their
// faces, they roll in, and new log lines glow, unless the system asks for
// reduced motion, where no animation runs. And the title's mark came and went.
async function checkTableAfterRoll(page) {
  const dice = await page.$eval('[data-dice-tray] .dice', (d) => ({
    label: d.getAttribute('aria-label'),
    role: d.getAttribute('role'),
    faces: [...d.querySelectorAll('svg[data-die]')].map((s) => `${s.dataset.die} ${s.dataset.value ?? s.dataset.face} ${s.querySelectorAll('circle').length}`),
  }));
  const m = /^Dice: yellow die (\d), red die (\d): (\d+); event die: (ship|trade gate|politics gate|science gate)$/.exec(dice.label ?? '');
  expect(m && dice.role === 'img' && Number(m[1]) + Number(m[2]) === Number(m[3]), `the dice say "${dice.label}" (role ${dice.role})`);
  const face = ['ship', 'trade gate', 'politics gate', 'science gate'].indexOf(m[4]);
  expectSame(dice.faces, [`yellow ${m[1]} ${m[1]}`, `red ${m[2]} ${m[2]}`, `event ${face} 0`], 'the dice drawn for their words');
  await checkMotion(page, { '[data-dice-tray] .die': 'dice-roll 0.45s', '[data-log] li.fresh': 'log-glow 1.2s' });
  const titles = await page.evaluate(() => window.titles);
  const marked = titles.findIndex((x) => x.startsWith('● Your turn · '));
  expect(marked >= 0 && titles.slice(marked).some((x) => x === titles[marked].slice('● Your turn · '.length)), `the title did not lose its mark after an answer: ${titles.slice(0, 6).join(' | ')}`);
}

// The elements of `wanted` ({selector: 'animation-name duration'}) are
// animated so, and not at all with reduced motion emulated.
async function checkMotion(page, wanted) {
  const motion = () => page.evaluate((sels) => Object.fromEntries(sels.map((sel) => {
    const st = getComputedStyle(document.querySelector(sel));
    return [sel, `${st.animationName} ${st.animationDuration}`];
  })), Object.keys(wanted));
  const moving = await motion();
  expect(JSON.stringify(moving) === JSON.stringify(wanted), `not animated as wanted: ${JSON.stringify(moving)}`);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const still = await motion();
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(Object.values(still).every((v) => v === 'none 0s'), `with reduced motion asked for, something moves: ${JSON.stringify(still)}`);
}

// The live list (/live) refreshes in place: the keyboard's focus stays on the
// link it was on, and a host that does not answer is said in words, without
// its address or the RPC's error. The list is the gateway's answer, made up
// here, so that it has a dead host and a game that moves between refreshes.
async function checkLiveList(page) {
  const started = Date.now();
  let served = 0;
  const game = (id, vp) => ({
    game_id: id, host: 'made-up', status: 'live', ladder: 'open', created_unix_ms: 1760000000000, step: 40 + served, turn: 5, vp: [vp, 2, 2, 2],
    players: ['ann', 'bea', 'cal', 'dan'].map((name, seat) => ({ seat, name, built_in: true, connected: true })), result: null,
  });
  const dead = { code: 503, status: 'UNAVAILABLE', backend: 'gamehost', message: 'gamehost: failed to connect to all addresses; last error: UNAVAILABLE: ipv4:10.9.8.7:50051: Connection refused' };
  await page.route('**/api/v1/live', (route) => {
    ++served;
    route.fulfill({ json: { games: [game('g-list-1', 3), game('g-list-2', served > 1 ? 6 : 4)], hosts: [{ address: '10.9.8.7:50051', live: 0, error: dead }, { address: 'made-up', live: 2 }] } });
  });
  await page.goto(`${GATEWAY}/live`);
  await page.waitForSelector('tr[data-live-game="g-list-2"]');
  const text = await page.textContent('main');
  expect(/not answering/.test(text) && !/10\.9\.8\.7|failed to connect|UNAVAILABLE/.test(text), `the live list shows a dead host as: ${text.replace(/\s+/g, ' ').slice(0, 300)}`);
  await page.focus('tr[data-live-game="g-list-2"] a');
  await page.evaluate(() => (window.focusedLink = document.activeElement));
  // The next refresh (every 5 s) brings the second game's new score.
  await page.waitForFunction(() => /6 VP/.test(document.querySelector('tr[data-live-game="g-list-2"]')?.textContent), null, { timeout: 15000 });
  const kept = await page.evaluate(() => document.activeElement === window.focusedLink && window.focusedLink.isConnected);
  expect(kept, `the live list's refresh took the keyboard focus away (now on ${await page.evaluate(() => document.activeElement?.tagName)})`);
  await page.close();
  console.log(`play_test: the live list kept the focus over a refresh and named no dead host, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function main() {
  // A 401 (the session asked for when there is none) the browser logs as an error: not the page's.
  const { browser, watch: watchErrors } = await t.launchChromium({ quiet: /401|Unauthorized/ });
  const watch = (page) => {
    watchErrors(page);
    page.setDefaultTimeout(30000);
  };
  const started = Date.now();
  const open = [];
  const opened = (page) => (open.push(page), page);
  try {
    // ---- (1) Sign up, and a whole practice game against three built-in bots ------------------
    const desktop = await browser.newContext(DESKTOP);
    const ann = opened(await desktop.newPage());
    watch(ann);
    const listPage = opened(await desktop.newPage());
    watch(listPage);
    await checkLiveList(listPage);
    open.pop();
    // Signing in with a wrong password names the problem.
    await ann.goto(`${GATEWAY}/signin`);
    await ann.fill('[data-account-form] input[name="name"]', 'nobody-here');
    await ann.fill('[data-account-form] input[name="password"]', 'wrong');
    await ann.click('[data-account-form] button[type="submit"]');
    await ann.waitForSelector('[data-form-error]:text("Wrong name or password")');
    await signUp(ann, 'ann');
    await ann.goto(`${GATEWAY}/play`);
    await ann.selectOption('[data-practice-form] select[name="bots"]', '3');
    await ann.selectOption('[data-practice-form] select[name="strength"]', 'heuristic');
    await ann.screenshot({ path: join(ARTIFACTS, 'play-lobby.png'), fullPage: true });
    await ann.click('[data-practice-start]');
    await ann.waitForFunction(() => /^\/play\/[^/]+$/.test(location.pathname) && window.metropolisPlay);
    const practiceId = await ann.evaluate(() => window.metropolisPlay.gameId);
    const annSeat = await ann.evaluate(() => window.metropolisPlay.seat);
    const snapshots = [];
    let decisions = 0;
    let reloaded = false;
    let shotTargets = false;
    // The trading bots (docs/BOTS.md, "Player trades"; RULES.md TRD-3) make ann offers,
    // and answer hers: until a bot has countered one she makes up to three offers a
    // turn (the rules' limit), each one card she has most of for two of a card she
    // lacks, and reads every answer in the prompt. Two, not one: a bot counters an
    // offer it would not take as it stands, and over simulated games of these bots
    // (their knowledge of her hand tracked as the host tracks it) a one-for-one offer
    // went a whole game uncountered in 1 game of 60, while one-for-two offers were
    // countered within 34 offers in each of 100.
    const trades = { received: 0, offered: 0, countered: 0, accepted: 0, thisTurn: 0 };
    // What the page says before a commitment: rolls that keep the page still,
    // bank trades with their rates (one made), the prompts' words.
    const told = { rolls: 0, bankForms: 0, bankTraded: false, discards: 0, blockedAccepts: 0 };
    const t0 = Date.now();
    for (;;) {
      const o = await nextDecision(ann);
      if (o.over) break;
      ++decisions;
      if (o.legal.includes('roll')) trades.thisTurn = 0;
      if (decisions === 1) {
        await checkTableAtStart(ann);
        await checkClocks(ann);
      }
      // A piece new on the board grows in (the board stands still while a decision waits).
      if (!told.pieceAppeared && (await ann.$('.board .appeared'))) {
        await checkMotion(ann, { '.board .appeared': 'piece-appear 0.5s' });
        told.pieceAppeared = true;
      }
      if (!told.tableAfterRoll && (await ann.$('[data-dice-tray] .dice'))) {
        await checkTableAfterRoll(ann);
        told.tableAfterRoll = true;
      }
      if (o.dialog && o.legal.includes('decline') && !o.legal.includes('accept')) {
        // An offer she cannot meet: a disabled Accept says which cards she lacks.
        const blocked = await ann.evaluate(() => ({
          disabled: document.querySelector('dialog[data-prompt][open] [data-accept-blocked]')?.disabled,
          reason: document.querySelector('dialog[data-prompt][open] [data-accept-reason]')?.textContent ?? '',
        }));
        expect(blocked.disabled === true && /^You cannot accept: you do not have \d+ \w+/.test(blocked.reason), `step ${o.step}: an offer ann cannot meet shows ${JSON.stringify(blocked)}`);
        if (!told.blockedAccepts++) await ann.screenshot({ path: join(ARTIFACTS, 'play-offer-not-met.png') });
      }
      if (o.dialog && o.legal.some((a) => a.startsWith('discard '))) {
        const title = await ann.$eval('dialog[data-prompt][open] [data-prompt-title]', (e) => e.textContent);
        expect(/^Discard (\d+ cards?: \d+ left to choose|\d+ more cards?) \(one at a time; you hold \d+ cards?\)\.$/.test(title), `step ${o.step}: the discard prompt says "${title}"`);
        ++told.discards;
      }
      if (o.legal.some((a) => a.startsWith('bank_trade '))) {
        ++told.bankForms;
        if (await checkBankTrade(ann, o, !told.bankTraded)) {
          told.bankTraded = true;
          continue;
        }
      }
      if (o.legal.includes('accept')) {
        const title = await ann.evaluate(() => document.querySelector('dialog[data-prompt][open]')?.textContent ?? '(no prompt)');
        expect(/offers you/.test(title), `step ${o.step}: an offer to answer, but the prompt says "${title.trim().slice(0, 120)}"`);
        if (!trades.received++) await ann.screenshot({ path: join(ARTIFACTS, 'play-bot-offer.png'), fullPage: true });
      }
      if (o.legal.includes('cancel')) {
        // Her offer, answered: the prompt lists every bot's answer.
        const title = await ann.evaluate(() => document.querySelector('dialog[data-prompt][open]')?.textContent ?? '');
        expect(title, `step ${o.step}: ann's offer was answered, but no prompt shows the answers`);
        if (/counters: gives/.test(title)) {
          if (!trades.countered++) await ann.screenshot({ path: join(ARTIFACTS, 'play-bot-counter.png'), fullPage: true });
        }
        if (/ accepts/.test(title)) ++trades.accepted;
      }
      const give = o.hand.slice(0, 5).reduce((best, n, c, h) => (n > h[best] ? c : best), 0);
      const lacking = [0, 1, 2, 3, 4].filter((c) => o.hand[c] === 0);
      const want = lacking.length ? lacking[trades.thisTurn % lacking.length] : -1;
      if (o.offerBox && trades.thisTurn < 3 && !trades.countered && o.hand[give] > 0 && want >= 0) {
        ++trades.thisTurn;
        ++trades.offered;
        if (!(await ann.$('[data-offer-box][open]'))) await ann.click('[data-offer-box] summary');
        const names = ['brick', 'lumber', 'wool', 'grain', 'ore'];
        await ann.fill(`[data-offer-form="offer"] input[name="give-${names[give]}"]`, '1');
        await ann.fill(`[data-offer-form="offer"] input[name="want-${names[want]}"]`, '2');
        const before = await ann.evaluate(() => window.metropolisPlay.answers);
        await ann.click('[data-offer-send]');
        await ann.waitForFunction((n) => window.metropolisPlay.answers > n || !document.querySelector('[data-rejected]').hidden, before);
        const rejected = await ann.$eval('[data-rejected]', (e) => (e.hidden ? '' : e.textContent));
        expect(!rejected, `step ${o.step}: ann's offer was refused: ${rejected}`);
        continue;
      }
      if (decisions === 1 || decisions % 10 === 0) await snapshot(ann, o, snapshots);
      if (o.targets.length) {
        const seen = await targetFaults(ann);
        expect(!seen.faults.length, `step ${o.step}: board targets: ${seen.faults.slice(0, 4).join('; ')}`);
        stats.around += seen.pieces;
      }
      if (decisions === 5) await ann.screenshot({ path: join(ARTIFACTS, 'play-setup.png'), fullPage: true });
      // The board as a playing surface, for docs/WEB.md: places highlighted to click.
      if (decisions >= 3 && !shotTargets && o.targets.length) {
        shotTargets = true;
        await ann.screenshot({ path: join(ARTIFACTS, 'play-targets.png') });
      }
      // ---- (3) A reload in the middle of the game resumes at the same step ----------------------
      if (decisions === 25 && !reloaded) {
        reloaded = true;
        await ann.screenshot({ path: join(ARTIFACTS, 'play-before-reload.png'), fullPage: true });
        await ann.reload();
        const again = await nextDecision(ann);
        expect(again.step === o.step, `after a reload the decision is at step ${again.step}, not ${o.step}`);
        // The sound switched on stays on, and the decision come again beeped.
        const sound = await ann.evaluate(() => ({ checked: document.querySelector('[data-sound-toggle]').checked, beeps: window.metropolisPlay.beeps }));
        expect(sound.checked && sound.beeps === 1, `after a reload the sound toggle is ${sound.checked ? 'on' : 'off'} and beeped ${sound.beeps} times`);
        expect(again.legal.join('|') === o.legal.join('|'), 'after a reload the legal actions differ');
        await snapshot(ann, again, snapshots);
        continue;
      }
      if (o.legal.includes('roll') && told.rolls < 3) {
        ++told.rolls;
        await rollKeepsScroll(ann, o);
      } else {
        await decide(ann, o);
      }
      expect(Date.now() - t0 < 240000, 'the practice game took more than 4 minutes');
    }
    await ann.waitForSelector('[data-game-over]');
    const practice = await compareWithStored(practiceId, annSeat, snapshots);
    // Between decisions the public stream moves the board: it ends on the final position.
    await ann.waitForSelector(`.viewer[data-step="${practice.steps}"]`, { timeout: 15000 });
    const final = await get(`/api/v1/games/${practiceId}/positions/${practice.steps}`);
    expectSame(await drawnPieces(ann), expectedPieces(final.view.position), 'the practice game at its end');
    await checkSummary(ann, practiceId, annSeat, practice);
    const overTitle = await ann.evaluate(() => document.title);
    expect(!overTitle.includes('Your turn'), `the game is over and the title says "${overTitle}"`);
    expect(told.tableAfterRoll, 'the dice were never checked');
    expect(told.pieceAppeared, 'no piece new on the board was marked to grow in');
    // The log in sentences, with names (item 10): her rolls and turns say who
    // and what, and the engine's notation is nowhere.
    const letter = 'ABCD'[annSeat];
    const playLog = await ann.$$eval('[data-log] li', (li) => li.map((x) => x.textContent.replace(/\s+/g, ' ').trim()));
    expect(playLog.some((l) => new RegExp(`^\\d+\\. ${letter} ann rolls \\d+ \\(red \\d, yellow \\d`).test(l)), `no line of the log says "${letter} ann rolls N (red R, yellow Y": ${playLog.slice(20, 24).join(' | ')}`);
    expect(playLog.some((l) => new RegExp(`^\\d+\\. ${letter} ann ends the turn$`).test(l)), `no line of the log says "${letter} ann ends the turn"`);
    const notation = playLog.filter((l) => /\b(build_road|build_settlement|build_city|end_turn|bank_trade|move_robber|buy_improvement)\b|: (roll|dice)\b/.test(l));
    expect(notation.length === 0, `${notation.length} lines of the log in the engine's notation, as "${notation[0]}"`);
    await ann.screenshot({ path: join(ARTIFACTS, 'play-over.png'), fullPage: true });
    const practiceSecs = (Date.now() - t0) / 1000;
    console.log(`play_test: practice game ${practiceId}: ${decisions} decisions clicked (${stats.clicks.board} on the board, ` +
      `${stats.clicks.prompt} in prompts, ${stats.clicks.button} buttons, ${stats.popovers} popovers), ${practice.steps} steps in ${practiceSecs.toFixed(1)} s; ` +
      `click to next decision median ${quantile(stats.waits, 0.5)} ms, p90 ${quantile(stats.waits, 0.9)} ms; ${snapshots.length} boards compared`);
    expect(stats.clicks.board >= 4, `only ${stats.clicks.board} clicks on the board`);
    console.log(`play_test: board targets: ${stats.previews.shown} previews before a commit (${stats.previews.yields} with yields, ${stats.previews.robber} of the robber, ` +
      `${stats.previews.keyboard} by the keyboard, one cancelled by Escape); ${stats.around} pieces at a target checked still seen`);
    expect(stats.previews.yields >= 2 && stats.previews.keyboard >= 1 && stats.previews.escaped, `board previews: ${JSON.stringify(stats.previews)}`);
    expect(stats.around >= 1, 'no piece stood at a target in the whole practice game: none was checked still seen');
    console.log(`play_test: trades in the practice game: ${trades.received} offers from the bots answered in the prompt; ` +
      `ann made ${trades.offered} offers, ${trades.accepted} accepted and ${trades.countered} countered by a bot`);
    console.log(`play_test: before committing: ${told.rolls} rolls kept the page still; ${told.bankForms} bank forms showed their rates` +
      `${told.bankTraded ? ', one trade made at its rate' : ''}; ${told.discards} discard prompts counted; ${told.blockedAccepts} offers she could not meet said why`);
    expect(told.rolls === 3, `only ${told.rolls} rolls were checked`);
    expect(trades.received >= 1, 'no bot made ann an offer in a whole practice game');
    expect(trades.countered >= 1, `no bot countered any of ann's ${trades.offered} offers`);

    // The game-over screen shows the game's analysis: a person sat at the table, so
    // the replays service analyses it as it is stored, and the page waits for it.
    // A point of its chart opens the replay at that step.
    const practiceAnalysis = await waitForAnalysis(t, ann, practiceId);
    await checkDrawn(t, ann, practiceId, practiceAnalysis, practice.players);
    await ann.screenshot({ path: join(ARTIFACTS, 'play-over-analysis.png'), fullPage: true });
    const point = practiceAnalysis.graph[Math.floor(practiceAnalysis.graph.length / 2)].step;
    // On a laptop's screen the replay opens with its controls in view, without scrolling.
    await ann.setViewportSize({ width: 1280, height: 800 });
    await ann.click(`[data-analysis="${practiceId}"] svg[data-chart="win"] rect.win-hit[data-step="${point}"]`);
    await ann.waitForSelector(`.viewer[data-game="${practiceId}"][data-step="${point}"]`);
    expect(new URL(ann.url()).pathname === `/games/${practiceId}`, `a point of the game-over chart opened ${ann.url()}`);
    await frames(ann);
    // A link followed opens the page at its top, whatever the page before was scrolled to ...
    const openedAt = await ann.evaluate(() => window.scrollY);
    expect(openedAt === 0, `the replay's page opened scrolled down by ${openedAt}px`);
    // ... and there the controls are in view.
    await ann.evaluate(() => window.scrollTo(0, 0));
    await frames(ann);
    for (const c of ['[data-act="prev"]', '[data-act="next"]', '[data-act="play"]', '[data-scrub]']) {
      expect(await inViewport(ann, c), `the replay's ${c} is not on a 1280x800 screen at the top of the page`);
    }
    await ann.screenshot({ path: join(ARTIFACTS, 'replay-laptop.png') });
    await ann.setViewportSize(DESKTOP.viewport);

    // The analysis counts on ann's page at once: her luck panel is over her one
    // analysed game, the practice game, with the API's figures.
    const luck = await get('/api/v1/players/ann/luck');
    expect(luck.games === 1, `ann's luck summary is over ${luck.games} games, not her practice game`);
    await ann.goto(`${GATEWAY}/players/ann`);
    await ann.waitForSelector('[data-luck-panel]:not([data-luck-state="loading"])');
    const panel = await ann.$eval('[data-luck-panel]', (p) => ({
      state: p.dataset.luckState,
      games: p.querySelector('[data-luck-games]')?.dataset.luckGames,
      cards: p.querySelector('[data-luck-cards]')?.dataset.luckCards,
      place: p.querySelector('[data-luck-place]')?.textContent,
      text: p.textContent.replace(/\s+/g, ' '),
    }));
    expect(panel.state === 'ready' && panel.games === '1', `ann's luck panel shows ${JSON.stringify(panel)}`);
    const cards = Math.abs(luck.luck_cards).toFixed(1);
    expect(panel.cards === (Number(cards) === 0 ? cards : `${luck.luck_cards > 0 ? '+' : '−'}${cards}`),
      `ann's luck panel shows ${panel.cards} cards a game, the API ${luck.luck_cards}`);
    expect(panel.place === luck.place.toFixed(2), `ann's luck panel shows the mean place ${panel.place}, the API ${luck.place}`);
    expect(/1 analysed game\b/.test(panel.text) && /luck taken out/.test(panel.text), `ann's luck panel says "${panel.text}"`);
    await ann.screenshot({ path: join(ARTIFACTS, 'player-luck.png'), fullPage: true });

    // ---- (2) Two people queued on a ladder with two network bots, matched at one table --------------
    const bea = opened(await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage());
    const phone = await browser.newContext(PHONE);
    const cal = opened(await phone.newPage());
    watch(bea);
    watch(cal);
    // ann's page on a phone: the luck panel is there, and the page does not scroll sideways.
    await cal.goto(`${GATEWAY}/players/ann`);
    await cal.waitForSelector('[data-luck-panel][data-luck-state="ready"] [data-luck-games="1"]');
    const luckOverflow = await cal.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(luckOverflow <= 1, `a player's page with the luck panel scrolls sideways on a phone by ${luckOverflow}px`);
    await cal.screenshot({ path: join(ARTIFACTS, 'player-luck-phone.png'), fullPage: true });
    // Not signed in, a game's page asks to sign in (and the sign-in comes back to it).
    await cal.goto(`${GATEWAY}/play/${practiceId}`);
    await cal.waitForSelector(`[data-need-signin] a[href="/signin?next=/play/${practiceId}"]`);
    await signUp(bea, 'bea');
    await signUp(cal, 'cal');
    for (const p of [bea, cal]) {
      await p.goto(`${GATEWAY}/play`);
      await p.selectOption('[data-queue-form] select[name="ladder"]', LADDER);
      await p.click('[data-queue-join]');
      await p.waitForSelector('[data-queue="waiting"], [data-queue="matched"]');
      // While waiting the queue form is gone: no second join to click.
      const form = await p.evaluate(() => {
        const f = document.querySelector('[data-queue-form]');
        return f && { display: getComputedStyle(f).display, button: !!f.querySelector('[data-queue-join]').offsetParent };
      });
      expect(!form || (form.display === 'none' && !form.button), `${p === bea ? 'bea' : 'cal'} is in the queue and its form still shows: ${JSON.stringify(form)}`);
      if (p === bea) {
        // bea waits alone with the two bots, before cal joins: the page shows the
        // queue's size and the wait. (Asked after cal's join, it raced the match,
        // which takes bea's page to the game.)
        await bea.waitForSelector('[data-queue-size], [data-queue="matched"]');
        const size = await bea.$eval('[data-queue-size]', (e) => e.dataset.queueSize).catch(() => null);
        const matchedAlready = await bea.$('[data-queue="matched"]');
        expect(matchedAlready || size === '3', `the queue shows ${size} waiting, not the two bots and bea`);
        await bea.screenshot({ path: join(ARTIFACTS, 'play-queue.png'), fullPage: true });
      }
    }
    for (const p of [bea, cal]) await p.waitForFunction(() => window.metropolisPlay?.gameId, null, { timeout: 60000 });
    const duoId = await bea.evaluate(() => window.metropolisPlay.gameId);
    expect(duoId === (await cal.evaluate(() => window.metropolisPlay.gameId)), 'bea and cal were not matched at one table');
    const seats = { bea: await bea.evaluate(() => window.metropolisPlay.seat), cal: await cal.evaluate(() => window.metropolisPlay.seat) };
    expect(seats.bea !== seats.cal, 'bea and cal hold one seat');
    const overflow = await cal.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow <= 1, `the game scrolls sideways on a phone by ${overflow}px`);

    // ---- (4) One offers what the other can give; the other accepts in the prompt --------------------
    const people = [
      { name: 'bea', page: bea, seat: seats.bea },
      { name: 'cal', page: cal, seat: seats.cal },
    ];
    let reloadedWaiting = false;
    // ---- (5) ... and both play on to the end, each page in turn, as the practice game -----------
    const together = await playTogether(people, {
      async before(me, o, state) {
        if (o.waiting && state.traded && !reloadedWaiting) {
          // A reload outside one's decision: the board comes back from the public
          // stream at once, before the seat's next decision.
          reloadedWaiting = true;
          await me.page.reload();
          await me.page.waitForSelector('.viewer [data-piece="settlement"], .viewer [data-piece="city"]', { timeout: 15000 });
          ok();
          return true;
        }
        if (!state.rejectionSeen && o.offerBox) {
          // An offer of nothing for nothing: the engine refuses it, the page says
          // so, and the same decision stands.
          await me.page.click('[data-offer-box] summary');
          await me.page.click('[data-offer-send]');
          await me.page.waitForSelector('[data-rejected]:not([hidden])', { timeout: 20000 });
          const text = await me.page.$eval('[data-rejected]', (e) => e.textContent);
          expect(/^Rejected: .*TRD/.test(text), `the refused offer shows "${text}"`);
          await me.page.waitForFunction((step) => window.metropolisPlay.decision?.step === step, o.step);
          await me.page.screenshot({ path: join(ARTIFACTS, 'play-rejected.png') });
          state.rejectionSeen = text;
          return true;
        }
        return false;
      },
    });
    const traded = together.traded;
    const duoDecisions = together.decisions;
    expect(reloadedWaiting, 'nobody was reloaded while waiting');
    expect(together.rejectionSeen, 'no refused offer was tried');
    const duoSecs = together.ms / 1000;
    for (const p of [bea, cal]) await p.waitForSelector('[data-game-over]');
    await bea.screenshot({ path: join(ARTIFACTS, 'play-duo.png'), fullPage: true });
    await cal.screenshot({ path: join(ARTIFACTS, 'play-duo-phone.png'), fullPage: true });
    // Both seats were played in their pages all the way: the host gave none of
    // their decisions to the fallback bot.
    for (const me of people) expect(duoDecisions[me.name] >= 20, `${me.name} took only ${duoDecisions[me.name]} decisions`);
    const duo = await compareWithStored(duoId, seats.bea, []);
    for (const me of people) {
      const stored = duo.players.find((s) => s.seat === me.seat);
      expect(stored?.name === me.name, `seat ${me.seat} of the stored game is ${stored?.name}, not ${me.name}`);
      expect(stored.fallback_decisions === 0, `the fallback bot took ${stored.fallback_decisions} of ${me.name}'s decisions`);
    }
    console.log(`play_test: two-person game ${duoId} played to the end: ${duo.steps} steps, bea ${duoDecisions.bea} and cal ${duoDecisions.cal} decisions clicked, in ${duoSecs.toFixed(1)} s`);

    // ---- (6) The finished game's result on the ladder's leaderboard, in the app --------------------
    // The ladder ranks after one game (play_test.sh), so both people are on its
    // first page with one game each and a rating. The rating lands when the
    // ratings service has taken the result: the API is asked until then, and
    // the page opened after.
    const ranked = (b) => ['bea', 'cal'].every((n) => b.entries.some((e) => e.name === n));
    let board = null;
    for (let i = 0; i < 60 && !(board && ranked(board)); ++i) {
      if (board) await sleep(500);
      board = await get(`/api/v1/ladders/${LADDER}/leaderboard`);
    }
    expect(ranked(board), `bea and cal are not on the leaderboard 30 s after their game: ${board.entries.map((e) => e.name).join(', ')}`);
    await bea.goto(`${GATEWAY}/ladders/${LADDER}`);
    for (const name of ['bea', 'cal']) {
      const row = await bea.waitForSelector(`table[data-leaderboard="${LADDER}"] tr[data-player="${name}"]`, { timeout: 5000 });
      const cells = await row.$$eval('td', (tds) => tds.map((td) => td.textContent.trim()));
      const entry = board.entries.find((e) => e.name === name);
      expect(cells[5] === '1', `${name}'s row on the leaderboard shows ${cells[5]} games, not 1`);
      expect(/^\d+$/.test(cells[0]), `${name} has no rank on the leaderboard (${cells[0]})`);
      expect(cells[2] === entry.ordinal.toFixed(2), `${name}'s rating shows ${cells[2]}, not ${entry.ordinal.toFixed(2)}`);
    }
    // The leaderboard's search finds a person too.
    await bea.fill('[data-leaderboard-form] input[name="q"]', 'cal');
    await bea.press('[data-leaderboard-form] input[name="q"]', 'Enter');
    await bea.waitForFunction(() => new URLSearchParams(location.search).get('q') === 'cal');
    // The searched page replaces the table: cal's row alone.
    await bea.waitForFunction(() => [...document.querySelectorAll('table[data-leaderboard] tr[data-player]')].map((r) => r.dataset.player).join() === 'cal');
    ok();
    await bea.screenshot({ path: join(ARTIFACTS, 'play-leaderboard.png'), fullPage: true });

    // ---- (7) Its replay opens from the game's page, and ends on the final board ---------------------
    // cal's game-over screen (a phone): the summary as in the practice game, and
    // her rating change, now that the ladder has rated the game, as the API has it.
    await checkSummary(cal, duoId, seats.cal, duo);
    await checkRatingChange(cal, 'cal', duoId, LADDER);
    // And her place on the ladder's leaderboard now, as its API has it.
    const calBoard = await get(`/api/v1/ladders/${LADDER}/leaderboard?q=cal&limit=5`);
    const calRow = calBoard.entries.find((e) => e.name === 'cal');
    expect(calRow, 'the leaderboard does not find cal');
    const wantRank = calRow.rank == null ? 'placement' : String(calRow.rank);
    const shownRank = await cal.getAttribute('[data-game-summary] [data-rating-rank]', 'data-rating-rank');
    expect(shownRank === wantRank, `cal's game-over screen shows rank ${shownRank}, the leaderboard ${wantRank}`);
    await cal.screenshot({ path: join(ARTIFACTS, 'play-summary-phone.png'), fullPage: true });
    const summaryFaults = await phoneFaults(cal);
    expect(summaryFaults.length === 0, `cal's game-over screen on a phone: ${summaryFaults.slice(0, 5).join('; ')}`);
    // Its replay opens at the game's last step, on the final board.
    await cal.click('[data-game-summary] a[data-replay-link]');
    await cal.waitForSelector(`.viewer[data-step="${duo.steps}"]`);
    const duoFinal = await get(`/api/v1/games/${duoId}/positions/${duo.steps}`);
    expectSame(await drawnPieces(cal), expectedPieces(duoFinal.view.position), 'the two-person game\'s replay at its end');

    // ---- (8) A second practice game, resigned at ann's first decision ---------------------------
    // (issue "Players come back", item 4) Resign asks once more; the game ends for
    // everyone, the summary says who resigned, and the game is stored as resigned
    // with ann last.
    await ann.goto(`${GATEWAY}/play`);
    await ann.selectOption('[data-practice-form] select[name="bots"]', '2');
    await ann.click('[data-practice-start]');
    await ann.waitForFunction((old) => /^\/play\/[^/]+$/.test(location.pathname) && window.metropolisPlay && window.metropolisPlay.gameId !== old, practiceId);
    const resignId = await ann.evaluate(() => window.metropolisPlay.gameId);
    const resignSeat = await ann.evaluate(() => window.metropolisPlay.seat);
    await ann.waitForSelector('.viewer[data-decision]:not([data-decision=""]) [data-resign]');
    await ann.click('[data-resign]');
    await ann.click('[data-resign-cancel]');
    await ann.click('[data-resign]');
    await ann.click('[data-resign-confirm]');
    await ann.waitForSelector('[data-game-summary]');
    const said = (await ann.textContent('[data-game-summary]')).replace(/\s+/g, ' ');
    expect(said.includes('ann (you) resigned'), `the resigned game's summary says "${said.slice(0, 80)}"`);
    expect(!(await ann.$('[data-resign-box]')), 'the resign control stays after the game ended');
    const resigned = await t.stored(resignId, 150, 200);
    expect(resigned?.result?.reason === 'resigned' && resigned.result.resigned_seat === resignSeat,
      `game ${resignId} is stored with ${JSON.stringify(resigned?.result)}, not resigned by seat ${resignSeat}`);
    const resignerPlace = resigned?.players?.find((p) => p.seat === resignSeat)?.place;
    expect(resignerPlace === 3, `ann resigned and placed ${resignerPlace}, not last of 3`);
    await ann.screenshot({ path: join(ARTIFACTS, 'play-resigned.png'), fullPage: true });

    // Signing out: the header offers signing in again, and the session is gone.
    await ann.click('[data-sign-out]');
    await ann.waitForSelector('[data-account] a[href="/signin"]');
    const after = await ann.evaluate(async () => (await fetch('/api/v1/session')).status);
    expect(after === 401, `after signing out GET /api/v1/session answers ${after}`);

    t.expectNoPageErrors();
    console.log(`play_test: ${t.checks()} checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s; two-person game ${duoId}: ${traded.from} offered, the other accepted, played to the end and ranked`);
  } catch (e) {
    // What each page showed when it failed, to read beside the screenshots.
    for (const [i, page] of open.entries()) {
      const shown = await page.evaluate(() => `${location.pathname}: ${document.querySelector('main')?.innerText.slice(0, 400).replace(/\s+/g, ' ')}`).catch(() => '?');
      console.error(`play_test: page ${i} at ${shown}`);
      await page.screenshot({ path: join(ARTIFACTS, `failed-${i}.png`), fullPage: true }).catch(() => {});
    }
    throw e;
  } finally {
    await browser.close();
  }
}

t.run(main);
