// A friends' table (/tables/{id}; docs/WEB.md, "Playing with friends"): its
// rules in plain words, the link to share, who sits at it, and what the person
// may do now (join, leave, start, open their seat, watch, ask for a rematch),
// from GET /api/v1/tables/{id}, asked again every 2 s while the page is shown.
// Each part of the page is rewritten only when what it shows changed, so that
// the keyboard's focus stays where it was. When a round's game is seated for
// the person, the page opens it once (friends/model.js, gameToOpen); coming
// back to the table later does not send them off again.
import { api, send, enc, ApiError, refusalText } from '../api.js';
import { html, raw, pageOf, seatBadge } from '../names.js';
import { navigate } from '../nav.js';
import { session, refreshSession } from '../session.js';
import { read, write } from '../storage.js';
import { settingsWords, stateWords, tablePeople, tableActions, gameToOpen } from '../friends/model.js';

const POLL_MS = 2000;

// The games a table page has opened by itself: kept in localStorage (the last
// few), and in memory where storage is refused.
const OPENED_KEY = 'metropolis.tableGamesOpened';
const openedHere = new Set();
function opened() {
  const kept = new Set(openedHere);
  try {
    for (const id of JSON.parse(read(OPENED_KEY) ?? '[]')) kept.add(id);
  } catch {
    // a value that is not ours: nothing kept
  }
  return kept;
}
function rememberOpened(gameId) {
  openedHere.add(gameId);
  write(OPENED_KEY, JSON.stringify([...opened()].slice(-20)));
}

const actionsMarkup = (actions) =>
  actions.map((a) => {
    if (a.href) return html`<a class="button" data-table-action="${a.kind}" href="${a.href}">${a.label}</a>`;
    if (a.kind === 'starting') return html`<p data-table-action="starting" aria-busy="true">${a.label}</p>`;
    if (a.kind === 'full') return html`<p data-table-action="full">${a.label}</p>`;
    return html`<button type="button" data-table-action="${a.kind}">${a.label}</button>${a.hint ? html` <span class="hint" data-action-hint="${a.kind}">${a.hint}</span>` : ''}`;
  });

const peopleMarkup = (people) =>
  html`<ul class="plain table-people">${people.map(
    (p) => html`<li data-table-person="${p.name}"${raw(p.seat !== null ? ` data-seat="${p.seat}"` : '')}>${p.seat !== null ? html`${seatBadge(p.seat)} ` : ''}${p.label}${p.you ? ' (you)' : ''}${p.creator ? html` <span class="tag">created the table</span>` : ''}</li>`,
  )}</ul>`;

const settingsMarkup = (settings) =>
  html`<ul data-table-settings>${settingsWords(settings).map((l) => html`<li data-setting="${l.key}">${l.text}</li>`)}</ul>`;

