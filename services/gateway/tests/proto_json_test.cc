// The gateway's own JSON printer against protobuf's: the same text for every
// view and event of random games (the live streams' hot path), and the same
// JSON value for every message type of the API filled with random values
// (extremes, escapes, unset oneofs and optionals, maps, unknown enum numbers).
#include "services/gateway/proto_json.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/notation.h"
#include "engine/view.h"
#include "lib/protocol/convert.h"
#include "lib/protocol/tests/random_games.h"
#include "metropolis/v1/game.pb.h"
#include "metropolis/v1/gamehost.pb.h"
#include "services/gateway/tests/reference_json.h"

namespace metropolis::gateway {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

std::string ProtobufsJson(const Message& m) {
  std::string text, error;
  EXPECT_TRUE(ReferenceJson(m, &text, &error)) << error;
  return text;
}

// ---- Real games: the same bytes ------------------------------------------------

TEST(ProtoJson, ViewsAndEventsOfRandomGamesPrintAsProtobufDoes) {
  int views = 0, events = 0, legal = 0;
  const auto configs = protocol::testing::TestConfigs();
  for (size_t c = 0; c < configs.size(); ++c) {
    protocol::testing::PlayRandomGame(configs[c], 11 + c,
                                      [&](const State& s, const Action*, const std::vector<Event>& step_events) {
                                        // Every seat's view, legal actions included, and the spectator's.
                                        for (int seat = kNoSeat; seat < s.num_seats(); ++seat) {
                                          v1::View view;
                                          protocol::ViewToProto(MakeView(s, seat), &view);
                                          legal += view.legal_size() > 0;
                                          ASSERT_EQ(PrintProtoJson(view), ProtobufsJson(view));
                                          ++views;
                                        }
                                        v1::Events batch;
                                        for (const Event& e : step_events) {
                                          protocol::EventToProto(e, batch.add_events(), {.want_text = true});
                                        }
                                        ASSERT_EQ(PrintProtoJson(batch), ProtobufsJson(batch));
                                        events += batch.events_size();
                                      });
  }
  // The comparison covered real content, not empty messages.
  EXPECT_GT(views, 1000);
  EXPECT_GT(events, 1000);
  EXPECT_GT(legal, 100);
}

// ---- Every message type, random values: the same JSON value --------------------

struct Random {
  uint64_t x;
  uint64_t Next() { return SplitMixNext(&x); }
  int Below(int n) { return int(Next() % uint64_t(n)); }
};

template <typename T>
T Pick(Random& r, std::initializer_list<T> values) {
  return values.begin()[r.Below(int(values.size()))];
}

std::string RandomText(Random& r) {
  static const std::vector<std::string> kPieces = {
      "a", "Z", "7", " ",    "\"", "\\",           "/", "\n", "\t",     "\x01",   "\x1f",
      "<", ">", "&", "\x7f", "é",  "\xe2\x80\xa8", "€", "𝄞",  "\u00ad", "\ufeff", "build_road e17"};
  std::string text;
  for (int n = r.Below(6); n > 0; --n) text += kPieces[size_t(r.Below(int(kPieces.size())))];
  return text;
}

std::string RandomBytes(Random& r) {
  std::string bytes;
  for (int n = r.Below(8); n > 0; --n) bytes.push_back(char(r.Below(256)));
  return bytes;
}

void Fill(Message* m, Random& r, int depth);

void AddOrSet(Message* m, Random& r, const FieldDescriptor* f, int depth) {
  const Reflection* refl = m->GetReflection();
  const bool rep = f->is_repeated();
  constexpr auto kI64 = std::numeric_limits<int64_t>::max();
  constexpr auto kI32 = std::numeric_limits<int32_t>::max();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: {
      const int32_t v = Pick<int32_t>(r, {0, 1, -1, kI32, -kI32 - 1, int32_t(r.Next())});
      return rep ? refl->AddInt32(m, f, v) : refl->SetInt32(m, f, v);
    }
    case FieldDescriptor::CPPTYPE_UINT32: {
      const uint32_t v = Pick<uint32_t>(r, {0u, 1u, 0xffffffffu, uint32_t(r.Next())});
      return rep ? refl->AddUInt32(m, f, v) : refl->SetUInt32(m, f, v);
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      const int64_t v = Pick<int64_t>(r, {0, -1, kI64, -kI64 - 1, int64_t(r.Next()), 9007199254740993});
      return rep ? refl->AddInt64(m, f, v) : refl->SetInt64(m, f, v);
    }
    case FieldDescriptor::CPPTYPE_UINT64: {
      const uint64_t v = Pick<uint64_t>(r, {0u, ~uint64_t{0}, r.Next()});
      return rep ? refl->AddUInt64(m, f, v) : refl->SetUInt64(m, f, v);
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      const double v =
          Pick<double>(r, {0.0, -0.0, 0.1, 1.0 / 3, 1500.25, 1e300, -2.5e-308, 25.0, 1e21, 123456789.125,
                           std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN(), double(int64_t(r.Next())) / 7});
      return rep ? refl->AddDouble(m, f, v) : refl->SetDouble(m, f, v);
    }
    case FieldDescriptor::CPPTYPE_FLOAT: {
      const float v = Pick<float>(r, {0.0f, 0.1f, 1.0f / 3, 3e38f, float(r.Below(1000000)) / 9});
      return rep ? refl->AddFloat(m, f, v) : refl->SetFloat(m, f, v);
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      const bool v = r.Below(2);
      return rep ? refl->AddBool(m, f, v) : refl->SetBool(m, f, v);
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      // Mostly named values; now and then a number the enum does not name.
      const auto* e = f->enum_type();
      const int v = r.Below(5) == 0 ? 1000 + r.Below(10) : e->value(r.Below(e->value_count()))->number();
      return rep ? refl->AddEnumValue(m, f, v) : refl->SetEnumValue(m, f, v);
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string v = f->type() == FieldDescriptor::TYPE_BYTES ? RandomBytes(r) : RandomText(r);
      return rep ? refl->AddString(m, f, std::move(v)) : refl->SetString(m, f, std::move(v));
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return Fill(rep ? refl->AddMessage(m, f) : refl->MutableMessage(m, f), r, depth + 1);
  }
}

void Fill(Message* m, Random& r, int depth) {
  const Descriptor* d = m->GetDescriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && depth >= 4) continue;
    if (f->is_repeated()) {
      for (int n = r.Below(4); n > 0; --n) AddOrSet(m, r, f, depth);
    } else if (r.Below(3) > 0) {  // a third of the fields (and oneof members) left unset
      AddOrSet(m, r, f, depth);
    }
  }
}

