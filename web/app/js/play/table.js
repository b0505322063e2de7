// A game being played from the browser (/play/{game_id}): the replay viewer's
// board becomes the playing surface. The seat's stream (stream.js) brings the
// welcome, the seat's events and each decision with its legal actions; an
// answer is POST /api/v1/play/{id}/answer and its outcome arrives on the
// stream (the next decision, or "rejected"). This is the table's state and
// the composition of its parts: the page (layout.js), choosing on the board
// (picker.js), the decision's dialog (dialog.js), the forms (forms.js) and
// the game-over box (gameover.js).
import { api, send, enc } from '../api.js';
import { html, pageOf, SEAT_LETTERS } from '../names.js';
import { session } from '../session.js';
import { actingSeat } from '../viewer/viewer.js';
import { clockReadings, clockUrgent, countdownText, decisionClocks } from '../viewer/clocks.js';
import { planLegal } from './legal.js';
import { panelMarkup, isPrompt } from './panel.js';
import { TurnSignal } from './signal.js';
import { rateBankTrades } from './rates.js';
import { resignControl } from './resign.js';
import { analysisSection } from '../analysis/section.js';
import { liveErrorText } from '../pages/live.js';
import { tableLayout } from './layout.js';
import { boardPicker } from './picker.js';
import { decisionDialogMarkup } from './dialog.js';
import { syncBankTake, onFormChange, formAnswer } from './forms.js';
import { gameOverSummary } from './gameover.js';
import { seatStream, publicStream } from './stream.js';

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
    let viewer = null;
    let el = {};
    let picker = null;
    let summary = null;
    let seat = -1;
    let config = null;
    let decision = null; // the decision being answered: {step, view, legal, ...}
    let plan = null;
    let lastView = null;
    let lastStep = 0;
    let boardStep = -1; // the step of the position on the board
    let publicView = null; // the public stream's last position: {view, step}
    let sent = false; // an answer is on its way: nothing more is sent meanwhile
    let over = false;
    let countdown = { clocks: null, at: 0 }; // the decision's own clock (clocks.js), and when it came
    let ticker = 0;
    let answersSent = 0; // answers the gateway took (202)
    let analysis = null; // the analysis section, once the game is over
    let discardTotal = 0; // the cards this seat was last told to discard (its prompt counts them down)
    let spectator = null;
    let cleanedUp = false;
    const signal = new TurnSignal();

    const seatName = (s) => (viewer ? viewer.seatName(s) : `seat ${SEAT_LETTERS[s]}`);
    // The decision the person may answer now (none while an answer is on its way).
    const due = () => (decision && !sent ? { plan, view: lastView, seat, config, discardTotal } : null);

    function build(welcome) {
      seat = welcome.seat;
      config = welcome.config;
      ({ viewer, el } = tableLayout(gameId, welcome, { soundOn: signal.sound }));
      picker = boardPicker({ viewer, el, seatName, due, answer });
      summary = gameOverSummary({
        gameId,
        me,
        seat,
        viewer,
        latest: () => publicView,
        adopt: (view, step) => {
          lastView = view;
          lastStep = step;
        },
        redraw: draw,
        stopped: () => cleanedUp,
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
      el.panel.addEventListener('click', onButton);
      el.dialog.addEventListener('click', onButton);
      el.popover.addEventListener('click', onButton);
      el.panel.addEventListener('submit', onSubmit);
      el.dialog.addEventListener('submit', onSubmit);
      el.panel.addEventListener('change', (e) => onFormChange(e, el.panel, plan));
      el.dialog.addEventListener('cancel', (e) => e.preventDefault()); // a due decision stays until answered
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
      syncBankTake(el.panel, plan);
      picker.draw();
      drawPrompt();
      signal.update(!!mine);
    }

    // A decision not made on the board is asked in a dialog.
    function drawPrompt() {
      const asked = decision && !sent && !plan.places.size && isPrompt(lastView, seat, plan);
      if (!asked) {
        if (el.dialog.open) el.dialog.close();
        return;
      }
      el.dialog.innerHTML = decisionDialogMarkup({ view: lastView, seat, plan, seatName, discardTotal });
      if (!el.dialog.open) el.dialog.showModal();
    }

    function tick() {
      viewer.paintClocks();
      signal.update(!!decision && !sent && !over);
      if (!decision || sent || over) {
        el.countdown.textContent = over ? '' : decision ? 'Sent.' : '';
        return;
      }
      const [reading] = clockReadings(countdown.clocks, performance.now() - countdown.at);
      const text = countdownText(reading);
      el.countdown.textContent = text;
      el.countdown.classList.toggle('urgent', clockUrgent(reading));
      const promptCountdown = el.dialog.querySelector('[data-prompt-countdown]');
      if (promptCountdown) promptCountdown.textContent = text;
    }

    // ---- Answering ----------------------------------------------------------------------------

    function onButton(e) {
      const b = e.target.closest('button');
      if (!b || b.type === 'submit') return;
      if (b.dataset.popoverClose !== undefined) return picker.closePopover();
      if (b.dataset.stage) return picker.startStage();
      if (b.dataset.code) {
        picker.closePopover();
        answer({ code: b.dataset.code }, b.dataset.action);
      }
    }

    function onSubmit(e) {
      e.preventDefault();
      const a = formAnswer(e.target, plan);
      if (a?.refused) showRejected(a.refused);
      else if (a) answer(a.what, a.text);
    }

    function onKey(e) {
      if (e.key === 'Escape') picker.escape();
    }

    async function answer(what, text) {
      if (!decision || sent) return;
      const step = decision.step;
      sent = true;
      picker.reset();
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

    // ---- The seat's stream --------------------------------------------------------------------

    const stream = seatStream(gameId, {
      welcome(welcome) {
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
        viewer.setClocks(welcome.clocks);
      },
      clocks: (clocks) => viewer?.setClocks(clocks),
      events(data) {
        // Events' step is the game's step after them: the last action is that
        // step, and the ones before it count down from there.
        const actions = (data.events ?? []).filter((ev) => ev.type === 'EVENT_ACTION').length;
        let number = Number(data.step ?? 0) - actions;
        for (const ev of data.events ?? []) {
          if (ev.type === 'EVENT_MUST_DISCARD' && ev.seat === seat) discardTotal = Number(ev.a);
          if (ev.type === 'EVENT_ACTION') viewer?.appendLog(++number, viewer.eventLine(ev));
          else if (ev.type !== 'EVENT_PRODUCED' || ev.seat === seat) viewer?.appendLog('·', viewer.eventLine(ev));
        }
      },
      decision(d) {
        decision = d;
        decision.step = Number(decision.step);
        plan = rateBankTrades(planLegal(decision.legal ?? []), decision.view, seat, config);
        sent = false;
        picker.reset();
        lastView = decision.view;
        lastStep = decision.step;
        countdown = { clocks: decisionClocks(decision), at: performance.now() };
        el.rejected.hidden = true;
        draw();
        tick();
      },
      rejected(r) {
        showRejected(r.error?.message ?? r.error ?? 'the host refused the answer');
        if (decision && Number(r.step) === decision.step) {
          sent = false;
          draw();
        }
      },
      // The host cannot save moves for now: nothing happens and no clock runs
      // until it can; the decision owed comes again then, with its full time.
      paused(p) {
        if (p.paused) {
          decision = null;
          viewer.stopClocks();
          el.badge.dataset.playState = 'paused';
          el.badge.textContent = '⏸ paused: the game server cannot save moves; the game goes on by itself when it can';
        } else {
          el.badge.dataset.playState = 'live';
          el.badge.textContent = '● playing';
        }
        draw();
      },
      // The stream has ended (stream.js closes it). The public stream stays
      // open for the last position, and closes at its own game_over.
      gameOver({ result }) {
        over = true;
        decision = null;
        viewer.stopClocks();
        viewer.element.querySelector('[data-resign-box]')?.remove();
        el.badge.dataset.playState = 'over';
        el.badge.textContent = 'game over';
        summary.show(result);
        // The game's analysis follows once the host has stored it (a game with
        // a person at the table is analysed as it is stored); its marks open
        // the replay at their step.
        if (!analysis) {
          analysis = analysisSection(gameId, viewer.players, config.num_seats || viewer.players.length, { storedBy: me });
          viewer.element.querySelector('.board-pane').append(analysis.element);
        }
        draw();
      },
      failed(error) {
        const message = liveErrorText(error);
        if (!viewer) reject(new Error(message));
        else {
          el.badge.dataset.playState = 'ended';
          el.badge.textContent = `stream ended: ${message}`;
        }
      },
      lost(closed) {
        if (!viewer && closed) {
          reject(new Error('the game could not be opened (signed in? your game?)'));
        } else if (viewer && !over) {
          // EventSource reconnects by itself; the welcome marks it live again.
          el.badge.dataset.playState = 'reconnecting';
          el.badge.textContent = 'reconnecting…';
        }
      },
    });

    // The seat's stream brings a view only with each decision; between them the
    // public live stream keeps the board moving while the others play.
    function watch() {
      spectator = publicStream(gameId, (step, data) => {
        if (!viewer || step < boardStep || (decision && !sent)) return;
        lastStep = Math.max(lastStep, step);
        boardStep = step;
        publicView = { view: JSON.parse(data), step };
        viewer.show(publicView.view, step, NO_EVENTS, { highlightLog: false });
        // After a reload outside one's turn the seat's own view (the hand) comes
        // with its next decision; until then the panel says so.
        if (!lastView) el.panel.innerHTML = html`<div class="decision" data-decision="waiting">Waiting for ${over ? 'nobody' : seatName(actingSeat(publicView.view.position))}. Your hand shows with your next decision.</div>`.__raw;
      });
    }

    function cleanup() {
      cleanedUp = true;
      analysis?.stop();
      spectator?.close();
      stream.close();
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
        stream.drop();
      },
    };

    stream.open();
  });
}
