// A friends' table (/tables/{id}; docs/WEB.md, "Playing with friends"): what
// the page says of a table the gateway sends (GET /api/v1/tables/{id}) and
// what it offers the person looking at it, the lobby's form as the request
// that creates one, and which table a table's game belongs to. Pure, so that
// web/test/friends.test.mjs can check them; pages/friends.js draws them.

// The defaults of POST /api/v1/tables, which the lobby's form starts from.
export const TABLE_DEFAULTS = {
  ruleset: 'cities_and_knights',
  options: '',
  seats: 4,
  bot: 'heuristic',
  decision_ms: 60_000,
  time_bank_ms: 300_000,
  ladder: '',
  spectator_delay_ms: 0,
};

// The matchmaker's bounds (services/matchmaker/tables/table.h), for the form's fields.
export const DECISION_SECONDS = { min: 5, max: 600 };
export const TIME_BANK_MINUTES = { min: 0, max: 60 };
// Whole minutes: the gateway holds each delay in use in a line of its own.
export const SPECTATOR_DELAY_MINUTES = { min: 0, max: 60 };

export const BOT_WORDS = {
  random: 'the random bot (plays any legal action)',
  heuristic: 'the heuristic bot (a sound beginner)',
  search: 'the search bot (the strongest)',
};

const RULESET_WORDS = { cities_and_knights: 'Catan: Cities & Knights', base: 'Catan, the base game' };

