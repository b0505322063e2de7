// The accounts' structs and their messages without a database: every ladder
// setting of the proto reaches the spec and comes back under its own name.
#include "services/accounts/convert.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>
#include <gtest/gtest.h>

namespace metropolis::accounts {
namespace {

using google::protobuf::FieldDescriptor;

TEST(AccountsConvert, NoSettingIsAnEmptyUpdate) {
  EXPECT_TRUE(LadderUpdateFromProto(v1::LadderSettings()).empty());
  LadderSpec spec, unchanged;
  LadderUpdateFromProto(v1::LadderSettings()).ApplyTo(&spec);
  v1::Ladder a, b;
  LadderToProto({spec}, &a);
  LadderToProto({unchanged}, &b);
  EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString());
}

// Each field alone, set to a value no default has, must show in the Ladder the
// spec becomes, in the field of the same name: a setting added to the proto
// and forgotten in the conversion fails here.
TEST(AccountsConvert, EverySettingReachesTheLadderUnderItsName) {
  const google::protobuf::Descriptor* settings = v1::LadderSettings::descriptor();
  ASSERT_GT(settings->field_count(), 10);
  for (int i = 0; i < settings->field_count(); ++i) {
    const FieldDescriptor* f = settings->field(i);
    SCOPED_TRACE(f->name());
    v1::LadderSettings in;
    const google::protobuf::Reflection* r = in.GetReflection();
    v1::Ladder out;
    const FieldDescriptor* g = v1::Ladder::descriptor()->FindFieldByName(f->name());
    ASSERT_NE(g, nullptr) << "Ladder has no field " << f->name();
    ASSERT_EQ(g->cpp_type(), f->cpp_type());
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_STRING:
        r->SetString(&in, f, "x=1");
        break;
      case FieldDescriptor::CPPTYPE_INT32:
        r->SetInt32(&in, f, 7);
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        r->SetInt64(&in, f, 7);
        break;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        r->SetDouble(&in, f, 0.5);
        break;
      default:
        FAIL() << "a setting of an unexpected type";
    }
    const LadderUpdate update = LadderUpdateFromProto(in);
    EXPECT_FALSE(update.empty());
    LadderSpec spec;
    update.ApplyTo(&spec);
    LadderToProto({spec}, &out);
    const google::protobuf::Reflection* o = out.GetReflection();
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_STRING:
        EXPECT_EQ(o->GetString(out, g), "x=1");
        break;
      case FieldDescriptor::CPPTYPE_INT32:
        EXPECT_EQ(o->GetInt32(out, g), 7);
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        EXPECT_EQ(o->GetInt64(out, g), 7);
        break;
      default:
        EXPECT_EQ(o->GetDouble(out, g), 0.5);
    }
  }
}

TEST(AccountsConvert, IdentitiesAndTokens) {
  v1::Identity i;
  IdentityToProto({12, "bot", "alicebot", "alice", 1'700'000'000'000}, &i);
  EXPECT_EQ(i.id(), 12);
  EXPECT_EQ(i.kind(), "bot");
  EXPECT_EQ(i.name(), "alicebot");
  EXPECT_EQ(i.owner(), "alice");
  EXPECT_EQ(i.created_unix_ms(), 1'700'000'000'000);
  v1::ApiToken t;
  ApiTokenToProto({7, "laptop", true, 1'700'000'000'000, 1'700'000'001'000}, &t);
  EXPECT_EQ(t.id(), 7);
  EXPECT_EQ(t.label(), "laptop");
  EXPECT_TRUE(t.admin());
  EXPECT_EQ(t.created_unix_ms(), 1'700'000'000'000);
  EXPECT_EQ(t.revoked_unix_ms(), 1'700'000'001'000);
}

}  // namespace
}  // namespace metropolis::accounts
