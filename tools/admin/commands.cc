#include "tools/admin/commands.h"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "services/accounts/convert.h"
#include "tools/admin/pg_stores.h"
#include "tools/ctl/commands.h"

namespace metropolis::admin {

// The commands' lines are metropolisctl's accounts commands' (tools/ctl/commands.h).
const std::string kHelp =
    "usage: metropolis-admin [--pg CONNINFO] [--json] COMMAND [ARGS] [flags]\n"
    "\n"
    "Administers Metropolis accounts and ladders directly in PostgreSQL.\n"
    "\n"
    "commands:\n" +
    std::string(ctl::kAccountsHelp) + std::string(ctl::kSeasonsHelp) +
    "\n"
    "global flags (also accepted after the command):\n"
    "  --pg CONNINFO   PostgreSQL connection string (env METROPOLIS_PG)\n"
    "  --json          machine output: one JSON document on stdout\n"
    "\n"
    "exit status: 0 done, 1 the operation failed (its status code and message are printed on\n"
    "stderr), 2 bad flags or arguments.\n"
    "\n"
    "'metropolis-admin COMMAND --help' describes a command's flags.\n";

namespace {

namespace acc = metropolis::accounts;
namespace ctl = metropolis::ctl;
namespace v1 = metropolis::v1;
using metropolis::JsonString;
using metropolis::ctl::JsonNumber;

constexpr std::string_view kExitHelp =
    "\nexit status: 0 done, 1 the operation failed (its status code and message are printed on\n"
    "stderr), 2 bad flags or arguments.\n";

}  // namespace

// One invocation: the command's parsed flags and the stores on its database.
struct Run {
  explicit Run(cli::Flags f) : flags(std::move(f)) {}

  cli::Flags flags;
  bool json = false;
  std::unique_ptr<PgStores> stores;
  acc::AccountStore* accounts = nullptr;
  acc::LadderStore* ladders = nullptr;

