#include "engine/action.h"

#include <array>
#include <charconv>
#include <vector>

#include "engine/event.h"
#include "engine/progress.h"

namespace metropolis {
namespace {

// What a payload byte means. One table drives Encode, Decode, the text form
// and the parser, so the four cannot disagree about a type's fields.
enum class Field : uint8_t {
  kNone,
  kNode,
  kEdge,
  kHex,
  kCard,
  kResource,
  kTrack,
  kSeat,
  kDie,         // 1..6, or 0 when an Alchemist fixed it
  kEventFace,   // EventFace
  kProgress,    // ProgressCard
  kVictim,      // seat + 1, 0 for nobody
  kCards,       // trade give/want (and addressees for an offer)
  kDieValue,    // 1..6: a die an Alchemist fixes (C-S1)
  kLevel,       // knight level 1..3
  kCommodity,   // cloth, coin or paper
  kCityOrNone,  // a node, left out of the text when 0 (Saboteur outside SABOTAGE_CITY)
  kPlayArgs,    // PLAY_PROGRESS's b and c: their meaning depends on the card (kPlayFields)
  kDev,         // DevCard
  kDevArgs,     // PLAY_DEV's b and c: their meaning depends on the card (kDevFields)
};

struct TypeInfo {
  ActionType type;
  std::string_view name;
  std::array<Field, 3> fields;  // a, b, c
};

using F = Field;
constexpr TypeInfo kTypes[] = {
    {ActionType::kChanceStartPlayer, "chance_start_player", {F::kSeat, F::kNone, F::kNone}},
    {ActionType::kChanceDice, "dice", {F::kDie, F::kDie, F::kEventFace}},
    {ActionType::kChanceSteal, "steal", {F::kCard, F::kNone, F::kNone}},
    {ActionType::kChanceDraw, "draw", {F::kProgress, F::kNone, F::kNone}},
    {ActionType::kChanceDev, "dev_card", {F::kDev, F::kNone, F::kNone}},
    {ActionType::kRoll, "roll", {F::kNone, F::kNone, F::kNone}},
    {ActionType::kEndTurn, "end_turn", {F::kNone, F::kNone, F::kNone}},
    {ActionType::kBuildRoad, "build_road", {F::kEdge, F::kNone, F::kNone}},
    {ActionType::kBuildSettlement, "build_settlement", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kBuildCity, "build_city", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kBuildWall, "build_wall", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kRecruitKnight, "recruit_knight", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kActivateKnight, "activate_knight", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kPromoteKnight, "promote_knight", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kMoveKnight, "move_knight", {F::kNode, F::kNode, F::kNone}},
    {ActionType::kDisplaceKnight, "displace_knight", {F::kNode, F::kNode, F::kNone}},
    {ActionType::kChaseRobber, "chase_robber", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kBuyImprovement, "buy_improvement", {F::kTrack, F::kNone, F::kNone}},
    {ActionType::kBankTrade, "bank_trade", {F::kCard, F::kCard, F::kNone}},
    {ActionType::kMoveRobber, "move_robber", {F::kHex, F::kVictim, F::kNone}},
    {ActionType::kDiscard, "discard", {F::kCard, F::kNone, F::kNone}},
    {ActionType::kRelocateKnight, "relocate_knight", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kPillageCity, "pillage_city", {F::kNode, F::kNone, F::kNone}},
    // PRD-5: the Aqueduct gives a resource, never a commodity.
    {ActionType::kAqueduct, "aqueduct", {F::kResource, F::kNone, F::kNone}},
    {ActionType::kPlaceMetropolis, "place_metropolis", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kCommitKnight, "commit_knight", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kCommitDone, "commit_done", {F::kNone, F::kNone, F::kNone}},
    {ActionType::kDiscardProgress, "discard_progress", {F::kProgress, F::kNone, F::kNone}},
    {ActionType::kDefenderDeck, "defender_deck", {F::kTrack, F::kNone, F::kNone}},
    {ActionType::kTradeOffer, "offer", {F::kCards, F::kNone, F::kNone}},
    {ActionType::kTradeAccept, "accept", {F::kNone, F::kNone, F::kNone}},
    {ActionType::kTradeDecline, "decline", {F::kNone, F::kNone, F::kNone}},
    {ActionType::kTradeCounter, "counter", {F::kCards, F::kNone, F::kNone}},
    {ActionType::kTradeConfirm, "confirm", {F::kSeat, F::kNone, F::kNone}},
    {ActionType::kTradeCancel, "cancel", {F::kNone, F::kNone, F::kNone}},
    {ActionType::kPlayProgress, "play", {F::kProgress, F::kPlayArgs, F::kPlayArgs}},
    {ActionType::kProgressStop, "stop", {F::kNone, F::kNone, F::kNone}},
    {ActionType::kRemoveKnight, "remove_knight", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kPlaceKnight, "place_knight", {F::kNode, F::kLevel, F::kNone}},
    {ActionType::kTakeProgress, "take_progress", {F::kProgress, F::kNone, F::kNone}},
    {ActionType::kTakeCard, "take_card", {F::kCard, F::kNone, F::kNone}},
    {ActionType::kGiveCard, "give_card", {F::kCard, F::kNone, F::kNone}},
    // C-T1: only a resource is offered.
    {ActionType::kHarborOffer, "harbor_offer", {F::kSeat, F::kResource, F::kNone}},
    {ActionType::kRepairCity, "repair_city", {F::kNode, F::kNone, F::kNone}},
    {ActionType::kBuyDev, "buy_dev", {F::kNone, F::kNone, F::kNone}},
    {ActionType::kPlayDev, "play_dev", {F::kDev, F::kDevArgs, F::kDevArgs}},
};

// PLAY_PROGRESS's b and c per card (docs/PROTOCOL.md); kNone for a card without them,
// so that stray bytes name no action.
constexpr std::array<std::array<Field, 2>, kNumProgressKinds> kPlayFields = [] {
  std::array<std::array<Field, 2>, kNumProgressKinds> f{};
  for (auto& card : f) card = {F::kNone, F::kNone};
  f[kAlchemist] = {F::kDieValue, F::kDieValue};
  f[kEngineer] = {F::kNode, F::kNone};
  f[kInventor] = {F::kHex, F::kHex};
  f[kMedicine] = {F::kNode, F::kNone};
  f[kBishop] = {F::kHex, F::kNone};
  f[kDeserter] = {F::kSeat, F::kNone};
  f[kSpy] = {F::kSeat, F::kNone};
  f[kMasterMerchant] = {F::kSeat, F::kNone};
  // Always written, edge 0 included: under ALL_OPEN_ROADS b is 0 and the text
  // is simply "play diplomat e0", so one form serves both options.
  f[kDiplomat] = {F::kEdge, F::kNone};
  f[kIntrigue] = {F::kNode, F::kNone};
  f[kSaboteur] = {F::kCityOrNone, F::kNone};
  f[kMerchant] = {F::kHex, F::kNone};
  f[kMerchantFleet] = {F::kCard, F::kNone};
  f[kResourceMonopoly] = {F::kResource, F::kNone};
  f[kTradeMonopoly] = {F::kCommodity, F::kNone};
  return f;
}();

// PLAY_DEV's b and c per development card (docs/PROTOCOL.md). A victory point card is
// never played, so it takes no parameters and names no legal action.
constexpr std::array<std::array<Field, 2>, kNumDevKinds> kDevFields = {{
    {F::kNone, F::kNone},          // knight
    {F::kNone, F::kNone},          // victory_point
    {F::kNone, F::kNone},          // road_building
    {F::kResource, F::kResource},  // year_of_plenty
    {F::kResource, F::kNone},      // monopoly
}};

// The three fields of `type` given its first byte: PLAY_PROGRESS's and
// PLAY_DEV's depend on the card.
std::array<Field, 3> FieldsOf(const TypeInfo& info, int a) {
  if (info.fields[1] == F::kDevArgs) {
    if (a >= kNumDevKinds) return {info.fields[0], F::kNone, F::kNone};
    return {info.fields[0], kDevFields[a][0], kDevFields[a][1]};
  }
  if (info.fields[1] != F::kPlayArgs) return info.fields;
  if (a >= kNumProgressKinds) return {info.fields[0], F::kNone, F::kNone};
  return {info.fields[0], kPlayFields[a][0], kPlayFields[a][1]};
}

// Index into kTypes by type code, -1 where no type has that code.
constexpr std::array<int8_t, 256> kTypeIndex = [] {
  std::array<int8_t, 256> index{};
  for (int8_t& i : index) i = -1;
  for (int i = 0; i < int(std::size(kTypes)); ++i) index[uint8_t(kTypes[i].type)] = int8_t(i);
  return index;
}();

const TypeInfo* FindType(int code) {
  if (code < 0 || code > 255 || kTypeIndex[code] < 0) return nullptr;
  return &kTypes[kTypeIndex[code]];
}

const TypeInfo* FindType(std::string_view name) {
  for (const TypeInfo& t : kTypes)
    if (t.name == name) return &t;
  return nullptr;
}

constexpr int kTypeShift = 56;
constexpr int kWantShift = 24;
constexpr int kAddresseeShift = 48;
constexpr int kBitsPerCard = 3;
constexpr uint64_t kCardsMask = (uint64_t(1) << (kBitsPerCard * kNumCardTypes)) - 1;
constexpr uint64_t kAddresseeMask = (uint64_t(1) << kMaxSeats) - 1;

uint64_t PackCards(PackedCards cards) {
  uint64_t bits = 0;
  for (int c = 0; c < kNumCardTypes; ++c)
    bits |= uint64_t(cards.Get(c) & kMaxCardsPerTypeInOffer) << (kBitsPerCard * c);
  return bits;
}

PackedCards UnpackCards(uint64_t bits) {
  PackedCards cards;
  for (int c = 0; c < kNumCardTypes; ++c) cards.Set(c, int((bits >> (kBitsPerCard * c)) & kMaxCardsPerTypeInOffer));
  return cards;
}

bool InRange(Field f, int v) {
  switch (f) {
    case F::kNone:
      return v == 0;
    case F::kNode:
      return v < kNumNodes;
    case F::kEdge:
      return v < kNumEdges;
    case F::kHex:
      return v < kNumHexes;
    case F::kCard:
      return v < kNumCardTypes;
    case F::kResource:
      return v < kNumResources;
    case F::kTrack:
      return v < kNumTracks;
    case F::kSeat:
      return v < kMaxSeats;
    case F::kDie:
      return v <= 6;
    case F::kEventFace:
      return v < kNumEventFaces;
    case F::kProgress:
      return v < kNumProgressKinds;
    case F::kVictim:
      return v <= kMaxSeats;
    case F::kCards:
      return true;
    case F::kDieValue:
      return v >= 1 && v <= 6;
    case F::kLevel:
      return v >= 1 && v <= kMaxKnightLevel;
    case F::kCommodity:
      return IsCommodity(v);
    case F::kCityOrNone:
      return v < kNumNodes;
    case F::kDev:
      return v < kNumDevKinds;
    case F::kPlayArgs:
    case F::kDevArgs:
      break;  // resolved by FieldsOf
  }
  return false;
}

// C-S4: the two hexes are different and written in order, so that one swap has
// one code.
// BG-5: Year of Plenty's two resources are written in order, so that one
// choice has one code.
bool PlayConsistent(const Action& a) {
  if (a.type == ActionType::kPlayDev) return a.a != kDevYearOfPlenty || a.b <= a.c;
  return a.type != ActionType::kPlayProgress || a.a != kInventor || a.b < a.c;
}

// An Alchemist fixes both production dice (TRN-3, C-S1), so a single fixed die names
// no outcome.
bool DiceConsistent(const Action& a) { return (a.a == 0) == (a.b == 0); }

// ---- Text form ----

std::string Numbered(char prefix, int v) { return prefix + std::to_string(v); }

std::string Named(std::string_view name, int v) {
  if (v == kHiddenCard) return "?";  // a masked event (MaskEvent)
  if (name == "?") return "?" + std::to_string(v);
  return std::string(name);
}

std::string EventFaceName(int face) {
  if (face == kEventShip) return "ship";
  if (face > kEventShip && face < kNumEventFaces) return std::string(TrackName(face - kEventTradeGate));
  return "?" + std::to_string(face);
}

// A field's text; kVictim and kCards are written by the caller.
std::string FieldToString(Field f, int v) {
  switch (f) {
    case F::kNode:
      return Numbered('n', v);
    case F::kEdge:
      return Numbered('e', v);
    case F::kHex:
      return Numbered('h', v);
    case F::kCard:
    case F::kResource:
      return Named(CardName(v), v);
    case F::kTrack:
      return Named(TrackName(v), v);
    case F::kSeat:
      return std::to_string(v);
    case F::kDie:
      return v == 0 ? "-" : std::to_string(v);
    case F::kEventFace:
      return EventFaceName(v);
    case F::kProgress:
      return Named(ProgressCardName(v), v);
    case F::kDieValue:
    case F::kLevel:
      return std::to_string(v);
    case F::kCommodity:
      return Named(CardName(v), v);
    case F::kCityOrNone:
      return Numbered('n', v);
    case F::kDev:
      return Named(DevCardName(v), v);
    case F::kNone:
    case F::kVictim:
    case F::kCards:
    case F::kPlayArgs:
    case F::kDevArgs:
      break;
  }
  return "";
}

// "2brick 1wool", or "-" for no cards.
std::string CardsToString(PackedCards cards) {
  std::string s;
  for (int c = 0; c < kNumCardTypes; ++c) {
    if (cards.Get(c) == 0) continue;
    if (!s.empty()) s += ' ';
    s += std::to_string(cards.Get(c));
    s += CardName(c);
  }
  return s.empty() ? "-" : s;
}

// "1,3", or "-" for nobody.
std::string SeatsToString(int mask) {
  std::string s;
  for (int seat = 0; seat < kMaxSeats; ++seat) {
    if (!((mask >> seat) & 1)) continue;
    if (!s.empty()) s += ',';
    s += std::to_string(seat);
  }
  return s.empty() ? "-" : s;
}

// ---- Parser ----

// A piece of the text, quoted in an error: at most 40 bytes of it, then how long
// it was. The text may be a client's (a bot's answer): a megabyte quoted back
// would be a megabyte of error message, and more than gRPC carries in a status.
std::string Quote(std::string_view text) {
  constexpr size_t kMaxQuoted = 40;
  if (text.size() <= kMaxQuoted) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kMaxQuoted)) + "...' (" + std::to_string(text.size()) + " bytes)";
}

