// verify: checks a finished game's verifiable chance (docs/CHANCE.md) on the
// reader's own machine — that the revealed seed is the one the game committed
// to at its start, and that every die, steal and draw is what the seed draws.
#include "lib/chance/verify.h"

#include <cctype>
#include <iostream>

#include "engine/game.h"
#include "lib/chance/verifiable.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"
#include "tools/engine/table.h"

namespace metropolis::cli {
namespace {

Flags MakeFlags() {
  Flags flags("verify", "[flags]",
              "Reads a finished game's record (GET /api/v1/games/ID/record, or a game host's archive file) and\n"
              "checks its verifiable chance (docs/CHANCE.md): that SHA-256 of the revealed seed is the\n"
              "commitment the game announced before its first die, and that every chance outcome — start\n"
              "player, dice, steals, draws — is the one the seed draws, with every move checked. Exit 0:\n"
              "verified; 1: the record or its chance does not check out (the first difference is said).");
  AddRecordFlags(&flags);
  return flags;
}

}  // namespace

int RunVerify(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  GameRecord record;
  std::string where;
  if (int exit_code; !ReadRecordFlags(flags, &record, &where, &exit_code)) return exit_code;
  const std::string& seed_hex = record.verifiable_seed;
  const std::string& commitment_hex = record.chance_commitment;
  if (seed_hex.empty()) {
    return Fail(flags,
                where +
                    ": no \"verifiable_seed\": a version 1 game, whose seed was chosen by whoever created it; "
                    "there is nothing to verify (docs/CHANCE.md)",
                kExitRefused);
  }
  chance::Seed seed;
  if (!chance::FromHex(seed_hex, &seed))
    return Fail(flags, where + ": \"verifiable_seed\": not 64 hex digits", kExitRefused);
  const std::string expected = chance::ToHex(chance::CommitTo(seed));
  std::string given = commitment_hex;
  for (char& c : given) c = char(std::tolower(static_cast<unsigned char>(c)));

  Table table({"check", "result", "detail"});
  const bool committed = given == expected;
  table.AddRow({"commitment", committed ? "ok" : "FAILED",
                committed ? expected.substr(0, 16) + "… = SHA-256(tag, seed)"
                          : "the record says " + (given.empty() ? std::string("nothing") : given.substr(0, 16) + "…") +
                                ", the seed hashes to " + expected.substr(0, 16) + "…"});
  chance::ChanceCheck check;
  const bool drawn = chance::CheckChance(record.config, record.actions, chance::VerifiableStreams(seed), &check);
  table.AddRow({"outcomes", drawn ? "ok" : "FAILED",
                drawn ? std::to_string(check.chance_nodes) + " chance outcomes (" + std::to_string(check.rolls) +
                            " rolls) in " + std::to_string(check.actions) + " actions, each the seed's"
                      : check.error});
  std::cout << table.ToString();
  if (!committed || !drawn) {
    return Fail(flags, where + ": NOT verified: " + (committed ? check.error : "the seed is not the committed one"),
                kExitRefused);
  }
  std::cout << "verified: chance version " << chance::kVerifiableChanceVersion << ", seed " << seed_hex << "\n";
  return kExitOk;
}

}  // namespace metropolis::cli
