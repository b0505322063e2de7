// arena: a candidate bot against opponents, with seat rotation and common
// random numbers, on all cores; win share with Wilson intervals (docs/BOTS.md).
//
// Games come in sets of one game per seat: set j has its own board (unless
// --default-board) and chance seed, and its games put the candidate in seat
// 0, 1, ... in turn, opponent k in the k-th seat after it (a cyclic rotation:
// every bot sits in every seat once per set). The chance streams
// (lib/chance/chance.h) make every game of a set meet the same start player,
// dice and, while the decks agree, draws, so what differs between them is who
// sits where. Whether that makes the set's results less spread than
// independent games' is measured, not assumed: the report's design effect
// (docs/TOURNAMENTS.md, "Duplicate play measured").
//
// --sprt-runs measures the tournament's sequential test on these sets: the
// candidate's set differences against each opponent bot are the pool, and
// runs of the test draw sets from it with replacement (docs/TOURNAMENTS.md,
// "Sets and pairs").

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include "bots/bot.h"
#include "bots/match.h"
#include "bots/search.h"
#include "engine/json_text.h"
#include "lib/ranking/places.h"
#include "lib/stats/intervals.h"
#include "lib/stats/sequential.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"
#include "tools/engine/rng.h"
#include "tools/engine/table.h"

namespace metropolis::cli {
namespace {

struct ArenaSettings {
  std::string candidate = "heuristic";
  std::vector<std::string> opponents;  // one per opponent seat
  int64_t games = 100;
  int seats = 4;
  uint64_t seed = 1;
  int threads = 1;
  bool default_board = false;
  bool independent = false;  // every game its own board and chance seed: no sets share anything
  RulesOptions options;
  std::string json;
  int sprt_runs = 0;  // 0: no sequential-test measurement
  int sprt_cap = 1000;
};

// The opponent bots, each once, in the order --opponents first names them,
// with the opponent positions (0 the first seat after the candidate) each
// holds.
struct OpponentKind {
  std::string spec;
  std::vector<int> positions;
};
std::vector<OpponentKind> OpponentKinds(const ArenaSettings& s) {
  std::vector<OpponentKind> kinds;
  for (int k = 0; k < int(s.opponents.size()); ++k) {
    auto it = std::find_if(kinds.begin(), kinds.end(),
                           [&](const OpponentKind& o) { return o.spec == s.opponents[size_t(k)]; });
    if (it == kinds.end()) it = kinds.insert(kinds.end(), {s.opponents[size_t(k)], {}});
    it->positions.push_back(k);
  }
  return kinds;
}

struct ArenaGame {
  bool done = false;
  int candidate_seat = 0;
  bots::GameOutcome outcome;
  bots::SearchStats search;  // the candidate's, when it searches
};

void PlayArenaGame(const ArenaSettings& s, int64_t index, ArenaGame* out) {
  const int64_t set = index / s.seats;
  const int rotation = int(index % s.seats);
  // A set's games share the board and the chance streams; --independent gives
  // every game its own, as a round robin plays its games: the control for what
  // the sharing saves (docs/TOURNAMENTS.md, "Duplicate play measured").
  const uint64_t set_seed = s.independent ? SplitMixHash(SplitMixHash(s.seed) ^ (uint64_t(index) << 1 | 1))
                                          : SplitMixHash(s.seed + uint64_t(set));
  GameConfig config;
  config.num_seats = s.seats;
  config.board = s.default_board ? DefaultBoard() : RandomBoard(set_seed);
  config.options = s.options;

  std::vector<std::unique_ptr<bots::Bot>> players(size_t(s.seats));
  std::vector<bots::Seat> seats(size_t(s.seats));
  std::string error;
  // A cyclic rotation: the candidate in seat `rotation`, opponent k in the k-th
  // seat after it, so that within a set every bot sits in every seat once.
  for (int seat = 0; seat < s.seats; ++seat) {
    const int after = (seat - rotation + s.seats) % s.seats;  // 0: the candidate
    const std::string& spec = after == 0 ? s.candidate : s.opponents[size_t(after - 1)];
    players[size_t(seat)] = bots::MakeBot(spec, &error);  // specs were checked when the flags were read
    bots::Seat& x = seats[size_t(seat)];
    x.seed = GamePlayerSeed(s.seed, uint64_t(index), seat);
    x.bot = players[size_t(seat)].get();
  }
  out->candidate_seat = rotation;
  out->outcome = bots::PlayGame(config, seats, set_seed ^ 0xC4A2CE5EEDull);
  if (auto* search = dynamic_cast<bots::SearchBot*>(players[size_t(rotation)].get())) out->search = search->stats();
  out->done = true;
}

class ProgressBar {
 public:
  explicit ProgressBar(int64_t total) : total_(total), tty_(isatty(STDERR_FILENO)) {}
  void Update(int64_t done, double seconds, const std::string& note) {
    if (tty_) {
      if (done < total_ && seconds - last_ < 0.2) return;
      last_ = seconds;
      constexpr int kWidth = 30;
      int filled = total_ ? int(kWidth * done / total_) : kWidth;
      std::string eta = done > 0 && done < total_
                            ? ", " + FormatFixed(seconds * double(total_ - done) / double(done), 0) + " s left"
                            : "";
      std::fprintf(stderr, "\r[%s%s] %lld/%lld games, %.0f s%s, %s\033[K", std::string(size_t(filled), '#').c_str(),
                   std::string(size_t(kWidth - filled), '.').c_str(), (long long)done, (long long)total_, seconds,
                   eta.c_str(), note.c_str());
      std::fflush(stderr);
      return;
    }
    // Without a terminal (logs) a line per twentieth keeps logs short.
    if (done * 20 < total_ * next_) return;
    while (next_ <= 20 && done * 20 >= total_ * next_) ++next_;
    std::fprintf(stderr, "arena: %lld/%lld games, %.0f s, %s\n", (long long)done, (long long)total_, seconds,
                 note.c_str());
  }
  void Finish() {
    if (tty_) std::fprintf(stderr, "\n");
  }

