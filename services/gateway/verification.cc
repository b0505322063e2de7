#include "services/gateway/verification.h"

#include "engine/game.h"
#include "lib/chance/verifiable.h"
#include "lib/chance/verify.h"
#include "lib/protocol/convert.h"

namespace metropolis::gateway {
namespace {

// The configuration and actions of a stored game; false if either does not
// convert (which the replays service, having checked the game, never sends).
bool EngineGame(const v1::CompletedGameRecord& game, GameRecord* out, std::string* error) {
  if (!protocol::ConfigFromProto(game.config(), &out->config, error)) return false;
  out->actions.clear();
  for (uint64_t code : game.actions()) {
    const std::optional<Action> a = Decode(code);
    if (!a) {
      *error = "action code " + std::to_string(code) + " is no action";
      return false;
    }
    out->actions.push_back(*a);
  }
  return true;
}

}  // namespace

nlohmann::json ChanceToJson(const v1::CompletedGameRecord& game) {
  const std::string record_url = "/api/v1/games/" + game.game_id() + "/record";
  chance::Seed seed;
  if (!chance::FromBytes(game.verifiable_seed(), &seed)) {
    return {{"version", 1},
            {"seed", std::to_string(game.chance_seed())},
            {"verified", false},
            {"why", "a version 1 game's seed was chosen by whoever created the game: there is nothing to verify"}};
  }
  nlohmann::json out = {{"version", 2},
                        {"seed", chance::ToHex(seed)},
                        {"commitment", chance::ToHex(game.chance_commitment())},
                        {"record", record_url},
                        {"command", "metropolis-engine verify --file " + game.game_id() + ".json"}};
  const chance::Commitment expected = chance::CommitTo(seed);
  std::string error;
  GameRecord record;
  chance::ChanceCheck check;
  if (game.chance_commitment() != chance::AsBytes(expected)) {
    error = "the seed does not hash to the commitment";
  } else if (!EngineGame(game, &record, &error)) {
    error = "the stored game does not convert: " + error;
  } else if (!chance::CheckChance(record.config, record.actions, chance::VerifiableStreams(seed), &check)) {
    error = check.error;
  }
  out["verified"] = error.empty();
  if (!error.empty()) out["error"] = error;
  out["chance_nodes"] = check.chance_nodes;
  out["rolls"] = check.rolls;
  return out;
}

}  // namespace metropolis::gateway
