// results_load: the load program for the replays and ratings services
// (bench/results_load.sh starts them over a durable PostgreSQL and a Redis).
//
//   store  N completed games through Replays.StoreGame from C clients at once:
//          games per second, latency, and the compact replay's bytes per action;
//   rate   the same games through Ratings.RateGame: ratings updates per second;
//   rank   a board of R rated players seeded in PostgreSQL, then GetPlayerRating
//          of random players (the rank of any player), the top 50 and the page
//          around a player through gRPC: latency quantiles. The first read builds
//          the board in Redis from PostgreSQL, which is timed on its own.
//
// Game records are played once by bots (--distinct of them) and stored under
// fresh ids with random seats from --players identities.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <pqxx/pqxx>
#include <random>
#include <thread>
#include <unordered_map>

#include "bench/load_stats.h"
#include "bots/bot.h"
#include "engine/game.h"
#include "engine/view.h"
#include "lib/chance/chance.h"
#include "lib/flags/flags.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/ratings.grpc.pb.h"
#include "metropolis/v1/replays.grpc.pb.h"

namespace metropolis::load {
namespace {

struct Settings {
  std::string replays = "127.0.0.1:50061", ratings = "127.0.0.1:50062", token, pg;
  int64_t games = 5000, distinct = 48, clients = 32, players = 10000;
  int64_t rank_players = 1'000'000, rank_queries = 100'000, rank_clients = 4;
  std::string bot = "heuristic";
  std::vector<std::string> phases = {"store", "rate", "rank"};
  bool json = false;
};

struct Row {
  std::string phase;
  uint64_t calls = 0, errors = 0;
  double seconds = 0;
  Histogram::Snapshot latency;
  std::string note;
};

// One game of `bot` in every seat, with its actions, as the host records it.
v1::CompletedGameRecord PlayGame(const std::string& bot, uint64_t seed) {
  GameConfig config;
  config.num_seats = 4;
  config.board = DefaultBoard();
  State state(config);
  std::vector<std::unique_ptr<bots::Bot>> seats;
  std::vector<KnowledgeTracker> knowledge;
  std::vector<uint64_t> rngs;
  std::string error;
  for (int s = 0; s < 4; ++s) {
    seats.push_back(bots::MakeBot(bot, &error));
    if (!seats.back()) throw std::runtime_error("--bot: " + error);
    knowledge.emplace_back(s);
    knowledge.back().Reset(state);
    rngs.push_back(bots::MixSeed(seed, uint64_t(s) + 1));
  }
  chance::ChanceStreams chance(seed);
  v1::CompletedGameRecord g;
  std::vector<Event> events;
  while (!state.IsTerminal()) {
    const int p = state.CurrentPlayer();
    const Action a = p == kChancePlayer
                         ? chance.Sample(state)
                         : seats[size_t(p)]->Choose(MakeView(state, p, &knowledge[size_t(p)]), &rngs[size_t(p)]);
    events.clear();
    if (std::string e = state.Apply(a, &events); !e.empty()) throw std::runtime_error("bot played illegally: " + e);
    for (const Event& e : events)
      for (int s = 0; s < 4; ++s) knowledge[size_t(s)].Observe(MaskEvent(e, s));
    g.add_actions(Encode(a));
  }
  protocol::ConfigToProto(config, g.mutable_config());
  protocol::ResultToProto(state, g.mutable_result());
  g.set_chance_seed(seed);
  return g;
}

std::vector<std::shared_ptr<grpc::Channel>> Channels(const std::string& address, int n) {
  std::vector<std::shared_ptr<grpc::Channel>> out;
  for (int i = 0; i < n; ++i) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);  // one connection per channel
    out.push_back(grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args));
  }
  return out;
}

