#include "services/matchmaker/tables/table_api.h"

#include <algorithm>

#include "lib/common/log.h"
#include "lib/protocol/convert.h"

namespace metropolis::matchmaker::tables {
namespace {

grpc::Status Precondition(const std::string& message) { return {grpc::StatusCode::FAILED_PRECONDITION, message}; }

// A host that could not be reached, so created nothing. (A deadline is not
// that: a slow host may have created the game, and a second host must not.)
bool Unreachable(const grpc::Status& s) { return s.error_code() == grpc::StatusCode::UNAVAILABLE; }

const Member* FindMember(const FriendsTable& t, int64_t identity_id) {
  for (const Member& m : t.members)
    if (m.identity_id == identity_id) return &m;
  return nullptr;
}

int SeatOf(const FriendsTable& t, int64_t identity_id) {
  const auto it = std::find(t.seating.begin(), t.seating.end(), identity_id);
  return it == t.seating.end() ? -1 : int(it - t.seating.begin());
}

void SettingsToProto(const TableSettings& in, v1::TableSettings* out) {
  out->set_ruleset(in.ruleset);
  out->set_options(in.options);
  out->set_seats(uint32_t(in.seats));
  out->set_bot(in.bot);
  out->set_decision_ms(in.decision_ms);
  out->set_time_bank_ms(in.time_bank_ms);
  out->set_ladder(in.ladder);
  out->set_spectator_delay_ms(in.spectator_delay_ms);
}

}  // namespace

TableSettings SettingsFromProto(const v1::TableSettings& in) {
  TableSettings s;
  if (!in.ruleset().empty()) s.ruleset = in.ruleset();
  s.options = in.options();
  if (in.seats() != 0) s.seats = int(std::min<uint32_t>(in.seats(), 1000));
  if (!in.bot().empty()) s.bot = in.bot();
  if (in.decision_ms() != 0) s.decision_ms = in.decision_ms();
  s.time_bank_ms = in.time_bank_ms();
  s.ladder = in.ladder();
  s.spectator_delay_ms = in.spectator_delay_ms();
  return s;
}

TableApi::TableApi(Tables* tables, HostRegistry* hosts, GameCreator* games, FindLadder find_ladder, Clock clock,
                   TableApiOptions options)
    : tables_(tables),
      hosts_(hosts),
      games_(games),
      find_ladder_(std::move(find_ladder)),
      clock_(std::move(clock)),
      options_(std::move(options)) {}

std::string TableApi::GameId(const FriendsTable& table) {
  return "table-" + table.id + "-" + std::to_string(table.round);
}

v1::CreateGameRequest TableApi::GameFor(const FriendsTable& t, const LadderConfig* ladder) const {
  v1::CreateGameRequest request;
  GameConfig config;
  config.num_seats = t.settings.seats;
  if (ladder) {
    config.options = ladder->options;
  } else {
    std::string ignored;  // checked when the table was made
    ParseLadderOptions(t.settings.ruleset, t.settings.options, &config.options, &ignored);
  }
  protocol::ConfigToProto(config, request.mutable_config());
  // A board of its own every round, drawn by the host from the game's secret
  // chance seed (balanced: no 6 or 8 side by side): nobody, the table's
  // creator and this service included, knows it before the game exists.
  request.mutable_config()->clear_board();
  request.mutable_config()->clear_random_board_seed();
  request.set_board_from_chance(true);
  for (int64_t identity : t.seating) {
    v1::SeatSpec* seat = request.add_seats();
    seat->set_fallback_bot(t.settings.bot);
    if (identity == 0) {
      seat->set_name(options_.bot_prefix + t.settings.bot);
      seat->set_built_in(true);
    } else {
      const Member* member = FindMember(t, identity);
      seat->set_name(member ? member->name : std::to_string(identity));
      seat->set_identity_id(identity);
    }
  }
  request.mutable_deadlines()->set_decision_ms(t.settings.decision_ms);
  request.mutable_deadlines()->set_time_bank_ms(t.settings.time_bank_ms);
  request.set_game_id(GameId(t));
  request.set_ladder(ladder ? ladder->id : kUnratedLabel);
  request.set_season(ladder ? uint32_t(ladder->season) : 0);
  return request;
}

grpc::Status TableApi::Create(const Member& who, const v1::TableSettings& asked, v1::FriendsTable* out) {
  const TableSettings settings = SettingsFromProto(asked);
  if (!settings.ladder.empty()) {
    const auto& allowed = options_.rated_ladders;
    if (std::find(allowed.begin(), allowed.end(), settings.ladder) == allowed.end())
      return Precondition("settings.ladder: ladder '" + settings.ladder +
                          "' does not rate friends' tables (this matchmaker's --table-ladders)");
    LadderConfig ladder;
    if (!find_ladder_(settings.ladder, &ladder))
      return {grpc::StatusCode::NOT_FOUND, "settings.ladder: ladder '" + settings.ladder + "' does not exist"};
    if (ladder.rules.seats != settings.seats)
      return {grpc::StatusCode::INVALID_ARGUMENT, "settings.seats: ladder '" + ladder.id + "' is played by " +
                                                      std::to_string(ladder.rules.seats) + " seats, not " +
                                                      std::to_string(settings.seats)};
    RulesOptions rules;
    std::string ignored;  // CheckSettings below says what is wrong with them
    if (ParseLadderOptions(settings.ruleset, settings.options, &rules, &ignored) && !(rules == ladder.options))
      return {grpc::StatusCode::INVALID_ARGUMENT,
              "settings.ruleset: ladder '" + ladder.id + "' plays other rules; a table rated there plays the ladder's"};
    if (ladder.season == 0)
      return Precondition("settings.ladder: ladder '" + ladder.id + "' has no open season: nothing would be rated");
  }
  FriendsTable table;
  if (grpc::Status s = tables_->Create(who, settings, &table); !s.ok()) return s;
  services::LogInfo("table created", {{"table", table.id}, {"identity", std::to_string(who.identity_id)}});
  return Answer(table, out);
}

grpc::Status TableApi::Get(const Member& who, const std::string& id, bool claim_seat, v1::FriendsTable* out) {
  FriendsTable table;
  if (grpc::Status s = tables_->Get(id, &table); !s.ok()) return s;
  if (grpc::Status s = Answer(table, out); !s.ok()) return s;
  const int seat = SeatOf(table, who.identity_id);
  if (!claim_seat || table.state != TableState::kPlaying || who.identity_id == 0 || seat < 0) return grpc::Status::OK;
  // The host hands the seat out: a fresh token unless a stream plays it now.
  v1::SeatsOfRequest request;
  request.set_ladder(table.settings.ladder.empty() ? kUnratedLabel : table.settings.ladder);
  request.add_identity_ids(who.identity_id);
  v1::SeatsOfResponse held;
  v1::GameInfo game;
  grpc::Status looked_up;
  const std::string host = HostOf(table, &game, &looked_up);
  if (grpc::Status s = games_->SeatsOf(host, request, &held); !s.ok()) return s;
  out->set_host(host);
  for (const v1::HeldSeat& h : held.seats()) {
    if (h.game_id() != table.game_id) continue;
    v1::YourSeat* mine = out->mutable_your_seat();
    mine->set_seat(h.seat());
    mine->set_seat_token(h.seat_token());
    mine->set_connected(h.connected());
    mine->set_chance_commitment(h.chance_commitment());
  }
  return grpc::Status::OK;
}

grpc::Status TableApi::Join(const Member& who, const std::string& id, v1::FriendsTable* out) {
  FriendsTable table;
  if (grpc::Status s = tables_->Join(id, who, &table); !s.ok()) return s;
  return Answer(table, out);
}

grpc::Status TableApi::Leave(const Member& who, const std::string& id, v1::FriendsTable* out) {
  FriendsTable table;
  if (grpc::Status s = tables_->Leave(id, who.identity_id, &table); !s.ok()) return s;
  return Answer(table, out);
}

grpc::Status TableApi::Start(const Member& who, const std::string& id, v1::FriendsTable* out) {
  int64_t now = 0;
  if (grpc::Status s = clock_(&now); !s.ok()) return s;
  FriendsTable table;
  if (grpc::Status s = tables_->BeginStart(id, who.identity_id, now, &table); !s.ok()) return s;
  return FinishStart(std::move(table), out);
}

grpc::Status TableApi::Rematch(const Member& who, const std::string& id, uint32_t round, v1::FriendsTable* out) {
  FriendsTable table;
  if (grpc::Status s = tables_->Get(id, &table); !s.ok()) return s;
  if (table.round > round && FindMember(table, who.identity_id)) return Answer(table, out);  // asked by another
  // Only from the round's game as it is played, found over; the compare-and-swap
  // below then starts the next round only from that same table.
  if (table.state != TableState::kPlaying || table.round != round)
    return Precondition("table " + table.id + " is " + StateName(table.state) + " in round " +
                        std::to_string(table.round) + ": no rematch of round " + std::to_string(round));
  if (!GameOver(table))
    return Precondition("round " + std::to_string(round) + "'s game (" + table.game_id +
                        ") is not over: a rematch starts after it");
  int64_t now = 0;
  if (grpc::Status s = clock_(&now); !s.ok()) return s;
  grpc::Status begun = tables_->BeginRematch(id, who.identity_id, round, now, &table);
  if (begun.error_code() == grpc::StatusCode::FAILED_PRECONDITION && tables_->Get(id, &table).ok() &&
      table.round > round && FindMember(table, who.identity_id))
    return Answer(table, out);  // two players asked at once: one round starts, both are told
  if (!begun.ok()) return begun;
  return FinishStart(std::move(table), out);
}

grpc::Status TableApi::FinishStart(FriendsTable table, v1::FriendsTable* out) {
  const uint32_t round = table.round;
  std::string replacing;  // a recorded host that could not be reached
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!options_.reuse_recorded_host && replacing.empty()) replacing = table.host;
    if (table.host.empty() || !replacing.empty()) {
      int64_t now = 0;
      std::string host;
      bool picked = false;
      if (grpc::Status s = clock_(&now); !s.ok()) return s;
      if (grpc::Status s = hosts_->PickHost(now, options_.host_ttl_ms, 1, &host, &picked); !s.ok()) return s;
      if (!picked)
        return {grpc::StatusCode::UNAVAILABLE,
                "no game host has room for table " + table.id + "'s game: it stays starting; Start again in a minute"};
      if (grpc::Status s = tables_->ChooseHost(table.id, round, host, replacing, &table); !s.ok()) return s;
    }
    const grpc::Status created = CreateOn(table, table.host);
    if (created.ok() || created.error_code() == grpc::StatusCode::ALREADY_EXISTS) {
      // Created before (a stalled start): the game may run on another host by
      // now (taken over from its checkpoint); it is recorded where it runs.
      std::string host = table.host;
      v1::GameInfo info;
      if (created.error_code() == grpc::StatusCode::ALREADY_EXISTS &&
          games_->Lookup(table.host, GameId(table), &info).ok() && !info.host().empty())
        host = info.host();
      FriendsTable marked;
      grpc::Status s = tables_->MarkStarted(table.id, round, GameId(table), host, &marked);
      // Another replica finished this start first: its table is the answer.
      if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) s = tables_->Get(table.id, &marked);
      if (!s.ok()) return s;
      services::LogInfo("table game created", {{"table", table.id}, {"game", marked.game_id}, {"host", marked.host}});
      return Answer(marked, out);
    }
    if (!Unreachable(created)) return created;
    services::LogWarning("creating a table's game failed: trying another host",
                         {{"table", table.id}, {"host", table.host}, {"error", created.error_message()}});
    hosts_->MarkHostDown(table.host);
    replacing = table.host;
  }
  return {grpc::StatusCode::UNAVAILABLE,
          "no game host created table " + table.id + "'s game: it stays starting; Start again in a minute"};
}

