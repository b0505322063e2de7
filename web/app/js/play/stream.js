// The two event streams of a game being played. The seat's own
// (GET /api/v1/play/{id}/events, docs/GATEWAY.md "People and play") brings
// the welcome, the seat's events and each decision with its legal actions;
// the public live stream (GET /api/v1/live/{id}/events) keeps the board
// moving while the others play. Here they are opened, read and closed; what
// each message does to the table is the table's.
import { enc } from '../api.js';

// The seat's stream, each message parsed and handed to `on`: welcome, events
// (and clocks, every seat's, which come with them), decision, rejected,
// paused and gameOver with their data; failed(error) when
// the stream ends with the host's error, lost(closed) when the connection
// drops (closed: EventSource will not try again). A reload or a lost
// connection opens it again, and the host sends the welcome and the current
// decision anew.
export function seatStream(gameId, on) {
  let source = null;
  let loggedStep = -1;

  function open() {
    source = new EventSource(`/api/v1/play/${enc(gameId)}/events`);
    const listen = (name, handler) => source.addEventListener(name, (e) => handler(JSON.parse(e.data)));
    listen('welcome', on.welcome);
    listen('events', (data) => {
      // The clocks are news even when the events are not (sent again, or none).
      if (data.clocks) on.clocks(data.clocks);
      if (data.step !== undefined && Number(data.step) <= loggedStep) return; // sent again after a reconnect
      if (data.step !== undefined) loggedStep = Number(data.step);
      on.events(data);
    });
    listen('decision', on.decision);
    listen('rejected', on.rejected);
    listen('paused', on.paused);
    source.addEventListener('game_over', (e) => {
      // The stream ends here; EventSource would otherwise reconnect.
      source.close();
      on.gameOver(JSON.parse(e.data));
    });
    source.addEventListener('error', (e) => {
      if (e.data) {
        const { error } = JSON.parse(e.data);
        source.close();
        on.failed(error);
      } else {
        on.lost(source.readyState === EventSource.CLOSED);
      }
    });
  }

  return {
    open,
    close: () => source?.close(),
    // Closes the stream as a lost connection would, and opens it again.
    drop() {
      source.close();
      open();
    },
  };
}

// The public stream: onView(step, data) with each position (data as sent, to
// be parsed only if it is used). A game that is not watchable (or is over)
// simply is not followed.
export function publicStream(gameId, onView) {
  const spectator = new EventSource(`/api/v1/live/${enc(gameId)}/events`);
  spectator.addEventListener('view', (e) => onView(Number(e.lastEventId), e.data));
  spectator.addEventListener('error', (e) => {
    if (e.data || spectator.readyState === EventSource.CLOSED) spectator.close();
  });
  spectator.addEventListener('game_over', () => spectator.close());
  return { close: () => spectator.close() };
}
