// metropolisctl create-game: the flags become a CreateGameRequest.

#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "bots/bot.h"
#include "engine/config.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/gamehost.grpc.pb.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {
namespace {

bool CheckBotSpec(const std::string& flag, const std::string& spec, std::string* error) {
  std::string bot_error;
  if (bots::MakeBot(spec, &bot_error)) return true;
  *error = flag + ": " + bot_error;
  return false;
}

// The host's rule for caller-chosen ids (gamehost.proto, CreateGameRequest.game_id).
bool ValidGameId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

// Options go through the engine's parser, so names, values and errors are the
// engine's own (and "ruleset=base" moves the ruleset's defaults, e.g. 10 VP).
// The request then carries only the options named: an unset field means the
// ruleset's default to the host, which may know newer defaults than we do.
bool BuildOptions(const cli::Flags& flags, v1::RulesOptions* out, std::string* error) {
  std::vector<std::string> texts = flags.GetAll("options");
  if (flags.Has("ruleset")) {
    for (const std::string& t : texts) {
      if (t.starts_with("ruleset=")) {
        *error = "the ruleset is given twice: --ruleset and --options " + t;
        return false;
      }
    }
    texts.insert(texts.begin(), "ruleset=" + flags.Get("ruleset"));
  }
  // The ruleset first: parsing it resets options still at the old defaults.
  std::stable_partition(texts.begin(), texts.end(), [](const std::string& t) { return t.starts_with("ruleset="); });

  RulesOptions options;
  std::set<std::string> named;
  for (const std::string& text : texts) {
    std::string parse_error = ParseOption(text, &options);
    if (!parse_error.empty()) {
      *error = (flags.Has("ruleset") && text == texts.front() ? "--ruleset: " : "--options: ") + parse_error;
      return false;
    }
    named.insert(text.substr(0, text.find('=')));
  }

  GameConfig config;
  config.options = options;
  v1::GameConfig proto;
  protocol::ConfigToProto(config, &proto);
  *out = proto.options();
  const google::protobuf::Descriptor* descriptor = out->GetDescriptor();
  const google::protobuf::Reflection* reflection = out->GetReflection();
  for (const std::string& name : named) {
    if (!descriptor->FindFieldByName(name)) {
      *error = "--options: option '" + name + "' has no field in metropolis.v1.RulesOptions";
      return false;
    }
  }
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* field = descriptor->field(i);
    if (!named.contains(field->name())) reflection->ClearField(out, field);
  }
  return true;
}

}  // namespace

cli::Flags CreateGameFlags() {
  cli::Flags f("create-game", "--seats NAME,NAME,... [flags]",
               "Creates a game on the host (needs an administrator token) and prints its id, its host and one\n"
               "token per seat; give each token to the program that plays that seat (metropolis-bot --token).");
  f.Add({.name = "seats", .value_name = "NAME,...", .help = "who plays each seat, 3 or 4 names, e.g. alice,bob,carol"});
  f.Add({.name = "builtin",
         .value_name = "SEAT:BOT",
         .help = "seat SEAT (0-based) is played by built-in bot BOT from the start; no token is issued for it",
         .repeatable = true});
  f.Add({.name = "fallback-bot",
         .value_name = "SPEC",
         .help = "bot that plays a seat that times out or disconnects (default: the host's)"});
  f.Add({.name = "seed", .value_name = "N", .help = "seed of the chance streams (dice, decks); 0 = drawn by the host"});
  f.Add({.name = "decision-ms", .value_name = "N", .help = "time to answer each decision (default: the host's)"});
  f.Add({.name = "time-bank-ms", .value_name = "N", .help = "time bank per seat for the game (default: the host's)"});
  f.Add({.name = "options",
         .value_name = "NAME=VALUE",
         .help = "a rules option, e.g. victory_points=10 or saboteur=SABOTAGE_CITY (RULES.md 20)",
         .repeatable = true});
  f.Add(
      {.name = "ruleset", .value_name = "base|cities_and_knights", .help = "the ruleset (default cities_and_knights)"});
  f.Add({.name = "game-id",
         .value_name = "ID",
         .help = "the game's id (letters, digits, - and _; default: chosen by the host)"});
  f.Add({.name = "random-board",
         .value_name = "SEED",
         .help = "a random board drawn from SEED (default: the default board)"});
  f.Add({.name = "ladder", .value_name = "NAME", .help = "the ladder or tournament the game belongs to (informative)"});
  return f;
}

