// The notation's writer and the vocabulary it shares with the parser
// (notation_parse.cc) and the board picture (board_picture.cc).
#include "engine/notation.h"

#include <array>
#include <string>
#include <string_view>

#include "engine/config.h"
#include "engine/notation_internal.h"
#include "engine/progress.h"

namespace metropolis {
namespace notation_internal {

char MetropolisLetter(int track) { return char(kTrackLetters[track] - 'a' + 'A'); }

char HarborLetter(int type) { return type == kGenericHarbor ? '3' : CardLetter(type); }

int HarborFromLetter(char c) {
  if (c == '3') return kGenericHarbor;
  const int card = CardFromLetter(c);
  return IsResource(card) ? card : -1;
}

std::string ProgressText(int card) {
  return card == kHiddenCard ? std::string("?") : std::string(ProgressCardName(card));
}

std::string DevText(const std::array<uint8_t, kNumDevKinds>& dev) {
  std::string t;
  for (int k = 0; k < kNumDevKinds; ++k)
    if (dev[k] != 0) t += std::to_string(dev[k]) + DevCardLetter(k);
  return t.empty() ? "-" : t;
}

std::string ParseDevText(std::string_view text, std::array<uint8_t, kNumDevKinds>* out) {
  *out = {};
  if (text == "-") return {};
  if (text.empty()) return "expected development cards like 2k1v (k v r y m), or -";
  size_t i = 0;
  while (i < text.size()) {
    int n = 0, digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 3) n = n * 10 + (text[i++] - '0'), ++digits;
    if (digits == 0 || i >= text.size()) return "expected a count and a letter (k v r y m)";
    const int k = DevCardFromLetter(text[i++]);
    if (k < 0) return "unknown development card letter (k v r y m)";
    if ((*out)[k] != 0) return "a letter given twice";
    if (n > 25) return "more than 25 development cards";
    (*out)[k] = uint8_t(n);
  }
  return {};
}

std::array<uint8_t, kNumDevKinds> ImpliedDevDeck(const State& s) {
  std::array<uint8_t, kNumDevKinds> deck{};
  if (s.options().ruleset != Ruleset::kBase) return deck;
  for (int k = 0; k < kNumDevKinds; ++k) {
    int n = kDevCardCounts[k] - (k == kDevKnight ? 0 : s.dev_discarded()[k]);
    for (int p = 0; p < s.num_seats(); ++p) n -= s.player(p).dev[k] + (k == kDevKnight ? s.player(p).army : 0);
    deck[k] = uint8_t(n);
  }
  return deck;
}

State FreshState(int num_seats, const RulesOptions& options) {
  GameConfig config;
  config.num_seats = num_seats;
  config.board = DefaultBoard();
  config.options = options;
  return State(config);
}

std::array<int16_t, kNumCardTypes> ImpliedBank(const State& s, const std::array<int16_t, kNumCardTypes>& full) {
  std::array<int16_t, kNumCardTypes> bank = full;
  for (int p = 0; p < s.num_seats(); ++p)
    for (int c = 0; c < kNumCardTypes; ++c) bank[c] = int16_t(bank[c] - s.player(p).hand[c]);
  return bank;
}

int DesertHex(const Board& b) {
  for (int h = 0; h < kNumHexes; ++h)
    if (b.terrain[h] == kDesert) return h;
  return 0;
}

int ImpliedMetropolisOwner(const State& s, int track) {
  const int node = s.metropolis_node(track);
  return node >= 0 && node < kNumNodes ? s.building_owner(node) : kNoSeat;
}

bool FirstAttackImplied(const State& s) { return s.barbarian_attacks() > 0; }

}  // namespace notation_internal

