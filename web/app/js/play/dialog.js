// The dialog of a decision that is not made on the board (a discard, an offer
// to answer, a card's choice): its title, the card's line, a button for each
// action, and the counter-offer form when an offer is being answered. Pure:
// markup from the view and the plan of its legal actions.
import { html } from '../names.js';
import { promptTitle, promptCardText, offerBuilderMarkup, acceptBlocker } from './panel.js';

export function decisionDialogMarkup({ view, seat, plan, seatName, discardTotal }) {
  const g = plan.groups;
  const buttons = [...(g.prompt ?? []), ...(g.trade ?? []), ...(g.turn ?? []), ...(g.other ?? [])];
  const answering = (g.trade ?? []).some((d) => d.verb === 'decline');
  // An offer the seat cannot meet has no accept among its legal actions:
  // a disabled Accept says why instead of leaving it out without a word.
  const blocked = answering && !g.trade.some((d) => d.verb === 'accept') ? acceptBlocker(view, seat) : '';
  const cannot = blocked
    ? html`<button type="button" disabled data-accept-blocked aria-describedby="accept-blocked">Accept the offer</button> <span class="hint" id="accept-blocked" data-accept-reason>You cannot accept: ${blocked}.</span>`
    : '';
  const cardLine = promptCardText(view, seat);
  return html`<h2>Your decision</h2><p data-prompt-title>${promptTitle(view, seat, plan, seatName, { discardTotal })}</p>
        ${cardLine ? html`<p class="card-text" data-card-text>${cardLine}</p>` : ''}
        <div class="prompt-buttons">${cannot}${buttons.map((d) => html`<button type="button" class="act" data-code="${d.code}" data-action="${d.text}">${d.label}</button>`)}</div>
        ${answering ? html`<details data-counter-box><summary>Counter-offer</summary>${offerBuilderMarkup(view, seat, { counter: true })}</details>` : ''}
        <p class="countdown" data-prompt-countdown></p>`.__raw;
}
