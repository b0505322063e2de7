// The notation's parser: FromNotation (docs/NOTATION.md).
#include <array>
#include <charconv>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config.h"
#include "engine/notation.h"
#include "engine/notation_internal.h"
#include "engine/progress.h"
#include "engine/state_editor.h"
#include "engine/text_random_internal.h"

namespace metropolis {
namespace {

using namespace notation_internal;

// Errors quote the field and the offending token: "k1: '60:2a' — node 60 out of range 0..53".
std::string TokenError(std::string_view key, std::string_view token, std::string_view what) {
  return std::string(key) + ": '" + std::string(token) + "' \u2014 " + std::string(what);
}

using internal::Split;

bool ParseInt(std::string_view s, long long* out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

// Reads an integer lo..hi named `what` ("node", "hex"); on failure returns the
// message for TokenError.
std::string ParseRange(std::string_view s, long long lo, long long hi, std::string_view what, long long* out) {
  if (!ParseInt(s, out)) return "expected " + std::string(what) + " " + std::to_string(lo) + ".." + std::to_string(hi);
  if (*out < lo || *out > hi)
    return std::string(what) + " " + std::to_string(*out) + " out of range " + std::to_string(lo) + ".." +
           std::to_string(hi);
  return {};
}

// "2b1w3m": counts followed by card letters, each card at most once. "-" or ""
// is no cards. Counts above `max_each` are refused.
std::string ParseCards(std::string_view s, int max_each, CardCounts* out) {
  *out = CardCounts{};
  if (s == "-") return {};
  std::array<bool, kNumCardTypes> seen{};
  size_t i = 0;
  while (i < s.size()) {
    const size_t digits = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == digits || i == s.size()) return "expected count+letter pairs such as 2b1w (cards b l w g o c m p)";
    long long n = 0;
    if (!ParseInt(s.substr(digits, i - digits), &n) || n < 1 || n > max_each)
      return "count " + std::string(s.substr(digits, i - digits)) + " out of range 1.." + std::to_string(max_each);
    const int card = CardFromLetter(s[i]);
    if (card < 0) return "unknown card letter '" + std::string(1, s[i]) + "' (cards b l w g o c m p)";
    if (seen[card]) return "card '" + std::string(1, s[i]) + "' given twice";
    seen[card] = true;
    (*out)[card] = uint8_t(n);
    ++i;
  }
  return {};
}

int ProgressFromText(std::string_view s) { return s == "?" ? kHiddenCard : ProgressCardFromName(s); }

// Splits the text into words; "[...]" keeps its spaces (opts=[a=1 b=2]).
std::string Tokenize(std::string_view text, std::vector<std::string_view>* words) {
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
      ++i;
      continue;
    }
    const size_t start = i;
    int depth = 0;
    while (i < text.size() &&
           (depth > 0 || (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r'))) {
      if (text[i] == '[') ++depth;
      if (text[i] == ']' && --depth < 0)
        return "'" + std::string(text.substr(start, i + 1 - start)) + "': unmatched ']'";
      ++i;
    }
    if (depth > 0) return "'" + std::string(text.substr(start)) + "': missing ']' (truncated text?)";
    words->push_back(text.substr(start, i - start));
  }
  return {};
}

// Per-seat fields are a name followed by the seat digit (r0, hand2, ...).
constexpr std::string_view kSeatFields[] = {"r", "s", "c", "k", "hand", "prog", "vpc", "def", "lvl", "dev", "army"};
constexpr std::string_view kGlobalFields[] = {
    "seats",
    "opts",
    "board",
    "harbors",
    "phase",
    "current",
    "start",
    "winner",
    "setup",
    "last",
    "turn",
    "actions",
    "robber",
    "merchant",
    "barbarians",
    "attacks",
    "first_attack",
    "dice",
    "longest",
    "metropolis_owner",
    "flags",
    "bank",
    "deck_trade",
    "deck_politics",
    "deck_science",
    "offers",
    "trade",
    "answers",
    "pending",
    "crane_discounts",
    "cranes_played",
    "fleet_cards",
    "harbor_partners",
    "largest",
    "dev_bought",
    "dev_played",
    "dev_discarded",
    "dev_deck",
};

bool IsKnownField(std::string_view key) {
  for (std::string_view k : kGlobalFields)
    if (k == key) return true;
  if (key.size() >= 2 && key.back() >= '0' && key.back() <= '9') {
    const std::string_view base = key.substr(0, key.size() - 1);
    for (std::string_view k : kSeatFields)
      if (k == base) return true;
  }
  return false;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  // The parsed state in *out; an error message otherwise.
  std::string Run(State* out);

 private:
  // The value of `key`, or nullptr when the text leaves it out.
  const std::string_view* Get(std::string_view key) const {
    auto it = fields_.find(key);
    return it == fields_.end() ? nullptr : &it->second;
  }
  std::string Int(std::string_view key, long long lo, long long hi, std::string_view what, long long fallback,
                  long long* out) const {
    const std::string_view* v = Get(key);
    if (v == nullptr) {
      *out = fallback;
      return {};
    }
    std::string err = ParseRange(*v, lo, hi, what, out);
    return err.empty() ? err : TokenError(key, *v, err);
  }
  std::string Seat(std::string_view key, bool allow_none, int fallback, int8_t* out) const {
    long long v = 0;
    std::string err = Int(key, allow_none ? -1 : 0, num_seats_ - 1, "seat", fallback, &v);
    *out = int8_t(v);
    return err;
  }

  std::string ParseHeader(const std::vector<std::string_view>& words, GameConfig* config);
  std::string ParseTurn();
  std::string ParseEffects();
  std::string ParseBoardState();
  std::string ParsePieces(int seat);
  std::string CheckPieceCounts(int seat) const;
  std::string ParseFlags();
  std::string ParseCardsOf(int seat);
  std::string ParseDecks();
  std::string ParseTrade();
  std::string ParsePending();
  std::string ParseBank(const State& fresh);
  std::string ParseDev();

  std::string_view text_;
  std::map<std::string_view, std::string_view, std::less<>> fields_;
  int num_seats_ = 0;
  State* s_ = nullptr;
  StateEditor* ed_ = nullptr;
};

std::string Parser::ParseHeader(const std::vector<std::string_view>& words, GameConfig* config) {
  if (words.empty()) return "empty text: expected 'v1 cak seats=...'";
  long long version = 0;
  if (words[0].size() < 2 || words[0][0] != 'v' || !ParseInt(words[0].substr(1), &version))
    return TokenError("version", words[0], "expected the rules version first, e.g. v1");
  if (std::string err = CheckRulesVersion(int(version)); !err.empty()) return TokenError("version", words[0], err);
  config->rules_version = int(version);
  if (words.size() < 2) return "ruleset: missing after the version (truncated text?), expected cak or base";
  if (words[1] != "cak" && words[1] != "base") return TokenError("ruleset", words[1], "expected cak or base");
  config->options = DefaultOptions(words[1] == "cak" ? Ruleset::kCitiesAndKnights : Ruleset::kBase);

  for (size_t i = 2; i < words.size(); ++i) {
    const size_t eq = words[i].find('=');
    if (eq == std::string_view::npos || eq == 0) return "'" + std::string(words[i]) + "': expected a field name=value";
    const std::string_view key = words[i].substr(0, eq);
    if (!IsKnownField(key)) return "'" + std::string(words[i]) + "': unknown field '" + std::string(key) + "'";
    if (!fields_.emplace(key, words[i].substr(eq + 1)).second) return "field '" + std::string(key) + "' given twice";
  }
  for (std::string_view required : {"seats", "board", "harbors", "phase", "current"})
    if (Get(required) == nullptr) return "missing field '" + std::string(required) + "' (truncated text?)";

  long long seats = 0;
  if (std::string err = ParseRange(*Get("seats"), kMinSeats, kMaxSeats, "seats", &seats); !err.empty())
    return TokenError("seats", *Get("seats"), err);
  num_seats_ = int(seats);
  config->num_seats = num_seats_;
  for (const auto& [key, value] : fields_) {
    const char last = key.back();
    if (last >= '0' && last <= '9' && last - '0' >= num_seats_)
      return TokenError(key, value,
                        "seat " + std::string(1, last) + " out of range 0.." + std::to_string(num_seats_ - 1));
  }

  if (const std::string_view* opts = Get("opts")) {
    if (opts->size() < 2 || opts->front() != '[' || opts->back() != ']')
      return TokenError("opts", *opts, "expected [name=value ...]");
    std::vector<std::string_view> items;
    if (std::string err = Tokenize(opts->substr(1, opts->size() - 2), &items); !err.empty())
      return TokenError("opts", *opts, err);
    for (std::string_view item : items) {
      if (item.starts_with("ruleset="))
        return TokenError("opts", item, "the ruleset is the second word of the notation, not an option");
      if (std::string err = ParseOption(item, &config->options); !err.empty()) return TokenError("opts", item, err);
    }
  }

  const std::string_view board = *Get("board");
  const std::vector<std::string_view> rows = Split(board, '/');
  if (rows.size() != kRowLengths.size())
    return TokenError("board", board,
                      "expected 5 rows of 3,4,5,4,3 hexes separated by '/', got " + std::to_string(rows.size()));
  int h = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::string_view row = rows[r];
    int in_row = 0;
    size_t i = 0;
    while (i < row.size()) {
      const int terrain = TerrainFromLetter(row[i]);
      if (terrain < 0)
        return TokenError("board", row, "unknown terrain letter '" + std::string(1, row[i]) + "' (H F P G M D)");
      size_t j = i + 1;
      while (j < row.size() && row[j] >= '0' && row[j] <= '9') ++j;
      long long token = 0;
      if (j > i + 1) {
        if (std::string err = ParseRange(row.substr(i + 1, j - i - 1), 2, 12, "token", &token); !err.empty())
          return TokenError("board", row, err);
      }
      if (in_row < kRowLengths[r] && h < kNumHexes) {
        config->board.terrain[h] = uint8_t(terrain);
        config->board.token[h] = uint8_t(token);
      }
      ++in_row;
      ++h;
      i = j;
    }
    if (in_row != kRowLengths[r])
      return TokenError("board", row,
                        "row " + std::to_string(r + 1) + " has " + std::to_string(in_row) + " hexes, expected " +
                            std::to_string(kRowLengths[r]));
  }

