// Actions and events <-> v1::Action and v1::Event. An action travels as its
// stable code (engine/action.h); the text form is a courtesy for people and
// for bots that prefer it.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "engine/event.h"
#include "lib/protocol/convert.h"
#include "lib/protocol/reader.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {
namespace {

using internal::kByte;
using internal::Range;
using internal::Reader;

// The wire numbers are the engine's (game.proto copies event.h's list).
static_assert(int(EventType::kAction) == v1::EVENT_ACTION);
static_assert(int(EventType::kTradeExecuted) == v1::EVENT_TRADE_EXECUTED);
static_assert(int(EventType::kDevRevealed) == v1::EVENT_DEV_REVEALED);
static_assert(int(EventType::kBarbarianShare) == v1::EVENT_BARBARIAN_SHARE);
static_assert(int(EventType::kBarbarianShare) == v1::EventType_MAX, "a new event type needs its number in game.proto");

bool Fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return false;
}

std::string CodeError(std::string_view path, uint64_t code) {
  return std::string(path) + ": " + internal::UnknownCode(code, kRulesVersion);
}

constexpr int kByteAShift = 16;  // where the payload byte `a` sits in a code

// A masked event's action (MaskEvent put kHiddenCard in place of its card):
// Decode refuses that card, so the code is decoded with the card put back.
std::optional<Action> DecodeMasked(uint64_t code) {
  if (std::optional<Action> a = Decode(code)) return a;
  if (((code >> kByteAShift) & 0xFF) != kHiddenCard) return std::nullopt;
  std::optional<Action> a = Decode(code & ~(uint64_t(0xFF) << kByteAShift));
  if (!a || !ActionHidesCard(a->type)) return std::nullopt;  // engine/event.h
  a->a = kHiddenCard;
  return a;
}

}  // namespace

void ActionToProto(const Action& a, v1::Action* out, const ToProtoOptions& options) {
  out->Clear();
  out->set_code(Encode(a));
  if (options.want_text) out->set_text(ActionToString(a));
}

bool ActionFromProto(const v1::Action& in, Action* out, std::string* error) {
  if (in.code() == 0 && !in.text().empty()) {
    std::string err;
    std::optional<Action> a = ParseAction(in.text(), &err);
    if (!a) return Fail(error, "action: " + err);
    *out = *a;
    return true;
  }
  std::optional<Action> a = Decode(in.code());
  if (!a) return Fail(error, CodeError("action", in.code()));
  *out = *a;
  return true;
}

void EventToProto(const Event& e, v1::Event* out, const ToProtoOptions& options) {
  out->Clear();
  out->set_type(v1::EventType(e.type));
  out->set_seat(e.seat);
  out->set_other(e.other);
  out->set_a(e.a);
  out->set_b(e.b);
  out->set_c(e.c);
  if (e.type == EventType::kAction) {
    ActionToProto(e.action, out->mutable_action(), options);
  } else if (e.type == EventType::kTradeExecuted) {
    // The engine's event keeps only the cards; a counter-offer's code carries
    // exactly give and want.
    Action cards = Action::Make(ActionType::kTradeCounter);
    cards.give = e.action.give;
    cards.want = e.action.want;
    ActionToProto(cards, out->mutable_action(), options);
  }
}

bool EventFromProto(const v1::Event& in, Event* out, std::string* error) {
  Reader r;
  Event e;
  r.Int("event.type", int64_t(in.type()), Range{0, int64_t(EventType::kBarbarianShare)}, &e.type);
  r.Int("event.seat", in.seat(), Range{kChancePlayer, kMaxSeats - 1, "a seat"}, &e.seat);
  r.Int("event.other", in.other(), Range{kNoSeat, kMaxSeats - 1, "a seat"}, &e.other);
  r.Int("event.a", in.a(), kByte, &e.a);
  r.Int("event.b", in.b(), kByte, &e.b);
  r.Int("event.c", in.c(), kByte, &e.c);
  if (!r.ok()) return Fail(error, r.error());
  if (e.type == EventType::kAction || e.type == EventType::kTradeExecuted) {
    if (!in.has_action()) return Fail(error, "event.action: missing");
    const std::optional<Action> a = DecodeMasked(in.action().code());
    if (!a) return Fail(error, CodeError("event.action", in.action().code()));
    if (e.type == EventType::kAction) {
      e.action = *a;
    } else {
      if (a->type != ActionType::kTradeCounter)
        return Fail(error, "event.action: a trade's cards travel as a " +
                               std::string(ActionTypeName(ActionType::kTradeCounter)) + ", got " +
                               std::string(ActionTypeName(a->type)));
      e.action.give = a->give;
      e.action.want = a->want;
    }
  }
  *out = e;
  return true;
}

}  // namespace metropolis::protocol