// A table's game is `table-<table id>-<round>`: the table's id, or null for
// any other game.
export function tableOfGame(gameId) {
  const m = /^table-(.+)-\d+$/.exec(gameId ?? '');
  return m ? m[1] : null;
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// "90 s", "1 min", "2 min 30 s", "1 h 5 min": a duration as people say it.
export function durationWords(ms) {
  const total = Math.max(0, Math.round(Number(ms) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  if (m) return s ? `${m} min ${s} s` : `${m} min`;
  return `${s} s`;
}

// The table's rules in plain words, one line each: [{key, text}].
export function settingsWords(settings = {}) {
  const s = { ...TABLE_DEFAULTS, ...settings };
  const lines = [
    { key: 'ruleset', text: `${RULESET_WORDS[s.ruleset] ?? s.ruleset}${s.options ? ` (options: ${s.options})` : ''}` },
    { key: 'seats', text: `${s.seats} seats; a seat nobody takes is played by ${BOT_WORDS[s.bot] ?? `the ${s.bot} bot`}` },
    {
      key: 'clock',
      text: s.time_bank_ms > 0
        ? `${durationWords(s.decision_ms)} for each decision, then a time bank of ${durationWords(s.time_bank_ms)} for the whole game`
        : `${durationWords(s.decision_ms)} for each decision, and no time bank`,
    },
    { key: 'ladder', text: s.ladder ? `Rated on the ladder ${s.ladder}` : 'Not rated: a friendly game' },
    {
      key: 'spectators',
      text: s.spectator_delay_ms > 0 ? `Spectators watch ${durationWords(s.spectator_delay_ms)} behind the game` : 'Spectators watch as it is played',
    },
  ];
  return lines;
}

// Where the table stands, in words, for everyone.
export function stateWords(table) {
  const seats = table.settings?.seats ?? TABLE_DEFAULTS.seats;
  const taken = table.members?.length ?? 0;
  switch (table.state) {
    case 'open':
      return `Open: ${taken} of ${seats} seats taken. Friends join with the link; the creator starts the game.`;
    case 'starting':
      return `Starting round ${table.round}: the game is being set up.`;
    case 'playing':
      return table.game_over ? `Round ${table.round} is over.` : `Round ${table.round} is being played.`;
    default:
      return `${table.state}`;
  }
}

// The people of the table: the seating once a round is seated (seat by seat,
// the bots in theirs), else the members in the order they joined. Each
// {name, label (a bot's "bot:heuristic" is "the heuristic bot"), seat (or
// null), bot, creator, you}; `me` is the signed-in person's
// name (or null). A seat is the person's by the gateway's `you.seat`, and the
// creator's by its identity id.
export function tablePeople(table, me = null) {
  const creatorName = table.members?.find((m) => m.id === table.creator)?.name;
  if (table.seating?.length) {
    return table.seating.map((s) => ({
      name: s.name,
      label: s.bot && /^bot:./.test(s.name) ? `the ${s.name.slice(4)} bot` : s.name,
      seat: s.seat,
      bot: !!s.bot,
      creator: !s.bot && (s.id != null ? s.id === table.creator : s.name === creatorName),
      you: !s.bot && me !== null && (table.you?.seat != null ? table.you.seat === s.seat : s.name === me),
    }));
  }
  return (table.members ?? []).map((m) => ({
    name: m.name,
    label: m.name,
    seat: null,
    bot: false,
    creator: m.id === table.creator,
    you: me !== null && m.name === me,
  }));
}

// What the page offers the person looking at `table`: `signedIn` is whether
// there is a session. Returns [{kind, label, href?, hint?}] in the order shown:
//   join, signin and signup (links), leave, start, starting (words only), open (a link
//   to the seat), watch (a link), rematch, replay (a link), full (words only).
export function tableActions(table, signedIn) {
  const you = table.you ?? {};
  const member = signedIn && !!you.member;
  const creator = signedIn && !!you.creator;
  const seats = table.settings?.seats ?? TABLE_DEFAULTS.seats;
  const taken = table.members?.length ?? 0;
  const bot = table.settings?.bot ?? TABLE_DEFAULTS.bot;
  const here = `/tables/${encodeURIComponent(table.id)}`;
  const game = encodeURIComponent(table.game_id ?? '');
  const out = [];
  if (table.state === 'open') {
    if (!signedIn) {
      out.push({ kind: 'signin', label: 'Sign in to join', href: `/signin?next=${here}` });
      out.push({ kind: 'signup', label: 'Sign up to join', href: `/signup?next=${here}` });
    } else if (!member) {
      if (taken >= seats) out.push({ kind: 'full', label: `The table is full (${taken} of ${seats} seats taken).` });
      else out.push({ kind: 'join', label: 'Join the table' });
    } else if (!creator) {
      out.push({ kind: 'leave', label: 'Leave the table', hint: 'The creator starts the game.' });
    }
    if (creator) {
      const empty = seats - taken;
      out.push({
        kind: 'start',
        label: 'Start the game',
        hint: empty > 0 ? `${plural(empty, 'empty seat')} ${empty === 1 ? 'goes' : 'go'} to ${BOT_WORDS[bot] ?? `the ${bot} bot`}.` : 'Every seat is taken.',
      });
    }
  } else if (table.state === 'starting') {
    out.push({ kind: 'starting', label: 'Starting…' });
    // A start whose game no host created (none could be reached) waits for a
    // player to finish it: the matchmaker takes it over after half a minute.
    if (member) out.push({ kind: 'start', label: 'Start again', hint: 'If the game has not appeared within half a minute.' });
  } else if (table.state === 'playing' && table.game_id) {
    const seated = signedIn && you.seat !== null && you.seat !== undefined;
    if (!table.game_over) {
      if (seated) out.push({ kind: 'open', label: 'Open your seat', href: `/play/${game}` });
      else out.push({ kind: 'watch', label: 'Watch the game', href: `/live/${game}` });
    } else {
      if (member) out.push({ kind: 'rematch', label: 'Rematch', hint: 'A new game at this table, with the same rules.' });
      out.push({ kind: 'replay', label: 'The replay', href: `/games/${game}` });
    }
  }
  return out;
}

// The round's game to open at once for the person, or null: a game seated for
// them that is not over, and not opened from this page before (`opened`, the
// ids already opened), so that coming back to the table does not send them
// off again.
export function gameToOpen(table, opened = new Set()) {
  const seated = table.you?.seat !== null && table.you?.seat !== undefined;
  if (table.state !== 'playing' || !table.game_id || table.game_over || !seated) return null;
  return opened.has(table.game_id) ? null : table.game_id;
}

// The lobby's form ({seats, ruleset, bot, decision_s, time_bank_min, ladder,
// spectator_delay_min}, as strings) as the body of POST /api/v1/tables.
export function tableRequest(form) {
  const number = (v, fallback) => (v === undefined || v === null || String(v).trim() === '' ? fallback : Number(v));
  return {
    ruleset: form.ruleset || TABLE_DEFAULTS.ruleset,
    seats: number(form.seats, TABLE_DEFAULTS.seats),
    bot: form.bot || TABLE_DEFAULTS.bot,
    decision_ms: Math.round(number(form.decision_s, TABLE_DEFAULTS.decision_ms / 1000) * 1000),
    time_bank_ms: Math.round(number(form.time_bank_min, TABLE_DEFAULTS.time_bank_ms / 60_000) * 60_000),
    ladder: String(form.ladder ?? '').trim(),
    spectator_delay_ms: number(form.spectator_delay_min, 0) * 60_000,
  };
}

// The form's field for a parameter of the request the gateway names in a refusal.
const FORM_FIELDS = { decision_ms: 'decision_s', time_bank_ms: 'time_bank_min', spectator_delay_ms: 'spectator_delay_min' };
export const formFieldOf = (parameter) => (parameter ? FORM_FIELDS[parameter] ?? parameter : null);

// What is wrong with the form's figures before asking (a field and its
// words), or null: the gateway says the rest.
export function tableRequestProblem(body) {
  const d = body.decision_ms / 1000;
  if (!Number.isFinite(d) || d < DECISION_SECONDS.min || d > DECISION_SECONDS.max) {
    return { field: 'decision_s', message: `Decision: ${DECISION_SECONDS.min} to ${DECISION_SECONDS.max} seconds.` };
  }
  const b = body.time_bank_ms / 60_000;
  if (!Number.isFinite(b) || b < TIME_BANK_MINUTES.min || b > TIME_BANK_MINUTES.max) {
    return { field: 'time_bank_min', message: `Time bank: ${TIME_BANK_MINUTES.min} to ${TIME_BANK_MINUTES.max} minutes.` };
  }
  const delay = body.spectator_delay_ms / 60_000;
  if (!Number.isInteger(delay) || delay < SPECTATOR_DELAY_MINUTES.min || delay > SPECTATOR_DELAY_MINUTES.max) {
    return { field: 'spectator_delay_min', message: `Spectators' delay: whole minutes, ${SPECTATOR_DELAY_MINUTES.min} to ${SPECTATOR_DELAY_MINUTES.max} (an hour).` };
  }
  return null;
}
