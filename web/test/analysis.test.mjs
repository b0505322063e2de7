// node --test web/test: a game's analysis on the page (web/app/js/analysis/):
// the chart's scaling, the marks in words, the luck table's rows, and the
// markup's escaping. fixtures/analysis.json is a real analysis:
// `metropolis-engine sim --games 1 --players heuristic,heuristic,heuristic,heuristic
// --jsonl g.jsonl`, then `metropolis-engine analyse --file g.jsonl --json`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CHART, axisTicks, chartGeometry, pathOf, actionPhrase, markText, signed, luckRows, stepX } from '../app/js/analysis/model.js';
import { winChartMarkup, marksMarkup, luckTableMarkup } from '../app/js/analysis/markup.js';

const ANALYSIS = JSON.parse(readFileSync(new URL('fixtures/analysis.json', import.meta.url), 'utf8'));
const PLAYERS = [{ seat: 0, name: 'ana' }, { seat: 1, name: 'bea' }, { seat: 2, name: 'cal' }, { seat: 3, name: 'dee' }];
const { width, height, left, right, top, bottom } = CHART;

test('the chart puts step 0 at the left, the last step at the right, 100 % at the top', () => {
  const a = { graph: [{ step: 0, turn: 0, actor: 0, win: [0.5, 0.5] }, { step: 50, turn: 4, actor: 1, win: [0.25, 0.75] }, { step: 200, turn: 20, actor: -1, win: [1, 0] }], marks: [] };
  const g = chartGeometry(a, 2);
  assert.equal(g.last, 200);
  assert.deepEqual(g.lines.map((l) => l.seat), [0, 1]);
  const [ana, bea] = g.lines.map((l) => l.points);
  assert.deepEqual(ana.map((p) => p.x), [left, left + (width - left - right) / 4, width - right]);
  const plotH = height - top - bottom;
  assert.deepEqual(ana.map((p) => p.y), [top + plotH / 2, top + (3 * plotH) / 4, top]);
  assert.deepEqual(bea.map((p) => p.y), [top + plotH / 2, top + plotH / 4, top + plotH]);
  assert.deepEqual(g.yTicks.map((t) => [t.pct, t.y]), [[0, top + plotH], [25, top + 0.75 * plotH], [50, top + plotH / 2], [75, top + plotH / 4], [100, top]]);
  assert.equal(pathOf(ana), `M${left},${top + plotH / 2} L${ana[1].x},${ana[1].y} L${width - right},${top}`);
});

test('chances outside 0..1 stay on the chart', () => {
  const g = chartGeometry({ graph: [{ step: 0, turn: 0, actor: 0, win: [1.5, -0.2, null] }] }, 3);
  assert.deepEqual(g.lines.map((l) => l.points[0].y), [top, height - bottom, height - bottom]);
});

test('the columns to click cover the plot from edge to edge, one per point, without gaps', () => {
  const g = chartGeometry(ANALYSIS, 4);
  assert.equal(g.columns.length, ANALYSIS.graph.length);
  assert.equal(g.columns[0].x, left);
  const end = g.columns.at(-1);
  assert.ok(Math.abs(end.x + end.width - (width - right)) < 0.11);
  for (let i = 1; i < g.columns.length; ++i) {
    const before = g.columns[i - 1];
    assert.ok(Math.abs(before.x + before.width - g.columns[i].x) < 0.11, `a gap before column ${i}`);
    // Each column holds its own point.
    const x = stepX(g.columns[i].step, g.last);
    assert.ok(g.columns[i].x <= x && x <= g.columns[i].x + g.columns[i].width);
  }
});

test("a mark sits on its seat's line, at its step", () => {
  const g = chartGeometry(ANALYSIS, 4);
  assert.equal(g.marks.length, ANALYSIS.marks.length);
  for (const m of g.marks) {
    const point = g.lines[m.seat].points.find((p) => p.step === m.step);
    assert.ok(point, `no point at step ${m.step}`);
    assert.deepEqual([m.x, m.y], [point.x, point.y]);
  }
});