// Whitespace-separated tokens with a cursor; every error names the action.
class Tokens {
 public:
  Tokens(std::string_view text, std::string* error) : error_(error) {
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && IsSpace(text[i])) ++i;
      size_t start = i;
      while (i < text.size() && !IsSpace(text[i])) ++i;
      if (i > start) tokens_.push_back(text.substr(start, i - start));
    }
  }

  bool Done() const { return pos_ == tokens_.size(); }
  std::string_view Peek() const { return Done() ? std::string_view() : tokens_[pos_]; }
  std::string_view Next() { return Done() ? std::string_view() : tokens_[pos_++]; }

  // Sets the error "<action>: expected <what>, got '<token>'" (or "got nothing").
  bool Expected(std::string_view action, std::string_view what, std::string_view got, std::string_view note = {}) {
    std::string msg = std::string(action) + ": expected " + std::string(what) + ", got ";
    msg += got.empty() ? "nothing" : Quote(got);
    if (!note.empty()) msg += " (" + std::string(note) + ")";
    return Fail(msg);
  }
  bool Fail(std::string msg) {
    if (error_) *error_ = std::move(msg);
    return false;
  }

 private:
  static bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

  std::vector<std::string_view> tokens_;
  size_t pos_ = 0;
  std::string* error_;
};

