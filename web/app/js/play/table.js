// A game being played from the browser (/play/{game_id}): the replay viewer's
// board becomes the playing surface. The seat's stream
// (GET /api/v1/play/{id}/events, docs/GATEWAY.md "People and play") brings the welcome,
// the seat's events and each decision with its legal actions; an answer is
// POST /api/v1/play/{id}/answer and its outcome arrives on the stream (the
// next decision, or "rejected"). A reload or a lost connection opens the
// stream again, and the host sends the welcome and the current decision anew.
import { api, send, enc } from '../api.js';
import { html, pageOf, SEAT_LETTERS, CARD_NAMES } from '../names.js';
import { session } from '../session.js';
import { GameViewer, actingSeat } from '../viewer/viewer.js';
import { planLegal, secondPlaces, offerText, counterText } from './legal.js';
import { targetInfo, previewMarkup } from './targets.js';
import { panelMarkup, promptTitle, promptCardText, isPrompt, offerBuilderMarkup, acceptBlocker } from './panel.js';
import { TurnSignal } from './signal.js';
import { rateBankTrades } from './rates.js';
import { resignControl } from './resign.js';
import { summaryMarkup, ratingChange } from './summary.js';
import { analysisSection } from '../analysis/section.js';
import { liveErrorText } from '../pages/live.js';

// The log shows what happened; the viewer's "this step" box stays empty here.
const NO_EVENTS = [];

