#include "services/gamehost/sink.h"

#include "engine/json_text.h"
#include "lib/chance/verifiable.h"

namespace metropolis::gamehost {

// The engine's record with the host's fields appended: GameRecordFromJson skips
// keys it does not know, so the file replays as it is (metropolis-engine replay).
std::string CompletedGameToJson(const CompletedGame& g) {
  GameRecord record = g.record;
  // Chance version 2 (docs/CHANCE.md): what `metropolis-engine verify` checks.
  if (chance::Seed seed; chance::FromBytes(g.verifiable_seed, &seed)) {
    record.verifiable_seed = chance::ToHex(seed);
    record.chance_commitment = chance::ToHex(chance::CommitTo(seed));
  }
  std::string out = GameRecordToJson(record);
  while (!out.empty() && (out.back() == '\n' || out.back() == '}')) out.pop_back();
  out += ",\"game_id\":" + JsonString(g.game_id) + ",\"ladder\":" + JsonString(g.ladder);
  out += ",\"season\":" + std::to_string(g.season) + ",\"tournament\":" + JsonString(g.tournament);
  out += ",\"reason\":" + std::to_string(int(g.reason)) + ",\"vp\":[";
  for (size_t i = 0; i < g.vp.size(); ++i) out += (i ? "," : "") + std::to_string(g.vp[i]);
  out += "],\"fallback_decisions\":[";
  for (size_t i = 0; i < g.fallback_decisions.size(); ++i)
    out += (i ? "," : "") + std::to_string(g.fallback_decisions[i]);
  out += "],\"identity_ids\":[";
  for (size_t i = 0; i < g.identity_ids.size(); ++i) out += (i ? "," : "") + std::to_string(g.identity_ids[i]);
  out += "],\"built_in\":[";
  for (size_t i = 0; i < g.built_in.size(); ++i) out += std::string(i ? "," : "") + (g.built_in[i] ? "true" : "false");
  out += "],\"forfeited\":[";
  for (size_t i = 0; i < g.forfeited.size(); ++i)
    out += std::string(i ? "," : "") + (g.forfeited[i] ? "true" : "false");
  out += "]";
  if (g.resigned_seat >= 0) out += ",\"resigned_seat\":" + std::to_string(g.resigned_seat);
  out += ",\"created_unix_ms\":" + std::to_string(g.created_unix_ms);
  out += ",\"finished_unix_ms\":" + std::to_string(g.finished_unix_ms) + "}\n";
  return out;
}

}  // namespace metropolis::gamehost
