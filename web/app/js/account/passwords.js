// The password rule and the account page's words, shared by signing up
// (pages/account.js) and changing a password (pages/settings.js); pure, so
// that node --test checks them (web/test/passwords.test.mjs).

// The gateway's and the People service's rule (kMinPasswordBytes,
// kMaxPasswordBytes): said before the first try, and checked here in bytes,
// as they count.
export const PASSWORD_BYTES = { min: 8, max: 128 };
export const PASSWORD_RULE = `${PASSWORD_BYTES.min} to ${PASSWORD_BYTES.max} characters`;

export const passwordBytes = (password) => new TextEncoder().encode(password).length;

// What is wrong with a new password typed twice, before asking the gateway:
// {message, field} naming the form's field, or null when nothing is.
export function newPasswordProblem(password, again, { field = 'password', againField = 'again' } = {}) {
  const bytes = passwordBytes(password);
  if (bytes < PASSWORD_BYTES.min || bytes > PASSWORD_BYTES.max) return { message: `Password: ${PASSWORD_RULE}.`, field };
  if (password !== again) return { message: 'The two passwords differ.', field: againField };
  return null;
}

// The answer to a new password (POST /api/v1/account/password): how many other
// sessions it signed out.
export function changedMessage(sessionsEnded) {
  const n = Number(sessionsEnded) || 0;
  if (n === 0) return 'Your password is changed. You were signed in nowhere else.';
  return `Your password is changed. ${n} other ${n === 1 ? 'session was' : 'sessions were'} signed out.`;
}
