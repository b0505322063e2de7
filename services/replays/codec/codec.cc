#include "services/replays/codec/codec.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "engine/state.h"
#include "services/replays/codec/model.h"
#include "services/replays/codec/range_coder.h"

namespace metropolis::replays {

namespace {

void WriteVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(char(uint8_t(value) | 0x80));
    value >>= 7;
  }
  out->push_back(char(value));
}

// LEB128 as WriteVarint writes it: no more than 10 bytes, no bits past 64,
// no redundant zero bytes.
bool ReadVarint(std::string_view in, size_t* pos, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos == in.size()) return false;
    const uint8_t byte = uint8_t(in[(*pos)++]);
    if (shift == 63 && byte > 1) return false;
    *value |= uint64_t(byte & 0x7F) << shift;
    if (!(byte & 0x80)) return byte != 0 || shift == 0;  // one spelling per count
  }
  return false;
}

std::string StepPrefix(size_t index) { return "step " + std::to_string(index + 1) + ": "; }

// Both directions code a trade offer or counter from the same fields, so the
// decoder rebuilds exactly what the encoder applied.
Action Parameterised(ActionType type, const PackedCards& give, const PackedCards& want, int addressees) {
  Action x = Action::Make(type);
  x.give = give;
  x.want = want;
  if (type == ActionType::kTradeOffer) x.addressees = uint8_t(addressees);
  return x;
}

// Whose symbol it is, for the statistics: chance's draws or a seat's decisions.
enum class Source { kChance, kDecision };

class Writer {
 public:
  Writer(std::string* out, CodecStats* stats) : encoder_(out), stats_(stats) {}

  void Put(const SymbolTable& table, int symbol, Source source) {
    encoder_.Encode(table.cum[size_t(symbol)], table.freq(symbol), table.total());
    if (stats_) (source == Source::kChance ? stats_->chance_bits : stats_->decision_bits) += Cost(table, symbol);
  }
  void PutParameterised(const Action& a) {
    Put(ParameterisedKindTable(), a.type == ActionType::kTradeCounter, Source::kDecision);
    for (const PackedCards* side : {&a.give, &a.want})
      for (int c = 0; c < kNumCardTypes; ++c) Put(OfferCountTable(), side->Get(c), Source::kDecision);
    if (a.type == ActionType::kTradeOffer) Put(AddresseeTable(), a.addressees, Source::kDecision);
  }
  void Finish() { encoder_.Finish(); }

 private:
  static double Cost(const SymbolTable& table, int symbol) {
    return std::log2(double(table.total()) / double(table.freq(symbol)));
  }
  RangeEncoder encoder_;
  CodecStats* stats_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : decoder_(in) {}

  bool Start(std::string* why) {
    if (decoder_.Start()) return true;
    *why = "truncated: the coded actions are shorter than 4 bytes";
    return false;
  }
  bool Get(const SymbolTable& table, int* symbol, std::string* why) {
    uint32_t target;
    if (!decoder_.Target(table.total(), &target)) {
      *why = "corrupt data: a value outside every symbol";
      return false;
    }
    *symbol = table.Find(target);
    if (!decoder_.Consume(table.cum[size_t(*symbol)], table.freq(*symbol))) {
      *why = "truncated: the blob ends inside the coded actions";
      return false;
    }
    return true;
  }
  bool GetParameterised(Action* out, std::string* why) {
    int kind, mask = 0;
    if (!Get(ParameterisedKindTable(), &kind, why)) return false;
    const ActionType type = kind ? ActionType::kTradeCounter : ActionType::kTradeOffer;
    PackedCards sides[2];
    for (PackedCards& side : sides)
      for (int c = 0; c < kNumCardTypes; ++c) {
        int n;
        if (!Get(OfferCountTable(), &n, why)) return false;
        side.Set(c, n);
      }
    if (type == ActionType::kTradeOffer && !Get(AddresseeTable(), &mask, why)) return false;
    *out = Parameterised(type, sides[0], sides[1], mask);
    return true;
  }
  bool AtEnd() const { return decoder_.AtEnd(); }
  bool EndsWhereTheEncoderEnded() const { return decoder_.EndsWhereTheEncoderEnded(); }

 private:
  RangeDecoder decoder_;
};

}  // namespace

