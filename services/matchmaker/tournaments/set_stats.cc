#include "services/matchmaker/tournaments/set_stats.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace metropolis::matchmaker {

std::vector<std::vector<SetGame>> CompleteSets(const std::vector<SetGame>& games, int rotations) {
  std::map<int, std::vector<SetGame>> by_set;
  for (const SetGame& g : games)
    if (g.set >= 0) by_set[g.set].push_back(g);
  std::vector<std::vector<SetGame>> out;
  for (auto& [set, list] : by_set)
    if (int(list.size()) == rotations) out.push_back(std::move(list));
  return out;
}

SetScoreList SetScores(const std::vector<SetGame>& set) {
  std::map<int, std::pair<double, int>> sums;  // entrant -> (sum, games)
  for (const SetGame& g : set)
    for (size_t s = 0; s < g.entrants.size(); ++s) {
      auto& [sum, n] = sums[g.entrants[s]];
      sum += SeatScore(g.places, int(s));
      ++n;
    }
  SetScoreList out;
  for (const auto& [entrant, sn] : sums) out.push_back({entrant, sn.first / sn.second});
  return out;
}

std::vector<SetScoreList> ScoresBySet(const std::vector<std::vector<SetGame>>& sets) {
  std::vector<SetScoreList> out;
  out.reserve(sets.size());
  for (const auto& set : sets) out.push_back(SetScores(set));
  return out;
}

using stats::MeanWithInterval;

std::vector<SetStanding> SetStandings(int entrants, const std::vector<SetScoreList>& scores_by_set) {
  std::vector<std::vector<double>> scores(size_t(std::max(entrants, 0)));
  for (const SetScoreList& set : scores_by_set)
    for (const auto& [entrant, score] : set)
      if (entrant >= 0 && entrant < entrants) scores[size_t(entrant)].push_back(score);
  std::vector<SetStanding> out;
  for (int e = 0; e < entrants; ++e) out.push_back({e, MeanWithInterval(scores[size_t(e)], 0, 1)});
  return out;
}

void UseSetScores(const std::vector<SetStanding>& sets, std::vector<Standing>* standings) {
  for (Standing& st : *standings) {
    if (st.entrant < 0 || size_t(st.entrant) >= sets.size()) continue;
    const MeanInterval& m = sets[size_t(st.entrant)].score;
    st.sets = m.n;
    st.score = m.mean;
    st.ci_low = m.ci_low;
    st.ci_high = m.ci_high;
  }
  RankStandings(standings);
}

std::vector<PairComparison> PairComparisons(int entrants, const std::vector<SetScoreList>& scores_by_set) {
  std::map<std::pair<int, int>, std::vector<double>> differences;
  for (const SetScoreList& scores : scores_by_set) {  // by entrant, ascending
    for (size_t i = 0; i < scores.size(); ++i)
      for (size_t j = i + 1; j < scores.size(); ++j)
        if (scores[j].first < entrants)
          differences[{scores[i].first, scores[j].first}].push_back(scores[i].second - scores[j].second);
  }
  std::vector<PairComparison> out;
  for (auto& [pair, d] : differences) {
    PairComparison c;
    c.a = pair.first;
    c.b = pair.second;
    if (std::accumulate(d.begin(), d.end(), 0.0) < 0) {  // b is ahead
      std::swap(c.a, c.b);
      for (double& x : d) x = -x;
    }
    c.difference = MeanWithInterval(d, -1, 1);
    c.better = c.difference.n >= 2 && c.difference.ci_low > 0;
    c.differences = std::move(d);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace metropolis::matchmaker
