#include "services/matchmaker/tournaments/service.h"

#include <chrono>
#include <thread>

#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/secret.h"
#include "lib/storage/redis_status.h"
#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/tournaments/evidence.h"

namespace metropolis::matchmaker {
namespace {

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }

// Every seed of a tournament derives from its own, so the seeds (the
// tournament's and its games') stay with the administrators until the games are
// over: while it registers and runs.
bool SeedsHidden(const auth::Principal& who, const std::string& state) {
  return !who.admin && (state == "registering" || state == "running");
}

// The tournament as `who` may see it: without its seed while that is hidden.
void HideSeed(const auth::Principal& who, v1::Tournament* t) {
  if (SeedsHidden(who, t->state())) t->clear_seed();
}

}  // namespace

grpc::Status SpecFromRequest(const v1::CreateTournamentRequest& request, int64_t now_ms, TournamentSpec* out) {
  TournamentSpec spec;
  spec.id = request.id();
  spec.title = request.title();
  if (!ParseTournamentFormat(request.format(), &spec.format))
    return Invalid("format: " + services::Quoted(request.format()) + " is not round-robin, swiss, duplicate or arena");
  if (!request.ruleset().empty()) spec.ruleset = request.ruleset();
  spec.options = request.options();
  spec.seats = request.seats() ? int(request.seats()) : 4;
  spec.rounds = request.rounds() ? int(std::min<uint32_t>(request.rounds(), 100'000))
                                 : (spec.format == TournamentFormat::kSwiss ? 3 : 1);
  spec.seed = request.seed() ? request.seed() : DrawTournamentSeed();
  spec.max_games_per_entrant =
      request.max_games_per_entrant() ? int(std::min<uint32_t>(request.max_games_per_entrant(), 1000)) : 1;
  if (request.decision_ms()) spec.decision_ms = request.decision_ms();
  if (request.time_bank_ms()) spec.time_bank_ms = request.time_bank_ms();
  spec.entrants.assign(request.entrants().begin(), request.entrants().end());
  if (request.starts_unix_ms() < 0) return Invalid("starts_unix_ms: negative");
  if (request.repeat_every_ms() < 0) return Invalid("repeat_every_ms: negative");
  spec.starts_ms = request.starts_unix_ms();
  if (request.arena_ms() < 0) return Invalid("arena_ms: negative");
  spec.arena_ms = request.arena_ms();
  spec.sequential_stop = request.sequential_stop();
  if (spec.format == TournamentFormat::kArena && request.rounds() > 1)
    return Invalid("rounds: an arena has no rounds to set (it pairs for arena_ms)");
  spec.repeat_every_ms = request.repeat_every_ms();
  spec.max_entrants = request.max_entrants() ? int(std::min<uint32_t>(request.max_entrants(), 100'000))
                                             : std::max(kDefaultMaxEntrants, int(spec.entrants.size()));
  if (!spec.registration()) {
    if (request.max_entrants())
      return Invalid("max_entrants: only a tournament that takes registrations (starts_unix_ms) has a maximum");
    spec.max_entrants = int(spec.entrants.size());
  }
  if (grpc::Status s = CheckTournamentSpec(spec, now_ms); !s.ok()) return s;
  RulesOptions options;
  std::string error;
  if (!ParseLadderOptions(spec.ruleset, spec.options, &options, &error)) return Invalid(error);
  *out = std::move(spec);
  return grpc::Status::OK;
}

// Pairs are listed up to kMaxEntrantsCompared entrants (C(64, 2) = 2,016 pairs).
void TournamentToProto(const TournamentRow& row, const std::vector<TournamentGameRow>& games, v1::Tournament* out) {
  const TournamentSpec& spec = row.spec;
  out->set_id(spec.id);
  out->set_title(spec.title);
  out->set_format(TournamentFormatName(spec.format));
  out->set_ruleset(spec.ruleset);
  out->set_options(spec.options);
  out->set_seats(uint32_t(spec.seats));
  out->set_rounds(uint32_t(spec.rounds));
  out->set_seed(spec.seed);
  out->set_max_games_per_entrant(uint32_t(spec.max_games_per_entrant));
  out->set_decision_ms(spec.decision_ms);
  out->set_time_bank_ms(spec.time_bank_ms);
  out->set_starts_unix_ms(spec.starts_ms);
  out->set_max_entrants(uint32_t(spec.max_entrants));
  out->set_repeat_every_ms(spec.repeat_every_ms);
  out->set_series(spec.series.empty() && spec.repeat_every_ms > 0 ? spec.id : spec.series);
  out->set_occurrence(uint32_t(spec.occurrence));
  out->set_reason(row.reason);
  out->set_arena_ms(spec.arena_ms);
  out->set_sequential_stop(spec.sequential_stop);
  out->set_state(row.state);
  out->set_created_unix_ms(row.created_ms);
  out->set_finished_unix_ms(row.finished_ms);
  for (size_t e = 0; e < spec.entrants.size(); ++e) {
    v1::TournamentEntrant* entrant = out->add_entrants();
    entrant->set_index(uint32_t(e));
    entrant->set_identity_id(spec.entrants[e]);
    if (e < row.names.size()) entrant->set_name(row.names[e]);
  }
  std::vector<GameOutcome> outcomes;
  uint32_t playing = 0, round = 0, voided = 0;
  const bool duplicate = spec.format == TournamentFormat::kDuplicate;
  for (const TournamentGameRow& g : games) {
    round = std::max(round, uint32_t(g.game.round));
    if (g.state == "playing" || g.state == "starting") ++playing;
    if (g.state == "void") ++voided;
    if (g.state != "finished") continue;
    outcomes.push_back({g.game.entrants, g.places});
  }
  out->set_games_total(uint32_t(games.size()) - voided);
  out->set_games_void(voided);
  out->set_games_playing(playing);
  out->set_games_finished(uint32_t(outcomes.size()));
  out->set_current_round(round);
  const int entrants = int(spec.entrants.size());
  // Once, for both the standings and the pairs.
  const std::vector<SetScoreList> set_scores = TournamentSetScores(spec, games);
  std::vector<Standing> standings = Standings(entrants, outcomes);
  if (duplicate) UseSetScores(SetStandings(entrants, set_scores), &standings);
  auto name_of = [&](int e) { return size_t(e) < row.names.size() ? row.names[size_t(e)] : std::string(); };
  for (const Standing& s : standings) {
    v1::Standing* st = out->add_standings();
    st->set_rank(uint32_t(s.rank));
    st->set_identity_id(spec.entrants[size_t(s.entrant)]);
    st->set_name(name_of(s.entrant));
    st->set_games(uint32_t(s.games));
    st->set_wins(uint32_t(s.wins));
    st->set_score(s.score);
    st->set_ci_low(s.ci_low);
    st->set_ci_high(s.ci_high);
    st->set_sets(uint32_t(s.sets));
  }
  if (entrants > kMaxEntrantsCompared) return;
  for (const PairComparison& c : PairComparisons(entrants, set_scores)) {
    v1::PairComparison* p = out->add_pairs();
    p->set_a_identity_id(spec.entrants[size_t(c.a)]);
    p->set_a_name(name_of(c.a));
    p->set_b_identity_id(spec.entrants[size_t(c.b)]);
    p->set_b_name(name_of(c.b));
    p->set_shared(uint32_t(c.difference.n));
    p->set_difference(c.difference.mean);
    p->set_ci_low(c.difference.ci_low);
    p->set_ci_high(c.difference.ci_high);
    p->set_better(c.better);
    const PairTest test = SequentialPairTest(c.differences, SprtOptions{});
    // H1 for b: the test stopped for the entrant now behind (a later reversal).
    p->set_sprt(test.direction < 0 ? "H1_B" : SprtVerdictName(test.verdict));
    p->set_sprt_llr(test.llr);
    p->set_sprt_sets(uint32_t(test.sets));
  }
}

TournamentsService::TournamentsService(TournamentStore* store, EntrantDirectory* entrants, RosterStore* roster,
                                       auth::Authenticator* auth, const services::Clock* clock, CompeteOptions options)
    : store_(store), entrants_(entrants), roster_(roster), auth_(auth), clock_(clock), options_(options) {}

grpc::Status TournamentsService::Describe(const std::string& id, v1::Tournament* out) {
  TournamentRow row;
  std::vector<TournamentGameRow> games;
  if (grpc::Status s = store_->Get(id, &row); !s.ok()) return s;
  if (grpc::Status s = store_->Games(id, &games); !s.ok()) return s;
  if (grpc::Status s = FillNames(entrants_, {&row}); !s.ok()) return s;
  TournamentToProto(row, games, out);
  return grpc::Status::OK;
}

grpc::Status TournamentsService::CreateTournament(grpc::ServerContext* context,
                                                  const v1::CreateTournamentRequest* request,
                                                  v1::Tournament* response) {
  auth::Principal who;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &who); !s.ok()) return s;
  if (!who.admin) return {grpc::StatusCode::PERMISSION_DENIED, "creating a tournament needs an administrator's token"};
  TournamentSpec spec;
  if (grpc::Status s = SpecFromRequest(*request, clock_->UnixMillis(), &spec); !s.ok()) return s;
  std::vector<ScheduledGame> games;
  if (!spec.registration()) {
    // Counted before it is built: the largest schedules would not fit in
    // memory. A registering tournament's largest was checked with the spec.
    const int64_t size = ScheduleSize(spec.format, int(spec.entrants.size()), spec.seats, spec.rounds);
    if (size > kMaxScheduledGames)
      return Invalid("the schedule would have " + (size == INT64_MAX ? std::string("too many") : std::to_string(size)) +
                     " games, more than " + std::to_string(kMaxScheduledGames) +
                     ": fewer entrants or rounds, or a Swiss tournament");
    games = InitialSchedule(spec.format, int(spec.entrants.size()), spec.seats, spec.rounds, spec.seed);
  }
  if (grpc::Status s = CheckEntrants(entrants_, spec); !s.ok()) return s;
  if (grpc::Status s = store_->Create(spec, games); !s.ok()) return s;
  services::LogInfo("tournament created", {{"tournament", spec.id},
                                           {"format", TournamentFormatName(spec.format)},
                                           {"entrants", std::to_string(spec.entrants.size())},
                                           {"games", std::to_string(games.size())},
                                           {"starts_unix_ms", std::to_string(spec.starts_ms)}});
  return Describe(spec.id, response);
}

grpc::Status TournamentsService::Register(grpc::ServerContext* context, const std::string& id, int64_t identity_id,
                                          bool join, v1::Tournament* response) {
  auth::Principal who;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &who); !s.ok()) return s;
  if (id.empty()) return Invalid("id is empty");
  if (identity_id < 0) return Invalid("identity_id: not an identity id");
  const int64_t entrant = identity_id ? identity_id : who.identity_id;
  if (entrant == 0) {
    if (!who.admin) return {grpc::StatusCode::PERMISSION_DENIED, "entering needs a bot's or a player's API token"};
    return Invalid("identity_id: an administrator's token enters another identity, named by identity_id");
  }
  // A bot or a player enters itself; only administrators enter others (a
  // person entering their own bots comes with self-service bots).
  if (entrant != who.identity_id && !who.admin)
    return {grpc::StatusCode::PERMISSION_DENIED, "entering another identity needs an administrator's token"};
  if (join) {
    TournamentSpec one;
    one.entrants = {entrant};
    if (grpc::Status s = CheckEntrants(entrants_, one); !s.ok()) return s;
    bool joined = false;
    if (grpc::Status s = store_->Join(id, entrant, &joined); !s.ok()) return s;
    if (joined) services::LogInfo("tournament entry", {{"tournament", id}, {"identity", std::to_string(entrant)}});
  } else {
    if (grpc::Status s = store_->Leave(id, entrant); !s.ok()) return s;
    services::LogInfo("tournament withdrawal", {{"tournament", id}, {"identity", std::to_string(entrant)}});
  }
  grpc::Status s = Describe(id, response);
  if (s.ok()) HideSeed(who, response);
  return s;
}

