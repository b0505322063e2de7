// What the browser checks of people playing share (tests/browser/play.mjs,
// tests/browser/friends.mjs): signing up, reading the decision a page offers,
// taking it by clicking what the page offers (a highlighted place on the board,
// the prompt's or the panel's buttons), two people at one table trading with
// each other, and the game-over summary checked against the stored game.
//
//   const p = playing(t, { shots: 'play' });   // t: browserTest(...)
//   await p.signUp(page, 'ann');
//   const o = await p.nextDecision(page); await p.decide(page, o);
//   const s = await p.playTogether([{ name, page, seat }, ...], { stop: (s) => s.traded });
import { join } from 'node:path';
import { sleep, expectedPieces } from './harness.mjs';

// `shots` starts the names of the screenshots taken on the way.
export function playing(t, { shots = 'play' } = {}) {
  const { expect, expectSame, get } = t;

  async function signUp(page, name) {
    await page.goto(`${t.gateway}/signup`);
    await page.fill('[data-account-form] input[name="name"]', name);
    await page.fill('[data-account-form] input[name="password"]', 'a long secret 1');
    // A precise error first: the two passwords differ.
    await page.fill('[data-account-form] input[name="again"]', 'something else');
    await page.click('[data-account-form] button[type="submit"]');
    await page.waitForSelector('[data-form-error]:text("differ")');
    await page.fill('[data-account-form] input[name="again"]', 'a long secret 1');
    await page.click('[data-account-form] button[type="submit"]');
    await page.waitForSelector(`[data-signed-in="${name}"]`);
  }

  // What the page offers for the decision due, read from the page itself.
  function offered(page) {
    return page.evaluate(() => {
      const play = window.metropolisPlay;
      if (!play) return { none: true };
      if (play.over) return { over: true };
      const d = play.decision;
      if (!d) return { waiting: true };
      const rejected = document.querySelector('[data-rejected]:not([hidden])')?.textContent ?? '';
      return {
        step: d.step,
        viewStep: play.viewStep,
        legal: d.legal.map((a) => a.text),
        targets: [...document.querySelectorAll('.board [data-target]')].map((t) => ({ key: t.dataset.target, label: t.getAttribute('aria-label') })),
        dialog: !!document.querySelector('dialog[data-prompt][open]'),
        dialogButtons: [...document.querySelectorAll('dialog[data-prompt][open] button.act')].map((b) => b.dataset.action),
        offerBox: !!document.querySelector('[data-offer-box]'),
        hand: [...document.querySelectorAll('[data-hand] [data-card]')].map((c) => Number(c.dataset.count)),
        rejected,
      };
    });
  }

  // What the page shows of a place clicked once (item 7 of the board targets):
  // the preview bar names it, with what it does; the decision still stands.
  function previewShown(page, key) {
    return page.evaluate((k) => {
      const bar = document.querySelector(`[data-board-choice]:not([hidden]) [data-target-preview="${k}"]`);
      const play = window.metropolisPlay;
      return {
        bar: !!bar,
        label: bar?.querySelector('[data-preview-label]')?.textContent ?? '',
        detail: bar?.querySelector('[data-preview-detail]')?.textContent ?? '',
        ghost: document.querySelector('.board .ghost [data-ghost]')?.dataset.ghost ?? '',
        selected: !!document.querySelector(`.board [data-target="${k}"].selected`),
        step: play.decision?.step ?? null,
        answers: play.answers,
      };
    }, key);
  }

  // The first click on a place previews it and sends nothing: the bar names the
  // place, a ghost of the piece stands there (a settlement or a city with its
  // yields, the robber with its hex), and the decision is the same one.
  async function expectPreview(page, key, step, answers) {
    await page.waitForSelector(`[data-board-choice]:not([hidden]) [data-target-preview="${key}"]`, { timeout: 5000 }).catch(() => {});
    const p = await previewShown(page, key);
    expect(p.bar && p.selected, `step ${step}: a first click on ${key} shows no preview (${JSON.stringify(p)})`);
    expect(p.step === step && p.answers === answers, `step ${step}: a first click on ${key} sent an answer (${JSON.stringify(p)})`);
    if (/^Build a (settlement|city) here/.test(p.label)) {
      expect(/^yields: (nothing|\d+ \w+)/.test(p.detail) && ['settlement', 'city'].includes(p.ghost), `step ${step}: the preview of "${p.label}" shows ${JSON.stringify(p)}`);
      if (!stats.previews.yields++) await page.screenshot({ path: join(t.artifacts, `${shots}-preview.png`) });
    }
    if (/^Move the robber/.test(p.label)) {
      expect(/^hex \d+ \(\w+( \d+)?\): (you may rob|nobody to rob)/.test(p.detail) && p.ghost === 'robber', `step ${step}: the robber's preview shows ${JSON.stringify(p)}`);
      stats.previews.robber++;
    }
    stats.previews.shown++;
    return p;
  }

  // Clicks a board place, and what follows it: the popover's first action, or
  // the destination of a two-place action. Each place is clicked twice: the
  // first click previews (checked), the second commits. Now and then by the
  // keyboard instead (Enter, Enter), and once cancelled with Escape first.
  async function clickPlace(page, key, step) {
    const answers = await page.evaluate(() => window.metropolisPlay.answers);
    const target = `.board [data-target="${key}"]`;
    const keyboard = stats.previews.shown % 7 === 3;
    const press = async () => (keyboard ? (await page.focus(target), page.keyboard.press('Enter')) : page.click(target));
    await press();
    await expectPreview(page, key, step, answers);
    if (!stats.previews.escaped) {
      // Escape cancels the preview; nothing was sent, and the place can be chosen again.
      stats.previews.escaped = true;
      await sleep(300);
      const still = await previewShown(page, key);
      expect(still.step === step && still.answers === answers, `step ${step}: 300 ms after a first click on ${key} an answer was sent`);
      await page.keyboard.press('Escape');
      const gone = await page.evaluate((k) => !document.querySelector(`[data-target-preview="${k}"]`) && !document.querySelector('.board .target.selected'), key);
      expect(gone, `step ${step}: Escape left the preview of ${key} on`);
      await press();
      await expectPreview(page, key, step, answers);
    }
    if (keyboard) stats.previews.keyboard++;
    await press();
    for (let i = 0; i < 20; ++i) {
      const next = await page.evaluate(() => {
        const pop = document.querySelector('[data-popover]:not([hidden])');
        if (pop) return pop.querySelector('button.act') ? 'popover' : 'stage-button';
        if (document.querySelector('[data-board-choice]:not([hidden]) [data-stage-cancel]')) return 'stage';
        return 'done';
      });
      if (next === 'done') return;
      if (next === 'popover') {
        stats.popovers++;
        return page.click('[data-popover] button.act');
      }
      if (next === 'stage-button') await page.click('[data-popover] [data-stage]');
      if (next === 'stage') {
        const second = await page.$$eval('.board [data-target]:not(.selected)', (ts) => ts.map((t) => t.dataset.target));
        await page.click(`.board [data-target="${second[0]}"]`);
        await expectPreview(page, second[0], step, answers);
        return page.click(`.board [data-target="${second[0]}"]`);
      }
    }
  }

  const stats = { clicks: { board: 0, prompt: 0, button: 0 }, popovers: 0, waits: [], previews: { shown: 0, yields: 0, robber: 0, keyboard: 0, escaped: false }, around: 0 };
  const BOARD_VERBS = /^(build_settlement|build_city|build_road|build_wall|recruit_knight|activate_knight|promote_knight|move_knight|displace_knight|chase_robber|move_robber|relocate_knight|pillage_city|place_metropolis|commit_knight|remove_knight|place_knight|repair_city)\b|^play (bishop|merchant|inventor|engineer|medicine|intrigue|saboteur|diplomat) /;

  // Takes the decision due on `page` by clicking, and waits for its outcome.
  // `wants` steers it: {accept: true} accepts trade offers.
  async function decide(page, o, wants = {}) {
    const answersBefore = await page.evaluate(() => window.metropolisPlay.answers);
    const has = (verb) => o.legal.some((t) => t === verb || t.startsWith(`${verb} `));
    const boardLegal = o.legal.filter((t) => BOARD_VERBS.test(t));
    const forced = boardLegal.length > 0 && !has('end_turn') && !has('roll');
    const builds = o.targets.filter((t) => /build a (settlement|city)/i.test(t.label));
    // Every board action must have its place highlighted, and nothing more.
    expect(boardLegal.length === 0 || o.targets.length > 0, `step ${o.step}: board actions ${boardLegal.slice(0, 3).join(', ')} but no highlighted place`);
    if (has('roll')) {
      stats.clicks.button++;
      await page.click('[data-turn="roll"]');
    } else if (o.dialog && o.dialogButtons.length && !forced) {
      const pick =
        o.dialogButtons.find((a) => (wants.accept ? a === 'accept' : a === 'decline')) ??
        o.dialogButtons.find((a) => a.startsWith('confirm')) ??
        o.dialogButtons.find((a) => a !== 'cancel') ??
        o.dialogButtons[0];
      stats.clicks.prompt++;
      await page.click(`dialog[data-prompt] button[data-action="${pick}"]`);
    } else if (forced || (builds.length && has('end_turn'))) {
      const target = forced ? o.targets[Math.floor(Math.random() * o.targets.length)] : builds[0];
      stats.clicks.board++;
      await clickPlace(page, target.key, o.step);
    } else if (has('end_turn')) {
      stats.clicks.button++;
      await page.click('[data-turn="end_turn"]');
    } else if (has('stop')) {
      stats.clicks.button++;
      await page.click('[data-turn="stop"]');
    } else {
      stats.clicks.button++;
      await page.click('button.act');
    }
    const t0 = Date.now();
    if (wants.next === false) {
      // Another person may have to act first: the answer taken is enough here.
      await page.waitForFunction((n) => window.metropolisPlay.answers > n || !document.querySelector('[data-rejected]').hidden, answersBefore, { timeout: 20000 });
    } else {
      await page.waitForFunction(
        (step) => {
          const p = window.metropolisPlay;
          return p.over || (p.decision && p.decision.step !== step) || !document.querySelector('[data-rejected]').hidden;
        },
        o.step,
        { timeout: 60000 },
      );
    }
    stats.waits.push(Date.now() - t0);
    const rejected = await page.$eval('[data-rejected]', (e) => (e.hidden ? '' : e.textContent));
    expect(!rejected, `step ${o.step}: ${rejected}`);
  }

  async function nextDecision(page, timeout = 120000) {
    await page.waitForFunction(() => window.metropolisPlay && (window.metropolisPlay.over || window.metropolisPlay.decision), null, { timeout });
    return offered(page);
  }

  async function compareWithStored(gameId, seat, snapshots) {
    const stored = await t.stored(gameId, 150, 200);
    expect(stored, `game ${gameId} was not stored`);
    for (const s of snapshots) {
      const pos = await get(`/api/v1/games/${gameId}/positions/${s.step}?viewer=${seat}`);
      expectSame(s.pieces, expectedPieces(pos.view.position), `game ${gameId} step ${s.step} as seat ${seat} saw it`);
    }
    return stored;
  }

  // The game-over summary (issue "Players come back", item 13): a row for every
  // seat with the final VP, its sources adding up to them and the stored place;
  // the replay's link at the game's last step; the hand panel holds the seat's
  // final hand, not that of its last decision.
  async function checkSummary(page, gameId, seat, stored) {
    await page.waitForSelector('[data-game-summary][data-summary-state="final"]', { timeout: 30000 });
    const end = await get(`/api/v1/games/${gameId}/positions/${stored.steps}?viewer=${seat}`);
    const shown = await page.$eval('[data-game-summary]', (box) => ({
      rows: [...box.querySelectorAll('[data-summary-seat]')].map((r) => ({
        seat: Number(r.dataset.summarySeat), vp: Number(r.dataset.vp), place: Number(r.dataset.place),
        sources: [...r.querySelectorAll('[data-vp-source]')].reduce((a, li) => a + Number(li.dataset.sourceVp), 0),
      })),
      replay: box.querySelector('[data-replay-link]')?.getAttribute('href'),
    }));
    const p = end.view.position;
    expect(shown.rows.length === p.num_seats, `the game-over summary has ${shown.rows.length} rows for ${p.num_seats} seats`);
    for (const r of shown.rows) {
      const place = stored.players.find((x) => x.seat === r.seat)?.place;
      expect(r.vp === p.players[r.seat].vp && r.sources === r.vp && r.place === place,
        `the summary's seat ${r.seat}: ${r.vp} VP from sources adding to ${r.sources}, place ${r.place}; stored ${p.players[r.seat].vp} VP, place ${place}`);
    }
    expect(shown.replay === `/games/${gameId}?step=${stored.steps}`, `the summary's replay link is ${shown.replay}, not the game's last step ${stored.steps}`);
    const hand = await page.$$eval('[data-hand] [data-card]', (li) => li.map((x) => Number(x.dataset.count)));
    expectSame(hand, p.players[seat].hand, 'the hand shown at the game\'s end');
    // The hand may not have changed since the seat's last decision: the panel
    // must have been drawn from the final view all the same.
    const panelStep = await page.getAttribute('[data-play-panel]', 'data-view-step');
    expect(panelStep === String(stored.steps), `the hand panel shows the seat's view at step ${panelStep}, not the final step ${stored.steps}`);
    return shown;
  }

  // Whether the elements matching `selector` lie wholly inside the window, as drawn now.
  function inViewport(page, selector) {
    return page.$$eval(selector, (els) => els.length > 0 && els.every((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
    }));
  }

  // Two people at one table (its other seats bots), each page answering its
  // decisions by clicking, as in a practice game: the first of them able to
  // offers the other one card for one the other holds, to that person alone;
  // the other accepts in the prompt, and the one who offered confirms (both
  // logs then say the trade). Plays until the game is over, or until
  // `stop(state)` says so. `before(me, o, state)` may take a decision its own
  // way first, returning true when it did. The state: {traded, offerMade,
  // decisions (by name), over, rejectionSeen (a refusal expected on the page)}.
  async function playTogether(people, { stop = () => false, before = async () => false, tradeWithinMs = 150000, withinMs = 300000, what = 'the two-person game' } = {}) {
    const names = ['brick', 'lumber', 'wool', 'grain', 'ore', 'cloth', 'coin', 'paper'];
    const state = { traded: null, offerMade: null, decisions: Object.fromEntries(people.map((p) => [p.name, 0])), over: false, rejectionSeen: false };
    const started = Date.now();
    let promptShot = false;
    while (!state.over && !stop(state)) {
      expect(state.traded || Date.now() - started < tradeWithinMs, `${what} did not reach a trade in time (offer ${JSON.stringify(state.offerMade)})`);
      expect(Date.now() - started < withinMs, `${what} took more than ${withinMs / 60000} minutes`);
      let acted = false;
      for (const me of people) {
        const other = people.find((x) => x !== me);
        const o = await offered(me.page);
        if (o.over) {
          expect(state.traded, `${what} ended before a trade`);
          // The other's stream ends with the same game_over.
          await other.page.waitForFunction(() => window.metropolisPlay?.over, null, { timeout: 20000 });
          state.over = true;
          break;
        }
        if (await before(me, o, state)) {
          acted = true;
          continue;
        }
        if (o.waiting || o.none) continue;
        acted = true;
        ++state.decisions[me.name];
        const mine = o.hand;
        // The other's hand matters only until an offer is made.
        const theirs = state.offerMade
          ? []
          : ((await offered(other.page)).hand ?? (await other.page.$$eval('[data-hand] [data-card]', (cs) => cs.map((c) => Number(c.dataset.count)))));
        const giveCard = mine.findIndex((n) => n > 0);
        const wantCard = theirs.findIndex((n, c) => n > 0 && c !== giveCard);
        if (!state.offerMade && o.offerBox && giveCard >= 0 && wantCard >= 0) {
          // Build the offer in the page's builder: one card for one, to the other person only.
          if (!(await me.page.$('[data-offer-box][open]'))) await me.page.click('[data-offer-box] summary');
          await me.page.fill(`[data-offer-form="offer"] input[name="give-${names[giveCard]}"]`, '1');
          await me.page.fill(`[data-offer-form="offer"] input[name="want-${names[wantCard]}"]`, '1');
          for (const s of [0, 1, 2, 3]) {
            const box = await me.page.$(`[data-offer-to="${s}"]`);
            if (box && (await box.isChecked()) !== (s === other.seat)) await box.click();
          }
          state.offerMade = { from: me.name, give: giveCard, want: wantCard, before: { me: mine, other: theirs } };
          const answersBefore = await me.page.evaluate(() => window.metropolisPlay.answers);
          await me.page.click('[data-offer-send]');
          await me.page.waitForFunction((n) => window.metropolisPlay.answers > n || !document.querySelector('[data-rejected]').hidden, answersBefore);
          const rejected = await me.page.$eval('[data-rejected]', (e) => (e.hidden ? '' : e.textContent));
          expect(!rejected, `the offer was refused: ${rejected}`);
          continue;
        }
        const answering = o.legal.includes('accept');
        if (answering) {
          expect(o.dialog, `${me.name} has an offer to answer but no prompt`);
          if (!promptShot) await me.page.screenshot({ path: join(t.artifacts, `${shots}-offer-prompt.png`), fullPage: true });
          promptShot = true;
        }
        const confirming = state.offerMade && !state.traded && o.legal.includes(`confirm ${other.seat}`);
        expect(!o.rejected || o.rejected === state.rejectionSeen, `${me.name}: ${o.rejected}`);
        await decide(me.page, o, { accept: state.offerMade && !state.traded && answering, next: false });
        if (confirming) {
          state.traded = state.offerMade;
          console.log(`${t.name}: ${me.name} confirmed the trade with ${other.name}: 1 ${names[state.traded.give]} for 1 ${names[state.traded.want]}`);
          // The trade, executed, shows in both logs ("C bea and B cal trade: …").
          const said = `(${me.name} trades .* with . ${other.name}|${other.name} trades .* with . ${me.name})`;
          for (const p of people) await p.page.waitForSelector(`[data-log] li:text-matches("${said}")`, { timeout: 20000 });
        } else if (state.offerMade && !state.traded && o.legal.includes('cancel')) {
          state.offerMade = null; // declined after all: offer again later
        }
      }
      if (!acted) await sleep(50);
    }
    state.ms = Date.now() - started;
    return state;
  }

  // The person's rating change on the game-over screen, once the ladder has
  // rated the game: as their rating history has it (μ − 3σ after, less before).
  async function checkRatingChange(page, name, gameId, ladder) {
    const shown = await (await page.waitForSelector('[data-game-summary] [data-rating-change]', { timeout: 30000 })).getAttribute('data-rating-change');
    const history = await get(`/api/v1/players/${name}/history?ladder=${ladder}&limit=5`);
    const entry = history.entries.find((e) => e.game_id === gameId);
    expect(entry, `${name}'s rating history on ${ladder} has no entry for game ${gameId}`);
    const change = (entry.ordinal_after - (entry.mu_before - 3 * entry.sigma_before)).toFixed(2);
    expect(shown === change, `${name}'s game-over screen shows a rating change of ${shown}, the history ${change}`);
    return change;
  }

  return { stats, signUp, offered, previewShown, expectPreview, clickPlace, decide, nextDecision, compareWithStored, checkSummary, inViewport, playTogether, checkRatingChange };
}