// A decimal number of at most three digits, the whole of `s`.
std::optional<int> ParseSmallNumber(std::string_view s) {
  // Digits only: from_chars would accept a sign, and "-1" must not wrap to 255.
  if (s.empty() || s.size() > 3 || s[0] < '0' || s[0] > '9') return std::nullopt;
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

int CardFromName(std::string_view name) {
  for (int c = 0; c < kNumCardTypes; ++c)
    if (CardName(c) == name) return c;
  return -1;
}

int TrackFromName(std::string_view name) {
  for (int t = 0; t < kNumTracks; ++t)
    if (TrackName(t) == name) return t;
  return -1;
}

int EventFaceFromName(std::string_view name) {
  for (int f = 0; f < kNumEventFaces; ++f)
    if (EventFaceName(f) == name) return f;
  return -1;
}

// "n12" for prefix 'n' and limit 54.
bool ParseNumbered(Tokens& t, std::string_view action, char prefix, int limit, std::string_view what,
                   std::string_view plural, int* out) {
  std::string_view tok = t.Next();
  std::optional<int> v;
  if (!tok.empty() && tok[0] == prefix) v = ParseSmallNumber(tok.substr(1));
  if (!v) return t.Expected(action, what, tok);
  if (*v >= limit) {
    return t.Expected(action, what, tok,
                      std::string(plural) + " are " + prefix + "0.." + prefix + std::to_string(limit - 1));
  }
  *out = *v;
  return true;
}

bool ParseSeat(Tokens& t, std::string_view action, std::string_view tok, int* out) {
  std::optional<int> v = ParseSmallNumber(tok);
  if (!v || *v >= kMaxSeats) return t.Expected(action, "a seat 0..3", tok);
  *out = *v;
  return true;
}

bool ParseField(Tokens& t, std::string_view action, Field f, int* out) {
  switch (f) {
    case F::kNode:
      return ParseNumbered(t, action, 'n', kNumNodes, "a node like n12", "nodes", out);
    case F::kEdge:
      return ParseNumbered(t, action, 'e', kNumEdges, "an edge like e17", "edges", out);
    case F::kHex:
      return ParseNumbered(t, action, 'h', kNumHexes, "a hex like h7", "hexes", out);
    case F::kCard:
    case F::kResource:
    case F::kCommodity: {
      std::string_view tok = t.Next();
      int c = CardFromName(tok);
      if (f == F::kResource) {
        if (c < 0 || !IsResource(c)) return t.Expected(action, "a resource (brick, lumber, wool, grain, ore)", tok);
      } else if (f == F::kCommodity) {
        if (c < 0 || !IsCommodity(c)) return t.Expected(action, "a commodity (cloth, coin, paper)", tok);
      } else if (c < 0) {
        return t.Expected(action, "a card (brick, lumber, wool, grain, ore, cloth, coin, paper)", tok);
      }
      *out = c;
      return true;
    }
    case F::kTrack: {
      std::string_view tok = t.Next();
      *out = TrackFromName(tok);
      return *out >= 0 || t.Expected(action, "a track (trade, politics, science)", tok);
    }
    case F::kSeat:
      return ParseSeat(t, action, t.Next(), out);
    case F::kDie: {
      std::string_view tok = t.Next();
      std::optional<int> v = ParseSmallNumber(tok);
      if (tok == "-") {
        *out = 0;
      } else if (v && *v >= 1 && *v <= 6) {
        *out = *v;
      } else {
        return t.Expected(action, "a die 1..6, or '-' when an Alchemist fixed the dice", tok);
      }
      return true;
    }
    case F::kEventFace: {
      std::string_view tok = t.Next();
      *out = EventFaceFromName(tok);
      return *out >= 0 || t.Expected(action, "an event face (ship, trade, politics, science)", tok);
    }
    case F::kProgress: {
      std::string_view tok = t.Next();
      *out = ProgressCardFromName(tok);
      return *out >= 0 || t.Expected(action, "a progress card like crane or road_building", tok);
    }
    case F::kVictim: {
      // Optional: absent when the robber's new hex has nobody to rob (ROB-3).
      *out = 0;
      if (t.Done()) return true;
      std::string_view tok = t.Next();
      if (tok != "rob") return t.Expected(action, "'rob' and a seat, or nothing", tok);
      int seat;
      if (!ParseSeat(t, action, t.Next(), &seat)) return false;
      *out = seat + 1;
      return true;
    }
    case F::kDieValue: {
      std::string_view tok = t.Next();
      std::optional<int> v = ParseSmallNumber(tok);
      if (!v || *v < 1 || *v > 6) return t.Expected(action, "a die 1..6", tok);
      *out = *v;
      return true;
    }
    case F::kLevel: {
      std::string_view tok = t.Next();
      std::optional<int> v = ParseSmallNumber(tok);
      if (!v || *v < 1 || *v > kMaxKnightLevel) return t.Expected(action, "a knight level 1..3", tok);
      *out = *v;
      return true;
    }
    case F::kCityOrNone:
      *out = 0;
      return t.Done() || ParseNumbered(t, action, 'n', kNumNodes, "a city node like n12, or nothing", "nodes", out);
    case F::kDev: {
      std::string_view tok = t.Next();
      *out = DevCardFromName(tok);
      return *out >= 0 || t.Expected(action, "a development card like knight or monopoly", tok);
    }
    case F::kNone:
    case F::kCards:
    case F::kPlayArgs:
    case F::kDevArgs:
      break;
  }
  return true;
}

// "2brick 1wool" up to `stop` (or the end), or "-".
bool ParseCards(Tokens& t, std::string_view action, std::string_view side, std::string_view stop, PackedCards* out) {
  *out = PackedCards();
  const std::string what = "cards like 2brick after '" + std::string(side) + "', or '-' for none";
  if (t.Peek() == "-") {
    t.Next();
    return true;
  }
  if (t.Done() || t.Peek() == stop) return t.Expected(action, what, t.Peek());
  while (!t.Done() && t.Peek() != stop) {
    std::string_view tok = t.Next();
    size_t digits = 0;
    while (digits < tok.size() && tok[digits] >= '0' && tok[digits] <= '9') ++digits;
    std::optional<int> n = ParseSmallNumber(tok.substr(0, digits));
    int card = CardFromName(tok.substr(digits));
    if (!n || card < 0) return t.Expected(action, what, tok);
    if (*n < 1 || *n > kMaxCardsPerTypeInOffer) {
      return t.Fail(std::string(action) + ": expected 1.." + std::to_string(kMaxCardsPerTypeInOffer) + " " +
                    std::string(CardName(card)) + " per side (TRD-3), got " + Quote(tok));
    }
    if (out->Get(card) != 0) {
      return t.Fail(std::string(action) + ": " + std::string(CardName(card)) + " listed twice after '" +
                    std::string(side) + "'");
    }
    out->Set(card, *n);
  }
  return true;
}

// "1,3" (commas, spaces around them allowed) or "-".
bool ParseAddressees(Tokens& t, std::string_view action, uint8_t* out) {
  std::string list;
  while (!t.Done()) list += t.Next();
  *out = 0;
  const std::string what = "seats like 1,3 after 'to', or '-' for nobody";
  if (list == "-") return true;
  if (list.empty()) return t.Expected(action, what, list);
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    std::string_view item = std::string_view(list).substr(start, comma - start);
    std::optional<int> seat = ParseSmallNumber(item);
    if (!seat || *seat >= kMaxSeats) return t.Expected(action, what, list);
    if ((*out >> *seat) & 1) return t.Fail(std::string(action) + ": seat " + std::string(item) + " listed twice");
    *out |= uint8_t(1 << *seat);
    start = comma + 1;
  }
  return true;
}

