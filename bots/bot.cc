#include "bots/bot.h"

#include "bots/greedy.h"
#include "bots/heuristic.h"
#include "bots/search.h"

namespace metropolis::bots {
namespace {

class RandomBot final : public Bot {
 public:
  Action Choose(const View& view, uint64_t* rng) override { return ChooseFromLegal(view.viewer, view.legal, rng); }
  Action ChooseFromLegal(int /*viewer*/, std::span<const Action> legal, uint64_t* rng) override {
    return legal[RandomBelow(rng, uint32_t(legal.size()))];
  }
  std::string name() const override { return "random"; }
  bool ReadsOnlyLegal() const override { return true; }
};

}  // namespace

Bot::~Bot() = default;

std::string Bot::name() const { return "bot"; }

Action Bot::ChooseFromLegal(int viewer, std::span<const Action> legal, uint64_t* rng) {
  View view{State()};  // its state is never read (ReadsOnlyLegal)
  view.viewer = viewer;
  view.legal.assign(legal.begin(), legal.end());
  return Choose(view, rng);
}

std::unique_ptr<Bot> MakeBot(std::string_view spec, std::string* error) {
  const size_t colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  const std::string_view settings = colon == std::string_view::npos ? std::string_view() : spec.substr(colon + 1);
  if (kind == "search") {
    SearchOptions options;
    if (!settings.empty() && !ParseSearchOptions(settings, &options, error)) return nullptr;
    return std::make_unique<SearchBot>(options);
  }
  if (kind == "heuristic") {
    HeuristicOptions options;
    if (!settings.empty() && !ParseHeuristicOptions(settings, &options, error)) return nullptr;
    return std::make_unique<HeuristicBot>(options);
  }
  if (kind != "random" && kind != "greedy") {
    *error = "unknown bot '" + std::string(kind) + "' (known: random, greedy, heuristic, search)";
    return nullptr;
  }
  if (!settings.empty()) {
    *error = "bot '" + std::string(kind) + "' takes no settings, got '" + std::string(settings) + "'";
    return nullptr;
  }
  if (kind == "greedy") return std::make_unique<GreedyBot>();
  return std::make_unique<RandomBot>();
}

const std::vector<std::string>& BotKinds() {
  static const std::vector<std::string> kinds = {"random", "greedy", "heuristic", "search"};
  return kinds;
}

}  // namespace metropolis::bots