grpc::Status TableApi::CreateOn(const FriendsTable& table, const std::string& host) {
  LadderConfig ladder;
  const bool rated = !table.settings.ladder.empty();
  if (rated && !find_ladder_(table.settings.ladder, &ladder))
    return Precondition("ladder '" + table.settings.ladder + "' of table " + table.id + " no longer exists");
  v1::CreateGameResponse response;
  return games_->Create(host, GameFor(table, rated ? &ladder : nullptr), &response);
}

std::string TableApi::HostOf(const FriendsTable& table, v1::GameInfo* game, grpc::Status* status) {
  *status = games_->Lookup(table.host, table.game_id, game);
  // Taken over by another host (from its checkpoint): the first host names it.
  if (status->ok() && !game->host().empty() && game->host() != table.host) {
    const std::string moved = game->host();
    *status = games_->Lookup(moved, table.game_id, game);
    return moved;
  }
  return table.host;
}

bool TableApi::GameOver(const FriendsTable& table) {
  if (table.state != TableState::kPlaying) return false;
  v1::GameInfo game;
  grpc::Status s;
  HostOf(table, &game, &s);
  // NOT_FOUND: no host has it any more (finished long ago, or lost with its host).
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) return true;
  return s.ok() && game.status() == v1::GAME_STATUS_FINISHED;
}

grpc::Status TableApi::Answer(const FriendsTable& t, v1::FriendsTable* out) {
  out->Clear();
  out->set_table_id(t.id);
  out->set_creator(t.creator);
  SettingsToProto(t.settings, out->mutable_settings());
  for (const Member& m : t.members) {
    v1::TablePerson* p = out->add_members();
    p->set_identity_id(m.identity_id);
    p->set_name(m.name);
  }
  out->set_state(StateName(t.state));
  out->set_round(t.round);
  for (size_t i = 0; i < t.seating.size(); ++i) {
    v1::TableSeat* seat = out->add_seating();
    seat->set_seat(uint32_t(i));
    seat->set_identity_id(t.seating[i]);
    const Member* member = t.seating[i] ? FindMember(t, t.seating[i]) : nullptr;
    seat->set_name(member ? member->name : options_.bot_prefix + t.settings.bot);
  }
  if (t.state == TableState::kPlaying) {
    out->set_game_id(t.game_id);
    out->set_host(t.host);
    out->set_game_over(GameOver(t));
  }
  return grpc::Status::OK;
}

}  // namespace metropolis::matchmaker::tables
