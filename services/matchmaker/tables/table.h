// A friends' table (issue: "players come back", friends' tables): a person sets
// the rules, the seats and the clocks, shares the table's link, friends join,
// the creator starts; after the game any member may ask for a rematch. This is
// the table's state and the pure rules of its changes; where it is kept is
// table_store.h, and tables.h applies a change to the stored table atomically.
//
// A table's life: open (people join and leave) → starting (a round's seating is
// fixed and its game is being created) → playing (the round's game runs) →
// starting again at a rematch. A start that was never finished (the replica
// creating its game died) may be taken over after kStartTimeoutMs, with the
// same round, seed and seating: the game's creation is keyed by the table and
// round, so it is created once.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metropolis::matchmaker::tables {

inline constexpr int kMinSeats = 3, kMaxSeats = 4;
inline constexpr uint32_t kMinDecisionMs = 5'000, kMaxDecisionMs = 600'000;
inline constexpr uint32_t kMaxTimeBankMs = 3'600'000;
inline constexpr int64_t kStartTimeoutMs = 30'000;

// What the creator chooses.
struct TableSettings {
  std::string ruleset = "cities_and_knights";  // or "base"
  std::string options;                         // "name=value ..." (ParseLadderOptions)
  int seats = 4;
  std::string bot = "heuristic";  // plays the seats nobody took: random, heuristic or search
  uint32_t decision_ms = 60'000, time_bank_ms = 300'000;
  std::string ladder;  // rated on this casual ladder; empty: not rated
  uint32_t spectator_delay_ms = 0;
};

struct Member {
  int64_t identity_id = 0;
  std::string name;
};

enum class TableState { kOpen, kStarting, kPlaying };

struct FriendsTable {
  std::string id;
  int64_t creator = 0;  // an identity id, a member while the table lasts
  TableSettings settings;
  std::vector<Member> members;  // in the order they joined; the creator first
  TableState state = TableState::kOpen;
  uint32_t round = 0;  // games started so far (a rematch is the next round)
  // The round being started or played: its chance seed (board and dice) and
  // seating, and once created its game.
  uint64_t seed = 0;
  std::vector<int64_t> seating;  // identity by seat; 0: the table's bot
  int64_t starting_since_ms = 0;
  std::string game_id;
  std::string host;  // chosen while starting (ChooseHost); the game's once playing
};

// INVALID_ARGUMENT naming the field, or OK.
grpc::Status CheckSettings(const TableSettings& settings);

// A new open table with its creator seated first.
FriendsTable NewTable(std::string id, const Member& creator, TableSettings settings);

// Joins an open table; joining again changes nothing. FAILED_PRECONDITION once
// it started, RESOURCE_EXHAUSTED when every seat is taken.
grpc::Status Join(FriendsTable* table, const Member& member, bool* changed);
// Leaves an open table; the creator cannot (the table goes away by itself,
// two hours after its last change).
grpc::Status Leave(FriendsTable* table, int64_t identity_id, bool* changed);

// The creator starts the first round (open → starting), or anyone takes over a
// start that stalled: the seating is the members in an order drawn from `seed`,
// the table's bot in the remaining seats. PERMISSION_DENIED for anyone but the
// creator; FAILED_PRECONDITION for a table already started.
grpc::Status BeginStart(FriendsTable* table, int64_t by, uint64_t seed, int64_t now_ms);
// A member asks for a rematch of the round being played (the caller checked its
// game is over): the next round starts with a new seed and seating.
grpc::Status BeginRematch(FriendsTable* table, int64_t by, uint32_t round, uint64_t seed, int64_t now_ms);
// The host the round's game is created on, recorded before it is created so
// that whoever finishes a stalled start creates it there (where its game id
// exists if the first attempt got that far) and not on a second host. Sets the
// host when the table is starting `round` and has none, or has `replacing` (a
// take-over moving off a host that cannot be reached); otherwise leaves the
// table as it is (*changed false) and the caller uses the host recorded.
grpc::Status ChooseHost(FriendsTable* table, uint32_t round, const std::string& host, const std::string& replacing,
                        bool* changed);
// The round's game was created: starting → playing. FAILED_PRECONDITION when the
// table is not starting that round (another start finished it first).
grpc::Status MarkStarted(FriendsTable* table, uint32_t round, const std::string& game_id, const std::string& host);

// The table as stored (JSON), and back: INVALID_ARGUMENT for a value that is
// not a table (DATA_LOSS is the store's to say).
std::string Encode(const FriendsTable& table);
grpc::Status Decode(const std::string& text, FriendsTable* out);

const char* StateName(TableState state);

}  // namespace metropolis::matchmaker::tables