bool ExpectWord(Tokens& t, std::string_view action, std::string_view word) {
  std::string_view tok = t.Next();
  return tok == word || t.Expected(action, "'" + std::string(word) + "'", tok);
}

bool ParseTrade(Tokens& t, std::string_view action, bool offer, Action* out) {
  if (!ExpectWord(t, action, "give") || !ParseCards(t, action, "give", "want", &out->give)) return false;
  if (!ExpectWord(t, action, "want") || !ParseCards(t, action, "want", "to", &out->want)) return false;
  if (!offer) return true;
  return ExpectWord(t, action, "to") && ParseAddressees(t, action, &out->addressees);
}

}  // namespace

PackedCards PackedCards::From(const CardCounts& c) {
  PackedCards p;
  for (int card = 0; card < kNumCardTypes; ++card) p.Set(card, c[card]);
  return p;
}

CardCounts PackedCards::ToCounts() const {
  CardCounts c;
  for (int card = 0; card < kNumCardTypes; ++card) c[card] = uint8_t(Get(card));
  return c;
}

Action Action::TradeOffer(const CardCounts& give, const CardCounts& want, int addressee_mask) {
  Action x = Make(ActionType::kTradeOffer);
  x.give = PackedCards::From(give);
  x.want = PackedCards::From(want);
  x.addressees = uint8_t(addressee_mask);
  return x;
}

