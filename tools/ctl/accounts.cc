// metropolisctl's accounts commands: identities, API tokens, ladders and
// seasons through the Accounts service (--host: the server hosting it, the
// matchmaker), with an administrator's token. The commands and their output are
// metropolis-admin's, so that a script moves from one to the other unchanged.

#include <grpcpp/client_context.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "metropolis/v1/accounts.grpc.pb.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {
namespace {

// A command's summary and what every accounts command needs.
std::string Summary(std::string_view what) {
  return std::string(what) +
         "\nNeeds an administrator's token; --host is the Accounts service (metropolis-accounts, or "
         "metropolis-server).";
}

std::string Bool(bool b) { return b ? "true" : "false"; }

// Six digits are enough in a table; JSON and the one-ladder text are exact.
std::string Short(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// "[...]" of each item's JSON.
template <typename Items, typename ToJson>
std::string JsonArray(const Items& items, ToJson to_json) {
  std::string out = "[";
  for (const auto& item : items) out += (out.size() > 1 ? "," : "") + to_json(item);
  return out + "]";
}

// The positional arguments named `names`, all required; false (after printing
// the usage error into *code) when there are more or fewer.
bool TakeArgs(const Invocation& inv, std::initializer_list<std::string_view> names, int* code) {
  const auto& given = inv.flags.positionals();
  if (given.size() < names.size()) {
    *code = UsageError(inv.flags, std::string(*(names.begin() + long(given.size()))) + " is missing");
    return false;
  }
  if (given.size() > names.size()) {
    *code = UsageError(inv.flags, "unexpected argument '" + given[names.size()] + "'");
    return false;
  }
  return true;
}

const std::string& Arg(const Invocation& inv, size_t i) { return inv.flags.positionals()[i]; }

// Parses the arguments of a command taking `names`: -1 to go on, else the exit code.
int Parse(const std::vector<std::string>& args, const GetEnv& env, std::initializer_list<std::string_view> names,
          Invocation* inv) {
  inv->flags.AllowPositionals();
  if (int code = ParseInvocation(args, env, inv); code >= 0) return code;
  int code = -1;
  if (!TakeArgs(*inv, names, &code)) return code;
  return -1;
}

std::unique_ptr<v1::Accounts::Stub> Stub(const Invocation& inv) {
  return v1::Accounts::NewStub(MakeChannel(inv.global));
}

}  // namespace

bool ParseDouble(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  *out = v;
  return true;
}

std::string JsonNumber(double v) {
  char buf[40];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// ---- identities ----------------------------------------------------------------

std::string IdentityJson(const v1::Identity& i) {
  return "{\"id\":" + std::to_string(i.id()) + ",\"kind\":" + JsonString(i.kind()) +
         ",\"name\":" + JsonString(i.name()) + ",\"owner\":" + (i.owner().empty() ? "null" : JsonString(i.owner())) +
         ",\"created_unix_ms\":" + std::to_string(i.created_unix_ms()) + "}";
}

std::string IdentitiesJson(const v1::ListIdentitiesResponse& list) {
  return JsonArray(list.identities(), IdentityJson);
}

std::string IdentitiesTable(const v1::ListIdentitiesResponse& list) {
  std::vector<std::vector<std::string>> rows = {{"id", "kind", "name", "owner", "created"}};
  for (const v1::Identity& i : list.identities()) {
    rows.push_back({std::to_string(i.id()), i.kind(), i.name(), i.owner().empty() ? "-" : i.owner(),
                    FormatUnixMs(i.created_unix_ms())});
  }
  return FormatTable(rows);
}

std::string CreatedIdentityText(const v1::Identity& i) {
  return "created " + i.kind() + " " + i.name() + " (id " + std::to_string(i.id()) + ")" +
         (i.owner().empty() ? "" : ", owned by " + i.owner()) + "\n";
}

// ---- tokens --------------------------------------------------------------------

std::string IssuedTokenJson(const v1::IssueTokenRequest& request, const v1::IssueTokenResponse& response) {
  return "{\"id\":" + std::to_string(response.token_id()) + ",\"identity\":" + JsonString(request.identity()) +
         ",\"label\":" + JsonString(request.label()) + ",\"admin\":" + Bool(request.admin()) +
         ",\"token\":" + JsonString(response.token()) + "}";
}

std::string IssuedTokenText(const v1::IssueTokenRequest& request, const v1::IssueTokenResponse& response) {
  return "token " + std::to_string(response.token_id()) + " for " + request.identity() +
         (request.admin() ? " (admin)" : "") + (request.label().empty() ? "" : ", label '" + request.label() + "'") +
         ":\n\n  " + response.token() + "\n\nStore it now: it will not be shown again (only its SHA-256 is kept).\n";
}

std::string TokensJson(const v1::ListTokensResponse& list) {
  return JsonArray(list.tokens(), [](const v1::ApiToken& t) {
    return "{\"id\":" + std::to_string(t.id()) + ",\"label\":" + JsonString(t.label()) +
           ",\"admin\":" + Bool(t.admin()) + ",\"created_unix_ms\":" + std::to_string(t.created_unix_ms()) +
           ",\"revoked_unix_ms\":" + (t.revoked_unix_ms() ? std::to_string(t.revoked_unix_ms()) : "null") + "}";
  });
}

std::string TokensTable(const v1::ListTokensResponse& list) {
  std::vector<std::vector<std::string>> rows = {{"id", "label", "admin", "created", "revoked"}};
  for (const v1::ApiToken& t : list.tokens()) {
    rows.push_back({std::to_string(t.id()), t.label().empty() ? "-" : t.label(), t.admin() ? "yes" : "no",
                    FormatUnixMs(t.created_unix_ms()), FormatUnixMs(t.revoked_unix_ms())});
  }
  return FormatTable(rows);
}

// ---- ladders -------------------------------------------------------------------

std::string LadderJson(const v1::Ladder& l) {
  return "{\"id\":" + JsonString(l.id()) + ",\"title\":" + JsonString(l.title()) +
         ",\"ruleset\":" + JsonString(l.ruleset()) + ",\"options\":" + JsonString(l.options()) +
         ",\"seats\":" + std::to_string(l.seats()) + ",\"placement_games\":" + std::to_string(l.placement_games()) +
         ",\"mu\":" + JsonNumber(l.mu()) + ",\"sigma\":" + JsonNumber(l.sigma()) + ",\"beta\":" + JsonNumber(l.beta()) +
         ",\"kappa\":" + JsonNumber(l.kappa()) + ",\"tau\":" + JsonNumber(l.tau()) +
         ",\"allow_three_after_ms\":" + std::to_string(l.allow_three_after_ms()) +
         ",\"bot_fill_after_ms\":" + std::to_string(l.bot_fill_after_ms()) +
         ",\"decision_ms\":" + std::to_string(l.decision_ms()) +
         ",\"time_bank_ms\":" + std::to_string(l.time_bank_ms()) + ",\"season\":" + std::to_string(l.season()) +
         ",\"season_started_unix_ms\":" + std::to_string(l.season_started_unix_ms()) +
         ",\"created_unix_ms\":" + std::to_string(l.created_unix_ms()) + "}";
}

std::string LaddersJson(const v1::ListLaddersResponse& list) { return JsonArray(list.ladders(), LadderJson); }

std::string LaddersTable(const v1::ListLaddersResponse& list) {
  // metropolis-admin's columns first; the play settings after them.
  std::vector<std::vector<std::string>> rows = {{"id", "title", "ruleset", "seats", "placement", "mu", "sigma", "beta",
                                                 "kappa", "tau", "season", "since", "decision", "bank", "3 after",
                                                 "bots after", "options"}};
  for (const v1::Ladder& l : list.ladders()) {
    rows.push_back({l.id(), l.title().empty() ? "-" : l.title(), l.ruleset(), std::to_string(l.seats()),
                    std::to_string(l.placement_games()), Short(l.mu()), Short(l.sigma()), Short(l.beta()),
                    Short(l.kappa()), Short(l.tau()), l.season() ? std::to_string(l.season()) : "-",
                    FormatUnixMs(l.season_started_unix_ms()), FormatDurationMs(l.decision_ms(), DurationStyle::kExact),
                    FormatDurationMs(l.time_bank_ms(), DurationStyle::kExact),
                    FormatDurationMs(l.allow_three_after_ms(), DurationStyle::kExact),
                    FormatDurationMs(l.bot_fill_after_ms(), DurationStyle::kExact),
                    l.options().empty() ? "-" : l.options()});
  }
  return FormatTable(rows);
}

std::string LadderText(const v1::Ladder& l) {
  return FormatTable({
      {"ladder", l.id()},
      {"title", l.title().empty() ? "-" : l.title()},
      {"ruleset", l.ruleset()},
      {"options", l.options().empty() ? "-" : l.options()},
      {"seats", std::to_string(l.seats())},
      {"tables of 3 after", FormatDurationMs(l.allow_three_after_ms(), DurationStyle::kExact)},
      {"bots fill after", FormatDurationMs(l.bot_fill_after_ms(), DurationStyle::kExact)},
      {"decision", FormatDurationMs(l.decision_ms(), DurationStyle::kExact)},
      {"time bank", FormatDurationMs(l.time_bank_ms(), DurationStyle::kExact)},
      {"placement games", std::to_string(l.placement_games())},
      {"rating", "mu " + JsonNumber(l.mu()) + ", sigma " + JsonNumber(l.sigma()) + ", beta " + JsonNumber(l.beta()) +
                     ", kappa " + JsonNumber(l.kappa()) + ", tau " + JsonNumber(l.tau())},
      {"season",
       l.season() ? std::to_string(l.season()) + " since " + FormatUnixMs(l.season_started_unix_ms()) : "none open"},
      {"created", FormatUnixMs(l.created_unix_ms())},
  });
}

void AddLadderFlags(cli::Flags* f) {
  f->Add({.name = "title", .value_name = "T", .help = "what people read"});
  f->Add({.name = "ruleset", .value_name = "R", .help = "cities_and_knights or base"});
  f->Add({.name = "options",
          .value_name = "TEXT",
          .help = "the engine's rules options, \"name=value ...\"; several are joined with spaces",
          .repeatable = true});
  f->Add({.name = "seats", .value_name = "N", .help = "3 or 4"});
  f->Add({.name = "placement-games", .value_name = "N", .help = "games before a rating is ranked"});
  f->Add({.name = "mu", .value_name = "X", .help = "a newcomer's rating mean (docs/RATINGS.md)"});
  f->Add({.name = "sigma", .value_name = "X", .help = "a newcomer's uncertainty"});
  f->Add({.name = "beta", .value_name = "X", .help = "performance spread in one game"});
  f->Add({.name = "kappa", .value_name = "X", .help = "floor of sigma's shrink factor"});
  f->Add({.name = "tau", .value_name = "X", .help = "uncertainty added before each game"});
  f->Add({.name = "three-after-ms",
          .value_name = "N",
          .help = "a 4-seat ladder forms tables of 3 after this wait; 'never' (or -1) for never"});
  f->Add({.name = "bots-after-ms",
          .value_name = "N",
          .help = "built-in bots fill empty seats after this wait; 'never' (or -1) for never"});
  f->Add({.name = "decision-ms", .value_name = "N", .help = "time per decision"});
  f->Add({.name = "time-bank-ms", .value_name = "N", .help = "time bank per seat and game"});
}

bool BuildLadderSettings(const cli::Flags& flags, v1::LadderSettings* out, std::string* error) {
  v1::LadderSettings s;
  if (flags.Has("title")) s.set_title(flags.Get("title"));
  if (flags.Has("ruleset")) s.set_ruleset(flags.Get("ruleset"));
  if (flags.Has("options")) {
    std::string text;
    for (const std::string& part : flags.GetAll("options")) text += (text.empty() ? "" : " ") + part;
    s.set_options(text);
  }
  // Only the shape is checked here; what the values may be is the service's to
  // say (INVALID_ARGUMENT naming the field), so the two never disagree.
  auto integer = [&](const char* name, int64_t min, int64_t max, bool never, int64_t* v) {
    const std::string text = flags.Get(name);
    if (never && text == "never") {
      *v = -1;
      return true;
    }
    if (cli::ParseInt(text, min, max, v)) return true;
    *error = "flag '--" + std::string(name) + "': '" + text + "' is not " +
             (never ? "a number of milliseconds or 'never'" : "an integer");
    return false;
  };
  int64_t v = 0;
  for (auto [name, set] :
       {std::pair<const char*, void (v1::LadderSettings::*)(int32_t)>{"seats", &v1::LadderSettings::set_seats},
        {"placement-games", &v1::LadderSettings::set_placement_games},
        {"decision-ms", &v1::LadderSettings::set_decision_ms},
        {"time-bank-ms", &v1::LadderSettings::set_time_bank_ms}}) {
    if (!flags.Has(name)) continue;
    if (!integer(name, INT32_MIN, INT32_MAX, false, &v)) return false;
    (s.*set)(int32_t(v));
  }
  for (auto [name, set] : {std::pair<const char*, void (v1::LadderSettings::*)(int64_t)>{
                               "three-after-ms", &v1::LadderSettings::set_allow_three_after_ms},
                           {"bots-after-ms", &v1::LadderSettings::set_bot_fill_after_ms}}) {
    if (!flags.Has(name)) continue;
    if (!integer(name, INT64_MIN, INT64_MAX, true, &v)) return false;
    (s.*set)(v);
  }
  for (auto [name, set] :
       {std::pair<const char*, void (v1::LadderSettings::*)(double)>{"mu", &v1::LadderSettings::set_mu},
        {"sigma", &v1::LadderSettings::set_sigma},
        {"beta", &v1::LadderSettings::set_beta},
        {"kappa", &v1::LadderSettings::set_kappa},
        {"tau", &v1::LadderSettings::set_tau}}) {
    if (!flags.Has(name)) continue;
    double x = 0;
    if (!ParseDouble(flags.Get(name), &x)) {
      *error = "flag '--" + std::string(name) + "': '" + flags.Get(name) + "' is not a number";
      return false;
    }
    (s.*set)(x);
  }
  *out = std::move(s);
  return true;
}

// ---- the commands --------------------------------------------------------------

int RunCreatePlayer(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{
      cli::Flags("create-player", "NAME [flags]",
                 Summary("Creates a player: NAME is 1 to 64 letters, digits, '-', '_' or '.', unique regardless of\n"
                         "case.")),
      {}};
  if (int code = Parse(args, env, {"NAME"}, &inv); code >= 0) return code;
  v1::CreatePlayerRequest request;
  request.set_name(Arg(inv, 0));
  v1::Identity identity;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->CreatePlayer(&context, request, &identity); !s.ok())
    return RpcError(inv, "CreatePlayer", s);
  std::cout << (inv.global.json ? IdentityJson(identity) + "\n" : CreatedIdentityText(identity));
  return kExitOk;
}

int RunCreateBot(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{
      cli::Flags("create-bot", "NAME --owner PLAYER [flags]", Summary("Creates a bot owned by an existing player.")),
      {}};
  inv.flags.Add({.name = "owner", .value_name = "PLAYER", .help = "the bot's owner (required)"});
  if (int code = Parse(args, env, {"NAME"}, &inv); code >= 0) return code;
  if (!inv.flags.Has("owner")) return UsageError(inv.flags, "--owner PLAYER is required: every bot has an owner");
  v1::CreateBotRequest request;
  request.set_name(Arg(inv, 0));
  request.set_owner(inv.flags.Get("owner"));
  v1::Identity identity;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->CreateBot(&context, request, &identity); !s.ok())
    return RpcError(inv, "CreateBot", s);
  std::cout << (inv.global.json ? IdentityJson(identity) + "\n" : CreatedIdentityText(identity));
  return kExitOk;
}

