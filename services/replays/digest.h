// The digest of a stored game: SHA-256 over a canonical encoding of what the
// replays tables hold for it, so that another service can be told "this is the
// game as stored" (StoreGameResponse.digest) and have Replays confirm it later
// (ConfirmGame) without reading the replays tables. docs/RESULTS.md documents
// the encoding; a change to it is a new version line, never an edit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "metropolis/v1/replays.pb.h"

namespace metropolis::replays {

// What the digest covers: every stored column of games, game_seats and
// replays except the timestamps PostgreSQL rounds (created_at, finished_at;
// finished_unix_ms is kept exactly and is covered) and the compact form (a
// function of the codes).
struct StoredGame {
  struct Seat {
    int seat = 0;
    int64_t identity_id = 0;  // 0: none
    std::string name;
    int fallback_decisions = 0;
    bool forfeited = false;
    int kind = 0;  // v1::SeatKind; 0 (stored before the column) has no line, so old digests stay
  };
  std::string game_id, ladder, tournament;  // empty: none
  int season = 0;                           // 0: none
  int rules_version = 0;
  std::string config;  // the stored GameConfig bytes
  int64_t chance_seed = 0;
  int num_seats = 0, reason = 0, winner = -1;  // -1: no winner
  std::vector<int> vp;
  int actions = 0;
  int64_t finished_unix_ms = 0;
  std::vector<Seat> seats;  // by seat
  std::string codes;        // the stable codes, 8 bytes each, big-endian
  // Chance version 2 (docs/CHANCE.md), raw bytes; empty for version 1 games,
  // whose encoding then has no such lines (their digests stay what they were).
  std::string verifiable_seed, chance_commitment;
  // END_REASON_RESIGNED: the seat that resigned; -1 (every other game) has no
  // line, so the digests of games stored before resignations stay.
  int resigned_seat = -1;
};

// The canonical encoding (docs/RESULTS.md) and its SHA-256 in lower-case hex.
std::string CanonicalEncoding(const StoredGame& game);
std::string GameDigest(const StoredGame& game);

// The digest of a record as the replays tables will hold it (the columns'
// values, not the request's: no ladder is '' either way, no winner -1), from
// its number of seats, its serialised configuration and its codes
// (CodesToBytes): what StoreGame returns before anything is read back.
std::string DigestOfRecord(const v1::CompletedGameRecord& game, int num_seats, const std::string& config_bytes,
                           const std::string& codes);

// 64 lower-case hex digits.
bool ValidDigest(const std::string& digest);

}  // namespace metropolis::replays
