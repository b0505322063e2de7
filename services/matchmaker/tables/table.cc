#include "services/matchmaker/tables/table.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>

#include "services/matchmaker/matchmaker.h"

namespace metropolis::matchmaker::tables {
namespace {

using Json = nlohmann::json;

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }
grpc::Status Precondition(const std::string& message) { return {grpc::StatusCode::FAILED_PRECONDITION, message}; }

bool IsMember(const FriendsTable& t, int64_t identity_id) {
  return std::any_of(t.members.begin(), t.members.end(), [&](const Member& m) { return m.identity_id == identity_id; });
}

// Every seat, members and the bot's, in an order drawn from the seed. Our own
// Fisher-Yates over a 64-bit Mersenne Twister: the same seed seats the same way
// on every replica and every standard library.
std::vector<int64_t> Seating(const FriendsTable& t, uint64_t seed) {
  std::vector<int64_t> seats(size_t(t.settings.seats), 0);
  for (size_t i = 0; i < t.members.size(); ++i) seats[i] = t.members[i].identity_id;
  std::mt19937_64 rng(seed);
  for (size_t i = seats.size() - 1; i > 0; --i) std::swap(seats[i], seats[rng() % (i + 1)]);
  return seats;
}

void Seat(FriendsTable* t, uint64_t seed, int64_t now_ms) {
  t->state = TableState::kStarting;
  t->seed = seed;
  t->seating = Seating(*t, seed);
  t->starting_since_ms = now_ms;
  t->game_id.clear();
  t->host.clear();
}

}  // namespace

const char* StateName(TableState state) {
  switch (state) {
    case TableState::kOpen:
      return "open";
    case TableState::kStarting:
      return "starting";
    case TableState::kPlaying:
      return "playing";
  }
  return "?";
}

