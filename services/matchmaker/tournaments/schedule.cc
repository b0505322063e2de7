#include "services/matchmaker/tournaments/schedule.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/splitmix.h"

namespace metropolis::matchmaker {
namespace {

std::vector<int> Rotate(const std::vector<int>& table, int by) {
  std::vector<int> out(table.size());
  for (size_t s = 0; s < table.size(); ++s) out[s] = table[(s + size_t(by)) % table.size()];
  return out;
}

}  // namespace

bool ParseTournamentFormat(const std::string& text, TournamentFormat* out) {
  if (text == "round-robin")
    *out = TournamentFormat::kRoundRobin;
  else if (text == "swiss")
    *out = TournamentFormat::kSwiss;
  else if (text == "duplicate")
    *out = TournamentFormat::kDuplicate;
  else if (text == "arena")
    *out = TournamentFormat::kArena;
  else
    return false;
  return true;
}

const char* TournamentFormatName(TournamentFormat format) {
  switch (format) {
    case TournamentFormat::kRoundRobin:
      return "round-robin";
    case TournamentFormat::kSwiss:
      return "swiss";
    case TournamentFormat::kDuplicate:
      return "duplicate";
    case TournamentFormat::kArena:
      return "arena";
  }
  return "?";
}

std::vector<ScheduledGame> RoundRobin(int entrants, int seats, uint64_t seed) {
  std::vector<ScheduledGame> games;
  if (entrants < seats || seats < 2) return games;
  // Subsets in lexicographic order: a bitmask walk would limit the entrants to 64.
  std::vector<int> pick(static_cast<size_t>(seats));
  std::iota(pick.begin(), pick.end(), 0);
  int table = 0;
  for (;;) {
    for (int r = 0; r < seats; ++r) {
      ScheduledGame g;
      g.round = table;
      g.entrants = Rotate(pick, r);
      g.rotation = r;
      const uint64_t n = uint64_t(games.size());
      g.chance_seed = SplitMixHash(seed ^ SplitMixHash(2 * n + 1));
      g.board_seed = SplitMixHash(seed ^ SplitMixHash(2 * n + 2));
      games.push_back(std::move(g));
    }
    ++table;
    int i = seats - 1;
    while (i >= 0 && pick[size_t(i)] == entrants - seats + i) --i;
    if (i < 0) break;
    ++pick[size_t(i)];
    for (int j = i + 1; j < seats; ++j) pick[size_t(j)] = pick[size_t(j - 1)] + 1;
  }
  return games;
}

std::vector<ScheduledGame> ArenaPairing(std::vector<ArenaEntrant> free, int seats, int round, int first_number,
                                        uint64_t seed) {
  std::vector<ScheduledGame> games;
  if (seats < 2 || int(free.size()) < seats) return games;
  // Who plays: those who played least; then who with whom: by score.
  std::stable_sort(free.begin(), free.end(), [](const ArenaEntrant& a, const ArenaEntrant& b) {
    return a.games != b.games ? a.games < b.games : a.entrant < b.entrant;
  });
  free.resize(free.size() / size_t(seats) * size_t(seats));
  std::stable_sort(free.begin(), free.end(), [](const ArenaEntrant& a, const ArenaEntrant& b) {
    return a.score != b.score ? a.score > b.score : a.entrant < b.entrant;
  });
  for (size_t at = 0; at < free.size(); at += size_t(seats)) {
    std::vector<int> table;
    for (size_t s = at; s < at + size_t(seats); ++s) table.push_back(free[s].entrant);
    // The rotation whose seats these entrants have sat in least.
    auto sat = [&](int by) {
      int64_t n = 0;
      for (int s = 0; s < seats; ++s) {
        const ArenaEntrant& a = free[at + size_t((s + by) % seats)];
        n += size_t(s) < a.seats.size() ? a.seats[size_t(s)] : 0;
      }
      return n;
    };
    int best = round % seats;
    for (int by = 0; by < seats; ++by)
      if (sat(by) < sat(best)) best = by;
    ScheduledGame g;
    g.round = round;
    g.entrants = Rotate(table, best);
    g.rotation = best;
    const uint64_t n = uint64_t(first_number) + uint64_t(games.size());
    g.chance_seed = SplitMixHash(seed ^ SplitMixHash(2 * n + 1));
    g.board_seed = SplitMixHash(seed ^ SplitMixHash(2 * n + 2));
    games.push_back(std::move(g));
  }
  return games;
}

std::vector<ScheduledGame> DuplicateSets(const std::vector<std::vector<int>>& tables, int round, int first_set,
                                         uint64_t seed) {
  std::vector<ScheduledGame> games;
  for (size_t t = 0; t < tables.size(); ++t) {
    const int set = first_set + int(t);
    const uint64_t chance = SplitMixHash(seed ^ SplitMixHash(uint64_t(set) * 2 + 1));
    const uint64_t board = SplitMixHash(seed ^ SplitMixHash(uint64_t(set) * 2 + 2));
    for (int r = 0; r < int(tables[t].size()); ++r) {
      ScheduledGame g;
      g.round = round;
      g.entrants = Rotate(tables[t], r);
      g.set = set;
      g.rotation = r;
      g.chance_seed = chance;
      g.board_seed = board;
      games.push_back(std::move(g));
    }
  }
  return games;
}

std::vector<std::vector<int>> SwissRound(const SwissInput& input, int seats, std::vector<int>* sitting_out) {
  const int n = int(input.score.size());
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return input.score[size_t(a)] > input.score[size_t(b)]; });
  // Byes first: among the lowest-ranked, those with the fewest byes sit out.
  sitting_out->clear();
  const int byes = n % seats;
  for (int k = 0; k < byes; ++k) {
    int best = -1;
    for (int i = n - 1; i >= 0; --i) {
      const int e = order[size_t(i)];
      if (e < 0) continue;
      if (best < 0 || input.byes[size_t(e)] < input.byes[size_t(order[size_t(best)])]) best = i;
    }
    sitting_out->push_back(order[size_t(best)]);
    order[size_t(best)] = -1;
  }
  order.erase(std::remove(order.begin(), order.end(), -1), order.end());
  std::vector<bool> seated(order.size(), false);
  std::vector<std::vector<int>> tables;
  for (size_t i = 0; i < order.size(); ++i) {
    if (seated[i]) continue;
    std::vector<int> table = {order[i]};
    seated[i] = true;
    while (int(table.size()) < seats) {
      // The next entrant in standing order who has met this table least.
      size_t pick = order.size();
      int fewest = INT32_MAX;
      for (size_t j = i + 1; j < order.size(); ++j) {
        if (seated[j]) continue;
        int meetings = 0;
        for (int t : table) meetings += input.met[size_t(t)][size_t(order[j])];
        if (meetings < fewest) {
          fewest = meetings;
          pick = j;
        }
      }
      seated[pick] = true;
      table.push_back(order[pick]);
    }
    tables.push_back(std::move(table));
  }
  return tables;
}

