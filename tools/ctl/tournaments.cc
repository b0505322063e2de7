#include "tools/ctl/tournaments.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <thread>

#include "metropolis/v1/accounts.grpc.pb.h"
#include "metropolis/v1/tournaments.grpc.pb.h"

namespace metropolis::ctl {
namespace {

std::string Fixed(double v, int digits) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

bool IsNumber(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::map<int64_t, std::string> NamesById(const v1::Tournament& t) {
  std::map<int64_t, std::string> names;
  for (const auto& e : t.entrants()) names[e.identity_id()] = e.name();
  return names;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// One positional: the tournament's id.
int ParseIdCommand(const std::string& name, const std::string& summary, const std::vector<std::string>& args,
                   const GetEnv& env, Invocation* inv, std::vector<cli::FlagSpec> extra = {}) {
  cli::Flags flags(name, "ID [flags]", summary);
  flags.AllowPositionals();
  for (cli::FlagSpec& f : extra) flags.Add(std::move(f));
  *inv = Invocation{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, inv); code >= 0) return code;
  if (inv->flags.positionals().size() != 1) return UsageError(inv->flags, "expected one tournament id");
  return -1;
}

grpc::Status GetTournament(const Invocation& inv, v1::Tournament* out) {
  auto stub = v1::Tournaments::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::GetTournamentRequest request;
  request.set_id(inv.flags.positionals()[0]);
  return stub->GetTournament(&context, request, out);
}

// The tournament and its games; -1, or the exit code after printing the error.
int GetTournamentAndGames(const Invocation& inv, v1::Tournament* t, v1::ListTournamentGamesResponse* games) {
  if (grpc::Status s = GetTournament(inv, t); !s.ok()) return RpcError(inv, "GetTournament", s);
  auto stub = v1::Tournaments::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::ListTournamentGamesRequest request;
  request.set_id(t->id());
  if (grpc::Status s = stub->ListTournamentGames(&context, request, games); !s.ok())
    return RpcError(inv, "ListTournamentGames", s);
  return -1;
}

// Identities by name, from the Accounts service (--accounts, or env
// METROPOLIS_ACCOUNTS, or --host), which runs apart from the matchmaker; -1,
// or the exit code after printing the error.
int IdsByName(const Invocation& inv, const GetEnv& env, std::map<std::string, int64_t>* out) {
  std::string address = inv.flags.Has("accounts") ? inv.flags.Get("accounts") : "";
  if (address.empty() && env)
    if (const char* v = env("METROPOLIS_ACCOUNTS")) address = v;
  auto accounts = v1::Accounts::NewStub(MakeChannel(inv.global, address));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::ListIdentitiesResponse identities;
  if (grpc::Status s = accounts->ListIdentities(&context, v1::ListIdentitiesRequest(), &identities); !s.ok())
    return RpcError(inv, "ListIdentities (to find identities by name)", s);
  for (const auto& i : identities.identities()) (*out)[i.name()] = i.id();
  return -1;
}

}  // namespace

cli::Flags CreateTournamentFlags() {
  cli::Flags f("create-tournament", "ID --format F (--entrants A,B,... | --starts-in DURATION) [flags]",
               "Creates a tournament at the matchmaker (--host; an administrator's token). Its games start as\n"
               "the entrants' bots become available (metropolis-bot --compete); follow it with\n"
               "watch-tournament ID. With a start (--starts-in, --starts-at) it takes registrations until\n"
               "then (join-tournament) and makes its schedule from those entered.");
  f.AllowPositionals();
  f.Add({.name = "format", .value_name = "F", .help = "round-robin, swiss, duplicate or arena (with --arena)"});
  f.Add({.name = "arena",
         .value_name = "DURATION",
         .help = "arena: pair entrants as they become free for this long from the start (1m to 7d), e.g. 30m"});
  f.Add({.name = "entrants", .value_name = "LIST", .help = "identities, by id or name, comma-separated"});
  f.Add(
      {.name = "accounts",
       .value_name = "ADDR",
       .help = "the Accounts service, where entrants' names are looked up (env METROPOLIS_ACCOUNTS; default --host)"});
  f.Add({.name = "title", .value_name = "TEXT", .help = "a title for people"});
  f.Add({.name = "seats", .value_name = "N", .help = "3 or 4 (default 4)"});
  f.Add({.name = "rounds",
         .value_name = "N",
         .help = "Swiss: rounds (default 3); round robin and duplicate: times the schedule is played (default 1)"});
  f.Add({.name = "ruleset", .value_name = "R", .help = "cities_and_knights (default) or base"});
  f.Add({.name = "options", .value_name = "TEXT", .help = "rules options, \"name=value ...\""});
  f.Add({.name = "seed",
         .value_name = "N",
         .help = "the schedule's seed (default: drawn); the same seed, the same games"});
  f.Add({.name = "max-games", .value_name = "N", .help = "games at once per entrant (default 1)"});
  f.Add({.name = "decision-ms", .value_name = "N", .help = "time per decision (default 10000)"});
  f.Add({.name = "time-bank-ms", .value_name = "N", .help = "time bank per seat (default 60000)"});
  f.Add(
      {.name = "sequential-stop",
       .value_name = "",
       .help = "duplicate, round robin: stop once the sequential test decides every pair (give --rounds as the cap)"});
  f.Add({.name = "starts-in",
         .value_name = "DURATION",
         .help = "open registration and start then, e.g. 30m, 2h, 1d (entrants join with join-tournament)"});
  f.Add({.name = "starts-at", .value_name = "TIME", .help = "as --starts-in, at a UTC time: 2026-12-24T18:00:00Z"});
  f.Add({.name = "max-entrants", .value_name = "N", .help = "with a start: the most entrants taken (default 16)"});
  f.Add({.name = "repeat",
         .value_name = "DURATION",
         .help =
             "with a start: recur this often (e.g. 1d, at least 10m), the next occurrences named <ID>-2, <ID>-3, ..."});
  return f;
}

bool ParseDurationMs(const std::string& text, int64_t* out) {
  static const std::pair<const char*, int64_t> kUnits[] = {
      {"ms", 1}, {"s", 1000}, {"m", 60'000}, {"h", 3'600'000}, {"d", 86'400'000}};
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 9) return false;
  const int64_t n = std::stoll(text.substr(0, digits));
  for (const auto& [unit, ms] : kUnits) {
    if (text.substr(digits) == unit) {
      *out = n * ms;
      return true;
    }
  }
  return false;
}

bool ParseUtcTimeMs(const std::string& text, int64_t* out) {
  std::tm tm{};
  int consumed = 0;
  // "YYYY-MM-DDTHH:MM[:SS]Z"; the T may be a space.
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%*1[T ]%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &consumed) != 5)
    return false;
  std::string rest = text.substr(size_t(consumed));
  if (rest.size() >= 3 && rest[0] == ':') {
    if (std::sscanf(rest.c_str(), ":%2d%n", &tm.tm_sec, &consumed) != 1) return false;
    rest = rest.substr(size_t(consumed));
  }
  if (rest != "Z") return false;
  if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
      tm.tm_sec > 60)
    return false;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  *out = int64_t(timegm(&tm)) * 1000;
  return true;
}

