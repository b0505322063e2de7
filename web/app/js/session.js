// Who is signed in: the session the gateway keeps in an HttpOnly cookie
// (GET /api/v1/session), asked once at start and again after signing in or
// out, and shown in the header.
import { api, send, ApiError } from './api.js';
import { html } from './names.js';
import { navigate } from './nav.js';
import { read, write } from './storage.js';

let current = null; // {player, expires_at, active_game, queue} or null
let loaded = null;

// The cookie is HttpOnly, so the page cannot see whether it has one; this hint
// (set on signing in, cleared on signing out or a 401) spares anonymous
// visitors a 401 on every page, which browsers log as an error.
// Without storage there is no hint, and the session is asked for every time.
const HINT = 'metropolis.signedIn';
const hinted = () => read(HINT, { refused: '1' }) === '1';
const setHint = (on) => write(HINT, on ? '1' : null);

// After signing in or up (force) or to recheck.
export async function refreshSession({ force = false } = {}) {
  loaded = (async () => {
    if (force) setHint(true);
    current = null;
    if (hinted()) {
      try {
        current = await api('/session');
      } catch (e) {
        // Only a 401 says the session is gone; the gateway being down does not.
        if (e instanceof ApiError && e.status === 401) setHint(false);
        else console.warn('session:', e.message);
      }
    }
    renderAccount();
    return current;
  })();
  return loaded;
}

// The session, asking the gateway only the first time.
export function session() {
  return loaded ?? refreshSession();
}

export async function signOut() {
  await send('POST', '/session/signout');
  setHint(false);
  await refreshSession();
  navigate('/');
}

function renderAccount() {
  const box = document.querySelector('[data-account]');
  if (!box) return;
  if (current?.player) {
    box.innerHTML = html`<span class="signed-in" data-signed-in="${current.player.name}">Signed in as <a href="/players/${encodeURIComponent(current.player.name)}" data-profile><strong>${current.player.name}</strong></a></span>
      <a href="/account" data-nav="account" data-account-link>Account</a>
      <a href="/bots" data-nav="bots">My bots</a>
      <button type="button" data-sign-out>Sign out</button>`.__raw;
    box.querySelector('[data-sign-out]').addEventListener('click', () => signOut().catch((e) => alert(e.message)));
  } else {
    box.innerHTML = '<a href="/signin" data-nav="signin">Sign in</a> <a href="/signup" data-nav="signup">Sign up</a>';
  }
}