bool EncodeActions(const GameConfig& config, const std::vector<Action>& actions, std::string* bytes, std::string* error,
                   CodecStats* stats, State* final_state) {
  State state;  // State(config) requires a valid config; NewGame checks it first
  if (!NewGame(config, &state, error)) return false;
  bytes->clear();
  bytes->push_back(char(kFormatVersion));
  WriteVarint(actions.size(), bytes);
  if (stats) stats->header_bytes += bytes->size();
  if (actions.empty()) {
    if (final_state) *final_state = state;
    return true;
  }

  Writer writer(bytes, stats);
  auto legal = std::make_unique<ActionList>();  // 16 KB: not on the stack
  SymbolTable table;
  for (size_t i = 0; i < actions.size(); ++i) {
    const Action& a = actions[i];
    const int player = state.CurrentPlayer();
    if (player == kTerminalPlayer) {
      *error = StepPrefix(i) + ActionToString(a) + ": the game is already over";
      return false;
    }
    if (player == kChancePlayer) {
      const std::vector<ChanceOutcome> outcomes = state.ChanceOutcomes();
      const auto it =
          std::find_if(outcomes.begin(), outcomes.end(), [&](const ChanceOutcome& o) { return o.action == a; });
      if (it == outcomes.end()) {
        *error = StepPrefix(i) + ActionToString(a) + ": " + state.CheckAction(a);
        return false;
      }
      BuildChanceTable(outcomes, &table);
      writer.Put(table, int(it - outcomes.begin()), Source::kChance);
      state.ApplyUnchecked(it->action);
      if (stats) ++stats->chance_actions;
      continue;
    }
    state.LegalActions(legal.get());
    BuildDecisionTable(*legal, &table);
    // LegalActions is sorted by Encode, so the index is a binary search.
    const Action* found = std::lower_bound(legal->begin(), legal->end(), Encode(a),
                                           [](const Action& x, uint64_t c) { return Encode(x) < c; });
    if (found != legal->end() && *found == a) {  // stray data in unused fields is refused below
      writer.Put(table, int(found - legal->begin()), Source::kDecision);
      state.ApplyUnchecked(*found);
    } else {
      // The engine refuses stray fields too, so an accepted offer is exactly
      // what the decoder rebuilds from the coded fields.
      std::string refused = IsParameterised(a.type) ? state.Apply(a) : state.CheckAction(a);
      if (!IsParameterised(a.type) && refused.empty()) refused = "not among the legal actions";
      if (!refused.empty()) {
        *error = StepPrefix(i) + ActionToString(a) + ": " + refused;
        return false;
      }
      writer.Put(table, legal->size, Source::kDecision);  // the escape
      writer.PutParameterised(a);
      if (stats) ++stats->parameterised_actions;
    }
    if (stats) ++stats->decision_actions;
  }
  writer.Finish();
  if (final_state) *final_state = std::move(state);
  return true;
}

bool DecodeActions(const GameConfig& config, std::string_view bytes, std::vector<Action>* out, std::string* error) {
  State state;  // State(config) requires a valid config; NewGame checks it first
  if (!NewGame(config, &state, error)) return false;
  if (bytes.empty()) {
    *error = "header: the blob is empty";
    return false;
  }
  if (uint8_t(bytes[0]) != kFormatVersion) {
    *error = "header: format version " + std::to_string(uint8_t(bytes[0])) + ", this decoder reads " +
             std::to_string(kFormatVersion);
    return false;
  }
  size_t pos = 1;
  uint64_t count;
  if (!ReadVarint(bytes, &pos, &count)) {
    *error = "header: the action count is not a valid varint";
    return false;
  }
  // The engine ends every game at max_actions, so no longer list is valid;
  // this also bounds the work a corrupt count can ask for.
  if (count > config.options.max_actions) {
    *error = "header: " + std::to_string(count) + " actions, more than the configuration's max_actions " +
             std::to_string(config.options.max_actions);
    return false;
  }
  std::vector<Action> actions;
  if (count == 0) {
    if (pos != bytes.size()) {
      *error = "header: no actions, yet " + std::to_string(bytes.size() - pos) + " more bytes";
      return false;
    }
    out->clear();
    return true;
  }

  Reader reader(bytes.substr(pos));
  std::string why;
  if (!reader.Start(&why)) {
    *error = StepPrefix(0) + why;
    return false;
  }
  auto legal = std::make_unique<ActionList>();
  SymbolTable table;
  actions.reserve(size_t(std::min<uint64_t>(count, 1 << 16)));  // max_actions may be huge
  for (size_t i = 0; i < count; ++i) {
    const int player = state.CurrentPlayer();
    int symbol;
    if (player == kTerminalPlayer) {
      *error = StepPrefix(i) + "the game is over, yet the header counts " + std::to_string(count) + " actions";
      return false;
    }
    if (player == kChancePlayer) {
      const std::vector<ChanceOutcome> outcomes = state.ChanceOutcomes();
      if (outcomes.empty()) {  // an engine bug; refused rather than divided by
        *error = StepPrefix(i) + "the engine lists no chance outcome";
        return false;
      }
      BuildChanceTable(outcomes, &table);
      if (!reader.Get(table, &symbol, &why)) {
        *error = StepPrefix(i) + why;
        return false;
      }
      actions.push_back(outcomes[size_t(symbol)].action);
      state.ApplyUnchecked(actions.back());
      continue;
    }
    state.LegalActions(legal.get());
    BuildDecisionTable(*legal, &table);
    if (!reader.Get(table, &symbol, &why)) {
      *error = StepPrefix(i) + why;
      return false;
    }
    if (symbol < legal->size) {
      actions.push_back(legal->items[size_t(symbol)]);
      state.ApplyUnchecked(actions.back());
      continue;
    }
    Action a;
    if (!reader.GetParameterised(&a, &why)) {
      *error = StepPrefix(i) + why;
      return false;
    }
    if (std::string refused = state.Apply(a); !refused.empty()) {
      *error = StepPrefix(i) + ActionToString(a) + ": " + refused;
      return false;
    }
    actions.push_back(a);
  }
  if (!reader.AtEnd()) {
    *error = "trailing bytes after the last of the header's " + std::to_string(count) + " actions";
    return false;
  }
  if (!reader.EndsWhereTheEncoderEnded()) {
    *error = "corrupt data: the closing bytes do not match the " + std::to_string(count) + " decoded actions";
    return false;
  }
  *out = std::move(actions);
  return true;
}

}  // namespace metropolis::replays