grpc::Status TournamentsService::JoinTournament(grpc::ServerContext* context, const v1::JoinTournamentRequest* request,
                                                v1::Tournament* response) {
  return Register(context, request->id(), request->identity_id(), true, response);
}

grpc::Status TournamentsService::LeaveTournament(grpc::ServerContext* context,
                                                 const v1::LeaveTournamentRequest* request, v1::Tournament* response) {
  return Register(context, request->id(), request->identity_id(), false, response);
}

grpc::Status TournamentsService::GetTournament(grpc::ServerContext* context, const v1::GetTournamentRequest* request,
                                               v1::Tournament* response) {
  auth::Principal who;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &who); !s.ok()) return s;
  if (request->id().empty()) return Invalid("id is empty");
  grpc::Status s = Describe(request->id(), response);
  if (s.ok()) HideSeed(who, response);
  return s;
}

grpc::Status TournamentsService::ListTournaments(grpc::ServerContext* context, const v1::ListTournamentsRequest*,
                                                 v1::ListTournamentsResponse* response) {
  auth::Principal who;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &who); !s.ok()) return s;
  std::vector<TournamentRow> rows;
  if (grpc::Status s = store_->List(&rows); !s.ok()) return s;
  std::vector<TournamentRow*> named;
  for (TournamentRow& row : rows) named.push_back(&row);
  if (grpc::Status s = FillNames(entrants_, named); !s.ok()) return s;
  for (const TournamentRow& row : rows) {
    v1::Tournament* t = response->add_tournaments();
    TournamentToProto(row, {}, t);
    HideSeed(who, t);
  }
  return grpc::Status::OK;
}

