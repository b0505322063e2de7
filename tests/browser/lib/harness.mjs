// What the browser checks share (tests/browser/run.mjs, tests/browser/play.mjs):
// the environment their scripts pass, Chromium from playwright-core, a count of
// checks, the gateway's API, and the board read from the page and from a position.
//
//   const t = browserTest('play_test');   // its script: tests/browser/play_test.sh
//   const { browser, watch } = await t.launchChromium();
//   ... t.expect(cond, message), t.expectSame(actual, wanted, what), await t.get(path) ...
//   t.expectNoPageErrors();
//   t.run(main);                          // "play_test: FAILED: ..." and exit 1 on an error
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';

// playwright-core from web/'s lockfile: the scripts npm ci it when it is missing.
const require = createRequire(new URL('../../../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

export const DESKTOP = { viewport: { width: 1366, height: 900 } };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

// What the board must show for a position: one string per piece, sorted.
export function expectedPieces(p) {
  const out = [];
  p.token.forEach((n, h) => n && out.push(`token h${h} ${n}`));
  p.road_owner.forEach((s, e) => s >= 0 && out.push(`road e${e} s${s}`));
  for (let v = 0; v < 54; ++v) {
    const seat = p.building_owner[v];
    if (p.building[v] === 1) out.push(`settlement n${v} s${seat}`);
    if (p.building[v] === 2) {
      out.push(`city n${v} s${seat} wall${p.node_flags[v] & 1} sabotaged${(p.node_flags[v] >> 1) & 1}`);
      if (p.node_flags[v] & 1) out.push(`wall n${v} s${seat}`);
    }
    if (p.knight_level[v]) out.push(`knight n${v} s${p.knight_owner[v]} l${p.knight_level[v]} active${p.knight_flags[v] & 1}`);
  }
  p.metropolis_node.forEach((v, t) => v >= 0 && out.push(`metropolis n${v} t${t} s${p.metropolis_owner[t]}`));
  if (p.robber_hex >= 0) out.push(`robber h${p.robber_hex}`);
  if (p.merchant_hex >= 0) out.push(`merchant h${p.merchant_hex} s${p.merchant_owner}`);
  out.push(`barbarian ${p.barbarian_position} attacks${p.barbarian_attacks}`);
  p.players.forEach((pl, s) => out.push(`score s${s} ${pl.vp}`));
  return out.sort();
}

// The same, read from the data attributes of every piece the page's board draws
// (web/app/js/board/render.js).
export function drawnPieces(page) {
  return page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('.viewer [data-piece]')) {
      const a = el.dataset;
      switch (a.piece) {
        case 'token': out.push(`token h${a.hex} ${a.token}`); break;
        case 'road': out.push(`road e${a.edge} s${a.seat}`); break;
        case 'settlement': out.push(`settlement n${a.node} s${a.seat}`); break;
        case 'city': out.push(`city n${a.node} s${a.seat} wall${a.wall} sabotaged${a.sabotaged}`); break;
        case 'wall': out.push(`wall n${a.node} s${a.seat}`); break;
        case 'knight': out.push(`knight n${a.node} s${a.seat} l${a.level} active${a.active}`); break;
        case 'metropolis': out.push(`metropolis n${a.node} t${a.track} s${a.seat}`); break;
        case 'robber': out.push(`robber h${a.hex}`); break;
        case 'merchant': out.push(`merchant h${a.hex} s${a.seat}`); break;
        case 'barbarian': out.push(`barbarian ${a.position} attacks${a.attacks}`); break;
        case 'score': out.push(`score s${a.seat} ${a.vp}`); break;
        default: break; // hexes, harbors and the step label are checked elsewhere
      }
    }
    return out.sort();
  });
}

