// The browser checks of tests/browser/bots_test.sh: a person's own bot. The
// script brings up the stack and passes, in the environment:
//
//   METROPOLIS_GATEWAY     the gateway's address, serving web/app
//   METROPOLIS_CHROMIUM    the Chromium binary
//   METROPOLIS_ARTIFACTS   where screenshots go
//   METROPOLIS_LADDER      a 4-seat ladder whose empty seats built-in bots fill
//   METROPOLIS_MATCHMAKER  the matchmaker's address
//   METROPOLIS_BOT         metropolis-bot, to play with the token the page showed
//   METROPOLIS_BOT_NAME    the name to give the bot
//   METROPOLIS_BOT_LOG     where the bot's output goes (.out and .err)
//
// A person signs up, opens "My bots", creates a bot (a taken name refused in
// plain words first), issues a token (its label full of markup shown as text)
// and copies it from the page; a second token is issued and revoked, and over
// the quota of five live tokens the page says why. Another person's session
// reaches none of it. Then metropolis-bot plays one game on the ladder with the
// copied token, sending a note with each answer (--debug-notes), and the game is
// stored with the bot in a seat. Its replay shows the person "Your bot's notes"
// and lets them download them; the other person is refused them (403) and the
// public too (401), and neither sees the panel.
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { browserTest, DESKTOP, sleep } from './lib/harness.mjs';

const t = browserTest('bots_test');
const { env, expect, get } = t;
const GATEWAY = t.gateway;
const ARTIFACTS = t.artifacts;
const LADDER = env('METROPOLIS_LADDER');
const BOT = env('METROPOLIS_BOT_NAME');
const LABEL = 'laptop <img src=x onerror="window.pwned=1"> & co';