std::vector<const Descriptor*> ApiMessageTypes() {
  std::vector<const Descriptor*> types;
  std::function<void(const Descriptor*)> add = [&](const Descriptor* d) {
    if (d->options().map_entry()) return;
    types.push_back(d);
    for (int i = 0; i < d->nested_type_count(); ++i) add(d->nested_type(i));
  };
  for (const char* file :
       {"metropolis/v1/game.proto", "metropolis/v1/gamehost.proto", "metropolis/v1/accounts.proto",
        "metropolis/v1/matchmaker.proto", "metropolis/v1/people.proto", "metropolis/v1/ratings.proto",
        "metropolis/v1/replays.proto", "metropolis/v1/tournaments.proto"}) {
    const auto* fd = google::protobuf::DescriptorPool::generated_pool()->FindFileByName(file);
    EXPECT_NE(fd, nullptr) << file;
    if (fd == nullptr) continue;
    for (int i = 0; i < fd->message_type_count(); ++i) add(fd->message_type(i));
  }
  return types;
}

TEST(ProtoJson, EveryApiMessageTypeWithRandomValuesIsTheSameJsonValue) {
  Random r{20261205};
  google::protobuf::DynamicMessageFactory factory;
  const auto types = ApiMessageTypes();
  ASSERT_GT(types.size(), 100u);
  int same_bytes = 0, compared = 0;
  for (const Descriptor* d : types) {
    for (int round = 0; round < 40; ++round) {
      std::unique_ptr<Message> m(factory.GetPrototype(d)->New());
      if (round > 0) Fill(m.get(), r, 0);  // round 0: every field at its default
      const std::string ours = PrintProtoJson(*m);
      const std::string theirs = ProtobufsJson(*m);
      // Objects compare by value (protobuf orders a map's keys its own way);
      // every number and string must be the same.
      const auto a = nlohmann::json::parse(ours, nullptr, false);
      const auto b = nlohmann::json::parse(theirs, nullptr, false);
      ASSERT_FALSE(a.is_discarded()) << d->full_name() << ": " << ours;
      ASSERT_EQ(a, b) << d->full_name() << "\nours:     " << ours << "\nprotobuf: " << theirs;
      same_bytes += ours == theirs;
      ++compared;
    }
  }
  // Most texts are protobuf's own to the byte; the rest differ only in the
  // order of fields (protobuf writes some set fields before unset ones),
  // which JSON leaves free.
  EXPECT_GT(same_bytes, compared / 2) << same_bytes << " of " << compared;
}

// Well-known types print differently in protobuf's mapping (a Timestamp is a
// date text): the printer does not know them, so the API must not use them.
TEST(ProtoJson, TheApiUsesNoWellKnownTypes) {
  for (const Descriptor* d : ApiMessageTypes()) {
    for (int i = 0; i < d->field_count(); ++i) {
      const Descriptor* type = d->field(i)->message_type();
      if (type == nullptr) continue;
      EXPECT_NE(type->file()->package(), "google.protobuf") << d->full_name() << "." << d->field(i)->name();
    }
  }
}

}  // namespace
}  // namespace metropolis::gateway
