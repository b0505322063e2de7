#include "services/replays/digest.h"

#include <openssl/evp.h>

#include "lib/storage/pg_status.h"

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

std::string Hex(const unsigned char* bytes, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 15]);
  }
  return out;
}

std::string Sha256Hex(const std::string& data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), md, &n, EVP_sha256(), nullptr);
  return Hex(md, n);
}

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
  }
  Field(&out, "codes", g.codes);
  return out;
}

std::string GameDigest(const StoredGame& game) { return Sha256Hex(CanonicalEncoding(game)); }

bool ValidDigest(const std::string& digest) {
  if (digest.size() != 64) return false;
  for (char c : digest)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool ReadStoredGame(pqxx::transaction_base& tx, const std::string& game_id, StoredGame* out) {
  tx.conn().prepare("replays.digest_game",
                    "SELECT coalesce(g.ladder_id, ''), coalesce(g.season, 0), coalesce(g.tournament_id, ''), "
                    " g.rules_version, g.config, g.chance_seed, g.num_seats, g.reason, coalesce(g.winner, -1), g.vp, "
                    " g.actions, g.finished_unix_ms, r.codes "
                    "FROM games g JOIN replays r ON r.game_id = g.id WHERE g.id = $1");
  tx.conn().prepare("replays.digest_seats",
                    "SELECT seat, coalesce(identity_id, 0), name, fallback_decisions, forfeited "
                    "FROM game_seats WHERE game_id = $1 ORDER BY seat");
  const pqxx::result games = tx.exec_prepared("replays.digest_game", game_id);
  if (games.empty()) return false;
  const pqxx::row r = games[0];
  *out = {};
  out->game_id = game_id;
  out->ladder = r[0].as<std::string>();
  out->season = r[1].as<int>();
  out->tournament = r[2].as<std::string>();
  out->rules_version = r[3].as<int>();
  out->config = pqxx::binarystring(r[4]).str();
  out->chance_seed = r[5].as<int64_t>();
  out->num_seats = r[6].as<int>();
  out->reason = r[7].as<int>();
  out->winner = r[8].as<int>();
  out->vp = storage::ParseIntArray(r[9].as<std::string>());
  out->actions = r[10].as<int>();
  out->finished_unix_ms = r[11].as<int64_t>();
  out->codes = pqxx::binarystring(r[12]).str();
  for (const pqxx::row& s : tx.exec_prepared("replays.digest_seats", game_id)) {
    out->seats.push_back({s[0].as<int>(), s[1].as<int64_t>(), s[2].as<std::string>(), s[3].as<int>(), s[4].as<bool>()});
  }
  return true;
}

}  // namespace metropolis::replays
