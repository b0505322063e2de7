// Your account (/account; docs/GATEWAY.md, "Your account"): the name with a
// link to the public profile; a new password, which signs out every other
// session (the answer says how many); and where the person is signed in, this
// session marked, the others with an "End" button. Errors are the gateway's
// words, next to the form or the list.
import { api, send, enc, ApiError, refusalText } from '../api.js';
import { html, pageOf, formatDate } from '../names.js';
import { navigate } from '../nav.js';
import { session, refreshSession } from '../session.js';
import { PASSWORD_RULE, newPasswordProblem, changedMessage } from '../account/passwords.js';

const TITLE = 'Your account';

const say = refusalText;

const signedOut = () =>
  pageOf(html`<h1>${TITLE}</h1><p data-need-signin><a href="/signin?next=/account">Sign in</a> to see your account.</p>`, TITLE);

const sessionsMarkup = (sessions) =>
  html`<table class="sessions" data-session-list><thead><tr><th>Session</th><th>Signed in</th><th>Expires</th><th></th></tr></thead><tbody>
    ${sessions.map(
      (s) => html`<tr data-session-id="${s.id}" ${s.current ? html`data-current` : ''}>
        <td><code>${s.id.slice(0, 8)}</code>${s.current ? html` <strong>(this one)</strong>` : ''}</td>
        <td>${formatDate(s.created_at)}</td><td>${formatDate(s.expires_at)}</td>
        <td>${s.current ? '' : html`<button type="button" data-end-session="${s.id}">End</button>`}</td></tr>`,
    )}</tbody></table>`;

export async function render() {
  const s = await session();
  if (!s?.player) return signedOut();
  const name = s.player.name;
  const page = pageOf(
    html`<h1>${TITLE}</h1>
    <p>Signed in as <strong data-account-name>${name}</strong> ·
      <a href="/players/${enc(name)}" data-account-profile>your public profile</a>, with your games and ratings ·
      <a href="/bots" data-account-bots>your bots</a> and their API tokens.</p>
    <section class="panel" aria-labelledby="password-h">
      <h2 id="password-h">Change your password</h2>
      <p class="hint" id="new-password-rule" data-password-rule>Password: ${PASSWORD_RULE}.
        Changing it signs you out everywhere else.</p>
      <form data-password-form novalidate>
        <label>Current password <input name="old_password" type="password" autocomplete="current-password" required aria-describedby="password-error"></label>
        <label>New password <input name="new_password" type="password" autocomplete="new-password" required aria-describedby="new-password-rule password-error"></label>
        <label>New password again <input name="new_again" type="password" autocomplete="new-password" required aria-describedby="password-error"></label>
        <button type="submit">Change the password</button>
      </form>
      <p class="form-error" id="password-error" role="alert" data-form-error></p>
      <p role="status" data-password-changed></p>
    </section>
    <section class="panel" aria-labelledby="sessions-h">
      <h2 id="sessions-h">Where you are signed in</h2>
      <p class="form-error" role="alert" data-sessions-error></p>
      <div class="table-wrap" data-sessions aria-live="polite"></div>
    </section>`,
    TITLE,
  );
  const el = page.element;
  const form = el.querySelector('[data-password-form]');
  const formError = el.querySelector('[data-form-error]');
  const changed = el.querySelector('[data-password-changed]');
  const listEl = el.querySelector('[data-sessions]');
  const listError = el.querySelector('[data-sessions-error]');

  // This session ended under the page (another one changed the password or
  // ended it): the header and the page say so.
  const lost = async () => {
    await refreshSession();
    navigate('/signin?next=/account', { replace: true });
  };

  const load = async () => {
    const answer = await api('/account');
    listEl.innerHTML = String(sessionsMarkup(answer.sessions));
    listEl.querySelectorAll('[data-end-session]').forEach((b) =>
      b.addEventListener('click', async () => {
        listError.textContent = '';
        b.disabled = true;
        try {
          const ended = await send('POST', `/account/sessions/${enc(b.dataset.endSession)}/end`, {});
          if (ended?.signed_out) return lost();
          await load();
        } catch (err) {
          if (err instanceof ApiError && err.status === 401) return lost();
          listError.textContent = say(err);
          b.disabled = false;
        }
      }),
    );
  };

  const fail = (message, field) => {
    formError.textContent = message;
    form.querySelectorAll('input').forEach((i) => i.removeAttribute('aria-invalid'));
    if (field && form.elements[field]) {
      form.elements[field].setAttribute('aria-invalid', 'true');
      form.elements[field].focus();
    }
  };
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    changed.textContent = '';
    const old = form.elements.old_password.value;
    const fresh = form.elements.new_password.value;
    if (!old) return fail('Current password: required.', 'old_password');
    const problem = newPasswordProblem(fresh, form.elements.new_again.value, { field: 'new_password', againField: 'new_again' });
    if (problem) return fail(problem.message, problem.field);
    fail('');
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      const answer = await send('POST', '/account/password', { old_password: old, new_password: fresh });
      form.reset();
      changed.textContent = changedMessage(answer?.sessions_ended);
      await load();
    } catch (err) {
      const parameter = err instanceof ApiError ? err.body?.error?.parameter : undefined;
      if (err instanceof ApiError && err.status === 401 && parameter === 'old_password')
        return fail('The current password is wrong.', 'old_password');
      if (err instanceof ApiError && err.status === 401) return lost();
      fail(say(err), parameter);
    } finally {
      button.disabled = false;
    }
  });

  try {
    await load();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      await refreshSession();
      return signedOut();
    }
    listError.textContent = say(err);
  }
  return page;
}
