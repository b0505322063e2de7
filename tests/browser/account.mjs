// The account page (/account, issue 31, item 5) for tests/browser/run.mjs: one
// person signed in in two browsers. The first sees both sessions, ends the
// second's with its "End" button (the second is then signed out), is refused a
// wrong current password (nothing changes), and changes the password: the page
// says one other session was signed out, the second browser is signed out at
// its next page, the old password no longer signs in and the new one does.
import { join } from 'node:path';
import { DESKTOP } from './lib/harness.mjs';

const NAME = 'keeper';
const FIRST = 'first secret 1';
const SECOND = 'second secret 2';

// The check's own watch: a 401 is expected here (a wrong password, a session
// ended under a page), which browsers log as an error; anything else fails.
function watcher(errors) {
  return (page) => {
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && !/status of 401/.test(m.text()) && errors.push(`${page.url()}: console: ${m.text()}`));
    return page;
  };
}

async function signIn(t, page, password) {
  await page.goto(`${t.gateway}/signin`);
  await page.fill('[data-account-form] input[name="name"]', NAME);
  await page.fill('[data-account-form] input[name="password"]', password);
  await page.click('[data-account-form] button[type="submit"]');
}

async function openAccount(t, page) {
  await page.goto(`${t.gateway}/account`);
  await page.waitForFunction(() => document.querySelector('main').dataset.shown === '/account');
  await page.waitForSelector('[data-session-list], [data-need-signin]');
}

const sessionRows = (page) =>
  page.$$eval('[data-session-list] tbody tr', (rows) => rows.map((r) => ({ id: r.dataset.sessionId, current: r.hasAttribute('data-current'), end: !!r.querySelector('[data-end-session]') })));

export async function checkAccount(t, browser) {
  const { expect, expectSame } = t;
  const errors = [];
  const watch = watcher(errors);
  const here = await browser.newContext(DESKTOP);
  const there = await browser.newContext(DESKTOP);
  const a = watch(await here.newPage());
  const b = watch(await there.newPage());

  // Signed up in the first browser, signed in in the second.
  await a.goto(`${t.gateway}/signup`);
  await a.fill('[data-account-form] input[name="name"]', NAME);
  await a.fill('[data-account-form] input[name="password"]', FIRST);
  await a.fill('[data-account-form] input[name="again"]', FIRST);
  await a.click('[data-account-form] button[type="submit"]');
  await a.waitForSelector(`[data-signed-in="${NAME}"]`);
  await signIn(t, b, FIRST);
  await b.waitForSelector(`[data-signed-in="${NAME}"]`);

  // "Account" beside the name opens the page: the name, the profile, the rule.
  await a.click('[data-account] [data-account-link]');
  await a.waitForSelector('[data-session-list]');
  expect(new URL(a.url()).pathname === '/account', `"Account" opened ${a.url()}`);
  expect((await a.textContent('[data-account-name]')) === NAME, 'the account page names the person');
  expect((await a.getAttribute('[data-account-profile]', 'href')) === `/players/${NAME}`, 'the account page links to the public profile');
  expect((await a.getAttribute('[data-account-bots]', 'href')) === '/bots', "the account page links to the person's bots");
  expect((await a.textContent('[data-password-rule]')).includes('8 to 128 characters'), 'the account page says the password rule before the first try');
  let rows = await sessionRows(a);
  expectSame(rows.map((r) => `${r.current} ${r.end}`), ['false true', 'true false'], 'the sessions (the newest, the second browser, first; "End" beside it only)');

  // The second browser's session, ended from the first: the list is read again,
  // and the second browser is signed out at its next page.
  await a.click(`[data-end-session="${rows[0].id}"]`);
  await a.waitForFunction(() => document.querySelectorAll('[data-session-list] tbody tr').length === 1);
  await openAccount(t, b);
  expect(await b.$('[data-need-signin]'), 'the second browser, its session ended, still shows the account');
  expect(!(await b.$('[data-signed-in]')), 'the second browser, its session ended, still says who is signed in');
  await signIn(t, b, FIRST);
  await b.waitForSelector(`[data-signed-in="${NAME}"]`);

  // A wrong current password: said beside the form, nothing changes.
  await openAccount(t, a);
  expect((await sessionRows(a)).length === 2, 'the second browser signed in again is not listed');
  const change = async (old, fresh, again = fresh) => {
    await a.fill('[data-password-form] input[name="old_password"]', old);
    await a.fill('[data-password-form] input[name="new_password"]', fresh);
    await a.fill('[data-password-form] input[name="new_again"]', again);
    await a.click('[data-password-form] button[type="submit"]');
  };
  await change(FIRST, SECOND, 'something else');
  await a.waitForFunction(() => document.querySelector('[data-form-error]')?.textContent === 'The two passwords differ.');
  await change('not my password', SECOND);
  await a.waitForFunction(() => document.querySelector('[data-form-error]')?.textContent === 'The current password is wrong.');
  expect((await a.getAttribute('[data-password-form] input[name="old_password"]', 'aria-invalid')) === 'true', 'a wrong current password is marked invalid');
  await openAccount(t, b);
  expect(await b.$('[data-session-list]'), 'a wrong current password signed the second browser out');

  // The new password: one other session signed out, this one kept.
  await change(FIRST, SECOND);
  await a.waitForFunction(() => document.querySelector('[data-password-changed]')?.textContent !== '');
  const said = await a.textContent('[data-password-changed]');
  expect(said === 'Your password is changed. 1 other session was signed out.', `the page says "${said}"`);
  await a.waitForFunction(() => document.querySelectorAll('[data-session-list] tbody tr').length === 1);
  rows = await sessionRows(a);
  expect(rows[0].current, 'the session that changed the password is not the one kept');
  await a.screenshot({ path: join(t.artifacts, 'account.png'), fullPage: true });

  await openAccount(t, b);
  expect(await b.$('[data-need-signin]'), 'the second browser is still signed in after the password changed');
  expect(!(await b.$('[data-signed-in]')), 'the second browser still says who is signed in after the password changed');
  await signIn(t, b, FIRST);
  await b.waitForFunction(() => document.querySelector('[data-form-error]')?.textContent === 'Wrong name or password.');
  await signIn(t, b, SECOND);
  await b.waitForSelector(`[data-signed-in="${NAME}"]`);
  await openAccount(t, a);
  expect((await sessionRows(a)).length === 2, 'the first browser does not see the second signed in with the new password');

  expect(errors.length === 0, `errors in the account pages:\n  ${errors.join('\n  ')}`);
  console.log(`${t.name}: the account page: sessions listed and ended, the password changed, the other browser signed out`);
  await here.close();
  await there.close();
}