Action Action::TradeCounter(const CardCounts& give, const CardCounts& want) {
  Action x = Make(ActionType::kTradeCounter);
  x.give = PackedCards::From(give);
  x.want = PackedCards::From(want);
  return x;
}

// Only the fields the type defines are encoded, so two actions that differ in
// unused fields share a code; counts above kMaxCardsPerTypeInOffer do not fit
// and must be refused before an offer is encoded.
uint64_t Encode(const Action& a) {
  uint64_t code = uint64_t(uint8_t(a.type)) << kTypeShift;
  const TypeInfo* info = FindType(uint8_t(a.type));
  if (!info) return code;
  if (info->fields[0] == F::kCards) {
    code |= PackCards(a.give) | PackCards(a.want) << kWantShift;
    if (a.type == ActionType::kTradeOffer) code |= (a.addressees & kAddresseeMask) << kAddresseeShift;
    return code;
  }
  const std::array<Field, 3> fields = FieldsOf(*info, a.a);
  const uint8_t bytes[3] = {a.a, a.b, a.c};
  for (int i = 0; i < 3; ++i)
    if (fields[i] != F::kNone) code |= uint64_t(bytes[i]) << (16 - 8 * i);  // a is most significant
  return code;
}

std::optional<Action> Decode(uint64_t code) {
  const TypeInfo* info = FindType(int(code >> kTypeShift));
  if (!info) return std::nullopt;
  const uint64_t payload = code & ((uint64_t(1) << kTypeShift) - 1);
  Action x;
  x.type = info->type;
  if (info->fields[0] == F::kCards) {
    uint64_t allowed = kCardsMask | kCardsMask << kWantShift;
    if (x.type == ActionType::kTradeOffer) allowed |= kAddresseeMask << kAddresseeShift;
    if (payload & ~allowed) return std::nullopt;
    x.give = UnpackCards(payload);
    x.want = UnpackCards(payload >> kWantShift);
    if (x.type == ActionType::kTradeOffer) x.addressees = uint8_t(payload >> kAddresseeShift);
    return x;
  }
  if (payload >> 24) return std::nullopt;
  x.a = uint8_t(payload >> 16);
  if (!InRange(info->fields[0], x.a)) return std::nullopt;
  const std::array<Field, 3> fields = FieldsOf(*info, x.a);
  uint8_t* bytes[3] = {&x.a, &x.b, &x.c};
  for (int i = 1; i < 3; ++i) {
    *bytes[i] = uint8_t(payload >> (16 - 8 * i));
    if (!InRange(fields[i], *bytes[i])) return std::nullopt;
  }
  if (x.type == ActionType::kChanceDice && !DiceConsistent(x)) return std::nullopt;
  if (!PlayConsistent(x)) return std::nullopt;
  return x;
}

