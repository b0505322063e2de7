// The page of a game being played, made once its welcome has come: the replay
// viewer's board and log, and around them the title with the stream's badge,
// the status line (the countdown, the resign control's box, the beep's
// switch), the seat's panel, the line that shows a refusal, the decision's
// dialog and the board's popover. Markup and elements only: what they do is
// wired by table.js.
import { html, SEAT_LETTERS } from '../names.js';
import { GameViewer } from '../viewer/viewer.js';

// The viewer, and `el`: the elements the table draws into, by name.
export function tableLayout(gameId, welcome, { soundOn }) {
  const seat = welcome.seat;
  const players = welcome.players.map((p) => ({ seat: p.seat, name: p.name }));
  const title = html`<h1>Game <span class="game-id">${gameId}</span> <span class="live-badge" data-play-state="connecting">connecting</span></h1>
        <p class="meta">You play seat <span class="seat-badge seat-${seat}">${SEAT_LETTERS[seat]}</span> · ${players.map((p) => `${SEAT_LETTERS[p.seat]} ${p.name}`).join(', ')}</p>`;
  const controls = `<div class="play-status"><p class="countdown" data-countdown aria-live="off"></p><div class="resign" data-resign-box></div>
        <label class="sound-toggle"><input type="checkbox" data-sound-toggle${soundOn ? ' checked' : ''}> Beep when it is my turn</label></div>
        <div class="board-choice" data-board-choice hidden></div>`;
  const viewer = new GameViewer(welcome.config, players, { title: String(title), controls });
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
  const el = {
    panel,
    dialog,
    popover,
    badge: viewer.element.querySelector('[data-play-state]'),
    countdown: viewer.element.querySelector('[data-countdown]'),
    rejected: viewer.element.querySelector('[data-rejected]'),
    choice: viewer.element.querySelector('[data-board-choice]'),
  };
  return { viewer, el };
}
