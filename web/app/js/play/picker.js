// Choosing on the board: the decision's places drawn as targets, a first
// click previewing what a place does and a second (or Confirm) sending it, a
// popover beside the place when it offers several actions, and the two-place
// actions (a knight moved or displaced, the Inventor's two hexes) chosen in
// two stages. What a place says and previews is targets.js's.
import { html } from '../names.js';
import { secondPlaces } from './legal.js';
import { targetInfo, previewMarkup } from './targets.js';
import { promptTitle, promptCardText, isPrompt } from './panel.js';

// `due()` is the decision the person may answer now, as {plan, view, seat,
// config, discardTotal}, or null; `answer(what, text)` sends an action.
// `el.choice` is the line above the board, `el.popover` the popover.
export function boardPicker({ viewer, el, seatName, due, answer }) {
  let stage = null; // a first choice of a two-place action (a knight to move)
  let picked = null; // the place clicked once: previewed, sent at a second click or Confirm
  let infos = new Map(); // place key -> targetInfo, for the targets drawn now
  let seconds = []; // the open popover's two-place actions, for its "…" button

  function draw() {
    closePopover();
    const d = due();
    if (!d) {
      viewer.board.setTargets([], null);
      viewer.board.setPreview(null);
      el.choice.hidden = true;
      return;
    }
    const { plan, view, seat, config, discardTotal } = d;
    const places = stage ? stage.places : plan.places;
    infos = new Map([...places.entries()].map(([key, list]) => [key, targetInfo(view, seat, config, key, list, { role: stage ? 'to' : 'at', nameOf: seatName })]));
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
    const prompt = !stage && plan.places.size && isPrompt(view, seat, plan) ? promptTitle(view, seat, plan, seatName, { discardTotal }) : '';
    el.choice.hidden = !stage && !prompt && !picked;
    el.choice.innerHTML = picked
      ? String(previewMarkup(infos.get(picked)))
      : stage
        ? html`<span>${stage.what}: now choose where, on the board.</span> <button type="button" data-stage-cancel>Choose again</button>`.__raw
        : html`<strong>Your decision:</strong> <span data-prompt-title>${prompt}</span>${prompt && promptCardText(view, seat) ? html` <span class="card-text" data-card-text>${promptCardText(view, seat)}</span>` : ''}`.__raw;
    el.choice.querySelector('[data-stage-cancel]')?.addEventListener('click', () => {
      stage = null;
      draw();
    });
    el.choice.querySelector('[data-preview-cancel]')?.addEventListener('click', unpick);
    el.choice.querySelector('[data-preview-confirm]')?.addEventListener('click', () => picked && onPlace(picked, viewer.board.targetElement(picked)));
  }

  function unpick() {
    picked = null;
    draw();
  }

  // A first click on a place previews what it does; a second click on it (or
  // Confirm) goes on as before: the action is sent, or a popover chooses.
  function onPlace(key, target) {
    const decision = due();
    if (!decision) return;
    if (stage && key === `${stage.from.kind}:${stage.from.id}`) {
      stage = null;
      picked = null;
      return draw();
    }
    if (key !== picked) {
      picked = key;
      return draw();
    }
    picked = null;
    draw();
    target = viewer.board.targetElement(key) ?? target;
    if (stage) {
      // The second place ends the action: one sends, several ask.
      const list = stage.places.get(key) ?? [];
      if (list.length === 1) return answer({ code: list[0].code }, list[0].text);
      return openPopover(list.map((d) => html`<button type="button" class="act" data-code="${d.code}" data-action="${d.text}">${d.label}</button>`), target, []);
    }
    choose(decision.plan.places.get(key), target);
  }

  // One action sends at once; several ask with a popover beside the place.
  function choose(list, target) {
    if (!list?.length) return;
    if (list.length === 1 && !list[0].to) return answer({ code: list[0].code }, list[0].text);
    const firsts = list.filter((d) => !d.to);
    const twoPlace = list.filter((d) => d.to);
    const items = firsts.map((d) => html`<button type="button" class="act" data-code="${d.code}" data-action="${d.text}">${d.label}</button>`);
    if (twoPlace.length) {
      const what = twoPlace[0].verb === 'play' ? 'the inventor' : 'move or displace this knight';
      items.push(html`<button type="button" data-stage="1">${what}…</button>`);
    }
    if (!firsts.length) return startStage(twoPlace);
    openPopover(items, target, twoPlace);
  }

  function startStage(list) {
    closePopover();
    const from = list[0].at;
    stage = { from, places: secondPlaces(list), what: list[0].verb === 'play' ? 'The inventor: the first hex is chosen' : 'The knight is chosen' };
    draw();
  }

  function openPopover(items, target, twoPlace) {
    const pop = el.popover;
    pop.innerHTML = html`<p class="popover-title">Choose:</p>${items}<button type="button" data-popover-close>Cancel</button>`.__raw;
    pop.hidden = false;
    seconds = twoPlace;
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

  return {
    draw,
    closePopover,
    // The popover's "move or displace this knight…" (or "the inventor…").
    startStage: () => startStage(seconds),
    // A new decision, or an answer sent: nothing chosen any more.
    reset() {
      stage = null;
      picked = null;
    },
    // Escape steps back once: the popover, else the place picked, else the first stage.
    escape() {
      if (!el.popover.hidden) closePopover();
      else if (picked) unpick();
      else if (stage) {
        stage = null;
        draw();
      }
    },
  };
}