std::vector<Standing> Standings(int entrants, const std::vector<GameOutcome>& games) {
  std::vector<Standing> out(static_cast<size_t>(entrants));
  std::vector<std::vector<double>> scores(static_cast<size_t>(entrants));
  for (int e = 0; e < entrants; ++e) out[size_t(e)].entrant = e;
  for (const GameOutcome& g : games) {
    const int seats = int(g.entrants.size());
    for (int s = 0; s < seats; ++s) {
      Standing& st = out[size_t(g.entrants[size_t(s)])];
      ++st.games;
      st.wins += g.places[size_t(s)] == 1;
      scores[size_t(g.entrants[size_t(s)])].push_back(SeatScore(g.places, s));
    }
  }
  for (int e = 0; e < entrants; ++e) {
    Standing& st = out[size_t(e)];
    if (st.games == 0) continue;
    const double n = st.games;
    const std::vector<double>& x = scores[size_t(e)];
    st.score = std::accumulate(x.begin(), x.end(), 0.0) / n;
    if (st.games >= 2) {
      // The sample's standard error with the normal 1.96: scores are bounded in
      // [0, 1], and tournaments play enough games for the mean to be near normal.
      // Deviations from the mean, not sums of squares, so that equal scores give
      // exactly no spread.
      double squares = 0;
      for (double v : x) squares += (v - st.score) * (v - st.score);
      const double variance = squares / (n - 1);
      const double half = 1.96 * std::sqrt(variance / n);
      st.ci_low = std::max(0.0, st.score - half);
      st.ci_high = std::min(1.0, st.score + half);
    }
  }
  RankStandings(&out);
  return out;
}

