// Where the replays service keeps completed games (games, game_seats and
// replays in PostgreSQL: pg_replay_store.h; an in-memory fake in tests/). The
// store keeps and reads back; what may be stored, and what may be shown, is
// decided before it is called (replays.h). Every call answers UNAVAILABLE when
// the store cannot be reached, so the caller retries.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

#include "metropolis/v1/replays.pb.h"
#include "services/replays/prepare.h"

namespace metropolis::replays {

// Which games a listing reads; zero and empty fields do not filter.
struct ListFilter {
  int64_t identity_id = 0;  // a seat's identity
  std::string ladder;
  uint32_t season = 0;
  std::string tournament;
  int64_t finished_after_unix_ms = 0;   // at or after
  int64_t finished_before_unix_ms = 0;  // before
  // The order: newest first (the listing), or oldest first (the bulk export).
  bool oldest_first = false;
};

// Where a listing resumes: strictly after this game in its order.
struct ListCursor {
  bool set = false;  // false: from the first game in the order
  int64_t finished_unix_ms = 0;
  std::string game_id;
};

using Summaries = google::protobuf::RepeatedPtrField<v1::StoredGameSummary>;

class ReplayStore {
 public:
  virtual ~ReplayStore() = default;

  // Stores the game and its seats, codes and debug (record->debug) at once, or nothing. A game
  // already stored under its id: with the same codes, OK with *already_stored
  // and *stored_digest the digest kept for it; with other codes ALREADY_EXISTS.
  // INVALID_ARGUMENT when a seat names an identity the store does not know.
  virtual grpc::Status Insert(const PreparedGame& game, bool* already_stored, std::string* stored_digest) = 0;

  // The stored game as its columns hold it (seats in seat order, result.actions
  // the number of actions, no winner -1). NOT_FOUND when there is none;
  // DATA_LOSS when what is stored does not parse, with out's tournament still
  // set, so that the caller can tell whether the game may be shown at all.
  virtual grpc::Status Load(const std::string& game_id, v1::CompletedGameRecord* out) = 0;

  // Appends up to `limit` games matching `filter` after `after`, newest first (finished
  // time, then id, both descending; both ascending with filter.oldest_first), each
  // with its seats (seat, identity, name; not their outcome). Hidden games are
  // included: the caller filters them.
  virtual grpc::Status ListPage(const ListFilter& filter, const ListCursor& after, int limit, Summaries* out) = 0;

  // The debug stored with the game (replays.proto, SeatDebug; identity_id
  // unset), by seat; none when it has none or is not stored (the caller has
  // loaded the game first).
  virtual grpc::Status LoadDebug(const std::string& game_id, std::vector<v1::SeatDebug>* out) = 0;

  // The digest kept for the stored game (*found false when there is none).
  virtual grpc::Status Digest(const std::string& game_id, std::string* digest, bool* found) = 0;

  // Appends the stored games among `ids` (ids that are not stored are left out), by
  // id, each with its seats and their outcome (fallback decisions, forfeits).
  virtual grpc::Status Results(const std::vector<std::string>& ids, Summaries* out) = 0;

  // Up to `limit` ids of games stored without their turns (before migration
  // 0095), in id order, after `after`.
  virtual grpc::Status GamesWithoutTurns(const std::string& after, int limit, std::vector<std::string>* out) = 0;
  // Sets the game's turns if they are not known yet (never overwrites).
  virtual grpc::Status SetTurns(const std::string& game_id, uint32_t turns) = 0;
};

}  // namespace metropolis::replays