  const std::string& arg(size_t i) const { return flags.positionals()[i]; }
};

namespace {

int UsageError(std::string_view command, std::string_view message) {
  std::cerr << kProgram << " " << command << ": " << message << "\n(see " << kProgram << " " << command << " --help)\n";
  return kExitUsage;
}

int Failed(const Run& r, const grpc::Status& status) {
  std::cerr << kProgram << " " << r.flags.command() << ": " << metropolis::ctl::StatusCodeName(status.error_code())
            << ": " << status.error_message() << "\n";
  return kExitFailed;
}

int CreateIdentity(Run& r, const std::string& kind) {
  acc::Identity identity;
  const std::string owner = kind == "bot" ? r.flags.Get("owner") : "";
  if (grpc::Status s = r.accounts->CreateIdentity(kind, r.arg(0), owner, &identity); !s.ok()) return Failed(r, s);
  v1::Identity out;
  acc::IdentityToProto(identity, &out);
  std::cout << (r.json ? ctl::IdentityJson(out) + "\n" : ctl::CreatedIdentityText(out));
  return kExitOk;
}

int Identities(Run& r) {
  std::vector<acc::Identity> identities;
  if (grpc::Status s = r.accounts->ListIdentities(&identities); !s.ok()) return Failed(r, s);
  v1::ListIdentitiesResponse list;
  for (const acc::Identity& i : identities) acc::IdentityToProto(i, list.add_identities());
  std::cout << (r.json ? ctl::IdentitiesJson(list) + "\n" : ctl::IdentitiesTable(list));
  return kExitOk;
}

int IssueToken(Run& r) {
  v1::IssueTokenRequest request;
  request.set_identity(r.arg(0));
  request.set_label(r.flags.Get("label"));
  request.set_admin(r.flags.Has("admin"));
  acc::IssuedToken issued;
  if (grpc::Status s = r.accounts->IssueToken(request.identity(), request.label(), request.admin(), &issued); !s.ok())
    return Failed(r, s);
  v1::IssueTokenResponse response;
  response.set_token_id(issued.id);
  response.set_token(issued.token);
  std::cout << (r.json ? ctl::IssuedTokenJson(request, response) + "\n" : ctl::IssuedTokenText(request, response));
  return kExitOk;
}

int Tokens(Run& r) {
  std::vector<acc::TokenInfo> tokens;
  if (grpc::Status s = r.accounts->ListTokens(r.arg(0), &tokens); !s.ok()) return Failed(r, s);
  v1::ListTokensResponse list;
  for (const acc::TokenInfo& t : tokens) acc::ApiTokenToProto(t, list.add_tokens());
  std::cout << (r.json ? ctl::TokensJson(list) + "\n" : ctl::TokensTable(list));
  return kExitOk;
}

int RevokeToken(Run& r) {
  int64_t id = 0;
  if (!cli::ParseInt(r.arg(0), 1, INT64_MAX, &id))
    return UsageError(r.flags.command(), "ID: '" + r.arg(0) + "' is not a token id (a positive integer)");
  if (grpc::Status s = r.accounts->RevokeToken(id); !s.ok()) return Failed(r, s);
  if (r.json) {
    std::cout << "{\"id\":" << id << ",\"revoked\":true}\n";
  } else {
    std::cout << "revoked token " << id << "; services refuse it once their cache forgets it (30 s by default)\n";
  }
  return kExitOk;
}

void AddLadderFlags(cli::Flags* f) {
  const acc::LadderSpec d;
  f->Add({.name = "title", .value_name = "T", .help = "what people read (default: none)"});
  f->Add({.name = "ruleset", .value_name = "R", .help = "cities_and_knights or base (default " + d.ruleset + ")"});
  f->Add({.name = "seats", .value_name = "N", .help = "3 or 4 (default " + std::to_string(d.seats) + ")"});
  f->Add({.name = "placement-games",
          .value_name = "N",
          .help = "games before a rating is shown (default " + std::to_string(d.placement_games) + ")"});
  f->Add({.name = "mu", .value_name = "X", .help = "a new player's rating mean (default " + JsonNumber(d.mu) + ")"});
  f->Add({.name = "sigma", .value_name = "X", .help = "a new player's sigma (default " + JsonNumber(d.sigma) + ")"});
  f->Add({.name = "beta",
          .value_name = "X",
          .help = "performance spread in one game (default " + JsonNumber(d.beta) + ")"});
  f->Add({.name = "kappa",
          .value_name = "X",
          .help = "floor of sigma's shrink factor (default " + JsonNumber(d.kappa) + ")"});
  f->Add({.name = "tau",
          .value_name = "X",
          .help = "uncertainty added before each game (default " + JsonNumber(d.tau) + ")"});
  f->Add({.name = "options", .value_name = "TEXT", .help = "the engine's rules options, \"name=value ...\""});
  f->Add({.name = "three-after-ms", .value_name = "N", .help = "a 4-seat ladder forms tables of 3 after this wait"});
  f->Add({.name = "bots-after-ms", .value_name = "N", .help = "built-in bots fill empty seats after this wait"});
  f->Add({.name = "decision-ms",
          .value_name = "N",
          .help = "time per decision (default " + std::to_string(d.decision_ms) + ")"});
  f->Add({.name = "time-bank-ms",
          .value_name = "N",
          .help = "time bank per seat and game (default " + std::to_string(d.time_bank_ms) + ")"});
}

int CreateLadder(Run& r) {
  acc::LadderSpec spec;
  spec.id = r.arg(0);
  spec.title = r.flags.Get("title");
  spec.ruleset = r.flags.Get("ruleset", spec.ruleset);
  std::string error;
  int64_t n = 0;
  if (r.flags.Has("seats")) {
    if (!r.flags.GetInt("seats", 3, 4, &n, &error)) return UsageError(r.flags.command(), error);
    spec.seats = int(n);
  }
  if (r.flags.Has("placement-games")) {
    if (!r.flags.GetInt("placement-games", 0, 1'000'000, &n, &error)) return UsageError(r.flags.command(), error);
    spec.placement_games = int(n);
  }
  spec.options = r.flags.Get("options");
  for (auto [name, field, min] : {std::tuple{"three-after-ms", &spec.allow_three_after_ms, int64_t(0)},
                                  std::tuple{"bots-after-ms", &spec.bot_fill_after_ms, int64_t(0)}}) {
    if (r.flags.Has(name) && !r.flags.GetInt(name, min, INT32_MAX, field, &error))
      return UsageError(r.flags.command(), error);
  }
  for (auto [name, field, min] :
       {std::tuple{"decision-ms", &spec.decision_ms, 1}, std::tuple{"time-bank-ms", &spec.time_bank_ms, 0}}) {
    if (r.flags.Has(name)) {
      if (!r.flags.GetInt(name, min, INT32_MAX, &n, &error)) return UsageError(r.flags.command(), error);
      *field = int(n);
    }
  }
  for (auto [name, field] : {std::pair{"mu", &spec.mu}, std::pair{"sigma", &spec.sigma}, std::pair{"beta", &spec.beta},
                             std::pair{"kappa", &spec.kappa}, std::pair{"tau", &spec.tau}}) {
    if (r.flags.Has(name) && !ctl::ParseDouble(r.flags.Get(name), field))
      return UsageError(r.flags.command(),
                        "flag '--" + std::string(name) + "': '" + r.flags.Get(name) + "' is not a number");
  }
  acc::LadderInfo created;
  if (grpc::Status s = r.ladders->CreateLadder(spec, &created); !s.ok()) return Failed(r, s);
  if (r.json) {
    v1::Ladder out;
    acc::LadderToProto(created, &out);
    std::cout << ctl::LadderJson(out) << "\n";
  } else {
    std::cout << "created ladder " << spec.id << " (" << spec.ruleset << ", " << spec.seats
              << " seats); open its first season with: " << kProgram << " create-season " << spec.id << "\n";
  }
  return kExitOk;
}

int CreateSeason(Run& r) {
  int season = 0;
  if (grpc::Status s = r.ladders->CreateSeason(r.arg(0), &season); !s.ok()) return Failed(r, s);
  if (r.json) {
    std::cout << "{\"ladder\":" << JsonString(r.arg(0)) << ",\"season\":" << season << "}\n";
  } else {
    std::cout << "ladder " << r.arg(0) << ": season " << season << " is open"
              << (season > 1 ? " (season " + std::to_string(season - 1) + " closed)" : "") << "\n";
  }
  return kExitOk;
}

int Ladders(Run& r) {
  std::vector<acc::LadderInfo> ladders;
  if (grpc::Status s = r.ladders->ListLadders(&ladders); !s.ok()) return Failed(r, s);
  v1::ListLaddersResponse list;
  for (const acc::LadderInfo& l : ladders) acc::LadderToProto(l, list.add_ladders());
  std::cout << (r.json ? ctl::LaddersJson(list) + "\n" : ctl::LaddersTable(list));
  return kExitOk;
}

}  // namespace

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"create-player",
       {"NAME"},
       "Creates a player: 1 to 64 letters, digits, '-', '_' or '.'.",
       nullptr,
       [](Run& r) { return CreateIdentity(r, "player"); }},
      {"create-bot",
       {"NAME"},
       "Creates a bot owned by an existing player.",
       [](cli::Flags* f) { f->Add({.name = "owner", .value_name = "PLAYER", .help = "the bot's owner (required)"}); },
       [](Run& r) { return CreateIdentity(r, "bot"); }},
      {"identities", {}, "Lists players and bots.", nullptr, Identities},
      {"issue-token",
       {"NAME"},
       "Issues an API token for an identity and prints it. It is shown this once: only its SHA-256 is stored.",
       [](cli::Flags* f) {
         f->Add({.name = "label", .value_name = "L", .help = "what the token is for, e.g. the machine it lives on"});
         f->Add({.name = "admin", .value_name = "", .help = "the token may administer (create games, ...)"});
       },
       IssueToken},
      {"tokens",
       {"NAME"},
       "Lists an identity's tokens, revoked ones included. Never prints the tokens.",
       nullptr,
       Tokens},
      {"revoke-token",
       {"ID"},
       "Revokes a token (ID from 'tokens'). Services refuse it once their cache forgets it, within 30 s by default.",
       nullptr,
       RevokeToken},
      {"create-ladder",
       {"ID"},
       "Creates a ladder: ID is 1 to 64 of a-z, 0-9, '_' and '-'. The rating parameters are explained in\n"
       "docs/RATINGS.md. A ladder starts without a season: open one with create-season.",
       AddLadderFlags,
       CreateLadder},
      {"create-season",
       {"LADDER"},
       "Opens the ladder's next season and closes the open one at the same instant.",
       nullptr,
       CreateSeason},
      {"ladders", {}, "Lists ladders with their open season.", nullptr, Ladders},
  };
  return commands;
}