namespace {

using namespace notation_internal;

struct PackedView {
  PackedCards p;
  int operator[](int c) const { return p.Get(c); }
};

std::string PackedText(const PackedCards& p) {
  const std::string s = CardsText(PackedView{p});
  return s.empty() ? "-" : s;
}

std::string SeatText(int seat) { return seat == kNoSeat ? "-" : std::to_string(seat); }

std::string NodeSuffixes(const State& s, int v) {
  std::string t;
  if (s.node_flags(v) & kWall) t += 'w';
  if (s.node_flags(v) & kSabotaged) t += 'x';
  for (int track = 0; track < kNumTracks; ++track)
    if (s.metropolis_node(track) == v) t += MetropolisLetter(track);
  return t;
}

class Writer {
 public:
  void Word(std::string_view w) {
    if (!out_.empty()) out_ += ' ';
    out_ += w;
  }
  void Field(std::string_view key, std::string_view value) {
    Word(key);
    out_ += '=';
    out_ += value;
  }
  void Field(std::string_view key, int value) { Field(key, std::to_string(value)); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

std::string BoardText(const Board& b) {
  std::string s;
  int h = 0;
  for (size_t row = 0; row < kRowLengths.size(); ++row) {
    if (row > 0) s += '/';
    for (int i = 0; i < kRowLengths[row]; ++i, ++h) {
      s += TerrainLetter(b.terrain[h]);
      if (b.token[h] != 0) s += std::to_string(b.token[h]);
    }
  }
  return s;
}

std::string DeckText(const ProgressDeck& d, int track) {
  std::string s;
  for (int k = 0; k < TrackNumKinds(track); ++k) s += char('0' + d.unseen[k]);
  if (d.size == 0) return s;
  s += '/';
  for (int i = 0; i < d.size; ++i) {
    const int slot = (d.head + i) % ProgressDeck::kCapacity;
    if (i > 0) s += ',';
    s += ProgressText(d.returned[slot]);
    if (d.returned_hidden[slot] != 0) s += "@" + std::to_string(d.returned_hidden[slot] - 1);
  }
  return s;
}

bool DeckIsFresh(const ProgressDeck& d, const ProgressDeck& fresh) { return d.size == 0 && d.unseen == fresh.unseen; }

void WritePieces(const State& s, int seat, Writer* w) {
  const std::string n = std::to_string(seat);
  std::string roads, settlements, cities, knights;
  auto add = [](std::string* list, const std::string& item) {
    if (!list->empty()) *list += ',';
    *list += item;
  };
  for (int e = 0; e < kNumEdges; ++e)
    if (s.road_owner(e) == seat) add(&roads, std::to_string(e));
  for (int v = 0; v < kNumNodes; ++v) {
    if (s.building_owner(v) == seat && s.building(v) == kSettlement)
      add(&settlements, std::to_string(v) + NodeSuffixes(s, v));
    if (s.building_owner(v) == seat && s.building(v) == kCity) add(&cities, std::to_string(v) + NodeSuffixes(s, v));
    if (s.knight_owner(v) == seat) {
      std::string k = std::to_string(v) + ":" + std::to_string(s.knight_level(v));
      for (int f = 0; f < 4; ++f)
        if (s.knight_flags(v) & kKnightFlagBits[f]) k += kKnightFlagLetters[f];
      add(&knights, k);
    }
  }
  if (!roads.empty()) w->Field("r" + n, roads);
  if (!settlements.empty()) w->Field("s" + n, settlements);
  if (!cities.empty()) w->Field("c" + n, cities);
  if (!knights.empty()) w->Field("k" + n, knights);
}

void WriteCards(const State& s, int seat, Writer* w) {
  const std::string n = std::to_string(seat);
  const PlayerState& p = s.player(seat);
  if (p.hand.Total() > 0) w->Field("hand" + n, CardsText(p.hand));
  if (p.num_progress > 0) {
    std::string list;
    for (int i = 0; i < p.num_progress; ++i) {
      if (i > 0) list += ',';
      list += ProgressText(p.progress[i]);
    }
    w->Field("prog" + n, list);
  }
  if (p.vp_cards != 0) {
    std::string list;
    for (int i = 0; i < 2; ++i) {
      if (!(p.vp_cards & (1 << i))) continue;
      if (!list.empty()) list += ',';
      list += ProgressCardName(kVpCardKinds[i]);
    }
    w->Field("vpc" + n, list);
  }
  if (p.defender != 0) w->Field("def" + n, p.defender);
  if (p.DevTotal() != 0) w->Field("dev" + n, DevText(p.dev));
  if (p.army != 0) w->Field("army" + n, p.army);
  if (p.level != std::array<uint8_t, kNumTracks>{}) {
    std::string levels;
    for (uint8_t l : p.level) levels += char('0' + l);
    w->Field("lvl" + n, levels);
  }
}

// Progress-card effects that last until the end of the turn (TurnEffects).
void WriteEffects(const TurnEffects& e, Writer* w) {
  if (e.crane_discounts != 0) w->Field("crane_discounts", e.crane_discounts);
  if (e.cranes_played != 0) w->Field("cranes_played", e.cranes_played);
  if (e.fleet_cards != 0) {
    std::string cards;
    for (int c = 0; c < kNumCardTypes; ++c)
      if ((e.fleet_cards >> c) & 1) cards += CardLetter(c);
    w->Field("fleet_cards", cards);
  }
  if (e.harbor_partners != 0) {
    std::string seats;
    for (int q = 0; q < 8; ++q)
      if ((e.harbor_partners >> q) & 1) seats += char('0' + q);
    w->Field("harbor_partners", seats);
  }
}

std::string PendingText(const Pending& p) {
  const int kind = int(p.kind);
  std::string s = kind < kNumPendingKinds ? std::string(kPendingNames[kind]) : "#" + std::to_string(kind);
  if (p.seat != kNoSeat) s += "@" + std::to_string(p.seat);
  const int params[3] = {p.a, p.b, p.c};
  int n = 3;
  while (n > 0 && params[n - 1] == 0) --n;
  for (int i = 0; i < n; ++i) s += (i == 0 ? ":" : ",") + std::to_string(params[i]);
  return s;
}
}  // namespace

std::string ToNotation(const State& s) {
  const State fresh = FreshState(s.num_seats(), s.options());
  Writer w;
  w.Word("v" + std::to_string(kRulesVersion));
  w.Word(s.options().ruleset == Ruleset::kBase ? "base" : "cak");
  w.Field("seats", s.num_seats());
  std::string opts = OptionsToString(s.options());
  if (opts.starts_with("ruleset=")) {
    const size_t space = opts.find(' ');
    opts = space == std::string::npos ? "" : opts.substr(space + 1);
  }
  if (!opts.empty()) w.Field("opts", "[" + opts + "]");
  w.Field("board", BoardText(s.board()));
  std::string harbors;
  for (uint8_t h : s.board().harbor) harbors += HarborLetter(h);
  w.Field("harbors", harbors);

  w.Field("phase", kPhaseNames[int(s.phase())]);
  w.Field("current", s.current_seat());
  if (s.start_seat() != 0) w.Field("start", s.start_seat());
  if (s.Winner() != kNoSeat) w.Field("winner", s.Winner());
  if (s.setup_step() != 0) w.Field("setup", s.setup_step());
  if (s.last_setup_node() != -1) w.Field("last", s.last_setup_node());
  if (s.turn_number() != 0) w.Field("turn", s.turn_number());
  if (s.action_count() != 0) w.Field("actions", std::to_string(s.action_count()));
  if (s.offers_this_turn() != 0) w.Field("offers", s.offers_this_turn());
  WriteEffects(s.effects(), &w);
  if (s.dev_bought() != std::array<uint8_t, kNumDevKinds>{}) w.Field("dev_bought", DevText(s.dev_bought()));
  if (s.dev_played_this_turn()) w.Field("dev_played", "yes");

  if (s.robber_hex() != DesertHex(s.board())) w.Field("robber", s.robber_hex());
  if (s.merchant_hex() != -1 || s.merchant_owner() != kNoSeat) {
    std::string m = s.merchant_hex() == -1 ? "-" : std::to_string(s.merchant_hex());
    if (s.merchant_owner() != kNoSeat) m += "@" + std::to_string(s.merchant_owner());
    w.Field("merchant", m);
  }
  if (s.barbarian_position() != 0) w.Field("barbarians", s.barbarian_position());
  if (s.barbarian_attacks() != 0) w.Field("attacks", s.barbarian_attacks());
  if (s.first_attack_done() != FirstAttackImplied(s)) w.Field("first_attack", s.first_attack_done() ? "yes" : "no");
  if (s.dice_yellow() != 0 || s.dice_red() != 0 || s.dice_event() != 0) {
    const int face = s.dice_event();
    w.Field("dice", std::to_string(s.dice_yellow()) + "," + std::to_string(s.dice_red()) + "," +
                        std::string(face < kNumEventFaces ? kEventFaceNames[face] : "?"));
  }
  if (s.longest_road_holder() != kNoSeat) w.Field("longest", s.longest_road_holder());
  if (s.largest_army_holder() != kNoSeat) w.Field("largest", s.largest_army_holder());
  std::string owners;
  for (int t = 0; t < kNumTracks; ++t) {
    if (s.metropolis_owner(t) == ImpliedMetropolisOwner(s, t)) continue;
    if (!owners.empty()) owners += ',';
    owners += std::string(1, kTrackLetters[t]) + "@" + SeatText(s.metropolis_owner(t));
  }
  if (!owners.empty()) w.Field("metropolis_owner", owners);

  for (int p = 0; p < s.num_seats(); ++p) {
    WritePieces(s, p, &w);
    WriteCards(s, p, &w);
  }
  std::string flags;
  for (int v = 0; v < kNumNodes; ++v) {
    if (s.building(v) != kNoBuilding || s.building_owner(v) != kNoSeat || (s.node_flags(v) & (kWall | kSabotaged)) == 0)
      continue;
    if (!flags.empty()) flags += ',';
    flags += std::to_string(v);
    if (s.node_flags(v) & kWall) flags += 'w';
    if (s.node_flags(v) & kSabotaged) flags += 'x';
  }
  if (!flags.empty()) w.Field("flags", flags);

  if (s.bank() != ImpliedBank(s, fresh.bank())) {
    std::string bank;
    for (int c = 0; c < kNumCardTypes; ++c) bank += (c ? "," : "") + std::to_string(s.bank()[c]);
    w.Field("bank", bank);
  }
  for (int t = 0; t < kNumTracks; ++t)
    if (!DeckIsFresh(s.deck(t), fresh.deck(t))) w.Field(kDeckKeys[t], DeckText(s.deck(t), t));

  if (s.dev_discarded() != std::array<uint8_t, kNumDevKinds>{}) w.Field("dev_discarded", DevText(s.dev_discarded()));
  if (s.dev_deck() != ImpliedDevDeck(s)) w.Field("dev_deck", DevText(s.dev_deck()));

  const TradeState& tr = s.trade();
  if (tr.open || tr.give.bits != 0 || tr.want.bits != 0 || tr.addressees != 0) {
    std::string to;
    for (int q = 0; q < kMaxSeats; ++q)
      if (tr.addressees & (1 << q)) to += char('0' + q);
    w.Field("trade", std::string(tr.open ? "" : "closed:") + PackedText(tr.give) + ":" + PackedText(tr.want) + ":" +
                         (to.empty() ? "-" : to));
  }
  bool any_answer = false;
  std::string answers;
  for (int q = 0; q < s.num_seats(); ++q) {
    if (q > 0) answers += ',';
    answers += tr.answer[q] < 4 ? kAnswerLetters[tr.answer[q]] : '?';
    any_answer |= tr.answer[q] != kNoAnswer;
    if (tr.counter_give[q].bits != 0 || tr.counter_want[q].bits != 0) {
      answers += ":" + PackedText(tr.counter_give[q]) + ":" + PackedText(tr.counter_want[q]);
      any_answer = true;
    }
  }
  if (any_answer) w.Field("answers", answers);

  if (s.pending_size() > 0) {
    std::string list;
    for (int i = 0; i < s.pending_size(); ++i) list += (i ? "/" : "") + PendingText(s.pending(i));
    w.Field("pending", list);
  }
  return w.Take();
}

}  // namespace metropolis