// Runs `call(i)` for i in [0, n) from `clients` threads; times each call.
Row RunCalls(const std::string& phase, int64_t n, int64_t clients, const std::function<bool(int64_t, int)>& call) {
  Histogram latency;
  std::atomic<int64_t> next{0};
  std::atomic<uint64_t> errors{0};
  const int64_t start = NowNs();
  std::vector<std::thread> threads;
  std::atomic<int64_t> done{0};
  for (int t = 0; t < clients; ++t) {
    threads.emplace_back([&, t] {
      for (int64_t i; (i = next.fetch_add(1)) < n;) {
        const int64_t t0 = NowNs();
        if (!call(i, t)) errors.fetch_add(1);
        latency.Record(NowNs() - t0);
        done.fetch_add(1);
      }
    });
  }
  // Progress on stderr for long phases.
  std::mutex mutex;
  std::condition_variable cv;
  bool finished = false;
  std::thread progress([&] {
    std::unique_lock lock(mutex);
    while (!cv.wait_for(lock, std::chrono::seconds(2), [&] { return finished; }))
      std::fprintf(stderr, "  %s: %lld / %lld\n", phase.c_str(), (long long)done.load(), (long long)n);
  });
  for (auto& t : threads) t.join();
  const int64_t end = NowNs();
  {
    std::lock_guard lock(mutex);
    finished = true;
  }
  cv.notify_all();
  progress.join();
  Row row;
  row.phase = phase;
  row.calls = uint64_t(n);
  row.errors = errors.load();
  row.seconds = double(end - start) / 1e9;
  row.latency = latency.Take();
  return row;
}

std::vector<int64_t> Ids(pqxx::connection& db, const std::string& like) {
  pqxx::read_transaction tx(db);
  std::vector<int64_t> ids;
  for (const pqxx::row& r : tx.exec("SELECT id FROM identities WHERE name LIKE " + tx.quote(like) + " ORDER BY id"))
    ids.push_back(r[0].as<int64_t>());
  return ids;
}

std::vector<int64_t> SeedPlayers(pqxx::connection& db, const std::string& ladder, const std::string& prefix, int64_t n,
                                 bool with_ratings) {
  pqxx::work tx(db);
  tx.exec("INSERT INTO ladders (id, placement_games) VALUES (" + tx.quote(ladder) + ", 0) ON CONFLICT DO NOTHING");
  tx.exec("INSERT INTO seasons (ladder_id, season) VALUES (" + tx.quote(ladder) + ", 1) ON CONFLICT DO NOTHING");
  tx.exec("INSERT INTO identities (kind, name) SELECT 'player', " + tx.quote(prefix) +
          " || g FROM generate_series(1, " + std::to_string(n) + ") g ON CONFLICT (name) DO NOTHING");
  if (with_ratings) {
    tx.exec("INSERT INTO ratings (ladder_id, season, identity_id, mu, sigma, games) SELECT " + tx.quote(ladder) +
            ", 1, id, 15 + random() * 20, 1 + random() * 7, 10 + (random() * 90)::int FROM identities "
            "WHERE name LIKE " +
            tx.quote(prefix + "%") + " ON CONFLICT DO NOTHING");
  }
  tx.commit();
  return Ids(db, prefix + "%");
}

void Print(const std::vector<Row>& rows, const Settings& s, const std::string& extra) {
  if (s.json) {
    std::cout << "{\"rows\":[";
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      std::printf(
          "%s{\"phase\":\"%s\",\"calls\":%llu,\"errors\":%llu,\"seconds\":%.3f,\"per_s\":%.1f,"
          "\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f}",
          i ? "," : "", r.phase.c_str(), (unsigned long long)r.calls, (unsigned long long)r.errors, r.seconds,
          double(r.calls) / r.seconds, double(r.latency.Quantile(0.5)) / 1e6, double(r.latency.Quantile(0.99)) / 1e6,
          double(r.latency.max) / 1e6);
    }
    std::cout << "]," << extra << "}\n";
    return;
  }
  std::printf("%-14s %9s %7s %9s %11s %9s %9s %9s  %s\n", "phase", "calls", "errors", "seconds", "per second", "p50 ms",
              "p99 ms", "max ms", "");
  for (const Row& r : rows) {
    std::printf("%-14s %9llu %7llu %9.2f %11.1f %9.3f %9.3f %9.3f  %s\n", r.phase.c_str(), (unsigned long long)r.calls,
                (unsigned long long)r.errors, r.seconds, double(r.calls) / r.seconds,
                double(r.latency.Quantile(0.5)) / 1e6, double(r.latency.Quantile(0.99)) / 1e6,
                double(r.latency.max) / 1e6, r.note.c_str());
  }
  std::cout << extra << "\n";
}