// NAME is the test's name in what it prints; tests/browser/NAME.sh brings up the
// stack and sets the environment.
export function browserTest(name) {
  const env = (variable) => {
    const v = process.env[variable];
    if (!v) throw new Error(`${variable} is not set (run tests/browser/${name}.sh)`);
    return v;
  };
  const gateway = env('METROPOLIS_GATEWAY');
  const artifacts = env('METROPOLIS_ARTIFACTS');
  mkdirSync(artifacts, { recursive: true });

  let checks = 0;
  const pageErrors = [];
  const t = {
    name,
    // The pages' errors so far, for a failure's report (expectNoPageErrors checks them).
    pageErrors: () => [...pageErrors],
    env,
    gateway,
    artifacts,
    checks: () => checks,
    ok: () => ++checks,
    expect(cond, message) {
      if (!cond) throw new Error(message);
      ++checks;
    },
    expectSame(actual, wanted, what) {
      if (JSON.stringify(actual) === JSON.stringify(wanted)) return ++checks;
      const missing = wanted.filter((x) => !actual.includes(x));
      const extra = actual.filter((x) => !wanted.includes(x));
      throw new Error(`${what}: the page differs from the position\n  missing: ${missing.join(' ') || '-'}\n  extra:   ${extra.join(' ') || '-'}`);
    },

    // GET from the gateway's API: the JSON body, or an error that says what came back.
    // A GET that got no answer at all is sent once more: the gateway ends idle
    // keep-alive connections after 2 s, and Node's fetch, unlike a browser, does
    // not resend an idempotent request whose reused connection closed under it.
    // A second failure says both causes. A 429 (the checks read from the same
    // address as the page) waits its Retry-After and asks again, as the app does.
    async get(path) {
      let r;
      for (let attempt = 0; ; ++attempt) {
        try {
          r = await fetch(gateway + path);
        } catch (first) {
          if (!(first instanceof TypeError)) throw first;
          const cause = (e) => e.cause?.message ?? e.message;
          try {
            r = await fetch(gateway + path);
          } catch (again) {
            throw new Error(`GET ${path}: no answer: ${cause(again)} (the first time: ${cause(first)})`);
          }
        }
        const waitMs = Number(r.headers.get('Retry-After')) * 1000;
        if (r.status !== 429 || attempt >= 3 || !(waitMs > 0 && waitMs <= 5000)) break;
        await r.arrayBuffer();
        await sleep(waitMs);
      }
      const body = await r.json().catch(() => null);
      if (!r.ok || body === null) throw new Error(`GET ${path}: HTTP ${r.status}: ${JSON.stringify(body).slice(0, 300)}`);
      return body;
    },

    // A game once it is stored (the host hands it over asynchronously), or null
    // after `tries` attempts `everyMs` apart.
    async stored(gameId, tries, everyMs) {
      for (let i = 0; i < tries; ++i) {
        const r = await fetch(`${gateway}/api/v1/games/${gameId}`);
        if (r.ok) return r.json();
        await sleep(everyMs);
      }
      return null;
    },

    // Headless Chromium (METROPOLIS_CHROMIUM), and `watch(page)`, which collects the
    // page's uncaught errors and console errors (but those matching `quiet`) for
    // expectNoPageErrors.
    async launchChromium({ quiet = null } = {}) {
      const executablePath = env('METROPOLIS_CHROMIUM');
      let browser;
      try {
        browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox'], timeout: 60000 });
      } catch (e) {
        throw new Error(`cannot start Chromium (${executablePath}): ${e.message.split('\n')[0]}`);
      }
      const watch = (page) => {
        page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
        page.on('console', (m) => m.type() === 'error' && !quiet?.test(m.text()) && pageErrors.push(`${page.url()}: console: ${m.text()}`));
        return page;
      };
      return { browser, watch };
    },
    expectNoPageErrors() {
      t.expect(pageErrors.length === 0, `errors in the pages:\n  ${pageErrors.join('\n  ')}`);
    },

    run(main) {
      main().catch((e) => {
        console.error(`${name}: FAILED: ${e.message}`);
        process.exit(1);
      });
    },
  };
  return t;
}

// What does not fit a phone on the page shown (issue "Players come back", item
// 14): tap targets lower than 44 px or reaching past the screen's right edge,
// table wrappers wider than the screen (a table scrolls inside its wrapper),
// chart labels drawn smaller than 11 px. Returns one line per fault.
export function phoneFaults(page) {
  return page.evaluate(() => {
    const W = window.innerWidth;
    const faults = [];
    const name = (e) => `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''} "${(e.textContent || e.value || e.name || '').trim().slice(0, 30)}"`;
    const shown = (e) => {
      const b = e.getBoundingClientRect();
      return b.width > 0 && b.height > 0 && getComputedStyle(e).visibility !== 'hidden';
    };
    const targets = 'header a, header button, header input, main button, main a.button, main .tabs a, main select, main summary, ' +
      'main input:not([type="checkbox"]):not([type="radio"]):not([type="range"])';
    for (const e of document.querySelectorAll(targets)) {
      if (!shown(e)) continue;
      const b = e.getBoundingClientRect();
      if (b.height < 43.5) faults.push(`${name(e)} is ${b.height.toFixed(1)} px high`);
      if (b.right > W + 1 || b.left < -1) faults.push(`${name(e)} spans ${b.left.toFixed(0)}..${b.right.toFixed(0)} px of ${W}`);
    }
    for (const e of document.querySelectorAll('main .table-wrap')) {
      const b = e.getBoundingClientRect();
      if (shown(e) && b.right > W + 1) faults.push(`a table's wrapper reaches ${b.right.toFixed(0)} px of ${W}`);
    }
    for (const svg of document.querySelectorAll('main svg.chart')) {
      const scale = svg.getBoundingClientRect().width / (svg.viewBox.baseVal?.width || 1);
      for (const t of svg.querySelectorAll('text')) {
        const px = Number.parseFloat(getComputedStyle(t).fontSize) * scale;
        if (shown(t) && px < 10.95) faults.push(`the chart label "${t.textContent}" is drawn at ${px.toFixed(1)} px`);
      }
    }
    return faults;
  });
}
