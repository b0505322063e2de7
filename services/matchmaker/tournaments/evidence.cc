#include "services/matchmaker/tournaments/evidence.h"

namespace metropolis::matchmaker {

std::vector<SetScoreList> TournamentSetScores(const TournamentSpec& spec, const std::vector<TournamentGameRow>& games) {
  const bool duplicate = spec.format == TournamentFormat::kDuplicate;
  std::vector<SetGame> finished;
  for (const TournamentGameRow& g : games)
    if (g.state == "finished") finished.push_back({duplicate ? g.game.set : g.number, g.game.entrants, g.places});
  return ScoresBySet(CompleteSets(finished, duplicate ? spec.seats : 1));
}

bool EveryPairDecided(int entrants, const std::vector<SetScoreList>& scores_by_set, const SprtOptions& options) {
  if (entrants < 2) return false;
  const std::vector<PairComparison> pairs = PairComparisons(entrants, scores_by_set);
  // A pair that never shared a set is not listed, and is not decided.
  if (int64_t(pairs.size()) < int64_t(entrants) * (entrants - 1) / 2) return false;
  for (const PairComparison& p : pairs)
    if (SequentialPairTest(p.differences, options).verdict == SprtVerdict::kContinue) return false;
  return true;
}

}  // namespace metropolis::matchmaker