std::string_view ActionTypeName(ActionType t) {
  const TypeInfo* info = FindType(uint8_t(t));
  return info ? info->name : "?";
}

std::array<std::string_view, 3> ActionFieldKinds(ActionType t, int card) {
  std::array<std::string_view, 3> kinds{};
  const TypeInfo* info = FindType(uint8_t(t));
  if (!info) return kinds;
  const bool per_card = info->fields[1] == F::kPlayArgs || info->fields[1] == F::kDevArgs;
  const std::array<Field, 3> fields = card >= 0 ? FieldsOf(*info, card) : info->fields;
  for (int i = 0; i < 3; ++i) {
    switch (fields[i]) {
      case F::kNone:
        kinds[i] = "";
        break;
      case F::kNode:
        kinds[i] = "node";
        break;
      case F::kEdge:
        kinds[i] = "edge";
        break;
      case F::kHex:
        kinds[i] = "hex";
        break;
      case F::kCard:
        kinds[i] = "card";
        break;
      case F::kResource:
        kinds[i] = "resource";
        break;
      case F::kTrack:
        kinds[i] = "track";
        break;
      case F::kSeat:
        kinds[i] = "seat";
        break;
      case F::kDie:
        kinds[i] = "die";
        break;
      case F::kEventFace:
        kinds[i] = "event_face";
        break;
      case F::kProgress:
        kinds[i] = "progress";
        break;
      case F::kVictim:
        kinds[i] = "victim";
        break;
      case F::kCards:
        kinds[i] = "cards";
        break;
      case F::kDieValue:
        kinds[i] = "die_value";
        break;
      case F::kLevel:
        kinds[i] = "level";
        break;
      case F::kCommodity:
        kinds[i] = "commodity";
        break;
      case F::kCityOrNone:
        kinds[i] = "city_or_none";
        break;
      case F::kDev:
        kinds[i] = "dev";
        break;
      case F::kPlayArgs:
      case F::kDevArgs:
        kinds[i] = "per_card";
        break;
    }
  }
  if (per_card && card < 0) kinds[1] = kinds[2] = "per_card";
  return kinds;
}