  const std::string_view harbors = *Get("harbors");
  if (harbors.size() != kNumHarbors)
    return TokenError("harbors", harbors,
                      "expected 9 letters (b l w g o, 3 for generic), got " + std::to_string(harbors.size()));
  for (int k = 0; k < kNumHarbors; ++k) {
    const int type = HarborFromLetter(harbors[k]);
    if (type < 0)
      return TokenError("harbors", harbors, "unknown harbor '" + std::string(1, harbors[k]) + "' (b l w g o 3)");
    config->board.harbor[k] = uint8_t(type);
  }
  if (std::string err = ValidateConfig(*config); !err.empty()) return err;
  return {};
}

std::string Parser::ParseTurn() {
  const std::string_view phase = *Get("phase");
  int p = -1;
  for (int i = 0; i < 4; ++i)
    if (kPhaseNames[i] == phase) p = i;
  if (p < 0) return TokenError("phase", phase, "expected setup, before_roll, action or over");
  ed_->phase() = Phase(p);
  if (std::string err = Seat("current", false, 0, &ed_->current()); !err.empty()) return err;
  if (std::string err = Seat("start", false, 0, &ed_->start()); !err.empty()) return err;
  if (std::string err = Seat("winner", true, kNoSeat, &ed_->winner()); !err.empty()) return err;
  long long v = 0;
  if (std::string err = Int("setup", 0, 4 * num_seats_, "setup step", 0, &v); !err.empty()) return err;
  ed_->setup_step() = uint8_t(v);
  if (std::string err = Int("last", 0, kNumNodes - 1, "node", -1, &v); !err.empty()) return err;
  ed_->last_setup_node() = int8_t(v);
  if (std::string err = Int("turn", 0, UINT16_MAX, "turn", 0, &v); !err.empty()) return err;
  ed_->turn() = uint16_t(v);
  if (std::string err = Int("actions", 0, UINT32_MAX, "action count", 0, &v); !err.empty()) return err;
  ed_->actions() = uint32_t(v);
  if (std::string err = Int("offers", 0, 255, "offer count", 0, &v); !err.empty()) return err;
  ed_->offers_this_turn() = uint8_t(v);
  return ParseEffects();
}

// TurnEffects: "crane_discounts=1 cranes_played=2 fleet_cards=wc harbor_partners=13".
std::string Parser::ParseEffects() {
  TurnEffects& e = ed_->effects();
  e = TurnEffects{};
  long long v = 0;
  if (std::string err = Int("crane_discounts", 0, 255, "discount count", 0, &v); !err.empty()) return err;
  e.crane_discounts = uint8_t(v);
  if (std::string err = Int("cranes_played", 0, 255, "Crane count", 0, &v); !err.empty()) return err;
  e.cranes_played = uint8_t(v);
  if (const std::string_view* fleet = Get("fleet_cards")) {
    if (fleet->empty()) return TokenError("fleet_cards", *fleet, "expected card letters such as wc (b l w g o c m p)");
    for (char c : *fleet) {
      const int card = CardFromLetter(c);
      if (card < 0)
        return TokenError("fleet_cards", *fleet,
                          "unknown card letter '" + std::string(1, c) + "' (cards b l w g o c m p)");
      if ((e.fleet_cards >> card) & 1)
        return TokenError("fleet_cards", *fleet, "card '" + std::string(1, c) + "' given twice");
      e.fleet_cards |= uint8_t(1u << card);
    }
  }
  if (const std::string_view* partners = Get("harbor_partners")) {
    if (partners->empty()) return TokenError("harbor_partners", *partners, "expected seat digits such as 13");
    for (char c : *partners) {
      if (c < '0' || c >= '0' + num_seats_)
        return TokenError("harbor_partners", *partners, "'" + std::string(1, c) + "' is not a seat");
      if ((e.harbor_partners >> (c - '0')) & 1)
        return TokenError("harbor_partners", *partners, "seat " + std::string(1, c) + " given twice");
      e.harbor_partners |= uint8_t(1u << (c - '0'));
    }
  }
  return {};
}

std::string Parser::ParseBoardState() {
  long long v = 0;
  if (std::string err = Int("robber", 0, kNumHexes - 1, "hex", DesertHex(s_->board()), &v); !err.empty()) return err;
  ed_->robber() = int8_t(v);

  ed_->merchant_hex() = -1;
  ed_->merchant_owner() = kNoSeat;
  if (const std::string_view* m = Get("merchant")) {
    const size_t at = m->find('@');
    const std::string_view hex = m->substr(0, at);
    if (hex != "-") {
      if (std::string err = ParseRange(hex, 0, kNumHexes - 1, "hex", &v); !err.empty())
        return TokenError("merchant", *m, err);
      ed_->merchant_hex() = int8_t(v);
    }
    if (at != std::string_view::npos) {
      if (std::string err = ParseRange(m->substr(at + 1), 0, num_seats_ - 1, "seat", &v); !err.empty())
        return TokenError("merchant", *m, err);
      ed_->merchant_owner() = int8_t(v);
    }
  }

  if (std::string err = Int("barbarians", 0, 7, "barbarian position", 0, &v); !err.empty()) return err;
  ed_->barbarians() = uint8_t(v);
  if (std::string err = Int("attacks", 0, UINT16_MAX, "attack count", 0, &v); !err.empty()) return err;
  ed_->attacks() = uint16_t(v);
  ed_->first_attack_done() = v > 0;
  if (const std::string_view* f = Get("first_attack")) {
    if (*f != "yes" && *f != "no") return TokenError("first_attack", *f, "expected yes or no");
    ed_->first_attack_done() = *f == "yes";
  }

  ed_->dice_yellow() = ed_->dice_red() = ed_->dice_event() = 0;
  if (const std::string_view* d = Get("dice")) {
    const std::vector<std::string_view> parts = Split(*d, ',');
    if (parts.size() != 3) return TokenError("dice", *d, "expected yellow,red,event such as 4,3,ship");
    if (std::string err = ParseRange(parts[0], 0, 6, "yellow die", &v); !err.empty())
      return TokenError("dice", *d, err);
    ed_->dice_yellow() = uint8_t(v);
    if (std::string err = ParseRange(parts[1], 0, 6, "red die", &v); !err.empty()) return TokenError("dice", *d, err);
    ed_->dice_red() = uint8_t(v);
    int face = -1;
    for (int i = 0; i < kNumEventFaces; ++i)
      if (kEventFaceNames[i] == parts[2]) face = i;
    if (face < 0) return TokenError("dice", *d, "event face must be ship, trade, politics or science");
    ed_->dice_event() = uint8_t(face);
  }
  if (std::string err = Seat("longest", true, kNoSeat, &ed_->longest_road()); !err.empty()) return err;
  return {};
}

// "12wT": a node, then w (wall), x (sabotaged) and a metropolis letter T/P/S.
std::string ParseBuildingToken(std::string_view key, std::string_view item, int seat, Building kind, State* s,
                               StateEditor* ed) {
  size_t i = 0;
  while (i < item.size() && item[i] >= '0' && item[i] <= '9') ++i;
  long long node = 0;
  if (std::string err = ParseRange(item.substr(0, i), 0, kNumNodes - 1, "node", &node); !err.empty())
    return TokenError(key, item, err);
  if (s->building_owner(int(node)) != kNoSeat)
    return TokenError(key, item, "node " + std::to_string(node) + " already has a building");
  ed->building_owner()[node] = int8_t(seat);
  ed->building()[node] = kind;
  for (; i < item.size(); ++i) {
    const char c = item[i];
    if (c == 'w' || c == 'x') {
      const uint8_t bit = c == 'w' ? kWall : kSabotaged;
      if (ed->node_flags()[node] & bit) return TokenError(key, item, "flag '" + std::string(1, c) + "' given twice");
      ed->node_flags()[node] |= bit;
      continue;
    }
    int track = -1;
    for (int t = 0; t < kNumTracks; ++t)
      if (MetropolisLetter(t) == c) track = t;
    if (track < 0)
      return TokenError(key, item, "unknown mark '" + std::string(1, c) + "' (w wall, x sabotaged, T P S metropolis)");
    if (ed->metropolis_node()[track] != -1)
      return TokenError(key, item, "a second " + std::string(TrackName(track)) + " metropolis");
    ed->metropolis_node()[track] = int8_t(node);
    ed->metropolis_owner()[track] = int8_t(seat);
  }
  return {};
}

std::string Parser::ParsePieces(int seat) {
  const std::string n = std::to_string(seat);
  if (const std::string_view* roads = Get("r" + n)) {
    for (std::string_view item : Split(*roads, ',')) {
      long long e = 0;
      if (std::string err = ParseRange(item, 0, kNumEdges - 1, "edge", &e); !err.empty())
        return TokenError("r" + n, item, err);
      if (s_->road_owner(int(e)) != kNoSeat)
        return TokenError("r" + n, item, "edge " + std::to_string(e) + " already has a road");
      ed_->road_owner()[e] = int8_t(seat);
    }
  }
  for (const auto& [prefix, kind] : {std::pair{"s", kSettlement}, std::pair{"c", kCity}}) {
    const std::string key = prefix + n;
    if (const std::string_view* list = Get(key))
      for (std::string_view item : Split(*list, ','))
        if (std::string err = ParseBuildingToken(key, item, seat, kind, s_, ed_); !err.empty()) return err;
  }
  if (const std::string_view* knights = Get("k" + n)) {
    const std::string key = "k" + n;
    for (std::string_view item : Split(*knights, ',')) {
      const size_t colon = item.find(':');
      long long node = 0, level = 0;
      if (std::string err = ParseRange(item.substr(0, colon), 0, kNumNodes - 1, "node", &node); !err.empty())
        return TokenError(key, item, err);
      if (colon == std::string_view::npos || colon + 1 >= item.size())
        return TokenError(key, item, "expected node:level[flags] such as 12:2ar");
      if (std::string err = ParseRange(item.substr(colon + 1, 1), 1, kMaxKnightLevel, "level", &level); !err.empty())
        return TokenError(key, item, err);
      if (s_->knight_owner(int(node)) != kNoSeat)
        return TokenError(key, item, "node " + std::to_string(node) + " already has a knight");
      uint8_t flags = 0;
      for (char c : item.substr(colon + 2)) {
        const size_t f = std::string_view(kKnightFlagLetters).find(c);
        if (f == std::string_view::npos)
          return TokenError(
              key, item,
              "unknown knight flag '" + std::string(1, c) + "' (a active, r ready, p promoted, x committed)");
        if (flags & kKnightFlagBits[f]) return TokenError(key, item, "flag '" + std::string(1, c) + "' given twice");
        flags |= kKnightFlagBits[f];
      }
      ed_->knight_owner()[node] = int8_t(seat);
      ed_->knight_level()[node] = uint8_t(level);
      ed_->knight_flags()[node] = flags;
    }
  }
  return CheckPieceCounts(seat);
}

// The supplies are recomputed from the board, so more pieces than a seat owns
// (RULES.md 1.4) must be refused here, before the counts wrap around.
std::string Parser::CheckPieceCounts(int seat) const {
  const std::string n = std::to_string(seat);
  int roads = 0, settlements = 0, cities = 0, walls = 0;
  std::array<int, kMaxKnightLevel> knights{};
  for (int e = 0; e < kNumEdges; ++e) roads += s_->road_owner(e) == seat;
  for (int v = 0; v < kNumNodes; ++v) {
    if (s_->building_owner(v) == seat) {
      settlements += s_->building(v) == kSettlement;
      cities += s_->building(v) == kCity;
      walls += (s_->node_flags(v) & kWall) != 0;
    }
    if (s_->knight_owner(v) == seat) ++knights[s_->knight_level(v) - 1];
  }
  auto too_many = [&](std::string_view key, int count, std::string_view what, int max) {
    const std::string k = std::string(key) + n;
    const std::string_view* v = Get(k);
    return TokenError(
        k, v ? *v : "",
        std::to_string(count) + " " + std::string(what) + ", a seat has " + std::to_string(max) + " (RULES.md 1.4)");
  };
  if (roads > 15) return too_many("r", roads, "roads", 15);
  // BAR-10: a pillaged city may leave a sixth settlement on the board.
  if (settlements > 6) return too_many("s", settlements, "settlements", 6);
  if (cities > 4) return too_many("c", cities, "cities", 4);
  if (walls > 3) return too_many("c", walls, "walls", 3);
  for (int l = 0; l < kMaxKnightLevel; ++l)
    if (knights[l] > 2) return too_many("k", knights[l], "knights of level " + std::to_string(l + 1), 2);
  return {};
}

// Flags on nodes without a building: "12w,30x".
std::string Parser::ParseFlags() {
  const std::string_view* list = Get("flags");
  if (list == nullptr) return {};
  for (std::string_view item : Split(*list, ',')) {
    size_t i = 0;
    while (i < item.size() && item[i] >= '0' && item[i] <= '9') ++i;
    long long node = 0;
    if (std::string err = ParseRange(item.substr(0, i), 0, kNumNodes - 1, "node", &node); !err.empty())
      return TokenError("flags", item, err);
    if (i == item.size()) return TokenError("flags", item, "expected node and flags such as 12w");
    for (; i < item.size(); ++i) {
      if (item[i] != 'w' && item[i] != 'x')
        return TokenError("flags", item, "unknown flag '" + std::string(1, item[i]) + "' (w x)");
      ed_->node_flags()[node] |= item[i] == 'w' ? kWall : kSabotaged;
    }
  }
  return {};
}

std::string Parser::ParseCardsOf(int seat) {
  const std::string n = std::to_string(seat);
  PlayerState& p = ed_->player(seat);
  if (const std::string_view* hand = Get("hand" + n)) {
    if (std::string err = ParseCards(*hand, 255, &p.hand); !err.empty()) return TokenError("hand" + n, *hand, err);
  }
  if (const std::string_view* prog = Get("prog" + n)) {
    for (std::string_view item : Split(*prog, ',')) {
      const int card = ProgressFromText(item);
      if (card < 0) return TokenError("prog" + n, item, "unknown progress card");
      if (p.num_progress >= p.progress.size())
        return TokenError("prog" + n, *prog, "more than " + std::to_string(p.progress.size()) + " progress cards");
      p.progress[p.num_progress++] = uint8_t(card);
    }
  }
  if (const std::string_view* vpc = Get("vpc" + n)) {
    for (std::string_view item : Split(*vpc, ',')) {
      int bit = -1;
      for (int i = 0; i < 2; ++i)
        if (ProgressCardName(kVpCardKinds[i]) == item) bit = i;
      if (bit < 0) return TokenError("vpc" + n, item, "expected printer or constitution");
      if (p.vp_cards & (1 << bit)) return TokenError("vpc" + n, item, "given twice");
      p.vp_cards |= uint8_t(1 << bit);
    }
  }
  long long v = 0;
  if (std::string err = Int("def" + n, 0, 255, "defender count", 0, &v); !err.empty()) return err;
  p.defender = uint8_t(v);
  if (const std::string_view* dev = Get("dev" + n)) {
    if (std::string err = ParseDevText(*dev, &p.dev); !err.empty()) return TokenError("dev" + n, *dev, err);
  }
  if (std::string err = Int("army" + n, 0, 14, "knights played", 0, &v); !err.empty()) return err;
  p.army = uint8_t(v);
  if (const std::string_view* lvl = Get("lvl" + n)) {
    if (lvl->size() != kNumTracks)
      return TokenError("lvl" + n, *lvl, "expected 3 digits: trade, politics, science levels");
    for (int t = 0; t < kNumTracks; ++t) {
      const char c = (*lvl)[t];
      if (c < '0' || c > '0' + kMaxImprovementLevel)
        return TokenError("lvl" + n, *lvl, "level '" + std::string(1, c) + "' out of range 0..5");
      p.level[t] = uint8_t(c - '0');
    }
  }
  return {};
}

std::string Parser::ParseDecks() {
  for (int t = 0; t < kNumTracks; ++t) {
    const std::string_view key = kDeckKeys[t];
    const std::string_view* value = Get(key);
    if (value == nullptr) continue;  // the fresh state's full deck
    ProgressDeck& d = ed_->deck(t);
    d = ProgressDeck{};
    const size_t slash = value->find('/');
    const std::string_view unseen = value->substr(0, slash);
    if (int(unseen.size()) != TrackNumKinds(t))
      return TokenError(key, *value,
                        "expected " + std::to_string(TrackNumKinds(t)) + " digits of unseen copies (one per kind)");
    for (int k = 0; k < TrackNumKinds(t); ++k) {
      if (unseen[k] < '0' || unseen[k] > '9') return TokenError(key, *value, "unseen counts must be digits");
      d.unseen[k] = uint8_t(unseen[k] - '0');
      d.unseen_total = uint8_t(d.unseen_total + d.unseen[k]);
    }
    if (slash == std::string_view::npos) continue;
    for (std::string_view item : Split(value->substr(slash + 1), ',')) {
      const size_t at = item.find('@');
      const int card = ProgressFromText(item.substr(0, at));
      if (card < 0 || (card != kHiddenCard && ProgressTrack(card) != t))
        return TokenError(key, item, "not a " + std::string(TrackName(t)) + " progress card");
      if (d.size >= ProgressDeck::kCapacity)
        return TokenError(key, *value, "more than " + std::to_string(ProgressDeck::kCapacity) + " returned cards");
      if (at != std::string_view::npos) {
        long long seat = 0;
        if (std::string err = ParseRange(item.substr(at + 1), 0, num_seats_ - 1, "seat", &seat); !err.empty())
          return TokenError(key, item, err);
        d.returned_hidden[d.size] = uint8_t(seat + 1);
      }
      d.returned[d.size++] = uint8_t(card);
    }
  }
  return {};
}

std::string Parser::ParseTrade() {
  TradeState& tr = ed_->trade();
  tr = TradeState{};
  auto packed = [](std::string_view key, std::string_view token, std::string_view s, PackedCards* out) {
    CardCounts c;
    if (std::string err = ParseCards(s, 15, &c); !err.empty()) return TokenError(key, token, err);
    *out = PackedCards::From(c);
    return std::string();
  };
  if (const std::string_view* t = Get("trade")) {
    std::string_view rest = *t;
    tr.open = true;
    if (rest.starts_with("closed:")) {
      tr.open = false;
      rest.remove_prefix(7);
    }
    const std::vector<std::string_view> parts = Split(rest, ':');
    if (parts.size() != 3) return TokenError("trade", *t, "expected give:want:addressees such as 2b:1o:13");
    if (std::string err = packed("trade", *t, parts[0], &tr.give); !err.empty()) return err;
    if (std::string err = packed("trade", *t, parts[1], &tr.want); !err.empty()) return err;
    if (parts[2] != "-") {
      for (char c : parts[2]) {
        if (c < '0' || c >= '0' + num_seats_)
          return TokenError("trade", *t, "addressee '" + std::string(1, c) + "' is not a seat");
        tr.addressees |= uint8_t(1 << (c - '0'));
      }
    }
  }
  if (const std::string_view* a = Get("answers")) {
    const std::vector<std::string_view> seats = Split(*a, ',');
    if (int(seats.size()) != num_seats_)
      return TokenError("answers", *a, "expected one answer per seat (- a d c), got " + std::to_string(seats.size()));
    for (int q = 0; q < num_seats_; ++q) {
      const std::vector<std::string_view> parts = Split(seats[q], ':');
      const size_t letter =
          parts[0].size() == 1 ? std::string_view(kAnswerLetters).find(parts[0][0]) : std::string_view::npos;
      if (letter == std::string_view::npos || (parts.size() != 1 && parts.size() != 3))
        return TokenError("answers", seats[q], "expected - a d or c, optionally followed by :give:want");
      tr.answer[q] = uint8_t(letter);
      if (parts.size() == 3) {
        if (std::string err = packed("answers", seats[q], parts[1], &tr.counter_give[q]); !err.empty()) return err;
        if (std::string err = packed("answers", seats[q], parts[2], &tr.counter_want[q]); !err.empty()) return err;
      }
    }
  }
  return {};
}

std::string Parser::ParsePending() {
  ed_->pending_size() = 0;
  ed_->pending().fill(Pending{});
  const std::string_view* list = Get("pending");
  if (list == nullptr) return {};
  const std::vector<std::string_view> items = Split(*list, '/');
  const size_t capacity = ed_->pending().size();
  if (items.size() > capacity)
    return TokenError("pending", *list, "more than " + std::to_string(capacity) + " entries");
  for (std::string_view item : items) {
    Pending p{};
    const size_t colon = item.find(':');
    const std::string_view head = item.substr(0, colon);
    const size_t at = head.find('@');
    const std::string_view name = head.substr(0, at);
    int kind = -1;
    for (int k = 0; k < kNumPendingKinds; ++k)
      if (kPendingNames[k] == name) kind = k;
    if (kind < 0) return TokenError("pending", item, "unknown kind '" + std::string(name) + "'");
    p.kind = PendingKind(kind);
    p.seat = kNoSeat;
    if (at != std::string_view::npos) {
      long long seat = 0;
      if (std::string err = ParseRange(head.substr(at + 1), 0, num_seats_ - 1, "seat", &seat); !err.empty())
        return TokenError("pending", item, err);
      p.seat = int8_t(seat);
    }
    if (colon != std::string_view::npos) {
      const std::vector<std::string_view> params = Split(item.substr(colon + 1), ',');
      if (params.size() > 3) return TokenError("pending", item, "at most 3 parameters");
      uint8_t* fields[3] = {&p.a, &p.b, &p.c};
      for (size_t i = 0; i < params.size(); ++i) {
        long long v = 0;
        if (std::string err = ParseRange(params[i], 0, 255, "parameter", &v); !err.empty())
          return TokenError("pending", item, err);
        *fields[i] = uint8_t(v);
      }
    }
    ed_->pending()[ed_->pending_size()++] = p;
  }
  return {};
}

std::string Parser::ParseBank(const State& fresh) {
  const std::string_view* b = Get("bank");
  if (b == nullptr) {
    ed_->bank() = ImpliedBank(*s_, fresh.bank());
    return {};
  }
  const std::vector<std::string_view> parts = Split(*b, ',');
  if (parts.size() != kNumCardTypes) return TokenError("bank", *b, "expected 8 counts b,l,w,g,o,c,m,p");
  for (int c = 0; c < kNumCardTypes; ++c) {
    long long v = 0;
    if (std::string err = ParseRange(parts[c], INT16_MIN, INT16_MAX, "count", &v); !err.empty())
      return TokenError("bank", *b, err);
    ed_->bank()[c] = int16_t(v);
  }
  return {};
}

// The base game's development-card fields (BG-4..BG-6); the hands are per seat.
std::string Parser::ParseDev() {
  if (const std::string_view* d = Get("dev_bought")) {
    if (std::string err = ParseDevText(*d, &ed_->dev_bought()); !err.empty()) return TokenError("dev_bought", *d, err);
  }
  if (const std::string_view* d = Get("dev_played")) {
    if (*d != "yes" && *d != "no") return TokenError("dev_played", *d, "expected yes or no");
    ed_->dev_played() = *d == "yes";
  }
  if (const std::string_view* d = Get("dev_discarded")) {
    if (std::string err = ParseDevText(*d, &ed_->dev_discarded()); !err.empty())
      return TokenError("dev_discarded", *d, err);
  }
  if (std::string err = Seat("largest", true, kNoSeat, &ed_->largest_army()); !err.empty()) return err;
  if (const std::string_view* d = Get("dev_deck")) {
    if (std::string err = ParseDevText(*d, &ed_->dev_deck()); !err.empty()) return TokenError("dev_deck", *d, err);
  } else {
    ed_->dev_deck() = ImpliedDevDeck(*s_);
  }
  return {};
}

std::string Parser::Run(State* out) {
  std::vector<std::string_view> words;
  if (std::string err = Tokenize(text_, &words); !err.empty()) return err;
  GameConfig config;
  if (std::string err = ParseHeader(words, &config); !err.empty()) return err;

  State s(config);
  const State fresh = s;
  StateEditor ed(&s);
  s_ = &s;
  ed_ = &ed;
  if (std::string err = ParseTurn(); !err.empty()) return err;
  if (std::string err = ParseBoardState(); !err.empty()) return err;
  for (int p = 0; p < num_seats_; ++p)
    if (std::string err = ParsePieces(p); !err.empty()) return err;
  if (std::string err = ParseFlags(); !err.empty()) return err;
  if (const std::string_view* m = Get("metropolis_owner")) {
    for (std::string_view item : Split(*m, ',')) {
      const size_t track = item.empty() ? std::string_view::npos : std::string_view(kTrackLetters).find(item[0]);
      if (track == std::string_view::npos || item.size() < 2 || item[1] != '@')
        return TokenError("metropolis_owner", item, "expected t@seat, p@seat or s@seat");
      if (item.substr(2) == "-") {
        ed.metropolis_owner()[track] = kNoSeat;
        continue;
      }
      long long seat = 0;
      if (std::string err = ParseRange(item.substr(2), 0, num_seats_ - 1, "seat", &seat); !err.empty())
        return TokenError("metropolis_owner", item, err);
      ed.metropolis_owner()[track] = int8_t(seat);
    }
  }
  for (int p = 0; p < num_seats_; ++p)
    if (std::string err = ParseCardsOf(p); !err.empty()) return err;
  if (std::string err = ParseDecks(); !err.empty()) return err;
  if (std::string err = ParseTrade(); !err.empty()) return err;
  if (std::string err = ParsePending(); !err.empty()) return err;
  if (std::string err = ParseBank(fresh); !err.empty()) return err;
  if (std::string err = ParseDev(); !err.empty()) return err;

  ed.RecomputeDerived();
  if (std::string err = s.Validate(); !err.empty()) return "inconsistent position: " + err;
  *out = s;
  return {};
}

}  // namespace

bool FromNotation(std::string_view text, State* out, std::string* error) {
  Parser parser(text);
  std::string err = parser.Run(out);
  if (err.empty()) return true;
  if (error != nullptr) *error = std::move(err);
  return false;
}

}  // namespace metropolis
