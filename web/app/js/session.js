// Who is signed in: the session the gateway keeps in an HttpOnly cookie
// (GET /api/v1/session), asked once at start and again after signing in or
// out, and shown in the header.
import { api, send, ApiError } from './api.js';
import { html } from './names.js';
import { navigate } from './nav.js';

let current = null; // {player, expires_at, active_game, queue} or null
let loaded = null;

export async function refreshSession() {
  loaded = (async () => {
    try {
      current = await api('/session');
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 401) console.warn('session:', e.message);
      current = null;
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
  await refreshSession();
  navigate('/');
}

function renderAccount() {
  const box = document.querySelector('[data-account]');
  if (!box) return;
  if (current?.player) {
    box.innerHTML = html`<span class="signed-in" data-signed-in="${current.player.name}">Signed in as <strong>${current.player.name}</strong></span>
      <button type="button" data-sign-out>Sign out</button>`.__raw;
    box.querySelector('[data-sign-out]').addEventListener('click', () => signOut().catch((e) => alert(e.message)));
  } else {
    box.innerHTML = '<a href="/signin" data-nav="signin">Sign in</a> <a href="/signup" data-nav="signup">Sign up</a>';
  }
}