bool EntrantsNeedNames(const std::string& list) {
  for (const std::string& e : SplitCommas(list))
    if (!IsNumber(e)) return true;
  return false;
}

bool BuildCreateTournamentRequest(const cli::Flags& flags, const std::map<std::string, int64_t>& ids_by_name,
                                  int64_t now_ms, v1::CreateTournamentRequest* out, std::string* error) {
  v1::CreateTournamentRequest r;
  if (flags.positionals().size() != 1) {
    *error = "expected one tournament id";
    return false;
  }
  r.set_id(flags.positionals()[0]);
  if (flags.Get("format").empty()) {
    *error = "--format is required (round-robin, swiss, duplicate or arena)";
    return false;
  }
  r.set_format(flags.Get("format"));
  const bool registration = flags.Has("starts-in") || flags.Has("starts-at");
  if (flags.Has("starts-in") && flags.Has("starts-at")) {
    *error = "--starts-in and --starts-at: give one";
    return false;
  }
  if (flags.Has("starts-in")) {
    int64_t in = 0;
    if (!ParseDurationMs(flags.Get("starts-in"), &in) || in <= 0) {
      *error = "--starts-in: '" + flags.Get("starts-in") + "' is not a duration such as 90s, 30m, 2h or 1d";
      return false;
    }
    r.set_starts_unix_ms(now_ms + in);
  }
  if (flags.Has("starts-at")) {
    int64_t at = 0;
    if (!ParseUtcTimeMs(flags.Get("starts-at"), &at)) {
      *error = "--starts-at: '" + flags.Get("starts-at") + "' is not a UTC time such as 2026-12-24T18:00:00Z";
      return false;
    }
    r.set_starts_unix_ms(at);
  }
  if (flags.Has("repeat")) {
    int64_t every = 0;
    if (!registration || !ParseDurationMs(flags.Get("repeat"), &every) || every <= 0) {
      *error = registration ? "--repeat: '" + flags.Get("repeat") + "' is not a duration such as 1d or 12h"
                            : "--repeat needs a start (--starts-in or --starts-at)";
      return false;
    }
    r.set_repeat_every_ms(every);
  }
  r.set_sequential_stop(flags.Has("sequential-stop"));
  if (flags.Has("arena")) {
    int64_t length = 0;
    if (!ParseDurationMs(flags.Get("arena"), &length) || length <= 0) {
      *error = "--arena: '" + flags.Get("arena") + "' is not a duration such as 30m or 2h";
      return false;
    }
    r.set_arena_ms(length);
  } else if (flags.Get("format") == "arena") {
    *error = "--format arena needs --arena DURATION (how long entrants are paired)";
    return false;
  }
  if (flags.Has("max-entrants") && !registration) {
    *error = "--max-entrants needs a start (--starts-in or --starts-at)";
    return false;
  }
  const std::vector<std::string> entrants = SplitCommas(flags.Get("entrants"));
  if (entrants.empty() && !registration) {
    *error = "--entrants is required (or a start, to take registrations): identities by id or name, comma-separated";
    return false;
  }
  for (const std::string& e : entrants) {
    if (IsNumber(e)) {
      r.add_entrants(std::stoll(e));
      continue;
    }
    auto it = ids_by_name.find(e);
    if (it == ids_by_name.end()) {
      *error = "--entrants: no identity named '" + e + "'";
      return false;
    }
    r.add_entrants(it->second);
  }
  r.set_title(flags.Get("title"));
  r.set_ruleset(flags.Get("ruleset"));
  r.set_options(flags.Get("options"));
  struct IntFlag {
    const char* name;
    int64_t min, max;
    void (v1::CreateTournamentRequest::*set)(uint32_t);
  };
  const IntFlag ints[] = {
      {"seats", 3, 4, &v1::CreateTournamentRequest::set_seats},
      {"rounds", 1, 1000, &v1::CreateTournamentRequest::set_rounds},
      {"max-games", 1, 64, &v1::CreateTournamentRequest::set_max_games_per_entrant},
      {"decision-ms", 100, 3'600'000, &v1::CreateTournamentRequest::set_decision_ms},
      {"time-bank-ms", 0, 86'400'000, &v1::CreateTournamentRequest::set_time_bank_ms},
      {"max-entrants", 3, 1000, &v1::CreateTournamentRequest::set_max_entrants},
  };
  for (const IntFlag& f : ints) {
    if (!flags.Has(f.name)) continue;
    int64_t v = 0;
    if (!flags.GetInt(f.name, f.min, f.max, &v, error)) return false;
    (r.*f.set)(uint32_t(v));
  }
  if (flags.Has("seed")) {
    uint64_t seed = 0;
    if (!flags.GetUint64("seed", &seed, error)) return false;
    r.set_seed(seed);
  }
  *out = std::move(r);
  return true;
}

