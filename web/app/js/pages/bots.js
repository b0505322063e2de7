// "My bots": the signed-in person's own bots and their API tokens
// (/api/v1/me/bots, docs/GATEWAY.md, "Self-service bots"). A bot is created by
// name; a token is issued with a label and shown once, here, to be copied into
// the bot's configuration (metropolis-bot --api-token); tokens are listed by label
// and may be revoked. Errors are the gateway's words, shown next to the form.
import { api, send, enc, refusalText } from '../api.js';
import { html, pageOf, formatDate } from '../names.js';
import { session } from '../session.js';

const NAME_RULE = /^[A-Za-z0-9._-]{1,64}$/;

const say = refusalText;

export async function render() {
  const s = await session();
  if (!s?.player) {
    return pageOf(
      html`<h1>My bots</h1><p data-need-signin><a href="/signin?next=/bots">Sign in</a> or <a href="/signup?next=/bots">sign up</a> to create bots.</p>`,
      'My bots',
    );
  }
  const page = pageOf(
    html`<h1>My bots</h1>
    <p class="hint">Bots you write play on the ladders under a name of their own, with an API token
      (<code>metropolis-bot --matchmaker ADDRESS --api-token TOKEN --ladder LADDER --bot SPEC</code>; docs/BOTS.md). <span data-quota></span></p>
    <section class="panel" aria-labelledby="new-bot-h">
      <h2 id="new-bot-h">New bot</h2>
      <form data-bot-create novalidate>
        <label>Name <input name="name" required maxlength="64" autocomplete="off" aria-describedby="bot-error"></label>
        <button type="submit">Create the bot</button>
      </form>
      <p class="form-error" id="bot-error" role="alert" data-bot-error></p>
    </section>
    <div data-issued role="status"></div>
    <div data-bots aria-live="polite"></div>`,
    'My bots',
  );
  const el = page.element;
  const listEl = el.querySelector('[data-bots]');
  const issuedEl = el.querySelector('[data-issued]');
  const createForm = el.querySelector('[data-bot-create]');
  const createError = el.querySelector('[data-bot-error]');
  let quotas = { max_bots: 0, max_tokens_per_bot: 0 };

  const showIssued = (answer) => {
    issuedEl.innerHTML = html`<div class="notice" data-new-token>
      <p>The token for <strong>${answer.bot}</strong>${answer.label ? html` (${answer.label})` : ''}. Copy it now:
        it is shown only this once, and only its fingerprint is kept.</p>
      <p><input readonly class="token" size="72" value="${answer.token}" data-token-value aria-label="The new token">
        <button type="button" data-copy>Copy</button> <span data-copied role="status"></span></p>
    </div>`.__raw;
    const input = issuedEl.querySelector('[data-token-value]');
    input.focus();
    input.select();
    issuedEl.querySelector('[data-copy]').addEventListener('click', async () => {
      input.select();
      let copied = false;
      try {
        await navigator.clipboard.writeText(input.value);
        copied = true;
      } catch {
        copied = document.execCommand?.('copy') ?? false;
      }
      issuedEl.querySelector('[data-copied]').textContent = copied ? 'Copied.' : 'Select the token and copy it.';
    });
  };

  const tokensMarkup = (bot, tokens) =>
    tokens.length
      ? html`<table data-tokens="${bot}"><thead><tr><th>Label</th><th>Id</th><th>Created</th><th>State</th><th></th></tr></thead><tbody>
        ${tokens.map(
          (t) => html`<tr data-token-id="${t.id}"><td>${t.label || '–'}</td><td>${t.id}</td><td>${formatDate(t.created_at)}</td>
          <td>${t.revoked_at ? html`revoked ${formatDate(t.revoked_at)}` : 'valid'}</td>
          <td>${t.revoked_at ? '' : html`<button type="button" data-revoke="${t.id}">Revoke</button>`}</td></tr>`,
        )}</tbody></table>`
      : html`<p class="hint" data-tokens="${bot}">No tokens yet.</p>`;

  const renderBot = async (section, bot) => {
    const { tokens } = await api(`/me/bots/${enc(bot.name)}/tokens`);
    const live = tokens.filter((t) => !t.revoked_at).length;
    section.innerHTML = html`<h2>${bot.name}</h2>
      <p class="meta">Created ${formatDate(bot.created_at)} · <a href="/players/${enc(bot.name)}">its games and ratings</a> ·
        ${live} of ${quotas.max_tokens_per_bot} tokens in use</p>
      <form data-token-issue novalidate>
        <label>Label <input name="label" maxlength="200" placeholder="what the token is for" autocomplete="off"></label>
        <button type="submit">Issue a token</button>
      </form>
      <p class="form-error" role="alert" data-token-error></p>
      ${tokensMarkup(bot.name, tokens)}`.__raw;
    const errorEl = section.querySelector('[data-token-error]');
    const form = section.querySelector('[data-token-issue]');
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      errorEl.textContent = '';
      const button = form.querySelector('button');
      button.disabled = true;
      try {
        const answer = await send('POST', `/me/bots/${enc(bot.name)}/tokens`, { label: form.elements.label.value.trim() });
        await renderBot(section, bot);
        showIssued(answer);
      } catch (err) {
        errorEl.textContent = say(err);
        button.disabled = false;
      }
    });
    section.querySelectorAll('[data-revoke]').forEach((b) =>
      b.addEventListener('click', async () => {
        if (!confirm(`Revoke token ${b.dataset.revoke} of ${bot.name}? A bot using it is refused from then on.`)) return;
        errorEl.textContent = '';
        b.disabled = true;
        try {
          await send('POST', `/me/bots/${enc(bot.name)}/tokens/${enc(b.dataset.revoke)}/revoke`, {});
          await renderBot(section, bot);
        } catch (err) {
          errorEl.textContent = say(err);
          b.disabled = false;
        }
      }),
    );
  };

  const load = async () => {
    const answer = await api('/me/bots');
    quotas = answer;
    el.querySelector('[data-quota]').textContent = `You have ${answer.bots.length} of ${answer.max_bots} bots.`;
    if (!answer.bots.length) {
      listEl.innerHTML = html`<p data-no-bots>No bots yet.</p>`.__raw;
      return;
    }
    listEl.replaceChildren();
    for (const bot of answer.bots) {
      const section = document.createElement('section');
      section.className = 'panel bot';
      section.dataset.bot = bot.name;
      listEl.append(section);
      await renderBot(section, bot);
    }
  };

  createForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    createError.textContent = '';
    const input = createForm.elements.name;
    input.removeAttribute('aria-invalid');
    const name = input.value.trim();
    if (!NAME_RULE.test(name) || /^\.+$/.test(name)) {
      createError.textContent = 'Name: 1 to 64 letters, digits, ".", "_" or "-" (not dots alone).';
      input.setAttribute('aria-invalid', 'true');
      return input.focus();
    }
    const button = createForm.querySelector('button');
    button.disabled = true;
    try {
      await send('POST', '/me/bots', { name });
      input.value = '';
      issuedEl.replaceChildren();
      await load();
    } catch (err) {
      createError.textContent = say(err);
      input.setAttribute('aria-invalid', 'true');
    } finally {
      button.disabled = false;
    }
  });

  try {
    await load();
  } catch (err) {
    listEl.innerHTML = html`<p class="form-error" role="alert">${say(err)}</p>`.__raw;
  }
  return page;
}
