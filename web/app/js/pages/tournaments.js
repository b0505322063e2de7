// Tournaments: the list, and one tournament's standings with each score's 95 %
// confidence interval drawn as a bar, and its schedule of games.
import { api, enc } from '../api.js';
import { html, raw, pageOf, formatDate, seatBadge } from '../names.js';

export async function renderList() {
  const { tournaments } = await api('/tournaments');
  const rows = tournaments.map(
    (t) => html`<tr data-tournament="${t.id}"><td><a href="/tournaments/${enc(t.id)}">${t.title || t.id}</a></td><td>${t.format}</td>
      <td class="num">${t.entrant_count}</td><td class="num">${t.seats}</td><td><span class="state state-${t.state}">${t.state}</span></td>
      <td>${formatDate(t.starts_unix_ms)}${t.repeat_every_ms ? html` <span class="hint">(every ${every(t.repeat_every_ms)})</span>` : ''}</td></tr>`,
  );
  return pageOf(
    html`<h1>Tournaments</h1>
    ${rows.length ? html`<div class="table-wrap"><table class="tournaments"><thead><tr><th>Tournament</th><th>Format</th><th class="num">Entrants</th><th class="num">Seats</th><th>State</th><th>Starts</th></tr></thead><tbody>${rows}</tbody></table></div>` : html`<p>No tournaments yet.</p>`}`,
    'Tournaments',
  );
}

// "1 day", "12 hours", "30 minutes": a recurring tournament's period.
function every(ms) {
  for (const [unit, size] of [['day', 86400000], ['hour', 3600000], ['minute', 60000]]) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms === size ? '' : 's'}`;
  }
  return `${Math.round(ms / 60000)} minutes`;
}

// An arena pairs for a while from its start: for how long while it registers,
// until when once it runs.
function arenaTime(t) {
  if (t.state === 'registering') return `pairs for ${every(t.arena_ends_unix_ms - t.starts_unix_ms)} from its start`;
  return `pairing ${t.state === 'running' ? 'until' : 'ended'} ${formatDate(t.arena_ends_unix_ms)}`;
}

// Before the start: who has entered, the room left, how to enter; after a
// cancellation, why.
function registration(t) {
  if (t.state === 'registering') {
    return html`<section class="registration" data-registration="${t.id}"><h2>Registration open</h2>
      <p><strong>${t.entrant_count} of ${t.max_entrants}</strong> entered · starts ${formatDate(t.starts_unix_ms)}${t.repeat_every_ms ? ` · recurs every ${every(t.repeat_every_ms)}` : ''}.
      At the start the schedule is made from those entered; with fewer than ${t.seats} it is cancelled.</p>
      <p class="hint">A bot enters with its own token: <code>metropolisctl --token $BOT_TOKEN join-tournament ${t.id}</code>, and withdraws with <code>leave-tournament</code> until the start.</p>
      ${t.entrants.length ? html`<ul class="entrants">${t.entrants.map((e) => html`<li><a href="/players/${enc(e.name)}">${e.name}</a></li>`)}</ul>` : ''}</section>`;
  }
  if (t.state === 'cancelled' && t.reason) return html`<p class="notice" data-reason>Cancelled: ${t.reason}</p>`;
  if (t.reason) return html`<p class="notice" data-reason>${t.reason[0].toUpperCase()}${t.reason.slice(1)}.</p>`;
  if (t.sequential_stop && t.state === 'running') return html`<p class="hint">Stops early once the sequential test has decided every pair.</p>`;
  return '';
}

// Scores run from 0 (always last) to 1 (always first): the bars share that scale.
function intervalBar(s) {
  const W = 240;
  const H = 22;
  const x = (v) => 8 + v * (W - 16);
  // Duplicate standings count complete sets (s.sets), the others games.
  const unit = s.sets === null || s.sets === undefined ? 'game' : 'set';
  if (s.score === null) return raw(`<span class="meta">no complete ${unit} yet</span>`);
  const interval =
    s.ci_low === null
      ? ''
      : `<line class="ci" x1="${x(s.ci_low).toFixed(1)}" x2="${x(s.ci_high).toFixed(1)}" y1="11" y2="11"/>` +
        `<line class="ci-end" x1="${x(s.ci_low).toFixed(1)}" x2="${x(s.ci_low).toFixed(1)}" y1="5" y2="17"/>` +
        `<line class="ci-end" x1="${x(s.ci_high).toFixed(1)}" x2="${x(s.ci_high).toFixed(1)}" y1="5" y2="17"/>`;
  const label = s.ci_low === null ? `score ${s.score.toFixed(3)}, one ${unit}: no interval` : `score ${s.score.toFixed(3)}, 95% interval ${s.ci_low.toFixed(3)} to ${s.ci_high.toFixed(3)}`;
  return raw(`<svg class="interval" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${label}"
      data-score="${s.score}" data-ci-low="${s.ci_low ?? ''}" data-ci-high="${s.ci_high ?? ''}">
    <line class="axis" x1="${x(0)}" x2="${x(1)}" y1="11" y2="11"/><line class="mid" x1="${x(0.5)}" x2="${x(0.5)}" y1="3" y2="19"/>
    ${interval}<circle class="point" cx="${x(s.score).toFixed(1)}" cy="11" r="4.5"/></svg>`);
}

// Every pair of entrants over the sets (duplicate) or games both played: the
// one ahead, by how much, whether the interval separates them, and the
// sequential test's verdict in words.
const SPRT_WORDS = { H1: 'better', H1_B: 'the other better', H0: 'no difference', continue: 'undecided' };
function pairsTable(t) {
  if (!t.pairs?.length) return '';
  const unit = t.format === 'duplicate' ? 'Sets' : 'Games';
  const rows = t.pairs.map(
    (p) => html`<tr data-pair="${p.a.name} ${p.b.name}"><td>${p.a.name || `#${p.a.identity_id}`}</td><td>${p.b.name || `#${p.b.identity_id}`}</td>
      <td class="num">${p.shared}</td><td class="num">${p.difference.toFixed(3)}</td>
      <td class="num">${p.ci_low === null ? '–' : `${p.ci_low.toFixed(3)} – ${p.ci_high.toFixed(3)}`}</td>
      <td>${p.better ? 'yes' : 'no'}</td><td title="log-likelihood ratio ${p.sprt_llr.toFixed(2)} after ${p.sprt_sets} ${unit.toLowerCase()}">${SPRT_WORDS[p.sprt] ?? p.sprt}</td></tr>`,
  );
  return html`<h2>Pairs</h2>
    <div class="table-wrap"><table class="pairs"><thead><tr><th>Ahead</th><th>Behind</th><th class="num">${unit}</th><th class="num">Difference</th>
      <th class="num">95% interval</th><th>Separated</th><th>Sequential test</th></tr></thead><tbody>${rows}</tbody></table></div>
    <p class="hint">Each pair over the ${unit.toLowerCase()} both played: the mean of the score of the one ahead minus the other's, so that the luck they both met cancels. Separated: the interval lies above 0. The sequential test (about 5% error rates for a difference of 0.1, at least 15 ${unit.toLowerCase()}) is reported as it would have stopped; the tournament plays on.</p>`;
}