std::string ProgressLine(const v1::Tournament& t) {
  const uint32_t total = t.games_total(), done = t.games_finished();
  constexpr int kWidth = 30;
  const int filled = total ? int(double(done) / total * kWidth) : 0;
  std::string bar(size_t(filled), '#');
  bar.append(size_t(kWidth - filled), '.');
  std::string line = t.id() + " (" + t.format() + ", " + t.state() + "): ";
  if (t.state() == "registering")
    return line + std::to_string(t.entrants_size()) + "/" + std::to_string(t.max_entrants()) + " entered, starts " +
           FormatUnixMs(t.starts_unix_ms());
  if (t.state() == "cancelled" && !t.reason().empty()) line += t.reason() + "; ";
  if (t.format() == "arena")
    return line + (t.state() == "running" ? "pairing until " : "paired until ") +
           FormatUnixMs(t.starts_unix_ms() + t.arena_ms()) + ", " + std::to_string(done) + " games finished, " +
           std::to_string(t.games_playing()) + " playing";
  if (t.format() == "swiss")
    line += "round " + std::to_string(t.current_round() + 1) + " of " + std::to_string(t.rounds()) + ", ";
  line += std::to_string(done) + "/" + std::to_string(total) + " games finished, " + std::to_string(t.games_playing()) +
          " playing  [" + bar + "] " + std::to_string(total ? done * 100 / total : 0) + " %";
  if (t.games_void()) line += " (" + std::to_string(t.games_void()) + " void: stopped early)";
  return line;
}

