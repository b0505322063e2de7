// node --test web/test: the password rule and the account page's words
// (web/app/js/account/passwords.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PASSWORD_RULE, passwordBytes, newPasswordProblem, changedMessage } from '../app/js/account/passwords.js';

test('the rule is the gateway’s: 8 to 128 bytes', () => {
  assert.equal(PASSWORD_RULE, '8 to 128 characters');
  assert.equal(newPasswordProblem('1234567', '1234567')?.field, 'password');
  assert.equal(newPasswordProblem('12345678', '12345678'), null);
  assert.equal(newPasswordProblem('x'.repeat(128), 'x'.repeat(128)), null);
  assert.equal(newPasswordProblem('x'.repeat(129), 'x'.repeat(129))?.message, 'Password: 8 to 128 characters.');
});

test('bytes are counted, as the gateway counts them, not characters', () => {
  assert.equal(passwordBytes('äöü'), 6);
  assert.equal(newPasswordProblem('äöüä', 'äöüä'), null); // 4 characters, 8 bytes
  assert.equal(newPasswordProblem('日本語', '日本語'), null); // 9 bytes
  assert.notEqual(newPasswordProblem('日本', '日本'), null); // 6 bytes
});

test('the two must agree, and the field named is the form’s', () => {
  assert.deepEqual(newPasswordProblem('correct horse', 'correct horsf'), { message: 'The two passwords differ.', field: 'again' });
  assert.deepEqual(newPasswordProblem('short', 'short', { field: 'new_password', againField: 'new_again' }), {
    message: 'Password: 8 to 128 characters.',
    field: 'new_password',
  });
  assert.equal(newPasswordProblem('correct horse', 'correct horsf', { againField: 'new_again' }).field, 'new_again');
});

test('the answer says how many other sessions were signed out', () => {
  assert.equal(changedMessage(0), 'Your password is changed. You were signed in nowhere else.');
  assert.equal(changedMessage(1), 'Your password is changed. 1 other session was signed out.');
  assert.equal(changedMessage(3), 'Your password is changed. 3 other sessions were signed out.');
  assert.equal(changedMessage(undefined), 'Your password is changed. You were signed in nowhere else.');
});