std::string ActionToString(const Action& a) {
  const TypeInfo* info = FindType(uint8_t(a.type));
  if (!info) return "?" + std::to_string(uint8_t(a.type));
  std::string s(info->name);
  if (info->fields[0] == F::kCards) {
    s += " give " + CardsToString(a.give) + " want " + CardsToString(a.want);
    if (a.type == ActionType::kTradeOffer) s += " to " + SeatsToString(a.addressees);
    return s;
  }
  const std::array<Field, 3> fields = FieldsOf(*info, a.a);
  const uint8_t bytes[3] = {a.a, a.b, a.c};
  for (int i = 0; i < 3; ++i) {
    Field f = fields[i];
    if (f == F::kNone || (f == F::kCityOrNone && bytes[i] == 0)) continue;
    if (f == F::kVictim) {
      if (bytes[i] != 0) s += " rob " + std::to_string(bytes[i] - 1);
      continue;
    }
    s += ' ';
    s += FieldToString(f, bytes[i]);
  }
  return s;
}

std::optional<Action> ParseAction(std::string_view text, std::string* error) {
  Tokens t(text, error);
  if (t.Done()) {
    t.Fail("empty action");
    return std::nullopt;
  }
  std::string_view name = t.Next();
  const TypeInfo* info = FindType(name);
  if (!info) {
    t.Fail("unknown action " + Quote(name));
    return std::nullopt;
  }
  Action x;
  x.type = info->type;
  if (info->fields[0] == F::kCards) {
    if (!ParseTrade(t, name, x.type == ActionType::kTradeOffer, &x)) return std::nullopt;
  } else {
    uint8_t* bytes[3] = {&x.a, &x.b, &x.c};
    for (int i = 0; i < 3; ++i) {
      // The card, parsed first, says what PLAY_PROGRESS's b and c are.
      const Field f = FieldsOf(*info, x.a)[i];
      if (f == F::kNone) continue;
      int v = 0;
      if (!ParseField(t, name, f, &v)) return std::nullopt;
      *bytes[i] = uint8_t(v);
    }
    if (x.type == ActionType::kChanceDice && !DiceConsistent(x)) {
      t.Fail("dice: an Alchemist fixes both production dice, so write both as '-' or neither (C-S1)");
      return std::nullopt;
    }
    if (!PlayConsistent(x)) {
      t.Fail(x.type == ActionType::kPlayDev
                 ? "play_dev: Year of Plenty's two resources are written in card order (BG-5)"
                 : "play: the Inventor's two hexes are different and written in increasing order (C-S4)");
      return std::nullopt;
    }
  }
  if (!t.Done()) {
    t.Fail(std::string(name) + ": unexpected " + Quote(t.Peek()) + " after the action");
    return std::nullopt;
  }
  return x;
}

}  // namespace metropolis
