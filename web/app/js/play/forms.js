// The table's forms (their markup is panel.js's): the bank trade, the
// Alchemist's dice, and the trade offer and counter-offer, each read into
// the answer it sends. Kept apart from the table so that what a form sends is
// read in one place.
import { html, CARD_NAMES } from '../names.js';
import { offerText, counterText } from './legal.js';

// The bank form's "for" list follows its "give" choice, and its button says
// the trade chosen with its rate ("4 brick → 1 wool (4:1)") before it is sent.
export function syncBankTake(panel, plan) {
  const form = panel.querySelector('[data-bank-form]');
  if (!form) return;
  const give = form.elements.give.value;
  const takes = (plan?.groups.bank ?? []).filter((d) => d.give === give);
  form.elements.take.innerHTML = takes.map((d) => html`<option value="${d.code}">${d.take}</option>`.__raw).join('');
  syncBankButton(panel, plan);
}

export function syncBankButton(panel, plan) {
  const form = panel.querySelector('[data-bank-form]');
  const d = form && plan?.groups.bank?.find((x) => x.code === form.elements.take.value);
  if (!d) return;
  const button = form.querySelector('[data-bank-send]');
  button.textContent = `Trade ${d.label}`;
  button.dataset.bankRate = d.rate;
}

// A change in the panel: the bank form's choices follow each other.
export function onFormChange(e, panel, plan) {
  if (e.target.name === 'give' && e.target.closest('[data-bank-form]')) syncBankTake(panel, plan);
  if (e.target.name === 'take' && e.target.closest('[data-bank-form]')) syncBankButton(panel, plan);
}

const counts = (form, side) => CARD_NAMES.map((_, c) => Number(form.querySelector(`[data-${side}="${c}"]`)?.value || 0));

// What a submitted form sends: {what, text} (the answer and the words it is
// shown with), {refused} (why it cannot be sent), or null (nothing to send).
export function formAnswer(form, plan) {
  if (form.matches('[data-bank-form]')) {
    const code = form.elements.take.value;
    const d = plan.groups.bank.find((x) => x.code === code);
    return d ? { what: { code }, text: d.text } : null;
  }
  if (form.matches('[data-alchemist-form]')) {
    const want = `play alchemist ${form.elements.yellow.value} ${form.elements.red.value}`;
    const d = plan.groups.alchemist.find((x) => x.text === want);
    return d ? { what: { code: d.code }, text: d.text } : { refused: `${want} is not legal now` };
  }
  if (form.matches('[data-offer-form="offer"]')) {
    const to = [...form.querySelectorAll('[data-offer-to]:checked')].map((i) => Number(i.value));
    return { what: { text: offerText(counts(form, 'give'), counts(form, 'want'), to) } };
  }
  if (form.matches('[data-offer-form="counter"]')) {
    return { what: { text: counterText(counts(form, 'give'), counts(form, 'want')) } };
  }
  return null;
}