int RunIdentities(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{cli::Flags("identities", "[flags]", Summary("Lists players and bots.")), {}};
  if (int code = Parse(args, env, {}, &inv); code >= 0) return code;
  v1::ListIdentitiesResponse list;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->ListIdentities(&context, v1::ListIdentitiesRequest(), &list); !s.ok())
    return RpcError(inv, "ListIdentities", s);
  std::cout << (inv.global.json ? IdentitiesJson(list) + "\n" : IdentitiesTable(list));
  return kExitOk;
}

int RunIssueToken(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{
      cli::Flags("issue-token", "NAME [flags]",
                 Summary("Issues an API token for an identity and prints it. It is shown this once: only its\n"
                         "SHA-256 is stored.")),
      {}};
  inv.flags.Add({.name = "label", .value_name = "L", .help = "what the token is for, e.g. the machine it lives on"});
  inv.flags.Add(
      {.name = "admin", .value_name = "", .help = "the token may administer (accounts, creating games, ...)"});
  if (int code = Parse(args, env, {"NAME"}, &inv); code >= 0) return code;
  v1::IssueTokenRequest request;
  request.set_identity(Arg(inv, 0));
  request.set_label(inv.flags.Get("label"));
  request.set_admin(inv.flags.Has("admin"));
  v1::IssueTokenResponse response;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->IssueToken(&context, request, &response); !s.ok())
    return RpcError(inv, "IssueToken", s);
  std::cout << (inv.global.json ? IssuedTokenJson(request, response) + "\n" : IssuedTokenText(request, response));
  return kExitOk;
}