bool BuildCreateGameRequest(const cli::Flags& flags, v1::CreateGameRequest* out, std::string* error) {
  v1::CreateGameRequest request;
  if (!flags.Has("seats")) {
    *error = "--seats is required";
    return false;
  }
  const std::vector<std::string> names = cli::SplitCommas(flags.Get("seats"));
  if (names.size() < size_t(kMinSeats) || names.size() > size_t(kMaxSeats)) {
    *error = "--seats: " + std::to_string(names.size()) + " names, expected " + std::to_string(kMinSeats) + " or " +
             std::to_string(kMaxSeats);
    return false;
  }
  std::string fallback;
  if (flags.Has("fallback-bot")) {
    fallback = flags.Get("fallback-bot");
    if (!CheckBotSpec("--fallback-bot", fallback, error)) return false;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) {
      *error = "--seats: seat " + std::to_string(i) + " has an empty name";
      return false;
    }
    v1::SeatSpec* seat = request.add_seats();
    seat->set_name(names[i]);
    seat->set_fallback_bot(fallback);
  }
  for (const std::string& b : flags.GetAll("builtin")) {
    const size_t colon = b.find(':');
    int64_t index = 0;
    if (colon == std::string::npos || !cli::ParseInt(b.substr(0, colon), 0, int64_t(names.size()) - 1, &index)) {
      *error = "--builtin '" + b + "': expected SEAT:BOT with SEAT 0.." + std::to_string(names.size() - 1);
      return false;
    }
    const std::string spec = b.substr(colon + 1);
    if (!CheckBotSpec("--builtin '" + b + "'", spec, error)) return false;
    v1::SeatSpec* seat = request.mutable_seats(int(index));
    if (seat->built_in()) {
      *error = "--builtin: seat " + std::to_string(index) + " is given twice";
      return false;
    }
    seat->set_built_in(true);
    seat->set_fallback_bot(spec);
  }

  v1::GameConfig* config = request.mutable_config();
  config->set_num_seats(uint32_t(names.size()));
  if (!BuildOptions(flags, config->mutable_options(), error)) return false;
  if (config->options().ByteSizeLong() == 0) config->clear_options();
  if (flags.Has("random-board")) {
    uint64_t seed = 0;
    if (!flags.GetUint64("random-board", &seed, error)) return false;
    if (seed == 0) {
      *error = "--random-board: the seed must not be 0 (0 means the default board)";
      return false;
    }
    config->set_random_board_seed(seed);
  }

  if (flags.Has("seed")) {
    uint64_t seed = 0;
    if (!flags.GetUint64("seed", &seed, error)) return false;
    request.set_chance_seed(seed);
  }
  int64_t ms = 0;
  if (flags.Has("decision-ms")) {
    if (!flags.GetInt("decision-ms", 1, 86'400'000, &ms, error)) return false;
    request.mutable_deadlines()->set_decision_ms(uint32_t(ms));
  }
  if (flags.Has("time-bank-ms")) {
    if (!flags.GetInt("time-bank-ms", 1, 86'400'000, &ms, error)) return false;
    request.mutable_deadlines()->set_time_bank_ms(uint32_t(ms));
  }
  if (flags.Has("game-id")) {
    if (!ValidGameId(flags.Get("game-id"))) {
      *error = "--game-id '" + flags.Get("game-id") + "': use 1 to 64 letters, digits, '-' and '_'";
      return false;
    }
    request.set_game_id(flags.Get("game-id"));
  }
  request.set_ladder(flags.Get("ladder"));
  *out = std::move(request);
  return true;
}

std::string CreateGameJson(const v1::CreateGameResponse& response) { return MessageJson(response); }

std::string CreateGameTable(const v1::CreateGameRequest& request, const v1::CreateGameResponse& response) {
  std::string out = FormatTable({{"game", response.game_id()}, {"host", response.host()}}) + "\n";
  std::vector<std::vector<std::string>> rows = {{"seat", "name", "built-in", "token"}};
  for (int i = 0; i < request.seats_size(); ++i) {
    const v1::SeatSpec& seat = request.seats(i);
    const std::string token = i < response.seat_tokens_size() ? response.seat_tokens(i) : "";
    rows.push_back(
        {std::to_string(i), seat.name(), seat.built_in() ? seat.fallback_bot() : "-", token.empty() ? "-" : token});
  }
  return out + FormatTable(rows);
}

int RunCreateGame(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{CreateGameFlags(), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  v1::CreateGameRequest request;
  std::string error;
  if (!BuildCreateGameRequest(inv.flags, &request, &error)) return UsageError(inv.flags, error);

  auto stub = v1::GameHost::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::CreateGameResponse response;
  const grpc::Status status = stub->CreateGame(&context, request, &response);
  if (!status.ok()) return RpcError(inv, "CreateGame", status);
  std::cout << (inv.global.json ? CreateGameJson(response) + "\n" : CreateGameTable(request, response));
  return kExitOk;
}

}  // namespace metropolis::ctl