void RankStandings(std::vector<Standing>* standings) {
  std::vector<Standing>& out = *standings;
  std::stable_sort(out.begin(), out.end(), [](const Standing& a, const Standing& b) { return a.score > b.score; });
  for (size_t i = 0; i < out.size(); ++i)
    out[i].rank = (i > 0 && out[i].score == out[i - 1].score) ? out[i - 1].rank : int(i) + 1;
}

int64_t ScheduleSize(TournamentFormat format, int entrants, int seats, int rounds) {
  if (entrants < seats || seats < 1 || rounds < 1 || format == TournamentFormat::kArena) return 0;
  if (format == TournamentFormat::kSwiss) return int64_t(entrants / seats) * rounds;
  // C(entrants, seats) × seats rotations × rounds, saturating.
  constexpr int64_t kMax = INT64_MAX;
  int64_t tables = 1;
  for (int k = 1; k <= seats; ++k) {
    const int64_t factor = entrants - seats + k;
    if (tables > kMax / factor) return kMax;
    tables = tables * factor / k;  // exact: a product of k consecutive numbers divides by k!
  }
  if (tables > kMax / seats / rounds) return kMax;
  return tables * seats * rounds;
}

std::vector<ScheduledGame> InitialSchedule(TournamentFormat format, int entrants, int seats, int rounds,
                                           uint64_t seed) {
  std::vector<ScheduledGame> games;
  if (format == TournamentFormat::kArena) return games;
  if (format == TournamentFormat::kSwiss) return NextSwissRound(entrants, seats, 0, seed, {}, {});
  for (int rep = 0; rep < rounds; ++rep) {
    const uint64_t rep_seed = rep == 0 ? seed : SplitMixHash(seed ^ SplitMixHash(0x5eed0000u + uint64_t(rep)));
    std::vector<ScheduledGame> part = RoundRobin(entrants, seats, rep_seed);
    if (format == TournamentFormat::kDuplicate) {
      std::vector<std::vector<int>> tables;
      for (const ScheduledGame& g : part)
        if (g.rotation == 0) tables.push_back(g.entrants);
      const int first_set = games.empty() ? 0 : games.back().set + 1;
      part = DuplicateSets(tables, rep, first_set, rep_seed);
    }
    for (ScheduledGame& g : part) {
      g.round = rep;
      games.push_back(std::move(g));
    }
    if (int(games.size()) > kMaxScheduledGames) break;  // the caller refuses it
  }
  return games;
}

std::vector<ScheduledGame> NextSwissRound(int entrants, int seats, int round, uint64_t seed,
                                          const std::vector<ScheduledGame>& so_far,
                                          const std::vector<GameOutcome>& outcomes) {
  SwissInput input;
  input.score.assign(size_t(entrants), 0.0);
  input.byes.assign(size_t(entrants), 0);
  input.met.assign(size_t(entrants), std::vector<int>(size_t(entrants), 0));
  // Pairing by mean score, not total: an entrant who sat out a round is not
  // pushed down the table for it.
  for (const Standing& s : Standings(entrants, outcomes)) input.score[size_t(s.entrant)] = s.score;
  int rounds_so_far = 0;
  for (const ScheduledGame& g : so_far) rounds_so_far = std::max(rounds_so_far, g.round + 1);
  std::vector<std::vector<bool>> seated(size_t(rounds_so_far), std::vector<bool>(size_t(entrants), false));
  for (const ScheduledGame& g : so_far) {
    for (int a : g.entrants) {
      seated[size_t(g.round)][size_t(a)] = true;
      for (int b : g.entrants)
        if (a != b) ++input.met[size_t(a)][size_t(b)];
    }
  }
  for (const auto& r : seated)
    for (int e = 0; e < entrants; ++e) input.byes[size_t(e)] += !r[size_t(e)];
  std::vector<int> sitting_out;
  const std::vector<std::vector<int>> tables = SwissRound(input, seats, &sitting_out);
  std::vector<ScheduledGame> games;
  for (size_t t = 0; t < tables.size(); ++t) {
    ScheduledGame g;
    g.round = round;
    g.entrants = Rotate(tables[t], round % seats);
    g.rotation = round % seats;
    const uint64_t n = (uint64_t(round) << 20) + t;
    g.chance_seed = SplitMixHash(seed ^ SplitMixHash(2 * n + 1));
    g.board_seed = SplitMixHash(seed ^ SplitMixHash(2 * n + 2));
    games.push_back(std::move(g));
  }
  return games;
}

}  // namespace metropolis::matchmaker
