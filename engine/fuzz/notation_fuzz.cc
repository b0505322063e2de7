// FromNotation on arbitrary bytes. It must never crash; a failure leaves the
// output untouched and says why; a text it accepts is a consistent state
// (Validate() empty) whose canonical text round-trips exactly. The state is then
// used, since a parser that accepts positions the rules cannot continue from is
// as wrong as one that crashes: a seat to act has legal actions, chance outcomes
// sum to 1, and applying the first and the last of them keeps the state valid.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/fuzz/fuzz_check.h"
#include "engine/notation.h"
#include "engine/state.h"

namespace metropolis {
namespace {

void ExerciseState(const State& s) {
  if (s.IsTerminal()) return;
  const int player = s.CurrentPlayer();
  if (player == kChancePlayer) {
    const auto outcomes = s.ChanceOutcomes();
    FUZZ_CHECK(!outcomes.empty(), ToNotation(s));
    double sum = 0;
    for (const ChanceOutcome& o : outcomes) sum += o.probability;
    FUZZ_CHECK(std::fabs(sum - 1.0) < 1e-9, ToNotation(s));
    for (const ChanceOutcome* o : {&outcomes.front(), &outcomes.back()}) {
      State next = s;
      const std::string error = next.Apply(o->action);
      FUZZ_CHECK(error.empty(), ActionToString(o->action) + ": " + error + "\n" + ToNotation(s));
      FUZZ_CHECK(next.Validate().empty(), next.Validate() + "\n" + ToNotation(s));
    }
    return;
  }
  FUZZ_CHECK(player >= 0 && player < s.num_seats(), ToNotation(s));
  ActionList legal;
  s.LegalActions(&legal);
  FUZZ_CHECK(legal.size > 0, "no legal action for seat " + std::to_string(player) + "\n" + ToNotation(s));
  for (const Action* a : {legal.begin(), legal.end() - 1}) {
    State next = s;
    const std::string error = next.Apply(*a);
    FUZZ_CHECK(error.empty(), ActionToString(*a) + ": " + error + "\n" + ToNotation(s));
    FUZZ_CHECK(next.Validate().empty(), next.Validate() + "\n" + ToNotation(s));
  }
}

}  // namespace
}  // namespace metropolis

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace metropolis;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  State s;
  const State untouched = s;
  std::string error;
  if (!FromNotation(text, &s, &error)) {
    FUZZ_CHECK(!error.empty(), "refused without a message");
    FUZZ_CHECK(s == untouched, "a refused text changed the output: " + error);
    return 0;
  }
  FUZZ_CHECK(s.Validate().empty(), s.Validate());
  const std::string canonical = ToNotation(s);
  State again;
  FUZZ_CHECK(FromNotation(canonical, &again, &error), error + "\n" + canonical);
  FUZZ_CHECK(again == s, "FromNotation(ToNotation(s)) != s\n" + canonical);
  FUZZ_CHECK(ToNotation(again) == canonical, "canonical text not stable\n" + canonical);
  ExerciseState(s);
  return 0;
}
