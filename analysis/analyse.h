// The analysis of one finished game: its luck account (luck.h), a
// win-probability graph with every seat's chance judged from its own view at
// sampled positions (win_probability.h), and marks where the search bot would
// have played something else and judged the difference to matter.
//
// The positions are spread evenly over the game's real decisions (a seat to
// act with more than one legal action); at each, every seat's estimate is
// taken before the decision, and the acting seat's choice is compared with
// the search bot's from the same view. The graph ends with the final position.
// Everything is seeded from the options: the same record and options give the
// same analysis on any machine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/luck.h"
#include "analysis/win_probability.h"
#include "engine/game.h"

namespace metropolis::analysis {

// The method's version, stored with every analysis: raised whenever a change
// would give a stored game a different analysis (the luck account's rules, the
// estimate's constants, the marks' threshold, the defaults below).
inline constexpr uint32_t kAnalysisMethodVersion = 1;

struct AnalysisOptions {
  int positions = 40;               // graph points before the final one (at most one per decision)
  WinOptions win;                   // how each seat's chance is estimated
  int64_t search_iterations = 500;  // the search bot's budget per mark (0: no marks)
  // A decision is marked when the search bot prefers another and values the
  // played one at least this much lower (NormalizedValue's [0, 1] scale), or
  // did not consider it at all: below that the difference is taste or noise.
  double mark_threshold = 0.02;
  uint64_t seed = 1;
};

struct GraphPoint {
  int step = 0;  // the position before the step-th action (the record's numbering); the final one after the last
  int turn = 0;
  int actor = kNoSeat;  // who decides at this position (kNoSeat at the end)
  std::array<double, kMaxSeats> win{};
};

struct Mark {
  int step = 0;
  int seat = 0;
  std::string played;     // ActionToString
  std::string suggested;  // what the search bot would play
  // How much lower the search valued the played action than its own choice;
  // -1 when the played action was not among its candidates.
  double cost = -1;
};

struct GameAnalysis {
  LuckAccount luck;
  std::vector<GraphPoint> graph;
  std::vector<Mark> marks;
  int decisions = 0;       // real decisions in the game
  double cpu_seconds = 0;  // what the analysis cost (thread CPU time)
};

// Replays the record with every action checked; false with *error set when it
// does not replay. The options are checked first (positions >= 1, playouts
// and iterations >= 0).
bool AnalyseGame(const GameRecord& record, const AnalysisOptions& options, GameAnalysis* out, std::string* error);

// Each seat's scores as it sees them (ScoreSeats on one sample of its view) at
// the positions AnalyseGame evaluates, the final one left out: what
// `metropolis-engine analyse --calibrate` fits the temperature constants on.
struct SeenScores {
  int seat = 0;
  SeatScores scores;
};
bool CollectScores(const GameRecord& record, int positions, uint64_t seed, std::vector<SeenScores>* out,
                   std::string* error);

// One JSON object: {"luck":{...},"graph":[...],"marks":[...],...}; the
// format is in docs/ANALYSIS.md.
std::string AnalysisToJson(const GameAnalysis& analysis);

}  // namespace metropolis::analysis