export async function render(gameId) {
  const s = await session();
  if (!s?.player) {
    const back = `/play/${enc(gameId)}`;
    return pageOf(html`<h1>Game ${gameId}</h1><p data-need-signin><a href="/signin?next=${back}">Sign in</a> to play your seat.</p>`, `Game ${gameId}`);
  }
  const me = s.player.name;
  return new Promise((resolve, reject) => {
    let source = null;
    let viewer = null;
    let seat = -1;
    let config = null;
    let decision = null; // the decision being answered: {step, view, legal, ...}
    let plan = null;
    let lastView = null;
    let lastStep = 0;
    let boardStep = -1; // the step of the position on the board
    let sent = false; // an answer is on its way: nothing more is sent meanwhile
    let stage = null; // a first choice of a two-place action (a knight to move)
    let picked = null; // the place clicked once: previewed, sent at a second click or Confirm
    let infos = new Map(); // place key -> targetInfo, for the targets drawn now
    let over = false;
    let countdown = { decisionMs: 0, bankMs: 0, at: 0 };
    let ticker = 0;
    let loggedStep = -1;
    let answersSent = 0; // answers the gateway took (202)
    let analysis = null; // the analysis section, once the game is over
    let discardTotal = 0; // the cards this seat was last told to discard (its prompt counts them down)
    const el = {};
    const signal = new TurnSignal();

    const seatName = (s) => (viewer ? viewer.seatName(s) : `seat ${SEAT_LETTERS[s]}`);

    function build(welcome) {
      seat = welcome.seat;
      config = welcome.config;
      const players = welcome.players.map((p) => ({ seat: p.seat, name: p.name }));
      const title = html`<h1>Game <span class="game-id">${gameId}</span> <span class="live-badge" data-play-state="connecting">connecting</span></h1>
        <p class="meta">You play seat <span class="seat-badge seat-${seat}">${SEAT_LETTERS[seat]}</span> · ${players.map((p) => `${SEAT_LETTERS[p.seat]} ${p.name}`).join(', ')}</p>`;
      const controls = `<div class="play-status"><p class="countdown" data-countdown aria-live="off"></p><div class="resign" data-resign-box></div>
        <label class="sound-toggle"><input type="checkbox" data-sound-toggle${signal.sound ? ' checked' : ''}> Beep when it is my turn</label></div>
        <div class="board-choice" data-board-choice hidden></div>`;
      viewer = new GameViewer(config, players, { title: String(title), controls });
      viewer.element.classList.add('playing');
      viewer.element.dataset.game = gameId;
      viewer.element.dataset.seat = seat;
      const side = viewer.element.querySelector('.side');
      const panel = document.createElement('section');
      panel.className = 'play-panel';
      panel.setAttribute('aria-label', 'Your seat');
      panel.dataset.playPanel = '';
      side.prepend(panel);
      // A refusal shows right above the controls that were used, on a phone too.
      const refused = document.createElement('p');
      refused.className = 'rejected';
      refused.setAttribute('role', 'alert');
      refused.dataset.rejected = '';
      refused.hidden = true;
      side.prepend(refused);
      const dialog = document.createElement('dialog');
      dialog.className = 'prompt';
      dialog.dataset.prompt = '';
      viewer.element.append(dialog);
      const popover = document.createElement('div');
      popover.className = 'popover';
      popover.dataset.popover = '';
      popover.hidden = true;
      viewer.element.querySelector('.board-host').append(popover);
      Object.assign(el, {
        panel,
        dialog,
        popover,
        badge: viewer.element.querySelector('[data-play-state]'),
        countdown: viewer.element.querySelector('[data-countdown]'),
        rejected: viewer.element.querySelector('[data-rejected]'),
        choice: viewer.element.querySelector('[data-board-choice]'),
      });
      resignControl(
        viewer.element.querySelector('[data-resign-box]'),
        () => send('POST', `/play/${enc(gameId)}/resign`),
        (err) => {
          el.rejected.textContent = `Not resigned: ${err.message}`;
          el.rejected.hidden = false;
        },
      );
      viewer.element.querySelector('[data-sound-toggle]').addEventListener('change', (e) => signal.setSound(e.target.checked));
      panel.addEventListener('click', onButton);
      dialog.addEventListener('click', onButton);
      popover.addEventListener('click', onButton);
      panel.addEventListener('submit', onSubmit);
      dialog.addEventListener('submit', onSubmit);
      panel.addEventListener('change', onChange);
      dialog.addEventListener('cancel', (e) => e.preventDefault()); // a due decision stays until answered
      document.addEventListener('keydown', onKey);
      ticker = setInterval(tick, 250);
    }

    // ---- Drawing --------------------------------------------------------------------------

    function draw() {
      if (!lastView) return;
      // The board: the seat's own view, unless the public stream has shown a later step.
      const mineStep = lastView.position.action_count;
      const board = publicView && publicView.step > mineStep && !(decision && !sent) ? publicView : { view: lastView, step: mineStep };
      viewer.show(board.view, board.step, NO_EVENTS, { highlightLog: false });
      boardStep = board.step;
      viewer.element.dataset.decision = decision && !sent ? String(decision.step) : '';
      const mine = decision && !sent ? plan : null;
      const p = lastView.position;
      const waitingFor = over ? 'nobody: the game is over' : sent ? 'the host to apply your answer' : actingSeat(p) >= 0 ? seatName(actingSeat(p)) : 'the dice';
      el.panel.innerHTML = panelMarkup({ view: lastView, seat, plan: mine, config, waitingFor });
      el.panel.dataset.viewStep = p.action_count; // the step of the hand shown
      syncBankTake();
      drawTargets();
      drawPrompt();
      signal.update(!!mine);
    }

    function drawTargets() {
      closePopover();
      if (!decision || sent) {
        viewer.board.setTargets([], null);
        viewer.board.setPreview(null);
        el.choice.hidden = true;
        return;
      }
      const places = stage ? stage.places : plan.places;
      infos = new Map([...places.entries()].map(([key, list]) => [key, targetInfo(lastView, seat, config, key, list, { role: stage ? 'to' : 'at', nameOf: seatName })]));
      if (!infos.has(picked)) picked = null;
      const targets = [...infos.entries()].map(([key, info]) => ({ ...info, selected: key === picked }));
      const focused = document.activeElement?.closest?.('.board [data-target]');
      if (stage) targets.push({ ...stage.from, selected: true, occupied: true, label: 'Chosen: click again to choose another' });
      viewer.board.setTargets(targets, onPlace);
      viewer.board.onHover = (key) => viewer.board.setPreview(infos.get(key ?? picked)?.ghost);
      viewer.board.onMiss = () => picked && unpick();
      viewer.board.setPreview(infos.get(picked)?.ghost);
      // A keyboard's focus stays on the board across the redraw: on the place
      // picked, for Enter to confirm it, else on the place it was on (Escape,
      // Cancel, a popover's choice), else on the first place.
      if (focused) {
        const board = viewer.board;
        (board.targetElement(picked) ?? board.targetElement(focused.dataset.target) ?? board.targetLayer.querySelector('[data-target]'))?.focus();
      }
      // A decision made on the board is announced above it, not in a dialog,
      // which would cover the places to click.
      const prompt = !stage && plan.places.size && isPrompt(lastView, seat, plan) ? promptTitle(lastView, seat, plan, seatName, { discardTotal }) : '';
      el.choice.hidden = !stage && !prompt && !picked;
      el.choice.innerHTML = picked
        ? String(previewMarkup(infos.get(picked)))
        : stage
          ? html`<span>${stage.what}: now choose where, on the board.</span> <button type="button" data-stage-cancel>Choose again</button>`.__raw
          : html`<strong>Your decision:</strong> <span data-prompt-title>${prompt}</span>${prompt && promptCardText(lastView, seat) ? html` <span class="card-text" data-card-text>${promptCardText(lastView, seat)}</span>` : ''}`.__raw;
      el.choice.querySelector('[data-stage-cancel]')?.addEventListener('click', () => {
        stage = null;
        drawTargets();
      });
      el.choice.querySelector('[data-preview-cancel]')?.addEventListener('click', unpick);
      el.choice.querySelector('[data-preview-confirm]')?.addEventListener('click', () => picked && onPlace(picked, viewer.board.targetElement(picked)));
    }

    function drawPrompt() {
      const due = decision && !sent && !plan.places.size && isPrompt(lastView, seat, plan);
      if (!due) {
        if (el.dialog.open) el.dialog.close();
        return;
      }
      const g = plan.groups;
      const buttons = [...(g.prompt ?? []), ...(g.trade ?? []), ...(g.turn ?? []), ...(g.other ?? [])];
      const answering = (g.trade ?? []).some((d) => d.verb === 'decline');
      // An offer the seat cannot meet has no accept among its legal actions:
      // a disabled Accept says why instead of leaving it out without a word.
      const blocked = answering && !g.trade.some((d) => d.verb === 'accept') ? acceptBlocker(lastView, seat) : '';
      const cannot = blocked
        ? html`<button type="button" disabled data-accept-blocked aria-describedby="accept-blocked">Accept the offer</button> <span class="hint" id="accept-blocked" data-accept-reason>You cannot accept: ${blocked}.</span>`
        : '';
      const cardLine = promptCardText(lastView, seat);
      el.dialog.innerHTML = html`<h2>Your decision</h2><p data-prompt-title>${promptTitle(lastView, seat, plan, seatName, { discardTotal })}</p>
        ${cardLine ? html`<p class="card-text" data-card-text>${cardLine}</p>` : ''}
        <div class="prompt-buttons">${cannot}${buttons.map((d) => html`<button type="button" class="act" data-code="${d.code}" data-action="${d.text}">${d.label}</button>`)}</div>
        ${answering ? html`<details data-counter-box><summary>Counter-offer</summary>${offerBuilderMarkup(lastView, seat, { counter: true })}</details>` : ''}
        <p class="countdown" data-prompt-countdown></p>`.__raw;
      if (!el.dialog.open) el.dialog.showModal();
    }

    // The bank form's "for" list follows its "give" choice, and its button says
    // the trade chosen with its rate ("4 brick → 1 wool (4:1)") before it is sent.
    function syncBankTake() {
      const form = el.panel.querySelector('[data-bank-form]');
      if (!form) return;
      const give = form.elements.give.value;
      const takes = (plan?.groups.bank ?? []).filter((d) => d.give === give);
      form.elements.take.innerHTML = takes.map((d) => html`<option value="${d.code}">${d.take}</option>`.__raw).join('');
      syncBankButton();
    }

    function syncBankButton() {
      const form = el.panel.querySelector('[data-bank-form]');
      const d = form && plan?.groups.bank?.find((x) => x.code === form.elements.take.value);
      if (!d) return;
      const button = form.querySelector('[data-bank-send]');
      button.textContent = `Trade ${d.label}`;
      button.dataset.bankRate = d.rate;
    }

    function tick() {
      signal.update(!!decision && !sent && !over);
      if (!decision || sent || over) {
        el.countdown.textContent = over ? '' : decision ? 'Sent.' : '';
        return;
      }
      const spent = performance.now() - countdown.at;
      const decisionLeft = Math.max(0, countdown.decisionMs - spent);
      const bankLeft = Math.max(0, countdown.bankMs - Math.max(0, spent - countdown.decisionMs));
      const text = `Your decision: ${Math.ceil(decisionLeft / 1000)} s left, then the time bank: ${Math.ceil(bankLeft / 1000)} s.`;
      el.countdown.textContent = text;
      el.countdown.classList.toggle('urgent', decisionLeft < 5000);
      const promptCountdown = el.dialog.querySelector('[data-prompt-countdown]');
      if (promptCountdown) promptCountdown.textContent = text;
    }

    // ---- Choosing -----------------------------------------------------------------------------

    function unpick() {
      picked = null;
      drawTargets();
    }

    // A first click on a place previews what it does; a second click on it (or
    // Confirm) goes on as before: the action is sent, or a popover chooses.
    function onPlace(key, target) {
      if (!decision || sent) return;
      if (stage && key === `${stage.from.kind}:${stage.from.id}`) {
        stage = null;
        picked = null;
        return drawTargets();
      }
      if (key !== picked) {
        picked = key;
        return drawTargets();
      }
      picked = null;
      drawTargets();
      target = viewer.board.targetElement(key) ?? target;
      if (stage) {
        // The second place ends the action: one sends, several ask.
        const list = stage.places.get(key) ?? [];
        if (list.length === 1) return answer({ code: list[0].code }, list[0].text);
        return openPopover(list.map((d) => html`<button type="button" class="act" data-code="${d.code}" data-action="${d.text}">${d.label}</button>`), target, []);
      }
      choose(plan.places.get(key), target);
    }

    // One action sends at once; several ask with a popover beside the place.
    function choose(list, target) {
      if (!list?.length) return;
      if (list.length === 1 && !list[0].to) return answer({ code: list[0].code }, list[0].text);
      const firsts = list.filter((d) => !d.to);
      const seconds = list.filter((d) => d.to);
      const items = firsts.map((d) => html`<button type="button" class="act" data-code="${d.code}" data-action="${d.text}">${d.label}</button>`);
      if (seconds.length) {
        const what = seconds[0].verb === 'play' ? 'the inventor' : 'move or displace this knight';
        items.push(html`<button type="button" data-stage="1">${what}…</button>`);
      }
      if (!firsts.length) return startStage(seconds);
      openPopover(items, target, seconds);
    }

    function startStage(list) {
      closePopover();
      const from = list[0].at;
      stage = { from, places: secondPlaces(list), what: list[0].verb === 'play' ? 'The inventor: the first hex is chosen' : 'The knight is chosen' };
      drawTargets();
    }

    function openPopover(items, target, seconds) {
      const pop = el.popover;
      pop.innerHTML = html`<p class="popover-title">Choose:</p>${items}<button type="button" data-popover-close>Cancel</button>`.__raw;
      pop.hidden = false;
      pop._seconds = seconds;
      const host = viewer.element.querySelector('.board-host').getBoundingClientRect();
      const r = target.getBoundingClientRect();
      const left = Math.min(Math.max(0, r.left - host.left + r.width / 2 - 110), Math.max(0, host.width - 230));
      pop.style.left = `${left}px`;
      pop.style.top = `${r.bottom - host.top + 6}px`;
      pop.querySelector('button')?.focus();
    }

    function closePopover() {
      if (el.popover) el.popover.hidden = true;
    }

    function onButton(e) {
      const b = e.target.closest('button');
      if (!b || b.type === 'submit') return;
      if (b.dataset.popoverClose !== undefined) return closePopover();
      if (b.dataset.stage) return startStage(el.popover._seconds);
      if (b.dataset.code) {
        closePopover();
        answer({ code: b.dataset.code }, b.dataset.action);
      }
    }

    function onChange(e) {
      if (e.target.name === 'give' && e.target.closest('[data-bank-form]')) syncBankTake();
      if (e.target.name === 'take' && e.target.closest('[data-bank-form]')) syncBankButton();
    }

    const counts = (form, side) => CARD_NAMES.map((_, c) => Number(form.querySelector(`[data-${side}="${c}"]`)?.value || 0));

    function onSubmit(e) {
      e.preventDefault();
      const form = e.target;
      if (form.matches('[data-bank-form]')) {
        const code = form.elements.take.value;
        const d = plan.groups.bank.find((x) => x.code === code);
        if (d) answer({ code }, d.text);
      } else if (form.matches('[data-alchemist-form]')) {
        const want = `play alchemist ${form.elements.yellow.value} ${form.elements.red.value}`;
        const d = plan.groups.alchemist.find((x) => x.text === want);
        if (d) answer({ code: d.code }, d.text);
        else showRejected(`${want} is not legal now`);
      } else if (form.matches('[data-offer-form="offer"]')) {
        const to = [...form.querySelectorAll('[data-offer-to]:checked')].map((i) => Number(i.value));
        answer({ text: offerText(counts(form, 'give'), counts(form, 'want'), to) });
      } else if (form.matches('[data-offer-form="counter"]')) {
        answer({ text: counterText(counts(form, 'give'), counts(form, 'want')) });
      }
    }

    function onKey(e) {
      if (e.key === 'Escape') {
        if (!el.popover.hidden) closePopover();
        else if (picked) unpick();
        else if (stage) {
          stage = null;
          drawTargets();
        }
      }
    }

    async function answer(what, text) {
      if (!decision || sent) return;
      const step = decision.step;
      sent = true;
      stage = null;
      picked = null;
      el.rejected.hidden = true;
      viewer.element.dataset.sent = text ?? what.text;
      draw();
      try {
        await send('POST', `/play/${enc(gameId)}/answer`, { step, ...what });
        ++answersSent;
      } catch (err) {
        // Refused before it reached the game (a stale step, a malformed text):
        // the same decision stands.
        if (decision?.step === step) {
          sent = false;
          showRejected(err.message);
          draw();
        }
      }
    }

    function showRejected(message) {
      el.rejected.textContent = `Rejected: ${message}`;
      el.rejected.hidden = false;
      el.rejected.dataset.rejected = message;
      el.rejected.scrollIntoView({ block: 'nearest' });
    }

    // ---- The game's end -------------------------------------------------------------------------

    // The game-over summary: at once from the result (and the public stream's
    // final position when it has come), then, once the game is stored, from
    // the seat's own final view (the hand as it ended, every point counted)
    // with the stored places, and the rating change when the ladder rated it.
    const ended = { result: null, position: null, places: null, steps: 0, rating: null, state: 'result' };
    function drawSummary() {
      let box = viewer.element.querySelector('[data-game-summary]');
      if (!box) {
        box = document.createElement('section');
        box.className = 'game-over';
        box.dataset.gameSummary = '';
        box.setAttribute('aria-label', 'The game is over');
        viewer.element.querySelector('.board-pane').append(box);
      }
      box.dataset.gameOver = ended.result.winner ?? -1;
      box.dataset.summaryState = ended.state;
      box.innerHTML = String(summaryMarkup({ gameId, seat, players: viewer.players, ...ended }));
    }

    async function showSummary(result) {
      ended.result = result;
      if (publicView && publicView.step === Number(result.actions)) {
        ended.position = publicView.view.position;
        ended.steps = publicView.step;
      }
      drawSummary();
      const stored = await storedSummary();
      if (!stored) return;
      ended.steps = Number(stored.result.actions);
      // The stored places are the ratings' (a game without a winner has none).
      const places = [];
      for (const p of stored.players) places[p.seat] = p.place;
      ended.places = places.every((x) => x >= 1) ? places : null;
      try {
        const final = await api(`/games/${enc(gameId)}/positions/${ended.steps}`, { viewer: seat });
        ended.position = final.view.position;
        lastView = final.view;
        lastStep = ended.steps;
        ended.state = 'final';
      } catch {
        // The summary stands on the result; the hand stays as last drawn.
      }
      drawSummary();
      draw();
      if (!stored.ladder) return;
      ended.rating = await ratingOf(stored);
      if (ended.rating) drawSummary();
    }

    // The stored game's summary, asked for among the person's games (a game
    // just ended is stored within seconds; asking for the game itself before
    // would be a 404).
    async function storedSummary() {
      for (let i = 0; i < 60 && !cleanedUp; ++i) {
        try {
          const mine = await api('/games', { player: me, limit: 10 });
          const g = mine.games.find((x) => x.game_id === gameId);
          if (g) return g;
        } catch {
          // asked again below
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      return null;
    }

    // The person's rating change for this game, from the ladder's rating
    // history, once the ratings service has taken the result.
    // The person's place on the game's ladder now that it is rated, or null:
    // the summary then says the change alone.
    async function standingOf(stored) {
      const path = `/ladders/${enc(stored.ladder)}/leaderboard`;
      const season = stored.season ? { season: stored.season } : {};
      // A ranked person's own row (exact, whoever else shares the name's
      // start); a person still in placement is not "around" anything (404),
      // and the name search gives their row with its games.
      for (const query of [{ around: me, limit: 1 }, { q: me, limit: 5 }]) {
        try {
          const board = await api(path, { ...query, ...season });
          const mine = board.entries.find((x) => x.name === me);
          if (mine) return { rank: mine.rank ?? null, total: board.total, games: mine.games };
        } catch {
          // not ranked yet, or the leaderboard is not answering: the next query, or nothing
        }
      }
      return null;
    }

    async function ratingOf(stored) {
      for (let i = 0; i < 60 && !cleanedUp; ++i) {
        try {
          const h = await api(`/players/${enc(me)}/history`, { ladder: stored.ladder, ...(stored.season ? { season: stored.season } : {}), limit: 5 });
          const entry = h.entries.find((x) => x.game_id === gameId);
          if (entry) return { change: ratingChange(entry), after: entry.ordinal_after, standing: await standingOf(stored) };
        } catch {
          // not rated yet, or the history is not answering: asked again
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      return null;
    }

    // ---- The stream ---------------------------------------------------------------------------

    function open() {
      source = new EventSource(`/api/v1/play/${enc(gameId)}/events`);
      source.addEventListener('welcome', (e) => {
        const welcome = JSON.parse(e.data);
        if (!viewer) {
          build(welcome);
          resolve({
            element: viewer.element,
            title: `Game ${gameId}`,
            ready: () => {
              window.metropolisPlay = handle;
              watch();
            },
            cleanup,
          });
        }
        el.badge.dataset.playState = 'live';
        el.badge.textContent = '● playing';
        if (welcome.step !== undefined) lastStep = Math.max(lastStep, Number(welcome.step));
      });
      source.addEventListener('events', (e) => {
        const data = JSON.parse(e.data);
        if (data.step !== undefined && Number(data.step) <= loggedStep) return; // sent again after a reconnect
        if (data.step !== undefined) loggedStep = Number(data.step);
        // Events' step is the game's step after them: the last action is that
        // step, and the ones before it count down from there.
        const actions = (data.events ?? []).filter((ev) => ev.type === 'EVENT_ACTION').length;
        let number = Number(data.step ?? 0) - actions;
        for (const ev of data.events ?? []) {
          if (ev.type === 'EVENT_MUST_DISCARD' && ev.seat === seat) discardTotal = Number(ev.a);
          if (ev.type === 'EVENT_ACTION') viewer?.appendLog(++number, viewer.eventLine(ev));
          else if (ev.type !== 'EVENT_PRODUCED' || ev.seat === seat) viewer?.appendLog('·', viewer.eventLine(ev));
        }
      });
      source.addEventListener('decision', (e) => {
        decision = JSON.parse(e.data);
        decision.step = Number(decision.step);
        plan = rateBankTrades(planLegal(decision.legal ?? []), decision.view, seat, config);
        sent = false;
        stage = null;
        picked = null;
        lastView = decision.view;
        lastStep = decision.step;
        countdown = { decisionMs: Number(decision.decision_ms_left ?? 0), bankMs: Number(decision.time_bank_ms_left ?? 0), at: performance.now() };
        el.rejected.hidden = true;
        draw();
        tick();
      });
      source.addEventListener('rejected', (e) => {
        const r = JSON.parse(e.data);
        showRejected(r.error?.message ?? r.error ?? 'the host refused the answer');
        if (decision && Number(r.step) === decision.step) {
          sent = false;
          draw();
        }
      });
      // The host cannot save moves for now: nothing happens and no clock runs
      // until it can; the decision owed comes again then, with its full time.
      source.addEventListener('paused', (e) => {
        const p = JSON.parse(e.data);
        if (p.paused) {
          decision = null;
          el.badge.dataset.playState = 'paused';
          el.badge.textContent = '⏸ paused: the game server cannot save moves; the game goes on by itself when it can';
        } else {
          el.badge.dataset.playState = 'live';
          el.badge.textContent = '● playing';
        }
        draw();
      });
      source.addEventListener('game_over', (e) => {
        over = true;
        decision = null;
        viewer.element.querySelector('[data-resign-box]')?.remove();
        // The stream ends here; EventSource would otherwise reconnect. The public
        // stream stays open for the last position, and closes at its own game_over.
        source.close();
        const { result } = JSON.parse(e.data);
        el.badge.dataset.playState = 'over';
        el.badge.textContent = 'game over';
        showSummary(result);
        // The game's analysis follows once the host has stored it (a game with
        // a person at the table is analysed as it is stored); its marks open
        // the replay at their step.
        if (!analysis) {
          analysis = analysisSection(gameId, viewer.players, config.num_seats || viewer.players.length, { storedBy: me });
          viewer.element.querySelector('.board-pane').append(analysis.element);
        }
        draw();
      });
      source.addEventListener('error', (e) => {
        if (e.data) {
          const message = liveErrorText(JSON.parse(e.data).error);
          source.close();
          if (!viewer) reject(new Error(message));
          else {
            el.badge.dataset.playState = 'ended';
            el.badge.textContent = `stream ended: ${message}`;
          }
        } else if (!viewer && source.readyState === EventSource.CLOSED) {
          reject(new Error('the game could not be opened (signed in? your game?)'));
        } else if (viewer && !over) {
          // EventSource reconnects by itself; the welcome marks it live again.
          el.badge.dataset.playState = 'reconnecting';
          el.badge.textContent = 'reconnecting…';
        }
      });
    }

    // The seat's stream brings a view only with each decision; between them the
    // public live stream keeps the board moving while the others play.
    let spectator = null;
    let publicView = null;
    function watch() {
      spectator = new EventSource(`/api/v1/live/${enc(gameId)}/events`);
      spectator.addEventListener('view', (e) => {
        const step = Number(e.lastEventId);
        if (!viewer || step < boardStep || (decision && !sent)) return;
        lastStep = Math.max(lastStep, step);
        boardStep = step;
        publicView = { view: JSON.parse(e.data), step };
        viewer.show(publicView.view, step, NO_EVENTS, { highlightLog: false });
        // After a reload outside one's turn the seat's own view (the hand) comes
        // with its next decision; until then the panel says so.
        if (!lastView) el.panel.innerHTML = html`<div class="decision" data-decision="waiting">Waiting for ${over ? 'nobody' : seatName(actingSeat(publicView.view.position))}. Your hand shows with your next decision.</div>`.__raw;
      });
      // A game that is not watchable (or is over) simply is not followed.
      spectator.addEventListener('error', (e) => {
        if (e.data || spectator.readyState === EventSource.CLOSED) spectator.close();
      });
      spectator.addEventListener('game_over', () => spectator.close());
    }

    let cleanedUp = false;
    function cleanup() {
      cleanedUp = true;
      analysis?.stop();
      spectator?.close();
      source?.close();
      clearInterval(ticker);
      signal.clear();
      document.removeEventListener('keydown', onKey);
      if (el.dialog?.open) el.dialog.close();
      if (window.metropolisPlay === handle) delete window.metropolisPlay;
    }

    // For the browser tests: what is being decided, without reading the page's text.
    const handle = {
      gameId,
      get seat() { return seat; },
      get over() { return over; },
      get step() { return lastStep; },
      get answers() { return answersSent; },
      // Beeps played for decisions (or the sound switched on): the sound's test.
      get beeps() { return signal.beeps; },
      // The action count of the view drawn with the current decision.
      get viewStep() { return lastView?.position.action_count ?? -1; },
      get decision() { return decision && !sent ? { step: decision.step, legal: decision.legal } : null; },
      // Closes the stream as a lost connection would; EventSource then reconnects.
      dropConnection() {
        source.close();
        open();
      },
    };

    open();
  });
}