int RunTokens(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{cli::Flags("tokens", "NAME [flags]",
                            Summary("Lists an identity's tokens, revoked ones included. Never prints the tokens.")),
                 {}};
  if (int code = Parse(args, env, {"NAME"}, &inv); code >= 0) return code;
  v1::ListTokensRequest request;
  request.set_identity(Arg(inv, 0));
  v1::ListTokensResponse list;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->ListTokens(&context, request, &list); !s.ok()) return RpcError(inv, "ListTokens", s);
  std::cout << (inv.global.json ? TokensJson(list) + "\n" : TokensTable(list));
  return kExitOk;
}

int RunRevokeToken(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{
      cli::Flags("revoke-token", "ID [flags]",
                 Summary("Revokes a token (ID from 'tokens'). Services refuse it once their cache forgets it, within\n"
                         "30 s by default.")),
      {}};
  if (int code = Parse(args, env, {"ID"}, &inv); code >= 0) return code;
  int64_t id = 0;
  if (!cli::ParseInt(Arg(inv, 0), 1, INT64_MAX, &id))
    return UsageError(inv.flags, "ID: '" + Arg(inv, 0) + "' is not a token id (a positive integer)");
  v1::RevokeTokenRequest request;
  request.set_token_id(id);
  v1::RevokeTokenResponse response;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->RevokeToken(&context, request, &response); !s.ok())
    return RpcError(inv, "RevokeToken", s);
  if (inv.global.json) {
    std::cout << "{\"id\":" << id << ",\"revoked\":true}\n";
  } else {
    std::cout << "revoked token " << id << "; services refuse it once their cache forgets it (30 s by default)\n";
  }
  return kExitOk;
}

