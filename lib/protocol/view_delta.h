// Views as deltas (game.proto, ViewDelta; gamehost.proto,
// CAPABILITY_VIEW_DELTAS): a view sent as the fields that changed since a view
// the receiver holds. Most of a view is the board (who owns each edge, node and
// knight), which changes a piece at a time, while the legal actions, hands and
// pending decisions change at every step: a delta carries the second part only.
//
// The sender compares views in their wire form, field by field (WireView): a
// generated serializer and a memcmp per field, where comparing and copying
// through protobuf's reflection cost a host more per decision than the smaller
// message saved. The receiver applies a delta through the descriptors. Either
// way a field added to View or Position later is covered without a change here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {

// A view's serialized bytes, indexed by field: what a sender keeps of the view
// a receiver holds (the base of the next delta) and of the view it sends.
class WireView {
 public:
  // Serializes `view` and indexes its fields and its Position's.
  void Set(const v1::View& view);
  bool empty() const { return bytes_.empty(); }
  void swap(WireView& other) noexcept;

 private:
  friend void MakeViewDelta(const WireView&, uint32_t, const WireView&, v1::ViewDelta*);
  struct Range {
    uint32_t begin = 0, end = 0;  // into bytes_; a repeated field's entries are one range
  };
  std::string bytes_;
  std::vector<Range> fields_;           // by field number of View (position's range unused)
  std::vector<Range> position_fields_;  // by field number of Position
};

// Fills `delta` (cleared first) with what turns `base` into `next`: the View's
// fields that differ (in delta->fields, their values in delta->changed) and the
// Position's likewise (delta->position_fields).
void MakeViewDelta(const WireView& base, uint32_t base_step, const WireView& next, v1::ViewDelta* delta);
void MakeViewDelta(const v1::View& base, uint32_t base_step, const v1::View& next, v1::ViewDelta* delta);

// Turns `view` (the base) into the view `delta` describes. False, with *error
// and `view` unchanged, when the delta names a field View or Position does not
// have (a sender newer than this reader), or `position` itself.
bool ApplyViewDelta(const v1::ViewDelta& delta, v1::View* view, std::string* error);

}  // namespace metropolis::protocol
