// One line on what each card does, in the words of the project's rulebook
// (docs/RULES.md section 13 for the progress cards, BG-5 for the base game's
// development cards), keyed by the names in names.js. The hand, the buttons
// that play a card, the prompts of a card's decisions and the log show them,
// so nobody needs the box's cards beside the screen.
import { PROGRESS_NAMES, DEV_NAMES } from '../names.js';

export const PROGRESS_TEXT = {
  // Science (green)
  alchemist: 'Before your roll: choose both production dice; only the event die is rolled.',
  crane: 'Your next city improvement this turn costs one commodity less.',
  engineer: 'A city wall for one of your cities, free.',
  inventor: 'Swap two number tokens (neither a 2, 6, 8 nor 12).',
  irrigation: 'Take 2 grain for every fields hex next to your buildings.',
  medicine: 'Upgrade a settlement to a city for 2 ore + 1 grain.',
  mining: 'Take 2 ore for every mountains hex next to your buildings.',
  printer: '1 victory point, shown when drawn.',
  'road building': 'Build up to 2 roads, free.',
  smith: 'Promote one or two of your knights, free.',
  // Politics (blue)
  bishop: 'Move the robber and take a random card from each opponent with a building on its hex.',
  constitution: '1 victory point, shown when drawn.',
  deserter: 'An opponent removes one of his knights; you may place one of yours of that level, free.',
  diplomat: 'Remove an open road; if it was yours, you may place it again.',
  intrigue: 'Displace an opponent\'s knight that stands where one of your roads ends.',
  saboteur: 'Every opponent with as many points as you or more discards half his hand.',
  spy: 'Look at an opponent\'s progress cards and take one.',
  warlord: 'Activate all your knights, free.',
  wedding: 'Every opponent with more points than you gives you 2 cards of his choice.',
  // Trade (yellow)
  'commercial harbor': 'Offer each opponent a resource; one who has a commodity must give you one back.',
  'master merchant': 'Look at the hand of an opponent with more points and take 2 cards.',
  merchant: 'Put the merchant next to your building: 1 point, and its hex\'s resource at 2:1.',
  'merchant fleet': 'This turn, trade one kind of card with the bank at 2:1.',
  'resource monopoly': 'Name a resource: each opponent gives you 2 of it (1 if that is all he has).',
  'trade monopoly': 'Name a commodity: each opponent gives you 1 of it.',
};

export const DEV_TEXT = {
  knight: 'Move the robber and steal a card; counts for the Largest Army.',
  'victory point': '1 victory point, kept hidden until the game ends.',
  'road building': 'Build up to 2 roads, free.',
  'year of plenty': 'Take any 2 resources from the bank.',
  monopoly: 'Name a resource: every opponent gives you all of it.',
};

const spaced = (name) => String(name ?? '').replace(/_/g, ' ');

// What a card does, by the app's name or the engine's ("road_building"); a
// development card's when `dev` is set. '' for a name it does not know.
export function cardText(name, { dev = false } = {}) {
  return (dev ? DEV_TEXT : PROGRESS_TEXT)[spaced(name)] ?? '';
}

// The card whose decision a pending kind is (PROGRESS_CARDS.md, "Decisions a
// card raises"; docs/PROTOCOL.md, "Pending decisions"), for its prompt.
const PENDING_CARD = { 22: 'road building', 23: 'smith', 24: 'diplomat', 25: 'deserter', 26: 'deserter', 27: 'spy', 28: 'master merchant', 29: 'wedding', 30: 'commercial harbor', 31: 'commercial harbor' };
export const pendingCard = (kind) => PENDING_CARD[Number(kind)] ?? '';

// Every card the app names, for the test that each one has its line.
export const ALL_CARDS = { progress: PROGRESS_NAMES, dev: DEV_NAMES };
