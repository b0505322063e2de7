// Which ladder the lobby and the leaderboards open on when the address names
// none: not whichever id sorts first, but the one this person most likely
// wants. Pure, so that web/test/choice.test.mjs can check the order.
//
// In order: the ladder the address asks for (?ladder=), the one the person
// last queued on (the session's `queue.ladder`), the one they last chose in the
// lobby (kept in localStorage), then the main ladder. GET /api/v1/ladders
// counts no players, so "main" is read from what it does say: four seats (the
// game as published) with "open" in the id (the public ladder scripts create),
// then any four-seat ladder, then the first one.
import { read, write } from '../storage.js';

export const REMEMBERED_KEY = 'metropolis.ladder';

export function chooseLadder(ladders, { asked = '', queued = '', remembered = '' } = {}) {
  if (!ladders?.length) return null;
  for (const id of [asked, queued, remembered]) {
    const named = id && ladders.find((l) => l.id === id);
    if (named) return named;
  }
  return (
    ladders.find((l) => l.seats === 4 && /open/i.test(l.id)) ||
    ladders.find((l) => l.seats === 4) ||
    ladders[0]
  );
}

// The lobby's last choice, kept per browser; without storage (private modes
// may refuse it) there is simply nothing remembered, and the next visit falls
// back to the main ladder.
export function rememberedLadder(storage) {
  return read(REMEMBERED_KEY, { storage }) || '';
}

export function rememberLadder(id, storage) {
  if (id) write(REMEMBERED_KEY, id, { storage });
}
