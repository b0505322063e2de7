// Resigning from the table (PlayAnswer.resign, docs/GAMEHOST.md "Resigning"):
// a button that asks once more before anything is sent, since a resignation
// ends the game for everyone and cannot be taken back. The game's end comes on
// the event stream like any other; a refusal is shown by the caller.
import { html } from '../names.js';

const ASK = html`<button type="button" class="quiet" data-resign>Resign…</button>`;
const CONFIRM = html`<p class="resign-ask">Resign? The game ends for everyone, and you place last.</p>
  <button type="button" class="danger" data-resign-confirm>Resign the game</button>
  <button type="button" data-resign-cancel>Keep playing</button>`;

// Fills `box` with the control; `resign()` sends the resignation and throws an
// error whose message says why when it was not taken.
export function resignControl(box, resign, onError) {
  box.innerHTML = String(ASK);
  box.addEventListener('click', async (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    if (b.dataset.resign !== undefined) {
      box.innerHTML = String(CONFIRM);
      box.querySelector('[data-resign-cancel]').focus();
    } else if (b.dataset.resignCancel !== undefined) {
      box.innerHTML = String(ASK);
    } else if (b.dataset.resignConfirm !== undefined) {
      b.disabled = true;
      try {
        await resign();
        box.innerHTML = html`<p class="resign-ask" data-resign-sent>You resigned; the game is ending…</p>`.__raw;
      } catch (err) {
        box.innerHTML = String(ASK);
        onError(err);
      }
    }
  });
}