grpc::Status CheckSettings(const TableSettings& s) {
  RulesOptions options;
  std::string error;
  if (!ParseLadderOptions(s.ruleset, s.options, &options, &error)) return Invalid("settings: " + error);
  if (s.seats < kMinSeats || s.seats > kMaxSeats)
    return Invalid("settings.seats: " + std::to_string(s.seats) + " is not 3 or 4");
  if (s.bot != "random" && s.bot != "heuristic" && s.bot != "search")
    return Invalid("settings.bot: '" + s.bot + "' is not random, heuristic or search");
  if (s.decision_ms < kMinDecisionMs || s.decision_ms > kMaxDecisionMs)
    return Invalid("settings.decision_ms: " + std::to_string(s.decision_ms) + " is not between 5000 and 600000");
  if (s.time_bank_ms > kMaxTimeBankMs)
    return Invalid("settings.time_bank_ms: " + std::to_string(s.time_bank_ms) + " is more than an hour");
  // Whole minutes: the gateway holds each delay in use in a delay line (and a
  // thread) of its own, so the delays a table may choose are few.
  if (s.spectator_delay_ms > kMaxTimeBankMs || s.spectator_delay_ms % 60'000 != 0)
    return Invalid("settings.spectator_delay_ms: " + std::to_string(s.spectator_delay_ms) +
                   " is not a whole number of minutes up to an hour");
  return grpc::Status::OK;
}

FriendsTable NewTable(std::string id, const Member& creator, TableSettings settings) {
  FriendsTable t;
  t.id = std::move(id);
  t.creator = creator.identity_id;
  t.settings = std::move(settings);
  t.members.push_back(creator);
  return t;
}

grpc::Status Join(FriendsTable* t, const Member& member, bool* changed) {
  *changed = false;
  if (IsMember(*t, member.identity_id)) return grpc::Status::OK;
  if (t->state != TableState::kOpen) return Precondition("table " + t->id + " has started: nobody joins it now");
  if (int(t->members.size()) >= t->settings.seats) {
    return {grpc::StatusCode::RESOURCE_EXHAUSTED, "table " + t->id + " is full (" + std::to_string(t->settings.seats) +
                                                      " of " + std::to_string(t->settings.seats) + " seats taken)"};
  }
  t->members.push_back(member);
  *changed = true;
  return grpc::Status::OK;
}

grpc::Status Leave(FriendsTable* t, int64_t identity_id, bool* changed) {
  *changed = false;
  if (!IsMember(*t, identity_id)) return grpc::Status::OK;
  if (identity_id == t->creator)
    return Precondition("the creator cannot leave table " + t->id + ": it goes away two hours after its last change");
  if (t->state != TableState::kOpen) return Precondition("table " + t->id + " has started: its seats are taken");
  std::erase_if(t->members, [&](const Member& m) { return m.identity_id == identity_id; });
  *changed = true;
  return grpc::Status::OK;
}

grpc::Status BeginStart(FriendsTable* t, int64_t by, uint64_t seed, int64_t now_ms) {
  if (t->state == TableState::kStarting && now_ms - t->starting_since_ms >= kStartTimeoutMs && IsMember(*t, by)) {
    t->starting_since_ms = now_ms;  // a stalled start, taken over as it was seated
    return grpc::Status::OK;
  }
  if (t->state != TableState::kOpen)
    return Precondition("table " + t->id + " is " + StateName(t->state) + ": it starts once");
  if (by != t->creator) return {grpc::StatusCode::PERMISSION_DENIED, "only the table's creator starts it"};
  Seat(t, seed, now_ms);
  t->round = 1;
  return grpc::Status::OK;
}

grpc::Status BeginRematch(FriendsTable* t, int64_t by, uint32_t round, uint64_t seed, int64_t now_ms) {
  if (!IsMember(*t, by)) return {grpc::StatusCode::PERMISSION_DENIED, "only the table's players ask for a rematch"};
  if (t->state != TableState::kPlaying || t->round != round) {
    return Precondition("table " + t->id + " is " + StateName(t->state) + " in round " + std::to_string(t->round) +
                        ": no rematch of round " + std::to_string(round));
  }
  Seat(t, seed, now_ms);
  ++t->round;
  return grpc::Status::OK;
}

grpc::Status ChooseHost(FriendsTable* t, uint32_t round, const std::string& host, const std::string& replacing,
                        bool* changed) {
  *changed = false;
  if (t->state != TableState::kStarting || t->round != round) {
    return Precondition("table " + t->id + " is " + StateName(t->state) + " in round " + std::to_string(t->round) +
                        ": round " + std::to_string(round) + " is not being started");
  }
  if (!t->host.empty() && t->host != replacing) return grpc::Status::OK;
  t->host = host;
  *changed = true;
  return grpc::Status::OK;
}

grpc::Status MarkStarted(FriendsTable* t, uint32_t round, const std::string& game_id, const std::string& host) {
  if (t->state != TableState::kStarting || t->round != round) {
    return Precondition("table " + t->id + " is " + StateName(t->state) + " in round " + std::to_string(t->round) +
                        ": round " + std::to_string(round) + " is not being started");
  }
  t->state = TableState::kPlaying;
  t->game_id = game_id;
  t->host = host;
  return grpc::Status::OK;
}

std::string Encode(const FriendsTable& t) {
  Json members = Json::array();
  for (const Member& m : t.members) members.push_back({{"id", m.identity_id}, {"name", m.name}});
  const TableSettings& s = t.settings;
  return Json{{"id", t.id},
              {"creator", t.creator},
              {"settings",
               {{"ruleset", s.ruleset},
                {"options", s.options},
                {"seats", s.seats},
                {"bot", s.bot},
                {"decision_ms", s.decision_ms},
                {"time_bank_ms", s.time_bank_ms},
                {"ladder", s.ladder},
                {"spectator_delay_ms", s.spectator_delay_ms}}},
              {"members", members},
              {"state", StateName(t.state)},
              {"round", t.round},
              // A string: JSON numbers lose 64-bit integers in many readers.
              {"seed", std::to_string(t.seed)},
              {"seating", t.seating},
              {"starting_since_ms", t.starting_since_ms},
              {"game_id", t.game_id},
              {"host", t.host}}
      .dump();
}

grpc::Status Decode(const std::string& text, FriendsTable* out) {
  try {
    const Json j = Json::parse(text);
    FriendsTable t;
    t.id = j.at("id").get<std::string>();
    t.creator = j.at("creator").get<int64_t>();
    const Json& s = j.at("settings");
    t.settings.ruleset = s.at("ruleset").get<std::string>();
    t.settings.options = s.at("options").get<std::string>();
    t.settings.seats = s.at("seats").get<int>();
    t.settings.bot = s.at("bot").get<std::string>();
    t.settings.decision_ms = s.at("decision_ms").get<uint32_t>();
    t.settings.time_bank_ms = s.at("time_bank_ms").get<uint32_t>();
    t.settings.ladder = s.at("ladder").get<std::string>();
    t.settings.spectator_delay_ms = s.at("spectator_delay_ms").get<uint32_t>();
    for (const Json& m : j.at("members"))
      t.members.push_back({m.at("id").get<int64_t>(), m.at("name").get<std::string>()});
    const std::string state = j.at("state").get<std::string>();
    if (state == "open") {
      t.state = TableState::kOpen;
    } else if (state == "starting") {
      t.state = TableState::kStarting;
    } else if (state == "playing") {
      t.state = TableState::kPlaying;
    } else {
      return Invalid("table state '" + state + "' is unknown");
    }
    t.round = j.at("round").get<uint32_t>();
    t.seed = std::stoull(j.at("seed").get<std::string>());
    t.seating = j.at("seating").get<std::vector<int64_t>>();
    t.starting_since_ms = j.at("starting_since_ms").get<int64_t>();
    t.game_id = j.at("game_id").get<std::string>();
    t.host = j.at("host").get<std::string>();
    *out = std::move(t);
    return grpc::Status::OK;
  } catch (const std::exception& e) {
    return Invalid(std::string("not a table: ") + e.what());
  }
}

}  // namespace metropolis::matchmaker::tables