bool SplitCommandLine(const std::vector<std::string>& args, std::string* command, std::vector<std::string>* global,
                      std::vector<std::string>* rest, std::string* error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!arg.starts_with("--")) {
      *command = arg;
      rest->assign(args.begin() + long(i) + 1, args.end());
      return true;
    }
    const std::string name = arg.substr(2, arg.find('=') - 2);
    if (name != "pg" && name != "json" && name != "help") {
      *error = "unknown global flag '" + arg.substr(0, arg.find('=')) + "' (a command's own flags come after it)";
      return false;
    }
    global->push_back(arg);
    if (name == "pg" && arg.find('=') == std::string::npos) {
      if (i + 1 == args.size()) {
        *error = "flag '--pg' needs a value (CONNINFO)";
        return false;
      }
      global->push_back(args[++i]);
    }
  }
  return true;
}

int RunCommand(const Command& command, std::vector<std::string> args) {
  std::string synopsis;
  for (std::string_view a : command.args) synopsis += std::string(a) + " ";
  Run r(cli::Flags(std::string(command.name), synopsis + "[flags]", std::string(command.summary)));
  r.flags.set_program(std::string(kProgram));
  r.flags.AllowPositionals();
  r.flags.Add({.name = "pg", .value_name = "CONNINFO", .help = "PostgreSQL connection string (env METROPOLIS_PG)"});
  r.flags.Add({.name = "json", .value_name = "", .help = "machine output: one JSON document on stdout"});
  if (command.add_flags) command.add_flags(&r.flags);

  std::string error;
  if (!r.flags.Parse(args, &error)) return UsageError(command.name, error);
  if (r.flags.Help()) {
    std::cout << r.flags.Usage() << kExitHelp;
    return kExitOk;
  }
  const auto& positionals = r.flags.positionals();
  if (positionals.size() < command.args.size())
    return UsageError(command.name, std::string(command.args[positionals.size()]) + " is missing");
  if (positionals.size() > command.args.size())
    return UsageError(command.name, "unexpected argument '" + positionals[command.args.size()] + "'");
  if (command.name == "create-bot" && !r.flags.Has("owner"))
    return UsageError(command.name, "--owner PLAYER is required: every bot has an owner");
  r.json = r.flags.Has("json");

  std::string conninfo = r.flags.Get("pg");
  if (conninfo.empty())
    if (const char* env = std::getenv("METROPOLIS_PG")) conninfo = env;
  if (conninfo.empty()) return UsageError(command.name, "--pg CONNINFO (or METROPOLIS_PG) is required");
  r.stores = std::make_unique<PgStores>(conninfo);
  r.accounts = &r.stores->accounts();
  r.ladders = &r.stores->ladders();
  return command.run(r);
}

}  // namespace metropolis::admin