std::string IntervalBar(double low, double mean, double high, int width) {
  auto cell = [&](double v) { return std::clamp(int(std::lround(v * (width - 1))), 0, width - 1); };
  std::string bar(size_t(width), ' ');
  const int lo = cell(low), hi = cell(high), at = cell(mean);
  for (int i = lo; i <= hi; ++i) bar[size_t(i)] = '-';
  bar[size_t(lo)] = '[';
  bar[size_t(hi)] = ']';
  bar[size_t(at)] = '*';
  return "|" + bar + "|";
}

std::string StandingsTable(const v1::Tournament& t) {
  // Duplicate: score and interval are per complete set, so the sets are shown.
  const bool sets = t.format() == "duplicate";
  std::vector<std::string> header = {"rank", "entrant", "games", "wins"};
  if (sets) header.push_back("sets");
  for (const char* h : {"score", "95% CI"}) header.push_back(h);
  header.push_back("0" + std::string(20, ' ') + "1");
  std::vector<std::vector<std::string>> rows = {header};
  for (const v1::Standing& s : t.standings()) {
    const bool counted = sets ? s.sets() > 0 : s.games() > 0;
    std::vector<std::string> row = {std::to_string(s.rank()),
                                    s.name().empty() ? std::to_string(s.identity_id()) : s.name(),
                                    std::to_string(s.games()), std::to_string(s.wins())};
    if (sets) row.push_back(std::to_string(s.sets()));
    row.push_back(counted ? Fixed(s.score(), 3) : "-");
    row.push_back(counted ? Fixed(s.ci_low(), 3) + "-" + Fixed(s.ci_high(), 3) : "-");
    row.push_back(counted ? IntervalBar(s.ci_low(), s.score(), s.ci_high(), 20) : "");
    rows.push_back(std::move(row));
  }
  return FormatTable(rows);
}

// The pairs after the standings, a blank line between; nothing without pairs.
static std::string PairsGap(const v1::Tournament& t) {
  const std::string pairs = PairsTable(t);
  return pairs.empty() ? "" : "\n" + pairs;
}

std::string PairsTable(const v1::Tournament& t) {
  if (t.pairs().empty()) return "";
  auto name = [](const std::string& n, int64_t id) { return n.empty() ? std::to_string(id) : n; };
  std::vector<std::vector<std::string>> rows = {{"ahead", "behind", t.format() == "duplicate" ? "sets" : "games",
                                                 "difference", "95% CI", "separated", "SPRT", "LLR", "at"}};
  for (const v1::PairComparison& p : t.pairs()) {
    rows.push_back({name(p.a_name(), p.a_identity_id()), name(p.b_name(), p.b_identity_id()),
                    std::to_string(p.shared()), Fixed(p.difference(), 3),
                    p.shared() >= 2 ? Fixed(p.ci_low(), 3) + " to " + Fixed(p.ci_high(), 3) : "-",
                    p.better() ? "yes" : "no", p.sprt(), Fixed(p.sprt_llr(), 2), std::to_string(p.sprt_sets())});
  }
  return FormatTable(rows);
}

