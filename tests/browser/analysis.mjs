// The browser checks of a game's analysis (docs/WEB.md, "A game's analysis"),
// shared by run.mjs (a replay's analysis, asked for with the page's button)
// and play.mjs (the game-over screen of a game a person played, analysed as it
// was stored). The replays service's worker computes analyses off the request
// path, so the checks wait for the page to show one: the page asks every few
// seconds, and the checks wait for what it shows, at most ANALYSIS_WAIT_MS.
import { join } from 'node:path';

// A game's analysis takes well under a second of CPU; this leaves room for a
// queue of other games and a loaded machine.
export const ANALYSIS_WAIT_MS = 180000;

// Waits until the section on `page` shows a ready analysis, or fails saying
// where it stood.
export async function waitForAnalysis(t, page, gameId) {
  const section = `[data-analysis="${gameId}"]`;
  try {
    await page.waitForSelector(`${section}[data-analysis-state="ready"]`, { timeout: ANALYSIS_WAIT_MS });
  } catch (e) {
    if (e.name !== 'TimeoutError') throw e;
    const state = await page.getAttribute(section, 'data-analysis-state').catch(() => null);
    const api = await t.get(`/api/v1/games/${gameId}/analysis`).catch((err) => ({ state: `(the API failed: ${err.message})` }));
    throw new Error(`the analysis of game ${gameId} was not ready within ${ANALYSIS_WAIT_MS / 1000} s: the page shows ` +
      `"${state ?? 'no analysis section'}", the API says "${api.state}" (the replays service's analysis worker computes it)`);
  }
  const answer = await t.get(`/api/v1/games/${gameId}/analysis`);
  t.expect(answer.state === 'ready' && answer.analysis, `the page shows game ${gameId}'s analysis, the API says ${answer.state}`);
  return answer.analysis;
}

// The ready analysis as drawn: a line per seat in the chart, a legend naming
// the players, a luck row per seat with the API's numbers, a dot and a button
// per mark.
export async function checkDrawn(t, page, gameId, analysis, players) {
  const seats = players.map((p) => String(p.seat));
  const root = `[data-analysis="${gameId}"]`;
  const lines = await page.$$eval(`${root} svg[data-chart="win"] path.win-line`, (els) => els.map((e) => e.dataset.seat));
  t.expectSame(lines, seats, `game ${gameId}: the chart's lines, by seat`);
  const legend = await page.$$eval(`${root} .win-legend li`, (els) => els.map((e) => e.textContent.replace(/\s+/g, ' ').trim()));
  t.expectSame(legend, players.map((p) => `${'ABCD'[p.seat]} ${p.name}`), `game ${gameId}: the chart's legend`);
  const rows = await page.$$eval(`${root} tr[data-luck-seat]`, (trs) => trs.map((tr) => ({
    seat: tr.dataset.luckSeat,
    cells: [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()),
  })));
  t.expectSame(rows.map((r) => r.seat), seats, `game ${gameId}: the luck table's rows, by seat`);
  for (const s of analysis.luck.seats) {
    const cells = rows.find((r) => r.seat === String(s.seat)).cells;
    t.expect(cells[0].startsWith(`${s.dice_cards} / ${s.expected_cards.toFixed(1)}`), `seat ${s.seat}'s dice cards show "${cells[0]}"`);
    t.expect(cells[7] === String(s.vp), `seat ${s.seat}'s VP show "${cells[7]}", not ${s.vp}`);
    t.expect(cells[9] === `${s.place} → ${s.adjusted_place}`, `seat ${s.seat}'s places show "${cells[9]}"`);
  }
  const dots = await page.$$eval(`${root} svg[data-chart="win"] circle.win-mark`, (els) => els.length);
  const buttons = await page.$$eval(`${root} button.mark`, (els) => els.length);
  t.expect(dots === analysis.marks.length && buttons === analysis.marks.length,
    `game ${gameId} has ${analysis.marks.length} marks; the chart shows ${dots} dots and the list ${buttons} buttons`);
}

// A replay's analysis: not analysed (a game of bots), the button for a
// signed-in person, then the analysis, whose marks and points move the replay.
// `context` is a browser context of its own, so that its sign-in stays there.
export async function checkReplayAnalysis(t, context, gameId, watch, { checkStep, shots }) {
  const page = watch(await context.newPage());
  const game = await t.get(`/api/v1/games/${gameId}`);
  await page.goto(`${t.gateway}/games/${gameId}`);
  await page.waitForSelector(`[data-analysis="${gameId}"][data-analysis-state="not_analysed"]`);
  // Not signed in: the page says how to ask, and offers no button.
  t.expect(await page.$(`[data-analysis="${gameId}"] a[href^="/signin"]`), 'no sign-in link offered to ask for an analysis');
  t.expect(!(await page.$('[data-analysis-request]')), 'the analysis button is offered to nobody signed in');
  await page.goto(`${t.gateway}/signup`);
  await page.fill('[data-account-form] input[name="name"]', 'analyst');
  await page.fill('[data-account-form] input[name="password"]', 'a long secret 1');
  await page.fill('[data-account-form] input[name="again"]', 'a long secret 1');
  await page.click('[data-account-form] button[type="submit"]');
  await page.waitForSelector('[data-signed-in="analyst"]');
  await page.goto(`${t.gateway}/games/${gameId}`);
  await page.click('[data-analysis-request]');
  await page.waitForSelector(`[data-analysis="${gameId}"]:is([data-analysis-state="queued"], [data-analysis-state="ready"])`);
  const analysis = await waitForAnalysis(t, page, gameId);
  await checkDrawn(t, page, gameId, analysis, game.players);
  await page.screenshot({ path: join(shots, 'analysis.png'), fullPage: true });

  // A mark moves the replay to its decision; so does a point of the chart.
  const mark = analysis.marks.find((m) => m.step !== 0);
  if (mark) {
    await page.click(`button.mark[data-mark-step="${mark.step}"]`);
    await page.waitForFunction((s) => window.metropolisViewer?.step === s, mark.step);
    await checkStep(page, gameId, mark.step);
  } else {
    console.log(`${t.name}: game ${gameId}'s analysis has no mark past the first move: no mark clicked`);
  }
  const columns = await page.$$eval('svg[data-chart="win"] rect.win-hit', (els) => els.map((e) => Number(e.dataset.step)));
  t.expect(columns.length === analysis.graph.length, `the chart has ${columns.length} points to click, the graph ${analysis.graph.length}`);
  const point = columns[Math.floor(columns.length / 2)];
  await page.click(`svg[data-chart="win"] rect.win-hit[data-step="${point}"]`);
  await page.waitForFunction((s) => window.metropolisViewer?.step === s, point);
  await checkStep(page, gameId, point);
  await page.close();
  return analysis;
}