grpc::Status TournamentsService::ListTournamentGames(grpc::ServerContext* context,
                                                     const v1::ListTournamentGamesRequest* request,
                                                     v1::ListTournamentGamesResponse* response) {
  auth::Principal who;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &who); !s.ok()) return s;
  TournamentRow row;
  if (grpc::Status s = store_->Get(request->id(), &row); !s.ok()) return s;
  std::vector<TournamentGameRow> games;
  if (grpc::Status s = store_->Games(request->id(), &games); !s.ok()) return s;
  for (const TournamentGameRow& g : games) {
    v1::TournamentGame* out = response->add_games();
    out->set_number(uint32_t(g.number));
    out->set_round(uint32_t(g.game.round));
    out->set_set(g.game.set);
    out->set_rotation(uint32_t(g.game.rotation));
    for (int e : g.game.entrants) out->add_entrants(row.spec.entrants[size_t(e)]);
    // Every seed derives from the tournament's through a bijection, so one
    // seed shown while the tournament runs would tell every board and dice
    // still to come: only administrators see them before the end.
    if (!SeedsHidden(who, row.state)) {
      out->set_chance_seed(g.game.chance_seed);
      out->set_board_seed(g.game.board_seed);
    }
    out->set_state(g.state);
    out->set_game_id(g.game_id);
    for (int p : g.places) out->add_places(uint32_t(p));
    out->set_attempts(uint32_t(g.attempts));
  }
  return grpc::Status::OK;
}