export async function render(id) {
  const s = await session();
  const signedIn = !!s?.player;
  const me = s?.player?.name ?? null;
  let table;
  try {
    table = await api(`/tables/${enc(id)}`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      return pageOf(
        html`<h1>No such table</h1><p data-table-gone>There is no table ${id}: its link may be mistyped, or the table has ended (a table is kept two hours after its last change). <a href="/play">Start a new one</a>.</p>`,
        'No such table',
      );
    }
    throw e;
  }
  const url = `${location.origin}/tables/${enc(id)}`;
  const page = pageOf(
    html`<h1>A table for friends</h1>
    <p class="meta" data-table-state aria-live="polite"></p>
    <div class="table-actions" data-table-actions tabindex="-1"></div>
    <p class="form-error" role="alert" data-table-error></p>
    <section class="panel" aria-labelledby="invite-h">
      <h2 id="invite-h">Invite your friends</h2>
      <p class="hint">Anyone with this link can join while the table is open, and watch once the game is on.</p>
      <p class="share"><input readonly class="share-link" value="${url}" data-table-link aria-label="The table's link">
        <button type="button" data-copy>Copy</button> <span data-copied role="status"></span></p>
    </section>
    <section class="panel" aria-labelledby="people-h">
      <h2 id="people-h">At the table</h2>
      <div data-table-people></div>
    </section>
    <section class="panel" aria-labelledby="rules-h">
      <h2 id="rules-h">The rules</h2>
      <div data-table-rules></div>
    </section>
    <p class="hint">An open table is kept two hours after its last change; once started, twelve hours.</p>`,
    `Table ${id}`,
  );
  const el = page.element;
  el.classList.add('friends-table');
  el.dataset.table = id;
  const regions = {
    state: el.querySelector('[data-table-state]'),
    actions: el.querySelector('[data-table-actions]'),
    people: el.querySelector('[data-table-people]'),
    rules: el.querySelector('[data-table-rules]'),
  };
  const errorEl = el.querySelector('[data-table-error]');
  const shown = {}; // region -> the markup it shows
  let stopped = false;
  let timer = 0;
  let asked = 0; // requests numbered as sent: an answer older than the one shown is dropped
  let applied = 0;
  let busy = false; // an action is on its way: its buttons do nothing meanwhile

  // While an action is on its way the buttons say so, but keep the keyboard's
  // focus (a disabled button would drop it to the page's top).
  function markBusy() {
    regions.actions.querySelectorAll('button[data-table-action]').forEach((b) => b.setAttribute('aria-disabled', String(busy)));
  }

  function paint(region, markup) {
    if (shown[region] === markup) return false;
    const box = regions[region];
    const hadFocus = box.contains(document.activeElement);
    box.innerHTML = markup;
    shown[region] = markup;
    // The focused button went with the old markup: the focus moves to the new
    // actions, not to the page's top.
    if (hadFocus) (box.querySelector('[data-table-action]:is(button, a)') ?? box).focus();
    return true;
  }

  function show(t, number) {
    if (number < applied || stopped) return;
    applied = number;
    // A refusal is about the table as it stood: once it moved on (another
    // member asked for the rematch first, say), its words go.
    if (table && (t.state !== table.state || t.round !== table.round) && !errorEl.dataset.pollError) errorEl.textContent = '';
    table = t;
    el.dataset.tableState = t.state;
    el.dataset.round = t.round;
    el.dataset.gameId = t.game_id ?? '';
    paint('state', String(html`${stateWords(t)}`));
    paint('actions', actionsMarkup(tableActions(t, signedIn)).map(String).join(''));
    paint('people', String(peopleMarkup(tablePeople(t, me))));
    paint('rules', String(settingsMarkup(t.settings)));
    markBusy();
    const game = gameToOpen(t, opened());
    if (game) {
      rememberOpened(game);
      stopped = true;
      clearTimeout(timer);
      refreshSession().finally(() => navigate(`/play/${enc(game)}`));
    }
  }

  async function poll() {
    if (stopped) return;
    const number = ++asked;
    try {
      show(await api(`/tables/${enc(id)}`), number);
      if (errorEl.dataset.pollError) {
        errorEl.textContent = '';
        delete errorEl.dataset.pollError;
      }
    } catch (e) {
      if (stopped) return;
      if (e instanceof ApiError && e.status === 404) {
        stopped = true;
        paint('state', String(html`This table has ended (a table is kept two hours after its last change).`));
        paint('actions', String(html`<a class="button" href="/play">Start a new table</a>`));
        return;
      }
      errorEl.textContent = 'The table could not be read just now; asking again.';
      errorEl.dataset.pollError = '1';
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  }

  regions.actions.addEventListener('click', async (e) => {
    const b = e.target.closest('button[data-table-action]');
    if (!b || busy) return;
    const kind = b.dataset.tableAction;
    busy = true;
    markBusy();
    errorEl.textContent = '';
    delete errorEl.dataset.pollError;
    const number = ++asked;
    try {
      const answer = await send('POST', `/tables/${enc(id)}/${kind}`, kind === 'rematch' ? { round: table.round } : undefined);
      busy = false;
      show(answer, number);
    } catch (err) {
      busy = false;
      errorEl.textContent = refusalText(err);
      markBusy();
    }
  });

  const link = el.querySelector('[data-table-link]');
  link.addEventListener('focus', () => link.select());
  el.querySelector('[data-copy]').addEventListener('click', async () => {
    link.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(link.value);
      copied = true;
    } catch {
      copied = document.execCommand?.('copy') ?? false;
    }
    el.querySelector('[data-copied]').textContent = copied ? 'Copied.' : 'Select the link and copy it.';
  });

  show(table, ++asked);
  return {
    ...page,
    ready: () => {
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    },
    cleanup: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
