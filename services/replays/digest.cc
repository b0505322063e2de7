#include "services/replays/digest.h"

#include <algorithm>

#include "engine/hex.h"
#include "lib/auth/token.h"

namespace metropolis::replays {
namespace {

// A text field as its length and bytes: no separator can be forged inside it.
void Field(std::string* out, const char* key, const std::string& value) {
  *out += key;
  *out += ' ';
  *out += std::to_string(value.size());
  *out += ':';
  *out += value;
  *out += '\n';
}
void Field(std::string* out, const char* key, int64_t value) {
  *out += key;
  *out += ' ';
  *out += std::to_string(value);
  *out += '\n';
}

std::string Sha256Hex(const std::string& data) { return HexOf(auth::Sha256(data)); }

}  // namespace

std::string CanonicalEncoding(const StoredGame& g) {
  std::string out = "metropolis stored game v1\n";
  Field(&out, "game", g.game_id);
  Field(&out, "ladder", g.ladder);
  Field(&out, "season", g.season);
  Field(&out, "tournament", g.tournament);
  Field(&out, "rules_version", g.rules_version);
  Field(&out, "config", g.config);
  Field(&out, "chance_seed", g.chance_seed);
  Field(&out, "num_seats", g.num_seats);
  Field(&out, "reason", g.reason);
  Field(&out, "winner", g.winner);
  std::string vp;
  for (size_t i = 0; i < g.vp.size(); ++i) vp += (i ? "," : "") + std::to_string(g.vp[i]);
  Field(&out, "vp", vp);
  Field(&out, "actions", g.actions);
  Field(&out, "finished_unix_ms", g.finished_unix_ms);
  for (const StoredGame::Seat& s : g.seats) {
    Field(&out, "seat", s.seat);
    Field(&out, "identity", s.identity_id);
    Field(&out, "name", s.name);
    Field(&out, "fallback_decisions", s.fallback_decisions);
    Field(&out, "forfeited", s.forfeited ? 1 : 0);
    if (s.kind != 0) Field(&out, "kind", s.kind);
  }
  Field(&out, "codes", g.codes);
  if (!g.verifiable_seed.empty() || !g.chance_commitment.empty()) {
    Field(&out, "verifiable_seed", g.verifiable_seed);
    Field(&out, "chance_commitment", g.chance_commitment);
  }
  if (g.resigned_seat >= 0) Field(&out, "resigned_seat", g.resigned_seat);
  return out;
}

std::string GameDigest(const StoredGame& game) { return Sha256Hex(CanonicalEncoding(game)); }

std::string DigestOfRecord(const v1::CompletedGameRecord& game, int num_seats, const std::string& config_bytes,
                           const std::string& codes) {
  StoredGame g;
  g.game_id = game.game_id();
  g.ladder = game.ladder();
  g.season = int(game.season());
  g.tournament = game.tournament();
  g.rules_version = int(game.config().rules_version());
  g.config = config_bytes;
  g.chance_seed = int64_t(game.chance_seed());
  g.num_seats = num_seats;
  g.reason = int(game.result().reason());
  g.winner = game.result().winner() >= 0 ? game.result().winner() : -1;
  for (uint32_t v : game.result().vp()) g.vp.push_back(int(v));
  g.actions = game.actions_size();
  g.finished_unix_ms = game.finished_unix_ms();
  g.verifiable_seed = game.verifiable_seed();
  g.chance_commitment = game.chance_commitment();
  if (game.result().has_resigned_seat()) g.resigned_seat = int(game.result().resigned_seat());
  for (const v1::SeatRecord& seat : game.seats()) {
    g.seats.push_back({int(seat.seat()), seat.identity_id(), seat.name(), int(seat.fallback_decisions()),
                       seat.forfeited(), int(seat.kind())});
  }
  std::sort(g.seats.begin(), g.seats.end(), [](const auto& a, const auto& b) { return a.seat < b.seat; });
  g.codes = codes;
  return GameDigest(g);
}

bool ValidDigest(const std::string& digest) { return digest.size() == 64 && IsLowerHex(digest); }

}  // namespace metropolis::replays