int RunCreateLadder(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{
      cli::Flags("create-ladder", "ID [flags]",
                 Summary("Creates a ladder: ID is 1 to 64 of a-z, 0-9, '_' and '-'. A setting left out takes its\n"
                         "default (docs/ACCOUNTS.md lists them). A ladder starts without a season: open one\n"
                         "with create-season.")),
      {}};
  AddLadderFlags(&inv.flags);
  if (int code = Parse(args, env, {"ID"}, &inv); code >= 0) return code;
  v1::CreateLadderRequest request;
  request.set_id(Arg(inv, 0));
  std::string error;
  if (!BuildLadderSettings(inv.flags, request.mutable_settings(), &error)) return UsageError(inv.flags, error);
  v1::Ladder ladder;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->CreateLadder(&context, request, &ladder); !s.ok())
    return RpcError(inv, "CreateLadder", s);
  if (inv.global.json) {
    std::cout << LadderJson(ladder) << "\n";
  } else {
    std::cout << "created ladder " << ladder.id() << "; open its first season with: metropolisctl create-season "
              << ladder.id() << "\n\n"
              << LadderText(ladder);
  }
  return kExitOk;
}

int RunUpdateLadder(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{
      cli::Flags("update-ladder", "ID [flags]",
                 Summary("Changes the settings given and keeps the others. The matchmaker forms its next tables with\n"
                         "them, the ratings service rates its next games with them; ratings given stay.")),
      {}};
  AddLadderFlags(&inv.flags);
  if (int code = Parse(args, env, {"ID"}, &inv); code >= 0) return code;
  v1::UpdateLadderRequest request;
  request.set_id(Arg(inv, 0));
  std::string error;
  if (!BuildLadderSettings(inv.flags, request.mutable_settings(), &error)) return UsageError(inv.flags, error);
  if (request.settings().ByteSizeLong() == 0)
    return UsageError(inv.flags, "nothing to update: give at least one setting (--seats, --decision-ms, ...)");
  v1::Ladder ladder;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->UpdateLadder(&context, request, &ladder); !s.ok())
    return RpcError(inv, "UpdateLadder", s);
  std::cout << (inv.global.json ? LadderJson(ladder) + "\n"
                                : "updated ladder " + ladder.id() + "\n\n" + LadderText(ladder));
  return kExitOk;
}