grpc::Status TournamentsService::CancelTournament(grpc::ServerContext* context,
                                                  const v1::CancelTournamentRequest* request,
                                                  v1::Tournament* response) {
  auth::Principal who;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &who); !s.ok()) return s;
  if (!who.admin)
    return {grpc::StatusCode::PERMISSION_DENIED, "cancelling a tournament needs an administrator's token"};
  if (grpc::Status s = store_->SetState(request->id(), "cancelled", "cancelled by an administrator"); !s.ok()) return s;
  services::LogInfo("tournament cancelled", {{"tournament", request->id()}});
  return Describe(request->id(), response);
}

grpc::Status TournamentsService::Compete(grpc::ServerContext* context, const v1::CompeteRequest* request,
                                         grpc::ServerWriter<v1::CompeteUpdate>* writer) {
  auth::Principal who;
  if (grpc::Status s = auth_->Authenticate(services::BearerToken(*context), &who); !s.ok()) return s;
  if (who.identity_id == 0)
    return {grpc::StatusCode::PERMISSION_DENIED, "competing needs a bot's or a player's API token"};
  if (request->capacity() > uint32_t(options_.max_capacity))
    return Invalid("capacity: at most " + std::to_string(options_.max_capacity) + " games at once");
  const int capacity = request->capacity() ? int(request->capacity()) : 1;
  const std::string connection = services::RandomSecretHex(8);
  services::LogInfo("competing", {{"identity", std::to_string(who.identity_id)},
                                  {"capacity", std::to_string(capacity)},
                                  {"connection", connection}});
  bool status_due = true;
  int64_t last_status = 0;
  grpc::Status result = grpc::Status::OK;
  while (result.ok() && !context->IsCancelled()) {
    const int64_t now = clock_->UnixMillis();
    if (result = roster_->Heartbeat(who.identity_id, connection, capacity, now + options_.heartbeat_ttl_ms);
        !result.ok())
      break;
    v1::CompeteUpdate update;
    if (status_due || now - last_status >= options_.status_every_ms) {
      status_due = false;
      update.mutable_status()->set_identity_id(who.identity_id);
      update.mutable_status()->set_capacity(uint32_t(capacity));
      if (!writer->Write(update)) break;
      last_status = now;
    }
    std::string bytes;
    bool open = true, found = false;
    while (open) {
      if (result = roster_->Receive(who.identity_id, connection, &bytes, &found); !result.ok() || !found) break;
      update.Clear();
      if (!update.mutable_assignment()->ParseFromString(bytes)) continue;
      if (!writer->Write(update)) {
        // The stream broke after the game was taken from an inbox: put it in
        // the identity's, for another stream of the identity (the rest of this
        // connection's own inbox follows at Leave).
        result = roster_->Send(who.identity_id, bytes);
        open = false;
      } else {
        services::LogInfo("tournament seat sent", {{"identity", std::to_string(who.identity_id)},
                                                   {"game", update.assignment().game_id()},
                                                   {"connection", connection}});
      }
    }
    if (!open || !result.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(options_.poll_ms));
  }
  // A failed Leave changes nothing: the connection's heartbeat lapses by itself,
  // and its inbox is handed on then.
  roster_->Leave(who.identity_id, connection);
  return result;
}

}  // namespace metropolis::matchmaker