int Run(const Settings& s) {
  pqxx::connection db(s.pg);
  std::vector<Row> rows;
  std::string extra;
  const bool store = std::count(s.phases.begin(), s.phases.end(), "store") > 0;
  const bool rate = std::count(s.phases.begin(), s.phases.end(), "rate") > 0;
  if (rate && !store) {
    std::fprintf(stderr, "results_load: the rate phase needs the store phase (RateGame carries StoreGame's digest)\n");
    return 2;
  }
  const std::string run = std::to_string(std::random_device{}() % 1'000'000);
  std::vector<std::string> ids;
  if (store || rate) {
    std::fprintf(stderr, "seeding %lld players and playing %lld games of %s bots...\n", (long long)s.players,
                 (long long)s.distinct, s.bot.c_str());
    const auto players = SeedPlayers(db, "bench", "bench-", s.players, false);
    // Seats carry their identity's name, as a game host's records do (the
    // replays service's analysis asks Accounts by name who is a person).
    std::unordered_map<int64_t, std::string> names;
    {
      pqxx::read_transaction tx(db);
      for (const pqxx::row& r : tx.exec("SELECT id, name FROM identities WHERE name LIKE 'bench-%'"))
        names[r[0].as<int64_t>()] = r[1].as<std::string>();
    }
    std::vector<v1::CompletedGameRecord> records;
    for (int64_t i = 0; i < s.distinct; ++i) records.push_back(PlayGame(s.bot, uint64_t(i + 1)));
    std::vector<v1::StoreGameRequest> requests(size_t(s.games));
    std::mt19937_64 rng(7);
    uint64_t actions = 0;
    for (int64_t i = 0; i < s.games; ++i) {
      v1::CompletedGameRecord* g = requests[size_t(i)].mutable_game();
      *g = records[size_t(i % s.distinct)];
      g->set_game_id("bench-" + run + "-" + std::to_string(i));
      g->set_ladder("bench");
      g->set_season(1);
      const int64_t now_ms = NowNs() / 1'000'000;
      g->set_created_unix_ms(now_ms - 600'000);
      g->set_finished_unix_ms(1'800'000'000'000 + i);
      std::vector<int64_t> seat_ids;
      while (seat_ids.size() < 4) {
        const int64_t id = players[rng() % players.size()];
        if (std::find(seat_ids.begin(), seat_ids.end(), id) == seat_ids.end()) seat_ids.push_back(id);
      }
      for (int seat = 0; seat < 4; ++seat) {
        v1::SeatRecord* r = g->add_seats();
        r->set_seat(uint32_t(seat));
        r->set_name(names[seat_ids[size_t(seat)]]);
        r->set_identity_id(seat_ids[size_t(seat)]);
      }
      ids.push_back(g->game_id());
      actions += uint64_t(g->actions_size());
    }
    // The digests StoreGame answers, which RateGame carries (docs/RESULTS.md).
    std::vector<std::string> digests(size_t(s.games));
    if (store) {
      auto channels = Channels(s.replays, 4);
      std::atomic<uint64_t> compact{0};
      std::fprintf(stderr, "storing %lld games from %lld clients...\n", (long long)s.games, (long long)s.clients);
      rows.push_back(RunCalls("store", s.games, s.clients, [&](int64_t i, int t) {
        auto stub = v1::Replays::NewStub(channels[size_t(t) % channels.size()]);
        grpc::ClientContext context;
        context.AddMetadata("authorization", "Bearer " + s.token);
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
        v1::StoreGameResponse response;
        const grpc::Status status = stub->StoreGame(&context, requests[size_t(i)], &response);
        if (!status.ok()) std::fprintf(stderr, "StoreGame: %s\n", status.error_message().c_str());
        compact.fetch_add(response.compact_bytes());
        digests[size_t(i)] = response.digest();
        return status.ok();
      }));
      char note[128];
      std::snprintf(note, sizeof note, "%.3f bytes per action, %.0f actions per game", double(compact) / actions,
                    double(actions) / double(s.games));
      rows.back().note = note;
    }
    if (rate) {
      auto channels = Channels(s.ratings, 4);
      std::fprintf(stderr, "rating %lld games from %lld clients...\n", (long long)s.games, (long long)s.clients);
      rows.push_back(RunCalls("rate", s.games, s.clients, [&](int64_t i, int t) {
        auto stub = v1::Ratings::NewStub(channels[size_t(t) % channels.size()]);
        grpc::ClientContext context;
        context.AddMetadata("authorization", "Bearer " + s.token);
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
        v1::RateGameRequest request;
        request.set_game_id(ids[size_t(i)]);
        request.set_digest(digests[size_t(i)]);
        const v1::CompletedGameRecord& g = requests[size_t(i)].game();
        v1::GameOutcome* outcome = request.mutable_outcome();
        outcome->set_ladder(g.ladder());
        outcome->set_season(g.season());
        *outcome->mutable_result() = g.result();
        for (const v1::SeatRecord& seat : g.seats()) {
          v1::OutcomeSeat* o = outcome->add_seats();
          o->set_identity_id(seat.identity_id());
          o->set_forfeited(seat.forfeited());
        }
        v1::RateGameResponse response;
        const grpc::Status status = stub->RateGame(&context, request, &response);
        if (!status.ok()) std::fprintf(stderr, "RateGame: %s\n", status.error_message().c_str());
        return status.ok() && (response.rated() || response.already_rated());
      }));
      rows.back().note = "4 player ratings per game";
    }
  }
  if (std::count(s.phases.begin(), s.phases.end(), "rank")) {
    std::fprintf(stderr, "seeding %lld rated players in PostgreSQL...\n", (long long)s.rank_players);
    const int64_t seed_start = NowNs();
    const auto ranked = SeedPlayers(db, "bench-rank", "rank-", s.rank_players, true);
    const double seed_s = double(NowNs() - seed_start) / 1e9;
    auto channels = Channels(s.ratings, 4);
    auto stub = v1::Ratings::NewStub(channels[0]);
    auto lookup = [&](int64_t id, int t) {
      auto stub = v1::Ratings::NewStub(channels[size_t(t) % channels.size()]);
      grpc::ClientContext context;
      context.AddMetadata("authorization", "Bearer " + s.token);
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
      v1::GetPlayerRatingRequest request;
      request.set_ladder("bench-rank");
      request.set_identity_id(id);
      v1::PlayerRating response;
      const grpc::Status status = stub->GetPlayerRating(&context, request, &response);
      if (!status.ok()) std::fprintf(stderr, "GetPlayerRating: %s\n", status.error_message().c_str());
      return status.ok() && response.rank() > 0;
    };
    std::fprintf(stderr, "first read: the board is built in Redis from PostgreSQL...\n");
    rows.push_back(RunCalls("first read", 1, 1, [&](int64_t, int t) { return lookup(ranked[0], t); }));
    rows.back().note = "builds the board of " + std::to_string(ranked.size()) + " players";
    std::mt19937_64 rng(11);
    std::vector<int64_t> picks(size_t(s.rank_queries));
    for (auto& p : picks) p = ranked[rng() % ranked.size()];
    rows.push_back(RunCalls("rank", s.rank_queries, s.rank_clients,
                            [&](int64_t i, int t) { return lookup(picks[size_t(i)], t); }));
    rows.back().note = "GetPlayerRating of a random player";
    auto page = [&](int64_t around, int t) {
      auto stub = v1::Ratings::NewStub(channels[size_t(t) % channels.size()]);
      grpc::ClientContext context;
      context.AddMetadata("authorization", "Bearer " + s.token);
      v1::GetLeaderboardRequest request;
      request.set_ladder("bench-rank");
      request.set_limit(50);
      request.set_around_identity_id(around);
      v1::Leaderboard response;
      return stub->GetLeaderboard(&context, request, &response).ok() && response.entries_size() == 50;
    };
    const int64_t pages = std::max<int64_t>(1, s.rank_queries / 10);
    rows.push_back(RunCalls("top 50", pages, s.rank_clients, [&](int64_t, int t) { return page(0, t); }));
    rows.push_back(
        RunCalls("around", pages, s.rank_clients, [&](int64_t i, int t) { return page(picks[size_t(i)], t); }));
    rows.back().note = "50 entries around a random player";
    char note[96];
    std::snprintf(note, sizeof note, "\"seed_seconds\":%.1f,\"ranked_players\":%zu", seed_s, ranked.size());
    extra = s.json ? note
                   : "seeded " + std::to_string(ranked.size()) + " rated players in PostgreSQL in " +
                         std::to_string(int(seed_s)) + " s";
  }
  if (s.json && extra.empty()) extra = "\"note\":\"\"";
  Print(rows, s, extra);
  for (const Row& r : rows)
    if (r.errors) return 1;
  return 0;
}

}  // namespace
}  // namespace metropolis::load

