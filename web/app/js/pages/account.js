// Signing up and in: two forms posting to /api/v1/session/*. Errors are shown
// as the gateway words them, next to the form, and the field it names (when
// it names one) is marked invalid.
import { send, ApiError } from '../api.js';
import { html, pageOf } from '../names.js';
import { navigate } from '../nav.js';
import { refreshSession } from '../session.js';
import { PASSWORD_RULE, newPasswordProblem } from '../account/passwords.js';

const NAME_RULE = /^[A-Za-z0-9._-]{1,64}$/;

function form(kind, next) {
  const signup = kind === 'signup';
  // The other form goes on to the same place (a friend's table, say).
  const onward = next ? `?next=${encodeURIComponent(next)}` : '';
  const page = pageOf(
    html`<h1>${signup ? 'Sign up' : 'Sign in'}</h1>
    <form class="account-form" data-account-form="${kind}" novalidate>
      <label>Name <input name="name" autocomplete="username" required maxlength="64" aria-describedby="account-error"></label>
      <label>Password <input name="password" type="password" autocomplete="${signup ? 'new-password' : 'current-password'}" required aria-describedby="${signup ? 'password-rule account-error' : 'account-error'}"></label>
      ${signup ? html`<p class="hint" id="password-rule" data-password-rule>Password: ${PASSWORD_RULE}.</p>` : ''}
      ${signup ? html`<label>Password again <input name="again" type="password" autocomplete="new-password" required aria-describedby="account-error"></label>` : ''}
      <p class="form-error" id="account-error" role="alert" data-form-error></p>
      <button type="submit">${signup ? 'Create the account' : 'Sign in'}</button>
    </form>
    <p>${signup ? html`Already have an account? <a href="/signin${onward}">Sign in</a>.` : html`No account yet? <a href="/signup${onward}">Sign up</a>.`}</p>`,
    signup ? 'Sign up' : 'Sign in',
  );
  const f = page.element.querySelector('form');
  const errorEl = f.querySelector('[data-form-error]');
  const fail = (message, field) => {
    errorEl.textContent = message;
    f.querySelectorAll('input').forEach((i) => i.removeAttribute('aria-invalid'));
    if (field) f.elements[field]?.setAttribute('aria-invalid', 'true');
    (field ? f.elements[field] : f.elements.name)?.focus();
  };
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = f.elements.name.value.trim();
    const password = f.elements.password.value;
    if (!NAME_RULE.test(name)) return fail('Name: 1 to 64 letters, digits, ".", "_" or "-".', 'name');
    if (!password) return fail('Password: required.', 'password');
    const problem = signup && newPasswordProblem(password, f.elements.again.value);
    if (problem) return fail(problem.message, problem.field);
    const button = f.querySelector('button');
    button.disabled = true;
    try {
      const answer = await send('POST', `/session/${signup ? 'signup' : 'signin'}`, { name, password });
      await refreshSession({ force: true });
      if (answer?.renamed?.length) return told(answer.renamed, next);
      navigate(next || '/play');
    } catch (err) {
      const body = err instanceof ApiError ? err.body?.error : null;
      let message = err.message;
      if (err.status === 401) message = 'Wrong name or password.';
      else if (err.status === 409) message = `The name ${name} is taken.`;
      fail(body?.message && err.status !== 401 ? body.message : message, body?.parameter);
    } finally {
      button.disabled = false;
    }
  });
  return { ...page, ready: () => f.elements.name.focus() };
}

// Names that differed only in letter case from an older one were changed once
// (the gateway says which, at this one sign-in): say so before going on.
function told(renamed, next) {
  const f = document.querySelector('[data-account-form]');
  const notice = document.createElement('div');
  notice.setAttribute('data-renamed', '');
  notice.setAttribute('role', 'status');
  notice.innerHTML = String(html`<p>These names differed only in letter case from older ones, and were changed:</p>
    <ul>${renamed.map((r) => html`<li><s>${r.from}</s> is now <strong>${r.to}</strong></li>`)}</ul>
    <p>Sign in with the new name from now on. <a href="${next || '/play'}">Go on</a></p>`);
  f.replaceWith(notice);
  notice.querySelector('a').focus();
}

// Only a path of this app: "next" comes from the address bar.
const nextOf = (q) => (/^\/(?!\/)/.test(q.get('next') ?? '') ? q.get('next') : null);
export const renderSignUp = (q) => form('signup', nextOf(q));
export const renderSignIn = (q) => form('signin', nextOf(q));
