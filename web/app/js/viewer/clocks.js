// Every seat's clock, as the game host sends it with the events (gamehost.proto,
// Clocks): each seat's time bank, and whose clock runs with what is left of its
// per-decision limit. The host's figures are as of the moment it sent them;
// the page counts the running clock down from the moment they arrived, so a
// table shows each seat what the host will hold it to, within the network's
// delay. Pure functions: the viewer paints them (viewer.js), and the seat's
// own countdown under the board reads its decision with them (play/table.js).

// "4:05", "1:02:03", rounding up: a clock shows 0:00 only when nothing is left.
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

// What each seat has left `elapsedMs` after `clocks` arrived: the running seat
// spends its per-decision limit first, then its bank, as the host counts.
export function clockReadings(clocks, elapsedMs) {
  if (!clocks) return [];
  const banks = clocks.time_bank_ms_left ?? [];
  const running = Number(clocks.running ?? -1);
  const limit = Number(clocks.decision_ms_left ?? 0);
  const spent = Math.max(0, elapsedMs);
  return banks.map((bank, seat) => {
    if (seat !== running) return { seat, running: false, decisionMs: 0, bankMs: Number(bank) };
    const decisionMs = Math.max(0, limit - spent);
    const bankMs = Math.max(0, Number(bank) - Math.max(0, spent - limit));
    return { seat, running: true, decisionMs, bankMs };
  });
}

// The clock's words for one seat: the running one shows its decision time and
// then its bank; the others their bank alone.
export function clockText(reading) {
  if (!reading) return '';
  if (!reading.running) return `bank ${formatClock(reading.bankMs)}`;
  if (reading.decisionMs > 0) return `▸ ${formatClock(reading.decisionMs)} + bank ${formatClock(reading.bankMs)}`;
  return `▸ bank ${formatClock(reading.bankMs)}`;
}

// Under ten seconds of everything left: the clock is drawn urgent.
export function clockUrgent(reading) {
  return !!reading?.running && reading.decisionMs + reading.bankMs < 10_000;
}

// The seat's own clock at its decision, from the decision's figures: Clocks of
// one seat, running, which clockReadings counts down as any seat's.
export function decisionClocks(decision) {
  return {
    time_bank_ms_left: [Number(decision?.time_bank_ms_left ?? 0)],
    running: 0,
    decision_ms_left: Number(decision?.decision_ms_left ?? 0),
  };
}

// The countdown's words under the board: whole seconds of the decision, then of
// the bank, rounded up as formatClock rounds.
export function countdownText(reading) {
  if (!reading) return '';
  const seconds = (ms) => Math.max(0, Math.ceil(ms / 1000));
  return `Your decision: ${seconds(reading.decisionMs)} s left, then the time bank: ${seconds(reading.bankMs)} s.`;
}

// The clocks of a paused or finished game: none runs, and every bank is what
// the host last said. A pause charges nothing (the decision owed comes again
// with its whole limit, docs/GAMEHOST.md), so the running seat's bank is shown
// as the host keeps it, not as the count down had it.
export function stoppedClocks(clocks) {
  if (!clocks) return null;
  return { time_bank_ms_left: [...(clocks.time_bank_ms_left ?? [])], running: -1, decision_ms_left: 0 };
}