int main(int argc, char** argv) {
  using metropolis::load::Settings;
  metropolis::cli::Flags flags("", "[flags]",
                               "Load on the replays and ratings services: stores and rates games, then ranks "
                               "players of a large board. bench/results_load.sh starts the services.");
  flags.set_program("results_load");
  auto add = [&](std::string name, std::string value, std::string help) {
    flags.Add({.name = std::move(name), .value_name = std::move(value), .help = std::move(help)});
  };
  add("replays", "ADDR", "replays service (default 127.0.0.1:50061)");
  add("ratings", "ADDR", "ratings service (default 127.0.0.1:50062)");
  add("token", "TOKEN", "the game hosts' service token of both services (required)");
  add("pg", "CONNINFO", "the services' PostgreSQL, to seed players and ladders (required)");
  add("games", "N", "games stored and rated (default 5000)");
  add("distinct", "N", "distinct games played by bots, reused under new ids (default 48)");
  add("bot", "SPEC", "the bots that play them (default heuristic)");
  add("clients", "N", "concurrent calls (default 32)");
  add("players", "N", "identities the stored games' seats are drawn from (default 10000)");
  add("rank-players", "N", "rated players on the board ranked (default 1000000)");
  add("rank-queries", "N", "GetPlayerRating calls (default 100000)");
  add("rank-clients", "N", "concurrent calls of the rank phase (default 4)");
  add("phases", "LIST", "store,rate,rank (default all)");
  add("json", "", "one JSON line instead of the table");
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  if (!flags.Parse(args, &error)) {
    std::cerr << "results_load: " << error << "\n";
    return 2;
  }
  if (flags.Help()) {
    std::cout << flags.Usage();
    return 0;
  }
  Settings s;
  s.replays = flags.Get("replays", s.replays);
  s.ratings = flags.Get("ratings", s.ratings);
  s.token = flags.Get("token");
  s.pg = flags.Get("pg");
  s.bot = flags.Get("bot", s.bot);
  s.json = flags.Has("json");
  if (flags.Has("phases")) s.phases = metropolis::cli::SplitCommas(flags.Get("phases"));
  for (const auto& p : s.phases) {
    if (p != "store" && p != "rate" && p != "rank") {
      std::cerr << "results_load: --phases: '" << p << "' is not store, rate or rank\n";
      return 2;
    }
  }
  auto get = [&](const char* name, int64_t min, int64_t max, int64_t* out) {
    return !flags.Has(name) || flags.GetInt(name, min, max, out, &error);
  };
  if (!get("games", 1, 100'000'000, &s.games) || !get("distinct", 1, 100'000, &s.distinct) ||
      !get("clients", 1, 1024, &s.clients) || !get("players", 4, 100'000'000, &s.players) ||
      !get("rank-players", 1, 100'000'000, &s.rank_players) || !get("rank-queries", 1, 100'000'000, &s.rank_queries) ||
      !get("rank-clients", 1, 1024, &s.rank_clients)) {
    std::cerr << "results_load: " << error << "\n";
    return 2;
  }
  if (s.token.empty() || s.pg.empty()) {
    std::cerr << "results_load: --token and --pg are required\n";
    return 2;
  }
  try {
    return metropolis::load::Run(s);
  } catch (const std::exception& e) {
    std::cerr << "results_load: " << e.what() << "\n";
    return 1;
  }
}
