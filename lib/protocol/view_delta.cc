#include "lib/protocol/view_delta.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/message.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace metropolis::protocol {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

// Indexes the fields of the message in bytes [begin, end): out[n] spans field
// n's entries (generated serializers write a field's entries together, in
// field-number order). *position, when given, gets field 2's payload.
template <typename Range>
void Index(const std::string& bytes, uint32_t begin, uint32_t end, std::vector<Range>* out, Range* position) {
  out->clear();
  CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()) + begin, int(end - begin));
  for (;;) {
    const uint32_t at = begin + uint32_t(in.CurrentPosition());
    const uint32_t tag = in.ReadTag();
    if (tag == 0) break;
    const uint32_t number = WireFormatLite::GetTagFieldNumber(tag);
    if (position && number == uint32_t(v1::View::kPositionFieldNumber) &&
        WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t length = 0;
      if (!in.ReadVarint32(&length)) break;
      position->begin = begin + uint32_t(in.CurrentPosition());
      position->end = position->begin + length;
      if (!in.Skip(int(length))) break;
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      break;  // our own serializer's output: cannot happen
    }
    if (number >= out->size()) out->resize(number + 1);
    Range& r = (*out)[number];
    if (r.end == 0) r.begin = at;
    r.end = begin + uint32_t(in.CurrentPosition());
  }
}

void AppendVarint(uint32_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(char(v | 0x80));
    v >>= 7;
  }
  out->push_back(char(v));
}

// The descriptors `numbers` name in `d`; false with *error for an unknown one
// or `forbidden`.
template <typename Numbers>
bool Resolve(const Descriptor* d, const Numbers& numbers, int forbidden, std::vector<const FieldDescriptor*>* out,
             std::string* error) {
  for (uint32_t n : numbers) {
    const FieldDescriptor* f = int(n) == forbidden ? nullptr : d->FindFieldByNumber(int(n));
    if (!f) {
      *error = "view delta: " + d->name() + " has no field " + std::to_string(n) + " to change";
      return false;
    }
    out->push_back(f);
  }
  return true;
}

}  // namespace

void WireView::Set(const v1::View& view) {
  bytes_.clear();
  view.SerializeToString(&bytes_);
  Range position;
  Index(bytes_, 0, uint32_t(bytes_.size()), &fields_, &position);
  if (position.end > position.begin) {
    Index(bytes_, position.begin, position.end, &position_fields_, static_cast<Range*>(nullptr));
  } else {
    position_fields_.clear();
  }
}

void WireView::swap(WireView& other) noexcept {
  bytes_.swap(other.bytes_);
  fields_.swap(other.fields_);
  position_fields_.swap(other.position_fields_);
}

void MakeViewDelta(const WireView& base, uint32_t base_step, const WireView& next, v1::ViewDelta* delta) {
  delta->Clear();
  delta->set_base_step(base_step);
  // The changed fields' bytes, as `next` has them, make the `changed` View.
  std::string changed, position;
  auto diff = [](const WireView& a, const std::vector<WireView::Range>& fa, const WireView& b,
                 const std::vector<WireView::Range>& fb, uint32_t skip, std::string* out, auto add) {
    const size_t n = std::max(fa.size(), fb.size());
    for (size_t number = 1; number < n; ++number) {
      if (number == skip) continue;
      const WireView::Range ra = number < fa.size() ? fa[number] : WireView::Range{};
      const WireView::Range rb = number < fb.size() ? fb[number] : WireView::Range{};
      const uint32_t la = ra.end - ra.begin, lb = rb.end - rb.begin;
      if (la == lb && std::memcmp(a.bytes_.data() + ra.begin, b.bytes_.data() + rb.begin, la) == 0) continue;
      add(uint32_t(number));
      out->append(b.bytes_, rb.begin, lb);  // nothing when `next` lacks it: cleared
    }
  };
  diff(base, base.fields_, next, next.fields_, uint32_t(v1::View::kPositionFieldNumber), &changed,
       [delta](uint32_t n) { delta->add_fields(n); });
  diff(base, base.position_fields_, next, next.position_fields_, 0, &position,
       [delta](uint32_t n) { delta->add_position_fields(n); });
  if (!position.empty()) {
    AppendVarint(WireFormatLite::MakeTag(v1::View::kPositionFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED),
                 &changed);
    AppendVarint(uint32_t(position.size()), &changed);
    changed += position;
  }
  delta->mutable_changed()->ParseFromString(changed);
}

void MakeViewDelta(const v1::View& base, uint32_t base_step, const v1::View& next, v1::ViewDelta* delta) {
  WireView a, b;
  a.Set(base);
  b.Set(next);
  MakeViewDelta(a, base_step, b, delta);
}

bool ApplyViewDelta(const v1::ViewDelta& delta, v1::View* view, std::string* error) {
  std::vector<const FieldDescriptor*> fields, position_fields;
  if (!Resolve(v1::View::descriptor(), delta.fields(), v1::View::kPositionFieldNumber, &fields, error) ||
      !Resolve(v1::Position::descriptor(), delta.position_fields(), 0, &position_fields, error))
    return false;
  // Swapping moves each listed field whole, repeated or not; `changed` is a copy
  // so that the delta stays as it came.
  v1::View changed = delta.changed();
  view->GetReflection()->SwapFields(view, &changed, fields);
  if (!position_fields.empty())
    view->position().GetReflection()->SwapFields(view->mutable_position(), changed.mutable_position(), position_fields);
  return true;
}

}  // namespace metropolis::protocol
