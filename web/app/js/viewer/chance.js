// The replay's dice check (docs/CHANCE.md): the seed revealed with the game is
// hashed here, in the browser, and compared with the commitment the game
// announced before its first roll; beside it, the gateway's check of every
// outcome and the command that repeats it on the reader's machine.
import { html, raw } from '../names.js';

const COMMITMENT_TAG = 'metropolis/commitment/v2';

const hexToBytes = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const bytesToHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

// SHA-256("metropolis/commitment/v2" 0x00 seed), as hex; null where the
// browser has no WebCrypto (a page not served over HTTPS or from localhost).
export async function commitmentOf(seedHex) {
  if (!globalThis.crypto?.subtle) return null;
  const tag = new TextEncoder().encode(COMMITMENT_TAG);
  const seed = hexToBytes(seedHex);
  const message = new Uint8Array(tag.length + 1 + seed.length);
  message.set(tag, 0);
  message.set(seed, tag.length + 1);
  return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', message)));
}

// The panel's markup; check() fills in the browser's verdict.
export function panel(game) {
  const c = game.chance;
  if (!c || c.version !== 2) {
    return html`<p class="chance" data-chance="unverifiable">Dice: version 1 — the seed was chosen by whoever created
      this game, so there is nothing to verify.</p>`;
  }
  const server = c.verified
    ? `the server replayed all ${c.chance_nodes} chance outcomes (${c.rolls} rolls): each is the seed's`
    : `the server's check FAILED: ${c.error}`;
  return html`<details class="chance" data-chance="pending" data-server-verified="${c.verified ? '1' : '0'}">
      <summary>Dice: <span data-chance-verdict>checking…</span></summary>
      <p>Before the first roll, this game committed to its secret seed:
        <code class="hash">${c.commitment}</code>. The seed, revealed now that the game is over:
        <code class="hash">${c.seed}</code>.</p>
      <p>Your browser: <span data-chance-browser>hashing the seed…</span><br>
        Server: ${server}.</p>
      <p>Check it yourself: <a href="/api/v1/games/${game.game_id}/record" download="${game.game_id}.json">download the
        record</a> and run <code>${c.command}</code> (docs/CHANCE.md).</p>
    </details>`;
}

// Hashes the seed and says whether it is the committed one.
export async function check(el, game) {
  const box = el.querySelector('[data-chance]');
  const c = game.chance;
  if (!box || !c || c.version !== 2) return;
  const verdict = box.querySelector('[data-chance-verdict]');
  const browser = box.querySelector('[data-chance-browser]');
  const hashed = await commitmentOf(c.seed);
  if (hashed === null) {
    box.dataset.chance = 'no-webcrypto';
    browser.textContent = 'cannot hash here (WebCrypto needs HTTPS); the server\'s check is below';
    verdict.textContent = c.verified ? 'verified by the server' : 'NOT verified';
    return;
  }
  const ok = hashed === c.commitment && c.verified;
  box.dataset.chance = ok ? 'verified' : 'failed';
  browser.innerHTML = String(hashed === c.commitment
    ? html`SHA-256 of the seed is the commitment ${raw('&#10003;')}`
    : html`SHA-256 of the seed is <code class="hash">${hashed}</code>, NOT the commitment`);
  verdict.textContent = ok ? 'verified — fixed before the game began, unchanged since' : 'NOT verified';
}