async function signUp(page, name) {
  await page.goto(`${GATEWAY}/signup?next=/bots`);
  // The password rule is said before the first try, and a short password is
  // refused with it on the page, before any request.
  await page.waitForSelector('[data-password-rule]');
  expect((await page.textContent('[data-password-rule]')).includes('8 to 128 characters'), 'the sign-up form says the password rule');
  await page.fill('[data-account-form] input[name="name"]', name);
  await page.fill('[data-account-form] input[name="password"]', 'short');
  await page.fill('[data-account-form] input[name="again"]', 'short');
  await page.click('[data-account-form] button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('[data-form-error]')?.textContent.includes('8 to 128 characters'));
  expect((await page.getAttribute('[data-account-form] input[name="password"]', 'aria-invalid')) === 'true', 'a short password is marked invalid');
  await page.fill('[data-account-form] input[name="password"]', 'a long secret 1');
  await page.fill('[data-account-form] input[name="again"]', 'a long secret 1');
  await page.click('[data-account-form] button[type="submit"]');
  await page.waitForSelector(`[data-signed-in="${name}"]`);
  // "Signed in as" links to the person's profile.
  expect((await page.getAttribute(`[data-signed-in="${name}"] a[data-profile]`, 'href')) === `/players/${name}`, '"Signed in as" links to the profile');
  await page.waitForSelector('[data-bot-create]');
}

async function issue(page, label) {
  const section = `[data-bot="${BOT}"]`;
  await page.fill(`${section} [data-token-issue] input[name="label"]`, label);
  await page.click(`${section} [data-token-issue] button[type="submit"]`);
  await page.waitForSelector('[data-new-token] [data-token-value]');
  const token = await page.inputValue('[data-new-token] [data-token-value]');
  await page.waitForFunction((l) => [...document.querySelectorAll('[data-tokens] tr[data-token-id] td:first-child')].some((td) => td.textContent === l), label);
  return token;
}

// metropolis-bot on the ladder with `token` for one game: resolves with its exit code.
function playOneGame(token) {
  const log = env('METROPOLIS_BOT_LOG');
  const child = spawn(
    env('METROPOLIS_BOT'),
    ['--matchmaker', env('METROPOLIS_MATCHMAKER'), '--api-token', token, '--ladder', LADDER, '--bot', 'heuristic', '--games', '1', '--debug-notes'],
    { stdio: ['ignore', openSync(`${log}.out`, 'w'), openSync(`${log}.err`, 'w')] },
  );
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill(), 240_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

// GET `path` from the gateway as the person whose browser context `context` is
// (its session cookie), or as the public without one: the status and the JSON.
async function getAs(context, path) {
  const cookie = context ? (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') : '';
  const r = await fetch(GATEWAY + path, { headers: cookie ? { Cookie: cookie } : {} });
  return { status: r.status, body: await r.json().catch(() => null) };
}

async function main() {
  const started = Date.now();
  const { browser, watch } = await t.launchChromium({ quiet: /status of 4(04|09|15)/ });
  const open = [];
  try {
    const sam = watch(await (await browser.newContext(DESKTOP)).newPage());
    open.push(sam);
    await signUp(sam, 'sam');
    await sam.waitForSelector('[data-no-bots]');
    expect((await sam.textContent('[data-quota]')).includes('0 of 10 bots'), 'the page states the quota of 10 bots');

    // A bad name is refused on the page; a taken one (sam's own name) by the gateway, in plain words.
    await sam.fill('[data-bot-create] input[name="name"]', 'no spaces please');
    await sam.click('[data-bot-create] button[type="submit"]');
    await sam.waitForSelector('[data-bot-error]:text("1 to 64 letters")');
    await sam.fill('[data-bot-create] input[name="name"]', 'Sam');
    await sam.click('[data-bot-create] button[type="submit"]');
    await sam.waitForSelector(`[data-bot-error]:text("name 'Sam' is taken (by 'sam')")`);

    await sam.fill('[data-bot-create] input[name="name"]', BOT);
    await sam.click('[data-bot-create] button[type="submit"]');
    await sam.waitForSelector(`[data-bot="${BOT}"] [data-tokens]`);
    expect((await sam.textContent('[data-bot-error]')) === '', 'creating the bot left no error');

    // The token to play with: shown once, its label shown as text, never as markup.
    const token = await issue(sam, LABEL);
    expect(/^mtp_[0-9a-f]{64}$/.test(token), `the page shows a token: ${token.slice(0, 8)}...`);
    expect(!(await sam.evaluate(() => window.pwned)) && !(await sam.$('[data-tokens] img')), 'the label is not markup');
    await sam.screenshot({ path: join(ARTIFACTS, 'bots-token.png'), fullPage: true });
    // A reload shows the token no more: only its label and id.
    await sam.reload();
    await sam.waitForSelector(`[data-bot="${BOT}"] [data-tokens] tr[data-token-id]`);
    expect(!(await sam.content()).includes(token), 'the token is shown once only');

    // A second token, revoked; then up to the quota of five live tokens, and one more is refused.
    await issue(sam, 'spare');
    const spareId = await sam.$eval(`[data-tokens] tr[data-token-id]:has(td:text-is("spare"))`, (tr) => tr.dataset.tokenId);
    sam.once('dialog', (d) => d.accept());
    await sam.click(`[data-revoke="${spareId}"]`);
    await sam.waitForSelector(`tr[data-token-id="${spareId}"] td:text("revoked")`);
    for (let i = 2; i <= 5; ++i) await issue(sam, `token ${i}`);
    await sam.fill(`[data-bot="${BOT}"] [data-token-issue] input[name="label"]`, 'one too many');
    await sam.click(`[data-bot="${BOT}"] [data-token-issue] button[type="submit"]`);
    await sam.waitForSelector(`[data-token-error]:text("has 5 unrevoked tokens, the most a bot may have is 5")`);
    await sam.screenshot({ path: join(ARTIFACTS, 'bots-quota.png'), fullPage: true });

    // Another person reaches nothing of sam's: not listed, and the API answers 404.
    const ida = watch(await (await browser.newContext(DESKTOP)).newPage());
    open.push(ida);
    await signUp(ida, 'ida');
    await ida.waitForSelector('[data-no-bots]');
    const theirs = await ida.evaluate(async ([bot, id]) => {
      const post = (path, body) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return [
        (await fetch(`/api/v1/me/bots/${bot}/tokens`)).status,
        (await post(`/api/v1/me/bots/${bot}/tokens`, { label: 'mine now' })).status,
        (await post(`/api/v1/me/bots/${bot}/tokens/${id}/revoke`, {})).status,
        // Not JSON: what another site's form could send is refused before anything.
        (await fetch('/api/v1/me/bots', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"name":"x"}' })).status,
      ];
    }, [BOT, spareId]);
    expect(JSON.stringify(theirs) === '[404,404,404,415]', `another person's requests for sam's bot answer ${theirs}`);

    // The bot plays a ladder game with the token copied from the page.
    const code = await playOneGame(token);
    expect(code === 0, `metropolis-bot with the page's token exited with ${code} (see ${env('METROPOLIS_BOT_LOG')}.err)`);
    // The game is stored (the host hands it over asynchronously) with the bot in a seat, played over the network.
    let games = [];
    for (let i = 0; i < 300 && games.length === 0; ++i) {
      games = (await get(`/api/v1/games?player=${BOT}&ladder=${LADDER}`)).games;
      if (games.length === 0) await sleep(100);
    }
    expect(games.length === 1, `${games.length} stored games of ${BOT} on ${LADDER}`);
    const seat = games[0].players.find((p) => p.name === BOT);
    expect(seat && seat.played_by === 'network' && seat.identity_id > 0, `${BOT}'s seat: ${JSON.stringify(seat)}`);
    const gameId = games[0].game_id;
    await sam.goto(`${GATEWAY}/games/${gameId}`);
    await sam.waitForSelector('.viewer[data-step="0"]');
    await sam.screenshot({ path: join(ARTIFACTS, 'bots-played.png'), fullPage: true });

    // The bot's notes: only sam's seat, downloaded from the panel's link as JSON.
    await sam.waitForSelector('.bot-notes[data-notes-state="shown"] [data-notes-download]');
    const href = await sam.getAttribute('[data-notes-download]', 'href');
    expect(href === `/api/v1/me/games/${gameId}/debug?download=1`, `the download link: ${href}`);
    const download = await sam.evaluate(async (url) => {
      const r = await fetch(url);
      return { status: r.status, type: r.headers.get('Content-Type'), disposition: r.headers.get('Content-Disposition'), body: await r.json() };
    }, href);
    expect(download.status === 200 && download.type === 'application/json', `the download answers ${download.status} ${download.type}`);
    expect(download.disposition === `attachment; filename="${gameId}-debug.json"`, `the download is a file: ${download.disposition}`);
    const seats = download.body.seats;
    expect(seats.length === 1 && seats[0].seat === seat.seat && seats[0].bot === BOT && seats[0].identity_id === seat.identity_id,
      `the notes are of ${BOT}'s seat only: ${JSON.stringify(seats.map(({ steps, ...s }) => s))}`);
    const noted = seats[0].steps.filter((s) => s.note.includes(' chose '));
    expect(noted.length > 0 && noted.length === seats[0].steps.length, `${noted.length} of ${seats[0].steps.length} answers carry a note with " chose "`);
    expect(seats[0].steps.every((s) => Number.isInteger(s.think_ms) && s.think_ms >= 0), 'every answer has its think time');

    // At a step the bot answered, the panel shows that answer's note.
    const at = noted[Math.floor(noted.length / 2)];
    await sam.goto(`${GATEWAY}/games/${gameId}?step=${at.step}`);
    await sam.waitForSelector(`.viewer[data-step="${at.step}"]`);
    await sam.waitForSelector(`.bot-notes[data-notes-state="shown"] [data-notes-seat="${seat.seat}"] [data-note]`);
    const shown = await sam.textContent(`[data-notes-seat="${seat.seat}"] [data-note]`);
    expect(shown === at.note, `at step ${at.step} the panel shows "${shown}", not the note "${at.note}"`);
    expect((await sam.textContent('.bot-notes h2')) === "Your bot's notes", 'the panel is titled');
    const summary = (await sam.textContent('[data-notes-summary]')).replace(/\s+/g, ' ');
    expect(summary.startsWith(`${seats[0].steps.length} answers · think time median `) && summary.includes(', max '), `the panel sums up the think times: ${summary}`);
    await sam.screenshot({ path: join(ARTIFACTS, 'bots-notes.png'), fullPage: true });

    // Another person is refused the notes, and the page shows no panel.
    const idas = await getAs(ida.context(), `/api/v1/me/games/${gameId}/debug`);
    expect(idas.status === 403 && !JSON.stringify(idas.body).includes(' chose '), `another person's request for the notes answers ${idas.status}`);
    expect((await getAs(ida.context(), `/api/v1/me/games/${gameId}/debug?download=1`)).status === 403, 'nor does the download give them');
    await ida.goto(`${GATEWAY}/games/${gameId}?step=${at.step}`);
    await ida.waitForSelector(`.viewer[data-step="${at.step}"] .bot-notes[data-notes-state="none"]`, { state: 'attached' });
    expect(!(await ida.isVisible('.bot-notes')) && !(await ida.content()).includes(at.note), 'the other person sees no notes');
    // The public neither: 401, and no panel.
    const pub = await getAs(null, `/api/v1/me/games/${gameId}/debug`);
    expect(pub.status === 401, `the public's request for the notes answers ${pub.status}`);
    const anyone = watch(await (await browser.newContext(DESKTOP)).newPage());
    open.push(anyone);
    await anyone.goto(`${GATEWAY}/games/${gameId}?step=${at.step}`);
    await anyone.waitForSelector(`.viewer[data-step="${at.step}"] .bot-notes[data-notes-state="none"]`, { state: 'attached' });
    expect(!(await anyone.isVisible('.bot-notes')) && !(await anyone.content()).includes(at.note), 'the public sees no notes');

    t.expectNoPageErrors();
    console.log(`bots_test: ${t.checks()} checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s; ${BOT} played on ${LADDER}`);
  } catch (e) {
    for (const [i, page] of open.entries()) {
      const shown = await page.evaluate(() => `${location.pathname}: ${document.querySelector('main')?.innerText.slice(0, 400).replace(/\s+/g, ' ')}`).catch(() => '?');
      console.error(`bots_test: page ${i} at ${shown}`);
      await page.screenshot({ path: join(ARTIFACTS, `failed-${i}.png`), fullPage: true }).catch(() => {});
    }
    throw e;
  } finally {
    await browser.close();
  }
}

t.run(main);
