#include "services/matchmaker/tournaments/runner.h"

#include <algorithm>
#include <unordered_set>

#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/matchmaker.pb.h"
#include "services/matchmaker/tournaments/evidence.h"

namespace metropolis::matchmaker {

struct TournamentRunner::Loaded {
  TournamentRow row;
  std::vector<TournamentGameRow> games;
};

TournamentRunner::TournamentRunner(TournamentStore* store, GameResults* results, EntrantDirectory* entrants,
                                   RosterStore* roster, HostRegistry* hosts, GameCreator* creator,
                                   RunnerOptions options)
    : store_(store),
      results_(results),
      entrants_(entrants),
      roster_(roster),
      hosts_(hosts),
      creator_(creator),
      options_(std::move(options)) {}

std::string TournamentRunner::ChanceIdentity(const std::string& tournament, uint64_t chance_number) {
  return "tournament/" + tournament + "/" + std::to_string(chance_number);
}

v1::CreateGameRequest TournamentRunner::GameFor(const TournamentRow& tournament, const TournamentGameRow& game,
                                                const std::string& game_id, const std::string& bot, int lockstep) {
  v1::CreateGameRequest request;
  GameConfig config;
  config.num_seats = tournament.spec.seats;
  std::string error;
  // The options were checked when the tournament was created.
  ParseLadderOptions(tournament.spec.ruleset, tournament.spec.options, &config.options, &error);
  protocol::ConfigToProto(config, request.mutable_config());
  request.mutable_config()->clear_board();
  // The board, like the dice, comes from the secret seed of the set's chance
  // identity: a board seed derived from the tournament's seed would give that
  // seed away to anyone who inverts it (docs/CHANCE.md).
  request.set_board_from_chance(true);
  // The schedule's chance number names what the set's games share; the host
  // derives their secret seed from it and its key (docs/CHANCE.md), so that
  // nothing this service holds or shows tells a die in advance.
  request.set_chance_identity(ChanceIdentity(tournament.spec.id, game.game.chance_seed));
  for (int entrant : game.game.entrants) {
    v1::SeatSpec* seat = request.add_seats();
    seat->set_name(size_t(entrant) < tournament.names.size() ? tournament.names[size_t(entrant)] : "");
    seat->set_identity_id(tournament.spec.entrants[size_t(entrant)]);
    seat->set_fallback_bot(bot);
  }
  request.mutable_deadlines()->set_decision_ms(tournament.spec.decision_ms);
  request.mutable_deadlines()->set_time_bank_ms(tournament.spec.time_bank_ms);
  request.set_game_id(game_id);
  request.set_tournament(tournament.spec.id);
  request.set_hidden(game.game.set >= 0);
  request.set_lockstep(uint32_t(lockstep));
  return request;
}

RunnerStats TournamentRunner::Pass(int64_t now_ms) {
  RunnerStats stats;
  const int64_t db_now_ms = OpenDue(&stats);
  std::vector<std::string> ids;
  if (!store_->Running(&ids).ok()) return stats;
  std::vector<Loaded> running;
  // Games at once per identity, over every running tournament.
  std::unordered_map<int64_t, int> busy;
  for (const std::string& id : ids) {
    Loaded t;
    // The seats' names come from the directory: without them no game starts.
    if (!store_->Get(id, &t.row).ok() || !FillNames(entrants_, {&t.row}).ok() || !store_->Games(id, &t.games).ok() ||
        !Collect(t, &stats))
      continue;
    for (const TournamentGameRow& g : t.games)
      if (g.state == "starting" || g.state == "playing")
        for (int e : g.game.entrants) ++busy[t.row.spec.entrants[size_t(e)]];
    running.push_back(std::move(t));
  }
  // Each live connection with its capacity; free: by identity, what is left.
  if (stats.error = roster_->Connections(now_ms, &connections_); !stats.error.ok()) return stats;
  std::unordered_map<int64_t, int> free;
  for (const auto& [identity, conns] : connections_) free[identity] = Capacity(identity) - busy[identity];
  std::unordered_set<std::string> playing;
  for (Loaded& t : running) {
    FindLost(t, now_ms, &stats);
    StopEarly(t);  // before Start: no set is begun once the evidence is in
    Start(t, free, now_ms, &stats);
    if (!stats.error.ok()) return stats;
    Advance(t, free, db_now_ms, now_ms, &stats);
    for (const TournamentGameRow& g : t.games)
      if (g.state == "playing" || g.state == "starting") playing.insert(g.game_id);
  }
  Reveal(&stats);
  // Forget probes of games no longer playing.
  for (auto it = probes_.begin(); it != probes_.end();)
    it = playing.count(it->first) ? std::next(it) : probes_.erase(it);
  return stats;
}

int64_t TournamentRunner::OpenDue(RunnerStats* stats) {
  std::vector<std::string> ids;
  int64_t now_ms = 0;
  if (!store_->DueToStart(&ids, &now_ms).ok()) return 0;
  for (const std::string& id : ids) {
    TournamentRow row;
    if (!store_->Get(id, &row).ok()) continue;
    const TournamentSpec& spec = row.spec;
    const int entrants = int(spec.entrants.size());
    std::vector<ScheduledGame> games;
    std::string reason;
    if (entrants < spec.seats) {
      reason = "too few entrants: " + std::to_string(entrants) + " entered by the start, a table needs " +
               std::to_string(spec.seats);
    } else {
      // Bounded at creation: max_entrants keeps the schedule within kMaxScheduledGames.
      games = InitialSchedule(spec.format, entrants, spec.seats, spec.rounds, spec.seed);
    }
    TournamentSpec next;
    if (spec.repeat_every_ms > 0) next = NextOccurrence(spec, now_ms, DrawTournamentSeed());
    bool started = false;
    if (!store_->Start(id, entrants, games, reason, spec.repeat_every_ms > 0 ? &next : nullptr, &started).ok() ||
        !started)
      continue;
    if (!reason.empty()) {
      ++stats->tournaments_cancelled;
      services::LogWarning("tournament cancelled at its start", {{"tournament", id}, {"reason", reason}});
    } else {
      ++stats->tournaments_started;
      services::LogInfo(
          "tournament started",
          {{"tournament", id}, {"entrants", std::to_string(entrants)}, {"games", std::to_string(games.size())}});
    }
    // The store opens it only when no occurrence of that id exists already.
    if (TournamentRow opened;
        spec.repeat_every_ms > 0 && store_->Get(next.id, &opened).ok() && opened.spec.seed == next.seed)
      services::LogInfo("next occurrence open",
                        {{"tournament", next.id}, {"starts_unix_ms", std::to_string(next.starts_ms)}});
  }
  return now_ms;
}

bool TournamentRunner::Collect(Loaded& t, RunnerStats* stats) {
  std::vector<std::string> open;
  std::unordered_map<std::string, TournamentGameRow*> by_id;
  for (TournamentGameRow& g : t.games) {
    if ((g.state == "starting" || g.state == "playing") && !g.game_id.empty()) {
      open.push_back(g.game_id);
      by_id[g.game_id] = &g;
    }
  }
  constexpr size_t kBatch = 500;  // Replays.GetResults' limit
  for (size_t at = 0; at < open.size(); at += kBatch) {
    const std::vector<std::string> ids(open.begin() + long(at),
                                       open.begin() + long(std::min(open.size(), at + kBatch)));
    std::vector<StoredResult> stored;
    if (const grpc::Status s = results_->Results(ids, &stored); !s.ok()) {
      // Without results nothing of this tournament moves this pass: a game
      // could look lost while its result waits in the store.
      services::LogWarning("tournament results unknown; the tournament waits for the next pass",
                           {{"tournament", t.row.spec.id},
                            {"code", services::StatusCodeName(s.error_code())},
                            {"error", s.error_message()}});
      return false;
    }
    for (const StoredResult& r : stored) {
      auto it = by_id.find(r.game_id);
      if (it == by_id.end()) continue;
      TournamentGameRow& g = *it->second;
      const std::vector<int> places = PlacesOf(r.winner, r.vp, r.forfeited);
      bool finished = false;
      if (store_->Finish(t.row.spec.id, g.number, g.game_id, places, &finished).ok() && finished) {
        g.state = "finished";
        g.places = places;
        ++stats->finished;
      }
    }
  }
  return true;
}

bool TournamentRunner::SurelyNotStored(const std::string& game_id) {
  std::vector<StoredResult> stored;
  return results_->Results({game_id}, &stored).ok() && stored.empty();
}

void TournamentRunner::Reveal(RunnerStats* stats) {
  std::vector<DueReveal> due;
  if (!store_->DueReveals(options_.max_reveals_per_pass, &due).ok()) return;
  for (const DueReveal& r : due) {
    const grpc::Status s = results_->Reveal(r.tournament, r.whole, r.game_ids);
    if (!s.ok()) {
      // Sent again next pass: it is still due until marked.
      services::LogWarning("revealing tournament games failed; sent again next pass",
                           {{"tournament", r.tournament},
                            {"set", std::to_string(r.set)},
                            {"code", services::StatusCodeName(s.error_code())},
                            {"error", s.error_message()}});
      continue;
    }
    if (store_->MarkRevealed(r).ok()) ++stats->revealed;
  }
}

void TournamentRunner::FindLost(Loaded& t, int64_t now_ms, RunnerStats* stats) {
  for (TournamentGameRow& g : t.games) {
    if (g.state == "starting" && g.state_age_ms > options_.lost_after_ms) {
      // A leader died between choosing the game and handing out its seats:
      // nobody holds the seat tokens, so the game is started again.
      if (SurelyNotStored(g.game_id) && store_->Requeue(t.row.spec.id, g.number, g.game_id).ok()) {
        g.state = "pending";
        ++stats->lost;
      }
      continue;
    }
    if (g.state != "playing") continue;
    Probe& probe = probes_[g.game_id];
    if (now_ms - probe.asked_ms < options_.probe_every_ms) continue;
    probe.asked_ms = now_ms;
    grpc::Status s = creator_->Probe(g.host, g.game_id);
    if (!s.ok()) {
      // Its host may have died and another taken the game over (or be about
      // to): any host knows where a checkpointed game runs. Without the
      // registry (Redis is down), judged on the game's own host alone.
      std::vector<HostInfo> hosts;
      if (hosts_->Hosts(&hosts).ok()) {
        for (const HostInfo& h : hosts) {
          if (h.address != g.host && creator_->Probe(h.address, g.game_id).ok()) {
            s = grpc::Status::OK;
            break;
          }
        }
      }
    }
    if (s.ok()) {
      probe.failing_since_ms = 0;
      continue;
    }
    if (probe.failing_since_ms == 0) probe.failing_since_ms = now_ms;
    if (now_ms - probe.failing_since_ms < options_.lost_after_ms) continue;
    // A game stored meanwhile counts: the next pass collects it.
    if (!SurelyNotStored(g.game_id)) continue;
    services::LogWarning("tournament game lost with its host; it is played again",
                         {{"tournament", t.row.spec.id},
                          {"game", g.game_id},
                          {"host", g.host},
                          {"code", services::StatusCodeName(s.error_code())},
                          {"error", s.error_message()}});
    if (store_->Requeue(t.row.spec.id, g.number, g.game_id).ok()) {
      g.state = "pending";
      ++stats->lost;
    }
  }
}

void TournamentRunner::Start(Loaded& t, std::unordered_map<int64_t, int>& free, int64_t now_ms, RunnerStats* stats) {
  const TournamentSpec& spec = t.row.spec;
  // This tournament's own limit of games at once per entrant.
  std::vector<int> mine(spec.entrants.size(), 0);
  for (const TournamentGameRow& g : t.games)
    if (g.state == "starting" || g.state == "playing")
      for (int e : g.game.entrants) ++mine[size_t(e)];
  const auto id_of = [&](int e) { return spec.entrants[size_t(e)]; };
  const auto free_of = [&](int e) {
    auto it = free.find(id_of(e));
    return it == free.end() ? 0 : it->second;
  };
  // Duplicate sets whose rotations start together (true) or one at a time
  // (false: an entrant cannot hold them all at once), decided once per pass.
  std::unordered_map<int, bool> together;
  for (TournamentGameRow& g : t.games) {
    if (stats->started + stats->failed >= options_.max_starts_per_pass) return;
    if (g.state != "pending") continue;
    std::vector<TournamentGameRow*> batch{&g};
    std::string host;  // where a set under way plays: its rotations left join it there
    int lockstep = 0;
    if (g.game.set >= 0) {
      auto [it, first] = together.emplace(g.game.set, false);
      if (!first && it->second) continue;  // waits with its set
      if (first) {
        // The set's size counts its rotations pending and playing.
        std::vector<TournamentGameRow*> pending;
        const TournamentGameRow* under_way = nullptr;
        int playing = 0;
        for (TournamentGameRow& o : t.games) {
          if (o.game.set != g.game.set) continue;
          if (o.state == "pending") pending.push_back(&o);
          if (o.state == "starting" || o.state == "playing") {
            ++playing;
            if (!o.host.empty()) under_way = &o;
          }
        }
        const int size = int(pending.size()) + playing;
        // Together only when every entrant's connections can hold the whole
        // set; a bot that competes with less plays it one rotation at a time,
        // as before lockstep (docs/TOURNAMENTS.md, "Rotations in lockstep").
        bool fits = size > 1;
        for (int e : g.game.entrants) fits &= Capacity(id_of(e)) >= size;
        it->second = fits;
        if (fits) {
          const int k = int(pending.size());
          bool ready = true;
          for (int e : g.game.entrants)
            ready &= free_of(e) >= k &&
                     (under_way || mine[size_t(e)] == 0 || mine[size_t(e)] + k <= spec.max_games_per_entrant);
          if (!ready) continue;
          batch = std::move(pending);
          lockstep = size;
          // Rotations of a set already playing (one could not be created with
          // the others) go where the others play, within their group's wait.
          if (under_way) host = under_way->host;
        }
      }
    }
    if (batch.size() == 1 && lockstep == 0) {
      bool ready = true;
      for (int e : g.game.entrants) ready &= free_of(e) > 0 && mine[size_t(e)] < spec.max_games_per_entrant;
      if (!ready) continue;
    }
    if (host.empty()) {
      bool picked = false;
      // A set's rotations on one host, with room for all of them: its
      // lockstep is kept there (lockstep.h).
      if (stats->error = hosts_->PickHost(now_ms, options_.host_ttl_ms, int(batch.size()), &host, &picked);
          !stats->error.ok())
        return;
      if (!picked) {
        if (batch.size() > 1) continue;  // a smaller game may still fit somewhere
        return;                          // no room anywhere: next pass
      }
    }
    // A set stops at its first rotation not started: the rest stay pending and
    // join the others on their host at the next pass.
    for (size_t r = 0; r < batch.size(); ++r) {
      const Started started = StartOne(t, *batch[r], host, lockstep, int(r), mine, free, stats);
      if (started == Started::kStop) return;
      if (started == Started::kNot) break;
    }
  }
}

int TournamentRunner::Capacity(int64_t identity) const {
  auto it = connections_.find(identity);
  if (it == connections_.end()) return 0;
  int total = 0;
  for (const RosterConnection& c : it->second) total += c.capacity;
  return total;
}

TournamentRunner::Started TournamentRunner::StartOne(Loaded& t, TournamentGameRow& g, const std::string& host,
                                                     int lockstep, int rotation, std::vector<int>& mine,
                                                     std::unordered_map<int64_t, int>& free, RunnerStats* stats) {
  const TournamentSpec& spec = t.row.spec;
  std::string game_id;
  bool claimed = false;
  if (!store_->Claim(spec.id, g.number, host, &game_id, &claimed).ok() || !claimed) return Started::kNot;
  // The game's story starts here (docs/OBSERVABILITY.md): its lines carry this id.
  services::LogContext log_context(services::NewRequestId(), game_id);
  const v1::CreateGameRequest request = GameFor(t.row, g, game_id, options_.bot, lockstep);
  v1::CreateGameResponse response;
  const grpc::Status s = creator_->Create(host, request, &response);
  if (!s.ok()) {
    services::LogWarning("creating a tournament game failed; it waits for the next pass",
                         {{"tournament", spec.id},
                          {"game", game_id},
                          {"host", host},
                          {"code", services::StatusCodeName(s.error_code())},
                          {"error", s.error_message()}});
    // A host that is full is not down: it refused this one game.
    if (s.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED)
      if (stats->error = hosts_->MarkHostDown(host); !stats->error.ok()) return Started::kStop;
    store_->Requeue(spec.id, g.number, game_id);
    ++stats->failed;
    return Started::kNot;
  }
  const std::string at = response.host().empty() ? host : response.host();
  // Where seats go if `at` dies (Assignment.other_hosts): only a help, so
  // none when the registry does not answer.
  std::vector<std::string> others;
  std::vector<HostInfo> hosts;
  if (hosts_->Hosts(&hosts).ok())
    for (const HostInfo& h : hosts)
      if (h.address != at) others.push_back(h.address);
  // The seats go out before the game counts as playing: a leader that dies in
  // between leaves it `starting`, and a later pass starts it again (this
  // attempt is void), rather than a counted game with seats nobody received.
  grpc::Status sent = grpc::Status::OK;
  for (size_t seat = 0; seat < g.game.entrants.size() && sent.ok(); ++seat) {
    v1::Assignment a;
    a.set_game_id(game_id);
    a.set_host(at);
    for (const std::string& other : others) a.add_other_hosts(other);
    a.set_seat_token(int(seat) < response.seat_tokens_size() ? response.seat_tokens(int(seat)) : "");
    a.set_seat(uint32_t(seat));
    a.set_tournament(spec.id);
    a.set_chance_commitment(response.chance_commitment());
    const int64_t identity = spec.entrants[size_t(g.game.entrants[seat])];
    // A set's rotations go to separate connections of the entrant, one each
    // while it has enough: separate sessions, which remember nothing of the
    // others' games unless their author makes them talk.
    auto conns = connections_.find(identity);
    if (lockstep > 1 && conns != connections_.end() && conns->second.size() > 1)
      sent = roster_->SendTo(identity, conns->second[size_t(rotation) % conns->second.size()].connection,
                             a.SerializeAsString());
    else
      sent = roster_->Send(identity, a.SerializeAsString());
  }
  if (!sent.ok()) {
    services::LogWarning("sending a tournament game's seats failed; it starts again",
                         {{"tournament", spec.id}, {"game", game_id}, {"error", sent.error_message()}});
    store_->Requeue(spec.id, g.number, game_id);
    ++stats->failed;
    return Started::kNot;
  }
  bool marked = false;
  if (!store_->MarkPlaying(spec.id, g.number, game_id, &marked).ok() || !marked) {
    // Another leader found this attempt lost meanwhile: it is void.
    services::LogWarning("tournament game no longer starting; this attempt is void",
                         {{"tournament", spec.id}, {"game", game_id}});
    return Started::kNot;
  }
  g.state = "playing";
  g.game_id = game_id;
  g.host = at;
  for (int e : g.game.entrants) {
    --free[spec.entrants[size_t(e)]];
    ++mine[size_t(e)];
  }
  ++stats->started;
  services::LogInfo("tournament game started", {{"tournament", spec.id},
                                                {"game", game_id},
                                                {"host", at},
                                                {"round", std::to_string(g.game.round)},
                                                {"number", std::to_string(g.number)},
                                                {"lockstep", std::to_string(lockstep)}});
  return Started::kStarted;
}

void TournamentRunner::StopEarly(Loaded& t) {
  const TournamentSpec& spec = t.row.spec;
  if (!spec.sequential_stop) return;
  if (std::none_of(t.games.begin(), t.games.end(), [](const TournamentGameRow& g) { return g.state == "pending"; }))
    return;
  if (!EveryPairDecided(int(spec.entrants.size()), TournamentSetScores(spec, t.games), SprtOptions{})) return;
  int voided = 0;
  // Read back, so that this pass starts nothing that is now void.
  if (!store_->VoidUnstarted(spec.id, &voided).ok() || !store_->Games(spec.id, &t.games).ok()) return;
  if (voided > 0)
    services::LogInfo("tournament stopped early: every pair decided",
                      {{"tournament", spec.id}, {"void", std::to_string(voided)}});
}

void TournamentRunner::Advance(Loaded& t, std::unordered_map<int64_t, int>& free, int64_t db_now_ms, int64_t now_ms,
                               RunnerStats* stats) {
  const TournamentSpec& spec = t.row.spec;
  if (spec.format == TournamentFormat::kArena) {
    AdvanceArena(t, free, db_now_ms, now_ms, stats);
    return;
  }
  int last_round = -1, voided = 0;
  for (const TournamentGameRow& g : t.games) voided += g.state == "void";

  for (const TournamentGameRow& g : t.games) {
    if (g.state != "finished" && g.state != "void") return;  // something still to play
    last_round = std::max(last_round, g.game.round);
  }
  if (spec.format == TournamentFormat::kSwiss && last_round + 1 < spec.rounds) {
    std::vector<ScheduledGame> so_far;
    std::vector<GameOutcome> outcomes;
    for (const TournamentGameRow& g : t.games) {
      so_far.push_back(g.game);
      outcomes.push_back({g.game.entrants, g.places});
    }
    const std::vector<ScheduledGame> next =
        NextSwissRound(int(spec.entrants.size()), spec.seats, last_round + 1, spec.seed, so_far, outcomes);
    if (store_->AddRound(spec.id, last_round + 1, next).ok()) {
      ++stats->rounds;
      services::LogInfo("swiss round added", {{"tournament", spec.id}, {"round", std::to_string(last_round + 1)}});
    }
    return;
  }
  const std::string reason =
      voided ? "stopped early: the sequential test decided every pair (" + std::to_string(voided) + " games void)" : "";
  if (store_->SetState(spec.id, "finished", reason).ok()) {
    ++stats->tournaments_finished;
    services::LogInfo("tournament finished", {{"tournament", spec.id}, {"games", std::to_string(t.games.size())}});
  }
}

void TournamentRunner::AdvanceArena(Loaded& t, std::unordered_map<int64_t, int>& free, int64_t db_now_ms,
                                    int64_t now_ms, RunnerStats* stats) {
  const TournamentSpec& spec = t.row.spec;
  if (db_now_ms == 0) return;  // the database's clock unknown this pass: neither pair nor end
  // A pairing this pass could not start (Start ran first: an entrant's stream
  // went away, or is busy in another tournament) is void: its table-mates are
  // paired again rather than held for an entrant who may not come back.
  if (std::any_of(t.games.begin(), t.games.end(), [](const TournamentGameRow& g) { return g.state == "pending"; })) {
    int voided = 0;
    if (!store_->VoidUnstarted(spec.id, &voided).ok()) return;
    for (TournamentGameRow& g : t.games)
      if (g.state == "pending") g.state = "void";
  }
  const int entrants = int(spec.entrants.size());
  std::vector<ArenaEntrant> all(static_cast<size_t>(entrants));
  std::vector<int> live(size_t(entrants), 0);
  std::vector<GameOutcome> outcomes;
  int next_round = 0;
  bool playing = false;
  for (const TournamentGameRow& g : t.games) {
    next_round = std::max(next_round, g.game.round + 1);
    if (g.state == "void") continue;
    playing = playing || g.state == "starting" || g.state == "playing";
    if (g.state == "finished") outcomes.push_back({g.game.entrants, g.places});
    for (size_t s = 0; s < g.game.entrants.size(); ++s) {
      ArenaEntrant& a = all[size_t(g.game.entrants[s])];
      ++a.games;
      if (a.seats.size() <= s) a.seats.resize(size_t(spec.seats), 0);
      ++a.seats[s];
      if (g.state != "finished") ++live[size_t(g.game.entrants[s])];
    }
  }
  // Paired by the mean scores the standings show (TournamentToProto); 0.5
  // before an entrant's first finished game.
  for (const Standing& st : Standings(entrants, outcomes))
    if (st.games > 0) all[size_t(st.entrant)].score = st.score;
  std::unordered_map<int64_t, int64_t>& waiting = arena_waiting_[spec.id];
  if (db_now_ms >= spec.starts_ms + spec.arena_ms) {
    // Time is up: no more pairings; the arena ends once the games under way
    // have (what was paired and never started is void, above).
    arena_waiting_.erase(spec.id);
    if (playing) return;
    if (store_->SetState(spec.id, "finished", "").ok()) {
      ++stats->tournaments_finished;
      services::LogInfo("arena finished", {{"tournament", spec.id}, {"games", std::to_string(t.games.size())}});
    }
    return;
  }
  if (int(t.games.size()) >= kMaxScheduledGames) return;
  // Free: available on a Compete stream with room after this pass's starts,
  // and below the tournament's games at once.
  std::vector<ArenaEntrant> ready;
  int64_t longest_wait = 0;
  for (int e = 0; e < entrants; ++e) {
    const int64_t identity = spec.entrants[size_t(e)];
    const auto room = free.find(identity);
    if (room == free.end() || room->second <= 0 || live[size_t(e)] >= spec.max_games_per_entrant) {
      waiting.erase(identity);
      continue;
    }
    ArenaEntrant a = all[size_t(e)];
    a.entrant = e;
    ready.push_back(std::move(a));
    longest_wait = std::max(longest_wait, now_ms - waiting.try_emplace(identity, now_ms).first->second);
  }
  // Pairing the moment a table frees up would seat the same table again and
  // again: the field waits, briefly, for more of itself (or for the whole of a
  // small one) so that tables mix.
  const int enough = std::min(entrants, 2 * spec.seats);
  if (int(ready.size()) < enough && longest_wait < options_.arena_wait_ms) return;
  const std::vector<ScheduledGame> pairing =
      ArenaPairing(std::move(ready), spec.seats, next_round, int(t.games.size()), spec.seed);
  if (pairing.empty()) return;
  if (store_->AddRound(spec.id, next_round, pairing).ok()) {
    ++stats->rounds;
    for (const ScheduledGame& g : pairing)
      for (int e : g.entrants) {
        --free[spec.entrants[size_t(e)]];  // not paired twice in one pass, here or in another tournament
        waiting.erase(spec.entrants[size_t(e)]);
      }
    services::LogInfo(
        "arena pairing",
        {{"tournament", spec.id}, {"round", std::to_string(next_round)}, {"tables", std::to_string(pairing.size())}});
  }
}

}  // namespace metropolis::matchmaker