int RunLadders(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{cli::Flags("ladders", "[flags]", Summary("Lists ladders with their open season and settings.")), {}};
  if (int code = Parse(args, env, {}, &inv); code >= 0) return code;
  v1::ListLaddersResponse list;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->ListLadders(&context, v1::ListLaddersRequest(), &list); !s.ok())
    return RpcError(inv, "ListLadders", s);
  std::cout << (inv.global.json ? LaddersJson(list) + "\n" : LaddersTable(list));
  return kExitOk;
}

int RunCreateSeason(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{cli::Flags("create-season", "LADDER [flags]",
                            Summary("Opens the ladder's next season and closes the open one at the same instant.")),
                 {}};
  if (int code = Parse(args, env, {"LADDER"}, &inv); code >= 0) return code;
  v1::CreateSeasonRequest request;
  request.set_ladder(Arg(inv, 0));
  v1::CreateSeasonResponse response;
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  if (grpc::Status s = Stub(inv)->CreateSeason(&context, request, &response); !s.ok())
    return RpcError(inv, "CreateSeason", s);
  if (inv.global.json) {
    std::cout << "{\"ladder\":" << JsonString(response.ladder()) << ",\"season\":" << response.season() << "}\n";
  } else {
    std::cout << "ladder " << response.ladder() << ": season " << response.season() << " is open"
              << (response.season() > 1 ? " (season " + std::to_string(response.season() - 1) + " closed)" : "")
              << "\n";
  }
  return kExitOk;
}

}  // namespace metropolis::ctl