 private:
  int64_t total_;
  bool tty_;
  int next_ = 1;
  double last_ = -1;
};

struct Summary {
  int64_t games = 0, wins = 0, capped = 0, errors = 0;
  double candidate_vp = 0, opponent_vp = 0, actions = 0, turns = 0;
  // Player trades (TRD-3): the candidate's offers, counters and executed
  // trades, and the opponents' (summed over their seats).
  int64_t offers = 0, counters = 0, trades = 0, opponent_offers = 0, opponent_counters = 0, opponent_trades = 0;
  std::vector<int64_t> seat_games, seat_wins;
  std::vector<int64_t> opponent_wins;  // by opponent spec position
  bots::SearchStats search;
  // Per complete set (every rotation played without error), in set order: the
  // candidate's win share, and its margin, its mean place score (1 first, 0
  // last, ties sharing) minus the opponents' mean. The set is the unit whose
  // spread gives the interval when its games share their luck.
  std::vector<double> set_shares, set_margins;
  // Per complete set, by opponent kind (OpponentKinds): the candidate's set
  // score (its mean place score over the set) minus the mean of the set scores
  // of that kind's seats, the difference a tournament's pair takes between two
  // entrants; with one opponent kind it is the margin above. `first_seat_differences`
  // is against the kind's first seat alone, an exact tournament pair.
  std::vector<std::vector<double>> set_differences, first_seat_differences;
  // The margin's variance per game, when games are taken as independent.
  double game_margin_variance = 0;
};

// The by-set view of the win share: the mean of the sets' shares with a t
// interval, and the design effect, the variance of the mean by sets over what
// independent games of the same share would give (1 when sharing changes
// nothing; under 1 when the sets' shared luck cancels).
struct BySet {
  stats::MeanInterval share, margin;
  double design_effect = 0, margin_design_effect = 0;
};
BySet BySetOf(const ArenaSettings& s, const Summary& m) {
  BySet b;
  b.share = stats::MeanWithInterval(m.set_shares, 0, 1);
  b.margin = stats::MeanWithInterval(m.set_margins, -1, 1);
  const double p = b.share.mean, n = double(b.share.n);
  const double per_game = p * (1 - p) / (n * s.seats);
  if (b.share.n >= 2 && per_game > 0) b.design_effect = stats::SampleVariance(m.set_shares, p) / n / per_game;
  const double margin_per_game = m.game_margin_variance / (n * s.seats);
  if (b.margin.n >= 2 && margin_per_game > 0)
    b.margin_design_effect = stats::SampleVariance(m.set_margins, b.margin.mean) / n / margin_per_game;
  return b;
}

Summary Summarise(const ArenaSettings& s, const std::vector<ArenaGame>& games) {
  Summary m;
  m.seat_games.assign(size_t(s.seats), 0);
  m.seat_wins.assign(size_t(s.seats), 0);
  std::vector<double> game_margins;  // of complete sets only, as the sets' own
  const std::vector<OpponentKind> kinds = OpponentKinds(s);
  m.set_differences.resize(kinds.size());
  m.first_seat_differences.resize(kinds.size());
  for (size_t first = 0; first + size_t(s.seats) <= games.size(); first += size_t(s.seats)) {
    int won = 0;
    double margin = 0;
    bool complete = true;
    std::vector<double> margins_of_set;  // per game
    // Set scores, summed over the set's games: the candidate's, and each
    // opponent position's.
    double candidate_sum = 0;
    std::vector<double> opponent_sums(s.opponents.size(), 0.0);
    for (size_t i = first; i < first + size_t(s.seats); ++i) {
      const ArenaGame& g = games[i];
      complete = complete && g.done && g.outcome.error.empty();
      if (!complete) break;
      won += g.outcome.winner == g.candidate_seat;
      const std::vector<int> places = ranking::PlacesOf(
          g.outcome.winner, std::vector<int>(g.outcome.vp.begin(), g.outcome.vp.begin() + s.seats), {});
      double others = 0;
      for (int seat = 0; seat < s.seats; ++seat)
        if (seat != g.candidate_seat) others += ranking::SeatScore(places, seat);
      margins_of_set.push_back(ranking::SeatScore(places, g.candidate_seat) - others / (s.seats - 1));
      candidate_sum += ranking::SeatScore(places, g.candidate_seat);
      for (int k = 0; k < int(s.opponents.size()); ++k)  // opponent k sits k + 1 seats after the candidate
        opponent_sums[size_t(k)] += ranking::SeatScore(places, (g.candidate_seat + k + 1) % s.seats);
      margin += margins_of_set.back();
    }
    if (!complete) continue;
    game_margins.insert(game_margins.end(), margins_of_set.begin(), margins_of_set.end());
    m.set_shares.push_back(double(won) / s.seats);
    m.set_margins.push_back(margin / s.seats);
    for (size_t kind = 0; kind < kinds.size(); ++kind) {
      double theirs = 0;
      for (int k : kinds[kind].positions) theirs += opponent_sums[size_t(k)];
      const double mine = candidate_sum / s.seats;
      m.set_differences[kind].push_back(mine - theirs / double(kinds[kind].positions.size()) / s.seats);
      m.first_seat_differences[kind].push_back(mine - opponent_sums[size_t(kinds[kind].positions[0])] / s.seats);
    }
  }
  double mean = 0;
  for (double x : game_margins) mean += x / double(game_margins.size());
  m.game_margin_variance = stats::SampleVariance(game_margins, mean);
  for (const ArenaGame& g : games) {
    if (!g.done) continue;
    if (!g.outcome.error.empty()) {
      ++m.errors;
      continue;
    }
    ++m.games;
    ++m.seat_games[size_t(g.candidate_seat)];
    if (g.outcome.winner == g.candidate_seat) {
      ++m.wins;
      ++m.seat_wins[size_t(g.candidate_seat)];
    }
    if (g.outcome.winner == kNoSeat) ++m.capped;
    m.candidate_vp += g.outcome.vp[size_t(g.candidate_seat)];
    for (int seat = 0; seat < s.seats; ++seat)
      if (seat != g.candidate_seat) m.opponent_vp += g.outcome.vp[size_t(seat)];
    for (int seat = 0; seat < s.seats; ++seat) {
      const bool candidate = seat == g.candidate_seat;
      (candidate ? m.offers : m.opponent_offers) += g.outcome.offers[size_t(seat)];
      (candidate ? m.counters : m.opponent_counters) += g.outcome.counters[size_t(seat)];
      (candidate ? m.trades : m.opponent_trades) += g.outcome.trades[size_t(seat)];
    }
    m.actions += double(g.outcome.actions);
    m.turns += g.outcome.turns;
    m.search.decisions += g.search.decisions;
    m.search.iterations += g.search.iterations;
    m.search.seconds += g.search.seconds;
    m.search.cpu_seconds += g.search.cpu_seconds;
  }
  return m;
}

// The sequential test measured on the arena's sets (--sprt-runs): for each
// opponent kind and each way of pairing (against the mean of its seats, and,
// when it holds several, against its first seat alone), the pool of set
// differences three ways: as played; centred, its mean taken off so that no
// difference holds by construction (the false "separated" rate on the pool's
// own spread and shape); and centred plus mu1, a difference of exactly mu1 (the
// test's misses).
struct SprtRow {
  std::string opponent;
  std::string versus;  // "mean of 3 seats", "first seat", "its seat"
  std::string pool;    // "played", "centred", "centred+0.1"
  stats::BootstrapResult result;
};
std::vector<SprtRow> MeasureSprt(const ArenaSettings& s, const Summary& m) {
  std::vector<SprtRow> rows;
  if (s.sprt_runs <= 0) return rows;
  const stats::SprtOptions sprt;  // a tournament pair's test
  const std::vector<OpponentKind> kinds = OpponentKinds(s);
  for (size_t kind = 0; kind < kinds.size(); ++kind) {
    const int holds = int(kinds[kind].positions.size());
    std::vector<std::pair<std::string, const std::vector<double>*>> pairings = {
        {holds > 1 ? "mean of " + std::to_string(holds) + " seats" : "its seat", &m.set_differences[kind]}};
    if (holds > 1) pairings.push_back({"first seat", &m.first_seat_differences[kind]});
    for (const auto& [versus, played] : pairings) {
      double mean = 0;
      for (double d : *played) mean += d / double(played->size());
      std::vector<double> centred = *played, shifted = *played;
      for (double& d : centred) d -= mean;
      for (double& d : shifted) d += sprt.mu1 - mean;
      for (const auto& [name, pool] : {std::pair<std::string, const std::vector<double>*>{"played", played},
                                       {"centred", &centred},
                                       {"centred+" + FormatFixed(sprt.mu1, 1), &shifted}}) {
        stats::BootstrapOptions o;
        o.runs = s.sprt_runs;
        o.cap = s.sprt_cap;
        // Each row its own draws, all from --seed.
        o.seed = SplitMixHash(SplitMixHash(s.seed ^ 0x5E9E47A1ull) + uint64_t(rows.size()));
        rows.push_back({kinds[kind].spec, versus, name, stats::BootstrapSequentialTests(*pool, sprt, o)});
      }
    }
  }
  return rows;
}

std::string Percent(int count, int runs) {
  return FormatFixed(100.0 * double(count) / double(std::max(runs, 1)), 1) + "%";
}

void Report(const ArenaSettings& s, const Summary& m, const std::vector<SprtRow>& sprt, double seconds,
            std::ostream& out) {
  const double n = double(std::max<int64_t>(1, m.games));
  const double fair = 1.0 / s.seats;
  const double share = double(m.wins) / n;
  const bots::Interval ci = bots::WilsonInterval(m.wins, m.games);
  std::string opponents;
  for (size_t i = 0; i < s.opponents.size(); ++i) opponents += (i ? "," : "") + s.opponents[i];
  out << "arena: " << s.candidate << " vs " << opponents << ", " << m.games << " games (" << m.games / s.seats
      << (m.games / s.seats == 1 ? " set of " : " sets of ") << s.seats << " seat rotations), seed " << s.seed << ", "
      << (s.independent     ? "every game its own board and dice"
          : s.default_board ? "default board"
                            : "a random board per set")
      << "\n";
  std::string options = OptionsToString(s.options);
  if (!options.empty()) out << "options: " << options << "\n";
  out << "\n";
  Table t({"statistic", "value"});
  t.AddRow({"games", std::to_string(m.games)});
  t.AddRow({"candidate wins", std::to_string(m.wins)});
  t.AddRow({"win share", FormatFixed(100 * share, 1) + "%"});
  t.AddRow({"95% Wilson interval", FormatFixed(100 * ci.low, 1) + "% .. " + FormatFixed(100 * ci.high, 1) + "%"});
  const BySet by_set = BySetOf(s, m);
  if (by_set.share.n >= 2) {
    t.AddRow({"95% interval by set (t, " + std::to_string(by_set.share.n) + " sets)",
              FormatFixed(100 * by_set.share.ci_low, 1) + "% .. " + FormatFixed(100 * by_set.share.ci_high, 1) + "%"});
    t.AddRow({"design effect (variance by set / independent)", FormatFixed(by_set.design_effect, 2)});
    t.AddRow({"place-score margin over opponents", FormatFixed(by_set.margin.mean, 3)});
    t.AddRow({"its 95% interval by set",
              FormatFixed(by_set.margin.ci_low, 3) + " .. " + FormatFixed(by_set.margin.ci_high, 3)});
    t.AddRow({"its design effect", FormatFixed(by_set.margin_design_effect, 2)});
  }
  t.AddRow({"fair share", FormatFixed(100 * fair, 1) + "%"});
  t.AddRow({"z against the fair share", FormatFixed(bots::ZScore(share, m.games, fair), 2)});
  t.AddRow({"candidate mean VP", FormatFixed(m.candidate_vp / n, 2)});
  t.AddRow({"opponent mean VP", FormatFixed(m.opponent_vp / (n * (s.seats - 1)), 2)});
  t.AddRow({"mean length (actions)", FormatFixed(m.actions / n, 1)});
  t.AddRow({"mean length (turns)", FormatFixed(m.turns / n, 1)});
  t.AddRow({"games at the length cap", std::to_string(m.capped)});
  const double per_opponent = n * (s.seats - 1);
  t.AddRow({"offers per game (cand. / opp.)",
            FormatFixed(double(m.offers) / n, 2) + " / " + FormatFixed(double(m.opponent_offers) / per_opponent, 2)});
  t.AddRow({"counters per game (cand. / opp.)", FormatFixed(double(m.counters) / n, 2) + " / " +
                                                    FormatFixed(double(m.opponent_counters) / per_opponent, 2)});
  t.AddRow({"trades per game (cand. / opp.)",
            FormatFixed(double(m.trades) / n, 2) + " / " + FormatFixed(double(m.opponent_trades) / per_opponent, 2)});
  if (m.search.decisions > 0) {
    t.AddRow({"searched decisions per game", FormatFixed(double(m.search.decisions) / n, 1)});
    t.AddRow({"playouts per decision", FormatFixed(double(m.search.iterations) / double(m.search.decisions), 0)});
    t.AddRow({"playouts/s (wall clock)",
              FormatRate(m.search.seconds > 0 ? double(m.search.iterations) / m.search.seconds : 0)});
    t.AddRow({"playouts/s (per CPU second)",
              FormatRate(m.search.cpu_seconds > 0 ? double(m.search.iterations) / m.search.cpu_seconds : 0)});
  }
  t.AddRow({"wall time (s)", FormatFixed(seconds, 1)});
  out << t.ToString() << "\n";
  Table seats({"candidate seat", "games", "wins", "win share"});
  for (int seat = 0; seat < s.seats; ++seat)
    seats.AddRow(
        {std::to_string(seat), std::to_string(m.seat_games[size_t(seat)]), std::to_string(m.seat_wins[size_t(seat)]),
         FormatFixed(
             100.0 * double(m.seat_wins[size_t(seat)]) / double(std::max<int64_t>(1, m.seat_games[size_t(seat)])), 1) +
             "%"});
  out << seats.ToString();
  // Pairs as a tournament takes them: the candidate's set score minus one
  // opponent seat's. Their spread per set, against --independent's, is what
  // duplicate play saves on a pair: games needed go with the variance.
  const std::vector<OpponentKind> kinds = OpponentKinds(s);
  Table pairs({"pair (candidate minus)", "sets", "mean difference", "sd per set", "95% half-width"});
  for (size_t kind = 0; kind < kinds.size(); ++kind) {
    const stats::MeanInterval d = stats::MeanWithInterval(m.first_seat_differences[kind], -1, 1);
    if (d.n < 2) continue;
    const double sd = std::sqrt(stats::SampleVariance(m.first_seat_differences[kind], d.mean));
    pairs.AddRow({kinds[kind].spec + (kinds[kind].positions.size() > 1 ? " (first seat)" : ""), std::to_string(d.n),
                  FormatFixed(d.mean, 3), FormatFixed(sd, 3), FormatFixed((d.ci_high - d.ci_low) / 2, 3)});
  }
  out << "\n" << pairs.ToString();
  if (sprt.empty()) return;
  const stats::SprtOptions o;
  out << "\nsequential test (H1: a difference of " << FormatFixed(o.mu1, 1) << ", alpha "
      << FormatFixed(100 * o.alpha, 1) << "% per direction, beta " << FormatFixed(100 * o.beta, 0) << "%, from "
      << o.min_sets << " sets), " << s.sprt_runs << " runs per row drawing sets with replacement, at most "
      << s.sprt_cap << " each\n";
  Table tests({"opponent", "versus", "pool", "sets", "mean difference", "H1 candidate", "H1 opponent", "H0",
               "no verdict", "sets to verdict (mean / median)"});
  for (const SprtRow& row : sprt) {
    const stats::BootstrapResult& r = row.result;
    tests.AddRow({row.opponent, row.versus, row.pool, std::to_string(r.pool),
                  FormatFixed(std::abs(r.pool_mean) < 5e-4 ? 0.0 : r.pool_mean, 3),  // no "-0.000" for a centred pool

                  Percent(r.h1_a, r.runs), Percent(r.h1_b, r.runs), Percent(r.h0, r.runs), Percent(r.undecided, r.runs),
                  FormatFixed(r.mean_sets, 1) + " / " + FormatFixed(r.median_sets, 0)});
  }
  out << tests.ToString();
}

std::string ToJson(const ArenaSettings& s, const Summary& m, const std::vector<SprtRow>& sprt, double seconds) {
  const double n = double(std::max<int64_t>(1, m.games));
  const double fair = 1.0 / s.seats;
  const double share = double(m.wins) / n;
  const bots::Interval ci = bots::WilsonInterval(m.wins, m.games);
  std::string j = "{";
  j += "\"candidate\":" + JsonString(s.candidate) + ",\"opponents\":[";
  for (size_t i = 0; i < s.opponents.size(); ++i) j += (i ? "," : "") + JsonString(s.opponents[i]);
  j += "],\"seats\":" + std::to_string(s.seats) + ",\"seed\":" + std::to_string(s.seed);
  j += ",\"options\":" + JsonString(OptionsToString(s.options));
  j += ",\"board\":" + JsonString(s.independent ? "random per game" : s.default_board ? "default" : "random per set");
  j += ",\"independent\":" + std::string(s.independent ? "true" : "false");
  j += ",\"games\":" + std::to_string(m.games) + ",\"wins\":" + std::to_string(m.wins);
  j += ",\"win_share\":" + FormatFixed(share, 4) + ",\"wilson95\":[" + FormatFixed(ci.low, 4) + "," +
       FormatFixed(ci.high, 4) + "]";
  const BySet by_set = BySetOf(s, m);
  // Intervals and design effects need two sets: null with fewer.
  const bool spread = by_set.share.n >= 2;
  auto pair = [&](double lo, double hi) {
    return spread ? "[" + FormatFixed(lo, 4) + "," + FormatFixed(hi, 4) + "]" : std::string("null");
  };
  auto number = [&](double v) { return spread ? FormatFixed(v, 4) : std::string("null"); };
  j += ",\"sets\":" + std::to_string(by_set.share.n) +
       ",\"set_share_ci95\":" + pair(by_set.share.ci_low, by_set.share.ci_high) +
       ",\"design_effect\":" + number(by_set.design_effect);
  j += ",\"margin\":" + FormatFixed(by_set.margin.mean, 4) +
       ",\"margin_ci95\":" + pair(by_set.margin.ci_low, by_set.margin.ci_high) +
       ",\"margin_design_effect\":" + number(by_set.margin_design_effect);
  j += ",\"fair_share\":" + FormatFixed(fair, 4) + ",\"z\":" + FormatFixed(bots::ZScore(share, m.games, fair), 3);
  j += ",\"candidate_mean_vp\":" + FormatFixed(m.candidate_vp / n, 3);
  j += ",\"opponent_mean_vp\":" + FormatFixed(m.opponent_vp / (n * (s.seats - 1)), 3);
  j += ",\"mean_actions\":" + FormatFixed(m.actions / n, 1) + ",\"mean_turns\":" + FormatFixed(m.turns / n, 1);
  j += ",\"games_at_cap\":" + std::to_string(m.capped) + ",\"errors\":" + std::to_string(m.errors);
  j += ",\"offers\":" + std::to_string(m.offers) + ",\"counters\":" + std::to_string(m.counters) +
       ",\"trades\":" + std::to_string(m.trades) + ",\"opponent_offers\":" + std::to_string(m.opponent_offers) +
       ",\"opponent_counters\":" + std::to_string(m.opponent_counters) +
       ",\"opponent_trades\":" + std::to_string(m.opponent_trades);
  j += ",\"pairs\":[";
  const std::vector<OpponentKind> kinds = OpponentKinds(s);
  for (size_t kind = 0; kind < kinds.size(); ++kind) {
    const std::vector<double>& diffs = m.first_seat_differences[kind];
    const stats::MeanInterval d = stats::MeanWithInterval(diffs, -1, 1);
    j += std::string(kind ? "," : "") + "{\"opponent\":" + JsonString(kinds[kind].spec) +
         ",\"sets\":" + std::to_string(d.n) + ",\"mean\":" + FormatFixed(d.mean, 4) +
         ",\"sd\":" + (d.n >= 2 ? FormatFixed(std::sqrt(stats::SampleVariance(diffs, d.mean)), 4) : "null") + "}";
  }
  j += "]";
  j += ",\"seat_wins\":[";
  for (int seat = 0; seat < s.seats; ++seat) j += (seat ? "," : "") + std::to_string(m.seat_wins[size_t(seat)]);
  j += "]";
  if (m.search.decisions > 0) {
    j += ",\"search_decisions\":" + std::to_string(m.search.decisions) +
         ",\"playouts\":" + std::to_string(m.search.iterations) + ",\"playouts_per_second\":" +
         FormatFixed(m.search.seconds > 0 ? double(m.search.iterations) / m.search.seconds : 0, 0) +
         ",\"playouts_per_cpu_second\":" +
         FormatFixed(m.search.cpu_seconds > 0 ? double(m.search.iterations) / m.search.cpu_seconds : 0, 0);
  }
  if (!sprt.empty()) {
    const stats::SprtOptions o;
    j += ",\"sprt\":{\"runs\":" + std::to_string(s.sprt_runs) + ",\"cap\":" + std::to_string(s.sprt_cap) +
         ",\"mu1\":" + FormatFixed(o.mu1, 3) + ",\"alpha\":" + FormatFixed(o.alpha, 3) +
         ",\"beta\":" + FormatFixed(o.beta, 3) + ",\"min_sets\":" + std::to_string(o.min_sets) + ",\"rows\":[";
    for (size_t i = 0; i < sprt.size(); ++i) {
      const stats::BootstrapResult& r = sprt[i].result;
      const double runs = double(std::max(r.runs, 1));
      j += std::string(i ? "," : "") + "{\"opponent\":" + JsonString(sprt[i].opponent) +
           ",\"versus\":" + JsonString(sprt[i].versus) + ",\"pool\":" + JsonString(sprt[i].pool) +
           ",\"sets\":" + std::to_string(r.pool) + ",\"mean_difference\":" + FormatFixed(r.pool_mean, 4) +
           ",\"h1_candidate\":" + FormatFixed(r.h1_a / runs, 4) + ",\"h1_opponent\":" + FormatFixed(r.h1_b / runs, 4) +
           ",\"h0\":" + FormatFixed(r.h0 / runs, 4) + ",\"no_verdict\":" + FormatFixed(r.undecided / runs, 4) +
           ",\"mean_sets_to_verdict\":" + FormatFixed(r.mean_sets, 1) +
           ",\"median_sets_to_verdict\":" + FormatFixed(r.median_sets, 1) + "}";
    }
    j += "]}";
  }
  j += ",\"seconds\":" + FormatFixed(seconds, 1) + "}";
  return j;
}

Flags MakeFlags() {
  Flags flags("arena", "[flags]",
              "Plays a candidate bot against opponents with seat rotation and common random numbers\n"
              "(every game of a set has the same board and chance streams, the candidate in another\n"
              "seat) on all cores, and reports its win share with a Wilson 95% interval (games taken as\n"
              "independent) and with the interval from the spread between sets, which share their luck.");
  flags.Add({.name = "candidate",
             .value_name = "BOT",
             .help = "the bot measured: random, greedy, heuristic, search[:ms=50,threads=1,...] (default heuristic)"});
  flags.Add({.name = "opponents",
             .value_name = "BOT[,BOT...]",
             .help = "one bot for every other seat, or one per seat (default random)"});
  flags.Add(
      {.name = "games", .value_name = "N", .help = "games, rounded up to whole sets of seat rotations (default 100)"});
  flags.Add({.name = "seats", .value_name = "3|4", .help = "number of seats (default 4)"});
  flags.Add({.name = "seed",
             .value_name = "S",
             .help = "set j uses board and chance seeds from S+j (--independent: game i from S and i; default 1)"});
  flags.Add({.name = "threads", .value_name = "T", .help = "games played at once (default: all cores)"});
  flags.Add({.name = "default-board", .value_name = "", .help = "play every set on the default board"});
  flags.Add({.name = "independent",
             .value_name = "",
             .help = "every game its own random board and dice: the control for what duplicate sets save"});
  AddOptionFlags(&flags);
  AddMaxActionsFlag(&flags);
  flags.Add({.name = "sprt-runs",
             .value_name = "N",
             .help = "after the games, run the tournament's sequential test N times on sets drawn with\n"
                     "replacement from the candidate's set differences against each opponent bot, as\n"
                     "played, centred (no difference) and centred plus 0.1 (default 0: none)"});
  flags.Add({.name = "sprt-cap", .value_name = "N", .help = "sets drawn at most per sequential test (default 1000)"});
  flags.Add({.name = "json", .value_name = "FILE", .help = "also write the summary as JSON"});
  return flags;
}

bool ReadSettings(const Flags& flags, ArenaSettings* s, std::string* error) {
  int64_t v;
  if (flags.Has("candidate")) s->candidate = flags.Get("candidate");
  if (flags.Has("seats")) {
    if (!flags.GetInt("seats", kMinSeats, kMaxSeats, &v, error)) return false;
    s->seats = int(v);
  }
  s->opponents = SplitBotSpecs(flags.Get("opponents", "random"));
  if (s->opponents.size() == 1) s->opponents.assign(size_t(s->seats - 1), s->opponents[0]);
  if (int(s->opponents.size()) != s->seats - 1) {
    *error = "--opponents names " + std::to_string(s->opponents.size()) + " bots for " + std::to_string(s->seats - 1) +
             " opponent seats";
    return false;
  }
  if (!bots::MakeBot(s->candidate, error)) {
    *error = "--candidate: " + *error;
    return false;
  }
  for (const std::string& o : s->opponents) {
    if (!bots::MakeBot(o, error)) {
      *error = "--opponents: " + *error;
      return false;
    }
  }
  if (flags.Has("games") && !flags.GetInt("games", 1, 100000000, &s->games, error)) return false;
  s->games = (s->games + s->seats - 1) / s->seats * s->seats;
  if (flags.Has("seed") && !flags.GetUint64("seed", &s->seed, error)) return false;
  s->threads = int(std::max(1u, std::thread::hardware_concurrency()));
  if (flags.Has("threads")) {
    if (!flags.GetInt("threads", 1, 1024, &v, error)) return false;
    s->threads = int(v);
  }
  s->threads = int(std::min<int64_t>(s->threads, s->games));
  s->default_board = flags.Has("default-board");
  s->independent = flags.Has("independent");
  if (s->independent && s->default_board) {
    *error = "--independent draws a board per game: it cannot be combined with --default-board";
    return false;
  }
  if (!ReadOptionFlags(flags, &s->options, error)) return false;
  if (!ReadMaxActionsFlag(flags, &s->options, error)) return false;
  s->json = flags.Get("json");
  if (flags.Has("sprt-runs")) {
    if (!flags.GetInt("sprt-runs", 0, 1000000, &v, error)) return false;
    s->sprt_runs = int(v);
  }
  if (flags.Has("sprt-cap")) {
    if (!flags.GetInt("sprt-cap", 1, 1000000, &v, error)) return false;
    s->sprt_cap = int(v);
  }
  return true;
}

}  // namespace

int RunArena(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  std::string error;
  ArenaSettings s;
  if (!ReadSettings(flags, &s, &error)) return UsageError(flags, error);
  GameConfig check;
  check.num_seats = s.seats;
  check.board = DefaultBoard();
  check.options = s.options;
  if (std::string e = ValidateConfig(check); !e.empty()) return UsageError(flags, "configuration: " + e);
  State probe(check);
  if (!NewGame(check, &probe, &error)) return Fail(flags, "configuration: " + error, kExitRefused);

  std::vector<ArenaGame> games(size_t(s.games));
  std::mutex mu;
  int64_t finished = 0, wins = 0;
  std::atomic<int64_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::vector<std::thread> workers;
  for (int t = 0; t < s.threads; ++t) {
    workers.emplace_back([&] {
      while (true) {
        const int64_t i = next.fetch_add(1);
        if (i >= s.games) return;
        ArenaGame g;
        PlayArenaGame(s, i, &g);
        std::lock_guard<std::mutex> lock(mu);
        if (g.outcome.winner == g.candidate_seat) ++wins;
        games[size_t(i)] = std::move(g);
        ++finished;
      }
    });
  }
  ProgressBar bar(s.games);
  while (true) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    int64_t done, won;
    {
      std::lock_guard<std::mutex> lock(mu);
      done = finished;
      won = wins;
    }
    bar.Update(done, elapsed(),
               "candidate " + (done ? FormatFixed(100.0 * double(won) / double(done), 1) : std::string("-")) + "%");
    if (done == s.games) break;
  }
  for (std::thread& w : workers) w.join();
  bar.Finish();
  const double seconds = elapsed();

  const Summary m = Summarise(s, games);
  int shown = 0;
  for (const ArenaGame& g : games)
    if (!g.outcome.error.empty() && shown++ < 10) std::cerr << "metropolis-engine arena: " << g.outcome.error << "\n";
  const std::vector<SprtRow> sprt = MeasureSprt(s, m);
  Report(s, m, sprt, seconds, std::cout);
  if (!s.json.empty()) {
    std::ofstream out(s.json, std::ios::binary | std::ios::trunc);
    out << ToJson(s, m, sprt, seconds) << "\n";
    if (!out) return Fail(flags, "cannot write '" + s.json + "'", kExitRefused);
  }
  if (m.errors) return Fail(flags, std::to_string(m.errors) + " games stopped on an illegal action", kExitEngineBug);
  return kExitOk;
}

}  // namespace metropolis::cli