export async function render(id) {
  const [t, schedule] = await Promise.all([api(`/tournaments/${enc(id)}`), api(`/tournaments/${enc(id)}/games`)]);
  const duplicate = t.format === 'duplicate';
  const standings = t.standings.map(
    (s) => html`<tr data-standing="${s.name}"><td class="num">${s.rank}</td><td><a href="/players/${enc(s.name)}">${s.name}</a></td>
      <td class="num">${s.games}</td><td class="num">${s.wins}</td>${duplicate ? html`<td class="num">${s.sets}</td>` : ''}<td class="num">${s.score === null ? '–' : s.score.toFixed(3)}</td>
      <td class="num">${s.ci_low === null ? '–' : `${s.ci_low.toFixed(3)} – ${s.ci_high.toFixed(3)}`}</td><td>${intervalBar(s)}</td></tr>`,
  );
  const games = schedule.games.map(
    (g) => html`<tr data-number="${g.number}"><td class="num">${g.number}</td><td class="num">${g.round}${g.set === null ? '' : ` · set ${g.set}`}</td>
      <td><ul class="players">${g.players.map((p) => html`<li>${seatBadge(p.seat)} ${p.name || `#${p.identity_id}`}${p.place ? ` (${p.place})` : ''}</li>`)}</ul></td>
      <td><span class="state state-${g.state}">${g.state}</span></td>
      <td>${g.game_id ? raw(g.state === 'finished' ? html`<a class="button" href="/games/${enc(g.game_id)}">Replay</a>` : html`<a class="button" href="/live/${enc(g.game_id)}">Watch</a>`) : ''}</td></tr>`,
  );
  const markup = html`
    <h1>${t.title || t.id}</h1>
    <p class="meta">${t.format}, ${t.seats} seats, ${t.entrant_count} entrants · <span class="state state-${t.state}">${t.state}</span> ·
      ${t.arena_ends_unix_ms ? `${arenaTime(t)}, ${t.games_finished} games finished` : `${t.games_finished} of ${t.games_total} games finished`}${t.games_playing ? `, ${t.games_playing} playing` : ''} · ${t.state === 'registering' ? 'starts' : 'started'} ${formatDate(t.starts_unix_ms)}
      ${t.series ? `· occurrence ${t.occurrence} of the series ${t.series}` : ''} · <a href="/games?tournament=${enc(t.id)}">stored games</a></p>
    ${registration(t)}
    <h2>Standings</h2>
    <div class="table-wrap"><table class="standings"><thead><tr><th class="num">Rank</th><th>Entrant</th><th class="num">Games</th><th class="num">Wins</th>
      ${duplicate ? html`<th class="num">Sets</th>` : ''}<th class="num">Score</th><th class="num">95% interval</th><th>0 (last) … 1 (first)</th></tr></thead><tbody>${standings}</tbody></table></div>
    <p class="hint">A game scores 1 for first place and 0 for last, ties sharing; the bar is the 95% confidence interval of the mean score${duplicate ? html` per complete set (a set's score is the mean over its rotations, which share board and dice)` : ''}.</p>
    ${pairsTable(t)}
    <h2>Games</h2>
    <div class="table-wrap"><table class="schedule"><thead><tr><th class="num">#</th><th class="num">Round</th><th>Seats</th><th>State</th><th></th></tr></thead><tbody>${games}</tbody></table></div>`;
  return pageOf(markup, t.title || t.id);
}