std::string TournamentGamesCsv(const v1::Tournament& t, const v1::ListTournamentGamesResponse& games) {
  const std::map<int64_t, std::string> names = NamesById(t);
  std::string out = "number,round,set,rotation,state,game_id,attempts";
  for (uint32_t s = 0; s < t.seats(); ++s) out += ",seat" + std::to_string(s) + ",place" + std::to_string(s);
  out += "\n";
  for (const v1::TournamentGame& g : games.games()) {
    out += std::to_string(g.number()) + "," + std::to_string(g.round()) + "," + std::to_string(g.set()) + "," +
           std::to_string(g.rotation()) + "," + g.state() + "," + g.game_id() + "," + std::to_string(g.attempts());
    for (int s = 0; s < g.entrants_size(); ++s) {
      auto it = names.find(g.entrants(s));
      out += "," + CsvField(it != names.end() ? it->second : std::to_string(g.entrants(s)));
      out += "," + (s < g.places_size() ? std::to_string(g.places(s)) : std::string());
    }
    out += "\n";
  }
  return out;
}

int RunCreateTournament(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{CreateTournamentFlags(), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  std::map<std::string, int64_t> ids_by_name;
  if (EntrantsNeedNames(inv.flags.Get("entrants")))
    if (int code = IdsByName(inv, env, &ids_by_name); code >= 0) return code;
  v1::CreateTournamentRequest request;
  std::string error;
  const int64_t now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  if (!BuildCreateTournamentRequest(inv.flags, ids_by_name, now_ms, &request, &error))
    return UsageError(inv.flags, error);
  auto stub = v1::Tournaments::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::Tournament t;
  if (grpc::Status s = stub->CreateTournament(&context, request, &t); !s.ok())
    return RpcError(inv, "CreateTournament", s);
  if (inv.global.json) {
    std::cout << MessageJson(t) << "\n";
    return kExitOk;
  }
  if (t.state() == "registering") {
    std::cout << "created tournament " << t.id() << ": " << t.format() << ", " << t.seats()
              << " seats, taking entrants until " << FormatUnixMs(t.starts_unix_ms()) << " (" << t.entrants_size()
              << " of at most " << t.max_entrants() << " entered)"
              << (t.repeat_every_ms()
                      ? ", recurring every " + FormatDurationMs(t.repeat_every_ms(), DurationStyle::kRounded)
                      : "")
              << "\n"
              << "entrants join with their own token:\n"
              << "  metropolisctl --token $BOT_TOKEN join-tournament " << t.id() << "\n";
    return kExitOk;
  }
  std::cout << "created tournament " << t.id() << ": " << t.format() << ", " << t.entrants_size() << " entrants, "
            << t.seats() << " seats, " << t.games_total() << " games scheduled"
            << (t.format() == "swiss" ? " (round 1 of " + std::to_string(t.rounds()) + ")" : "") << ", seed "
            << t.seed() << "\n"
            << "the games start as the entrants compete (metropolis-bot --compete); follow with:\n"
            << "  metropolisctl watch-tournament " << t.id() << "\n";
  return kExitOk;
}

int RunTournaments(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("tournaments", "[flags]", "Lists the tournaments at the matchmaker (--host), newest first.");
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  auto stub = v1::Tournaments::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::ListTournamentsResponse list;
  if (grpc::Status s = stub->ListTournaments(&context, v1::ListTournamentsRequest(), &list); !s.ok())
    return RpcError(inv, "ListTournaments", s);
  if (inv.global.json) {
    std::cout << MessageJson(list) << "\n";
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows = {
      {"id", "format", "state", "entrants", "seats", "title", "starts", "recurs"}};
  for (const auto& t : list.tournaments())
    rows.push_back(
        {t.id(), t.format(), t.state(),
         std::to_string(t.entrants_size()) + (t.state() == "registering" ? "/" + std::to_string(t.max_entrants()) : ""),
         std::to_string(t.seats()), t.title(), FormatUnixMs(t.starts_unix_ms()),
         t.repeat_every_ms() ? "every " + FormatDurationMs(t.repeat_every_ms(), DurationStyle::kRounded) : "-"});
  std::cout << FormatTable(rows);
  return kExitOk;
}

int RunStandings(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{cli::Flags("", "", ""), {}};
  if (int code = ParseIdCommand("standings",
                                "Prints a tournament's progress and standings: mean score per game (1 first, 0 last;\n"
                                "duplicate: per complete set) with its 95 % confidence interval, drawn on a 0..1\n"
                                "scale; then every pair of entrants compared over the sets or games both played.",
                                args, env, &inv);
      code >= 0)
    return code;
  v1::Tournament t;
  if (grpc::Status s = GetTournament(inv, &t); !s.ok()) return RpcError(inv, "GetTournament", s);
  if (inv.global.json) {
    std::cout << MessageJson(t) << "\n";
    return kExitOk;
  }
  std::cout << ProgressLine(t) << "\n\n" << StandingsTable(t) << PairsGap(t);
  return kExitOk;
}

int RunWatchTournament(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{cli::Flags("", "", ""), {}};
  if (int code = ParseIdCommand(
          "watch-tournament",
          "Follows a tournament until it ends: its progress as it changes, then the final standings.", args, env, &inv,
          {{.name = "interval-ms", .value_name = "N", .help = "time between polls (default 1000)"}});
      code >= 0)
    return code;
  int64_t interval = 1000;
  std::string error;
  if (inv.flags.Has("interval-ms") && !inv.flags.GetInt("interval-ms", 50, 600'000, &interval, &error))
    return UsageError(inv.flags, error);
  const bool tty = isatty(STDOUT_FILENO) && !inv.global.json;
  std::string last;
  int failures = 0;
  for (;;) {
    v1::Tournament t;
    if (grpc::Status s = GetTournament(inv, &t); !s.ok()) {
      // A matchmaker restarting is not the end of the tournament: keep polling a while.
      if (s.error_code() != grpc::StatusCode::UNAVAILABLE || ++failures > 60) return RpcError(inv, "GetTournament", s);
      std::this_thread::sleep_for(std::chrono::milliseconds(interval));
      continue;
    }
    failures = 0;
    const std::string line = ProgressLine(t);
    if (line != last) {
      if (inv.global.json)
        std::cout << MessageJson(t) << std::endl;
      else if (tty)
        std::cout << "\r\033[K" << line << std::flush;
      else
        std::cout << line << std::endl;
      last = line;
    }
    if (t.state() != "running" && t.state() != "registering") {
      if (!inv.global.json) std::cout << (tty ? "\n\n" : "\n") << StandingsTable(t) << PairsGap(t);
      return kExitOk;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(interval));
  }
}

int RunTournamentGames(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{cli::Flags("", "", ""), {}};
  if (int code = ParseIdCommand("tournament-games",
                                "Lists every game of a tournament's schedule: its round, duplicate set and rotation,\n"
                                "state, game id and, when finished, the places by seat.",
                                args, env, &inv);
      code >= 0)
    return code;
  v1::Tournament t;
  v1::ListTournamentGamesResponse games;
  if (int code = GetTournamentAndGames(inv, &t, &games); code >= 0) return code;
  if (inv.global.json) {
    std::cout << MessageJson(games) << "\n";
    return kExitOk;
  }
  const std::map<int64_t, std::string> names = NamesById(t);
  std::vector<std::vector<std::string>> rows = {{"#", "round", "set", "state", "game", "seats (place)"}};
  for (const auto& g : games.games()) {
    std::string seats;
    for (int s = 0; s < g.entrants_size(); ++s) {
      auto it = names.find(g.entrants(s));
      seats += (s ? " " : "") + (it != names.end() ? it->second : std::to_string(g.entrants(s)));
      if (s < g.places_size()) seats += "(" + std::to_string(g.places(s)) + ")";
    }
    rows.push_back({std::to_string(g.number()), std::to_string(g.round() + 1),
                    g.set() >= 0 ? std::to_string(g.set()) + "." + std::to_string(g.rotation()) : "-", g.state(),
                    g.game_id().empty() ? "-" : g.game_id(), seats});
  }
  std::cout << FormatTable(rows);
  return kExitOk;
}

int RunExportTournament(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{cli::Flags("", "", ""), {}};
  if (int code =
          ParseIdCommand("export-tournament",
                         "Prints a tournament for analysis: as JSON (the tournament with its standings, and every\n"
                         "game with seeds and places), or its games as CSV (--csv).",
                         args, env, &inv, {{.name = "csv", .value_name = "", .help = "the games as CSV"}});
      code >= 0)
    return code;
  v1::Tournament t;
  v1::ListTournamentGamesResponse games;
  if (int code = GetTournamentAndGames(inv, &t, &games); code >= 0) return code;
  if (inv.flags.Has("csv")) {
    std::cout << TournamentGamesCsv(t, games);
    return kExitOk;
  }
  std::cout << "{\"tournament\":" << MessageJson(t) << ",\"games\":" << MessageJson(games) << "}\n";
  return kExitOk;
}

int RunCancelTournament(const std::vector<std::string>& args, const GetEnv& env) {
  Invocation inv{cli::Flags("", "", ""), {}};
  if (int code = ParseIdCommand(
          "cancel-tournament",
          "Stops scheduling a tournament's games (an administrator's token); those playing finish.", args, env, &inv);
      code >= 0)
    return code;
  auto stub = v1::Tournaments::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::CancelTournamentRequest request;
  request.set_id(inv.flags.positionals()[0]);
  v1::Tournament t;
  if (grpc::Status s = stub->CancelTournament(&context, request, &t); !s.ok())
    return RpcError(inv, "CancelTournament", s);
  if (inv.global.json)
    std::cout << MessageJson(t) << "\n";
  else
    std::cout << "cancelled " << t.id() << ": " << ProgressLine(t) << "\n";
  return kExitOk;
}

int RunRegistration(const std::vector<std::string>& args, const GetEnv& env, bool join) {
  Invocation inv{cli::Flags("", "", ""), {}};
  const std::string name = join ? "join-tournament" : "leave-tournament";
  if (int code = ParseIdCommand(
          name,
          join ? "Enters a tournament that takes registrations: the token's own identity (a bot's or a player's),\n"
                 "or with an administrator's token --identity. Entering twice changes nothing."
               : "Withdraws from a tournament before its start: the token's own identity, or with an\n"
                 "administrator's token --identity.",
          args, env, &inv,
          {{.name = "identity", .value_name = "NAME|ID", .help = "another identity (an administrator's token)"},
           {.name = "accounts",
            .value_name = "ADDR",
            .help = "the Accounts service, where --identity's name is looked up (env METROPOLIS_ACCOUNTS; default "
                    "--host)"}});
      code >= 0)
    return code;
  int64_t identity = 0;
  if (const std::string who = inv.flags.Get("identity"); !who.empty()) {
    if (IsNumber(who) && who.size() <= 18) {
      identity = std::stoll(who);
    } else {
      std::map<std::string, int64_t> ids_by_name;
      if (int code = IdsByName(inv, env, &ids_by_name); code >= 0) return code;
      auto it = ids_by_name.find(who);
      if (it == ids_by_name.end()) return UsageError(inv.flags, "--identity: no identity named '" + who + "'");
      identity = it->second;
    }
  }
  auto stub = v1::Tournaments::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::Tournament t;
  grpc::Status s;
  if (join) {
    v1::JoinTournamentRequest request;
    request.set_id(inv.flags.positionals()[0]);
    request.set_identity_id(identity);
    s = stub->JoinTournament(&context, request, &t);
  } else {
    v1::LeaveTournamentRequest request;
    request.set_id(inv.flags.positionals()[0]);
    request.set_identity_id(identity);
    s = stub->LeaveTournament(&context, request, &t);
  }
  if (!s.ok()) return RpcError(inv, join ? "JoinTournament" : "LeaveTournament", s);
  if (inv.global.json) {
    std::cout << MessageJson(t) << "\n";
    return kExitOk;
  }
  std::cout << (join ? "entered " : "withdrawn from ") << t.id() << ": " << ProgressLine(t) << "\n";
  return kExitOk;
}

int RunJoinTournament(const std::vector<std::string>& args, const GetEnv& env) {
  return RunRegistration(args, env, true);
}

int RunLeaveTournament(const std::vector<std::string>& args, const GetEnv& env) {
  return RunRegistration(args, env, false);
}

}  // namespace metropolis::ctl