test('axis ticks are round numbers up to the last step', () => {
  assert.deepEqual(axisTicks(1292), [0, 200, 400, 600, 800, 1000, 1200]);
  assert.deepEqual(axisTicks(7), [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(axisTicks(3), [0, 1, 2, 3]); // never a fraction of a step
  assert.deepEqual(axisTicks(100), [0, 20, 40, 60, 80, 100]);
  assert.deepEqual(axisTicks(0), [0]);
});

test('a mark in words: who, what was played, what the search would play, and what it cost', () => {
  assert.equal(markText(ANALYSIS.marks[0], PLAYERS),
    'Move 137 — bea chose to improve politics; the search bot would build a road at edge 7 (value lost 0.07)');
  assert.equal(markText({ step: 0, seat: 3, played: 'recruit_knight n17', suggested: 'build_road e11', cost: null }, []),
    'Move 1 — seat D chose to recruit a knight at node 17; the search bot would build a road at edge 11 (it had not considered that move)');
  assert.equal(markText(ANALYSIS.marks[2], PLAYERS),
    'Move 632 — bea chose to improve science; the search bot would activate the knight at node 9 (value lost 0.04)');
});

test('actions read as words, with their place named', () => {
  const cases = {
    'move_robber h7 rob 2': 'move the robber to hex 7 and rob seat C',
    'move_knight n3 n9': 'move the knight at node 3 to node 9',
    'displace_knight n3 n9': 'displace the knight at node 9 with the knight at node 3',
    'play inventor h3 h9': 'play the inventor: swap the numbers of hex 3 and hex 9',
    'play saboteur n12': 'play the saboteur on the city at node 12',
    'pillage_city n12': 'let the barbarians take the city at node 12',
    'place_knight n4 2': 'place a level 2 knight at node 4',
    'relocate_knight n5': 'move your displaced knight to node 5',
    'bank_trade brick coin': 'give brick to the bank for coin',
    end_turn: 'end the turn',
    'aqueduct ore': 'take ore (aqueduct)',
  };
  for (const [text, phrase] of Object.entries(cases)) assert.equal(actionPhrase(text), phrase, text);
  // Every action the fixture marks reads without the board's "this" and "here".
  for (const m of ANALYSIS.marks) {
    for (const text of [m.played, m.suggested]) assert.doesNotMatch(actionPhrase(text), /\b(this|here)\b|^[A-Z]/, text);
  }
});

test('signs are always written, with a real minus sign', () => {
  assert.equal(signed(3.24), '+3.2');
  assert.equal(signed(-7.833), '−7.8');
  assert.equal(signed(0.04), '0.0');
  assert.equal(signed(-0.04), '0.0');
  assert.equal(signed(2, 0), '+2');
});

test('the luck rows: one per seat, every cell as shown', () => {
  const rows = luckRows(ANALYSIS.luck, PLAYERS);
  assert.equal(rows.length, 4);
  assert.deepEqual(rows[0], {
    seat: 0, name: 'ana', dice: '129 / 134.5', diceLuck: '−5.5', draws: '22 / 23.2', drawsLuck: '−1.2',
    stolenLost: '7 / 11', discarded: '33', pillaged: '1', defender: '1', luck: '−7.8', vp: '13', adjustedVp: '13.6',
    place: '1', adjustedPlace: '1',
  });
  assert.deepEqual(rows.map((r) => r.adjustedPlace), ['1', '3', '2', '4']);
  assert.equal(luckRows(ANALYSIS.luck, [])[2].name, 'seat C');
  assert.deepEqual(luckRows(undefined, PLAYERS), []);
});

test('the markup: a line per seat, a dot per mark, a row per seat, every name escaped', () => {
  const players = [...PLAYERS];
  players[1] = { seat: 1, name: '<img src=x onerror=alert(1)>' };
  const chart = winChartMarkup(ANALYSIS, players, 4);
  assert.equal(chart.toString().match(/<path class="win-line/g).length, 4);
  assert.equal(chart.toString().match(/<circle class="win-mark/g).length, ANALYSIS.marks.length);
  assert.equal(chart.toString().match(/<rect class="win-hit" data-step="/g).length, ANALYSIS.graph.length);
  for (const markup of [chart, marksMarkup(ANALYSIS, players), luckTableMarkup(ANALYSIS, players)]) {
    assert.doesNotMatch(markup.toString(), /<img/);
    assert.match(markup.toString(), /&lt;img src=x onerror=alert\(1\)&gt;/);
  }
  assert.equal(luckTableMarkup(ANALYSIS, players).toString().match(/<tr data-luck-seat=/g).length, 4);
  assert.equal(marksMarkup(ANALYSIS, players).toString().match(/<button type="button" class="mark"/g).length, ANALYSIS.marks.length);
  assert.match(marksMarkup({ ...ANALYSIS, marks: [] }, players).toString(), /data-marks="0"/);
});
