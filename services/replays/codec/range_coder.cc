#include "services/replays/codec/range_coder.h"

#include <cassert>

namespace metropolis::replays {

namespace {
constexpr uint32_t kTop = uint32_t(1) << 24;  // renormalise below this
}  // namespace

void RangeEncoder::Encode(uint32_t cum, uint32_t freq, uint32_t total) {
  assert(freq > 0 && cum + freq <= total && total <= kMaxTotal);
  const uint32_t step = range_ / total;
  low_ += uint64_t(step) * cum;
  range_ = step * freq;
  while (range_ < kTop) {
    range_ <<= 8;
    ShiftLow();
  }
}

void RangeEncoder::Finish() {
  for (int i = 0; i < 5; ++i) ShiftLow();
}

// Moves the top byte of low_ out. A byte is held back while it could still
// be raised by a carry: 0xFF bytes are counted in cache_size_ until a byte
// below 0xFF (or a carry) settles them.
void RangeEncoder::ShiftLow() {
  if (uint32_t(low_) < 0xFF000000u || (low_ >> 32) != 0) {
    const uint8_t carry = uint8_t(low_ >> 32);
    uint8_t byte = cache_;
    do {
      Put(uint8_t(byte + carry));
      byte = 0xFF;
    } while (--cache_size_ != 0);
    cache_ = uint8_t(low_ >> 24);
  }
  ++cache_size_;
  low_ = (low_ & 0x00FFFFFFu) << 8;
}

void RangeEncoder::Put(uint8_t byte) {
  if (first_byte_) {
    // The coded value is a fraction below 1: its integer byte is 0 (LZMA
    // writes it and its decoder checks it; we save the byte).
    assert(byte == 0);
    first_byte_ = false;
    return;
  }
  out_->push_back(char(byte));
}

bool RangeDecoder::Start() {
  if (in_.size() < 4) return false;
  for (int i = 0; i < 4; ++i) code_ = (code_ << 8) | uint8_t(in_[pos_++]);
  return true;
}

bool RangeDecoder::Target(uint32_t total, uint32_t* target) {
  assert(total > 0 && total <= kMaxTotal);
  step_ = range_ / total;
  const uint32_t value = code_ / step_;
  // The encoder never leaves code_ in [step_ * total, range_): only a corrupt
  // stream gets here.
  if (value >= total) return false;
  *target = value;
  return true;
}

bool RangeDecoder::Consume(uint32_t cum, uint32_t freq) {
  code_ -= step_ * cum;
  range_ = step_ * freq;
  while (range_ < kTop) {
    if (pos_ == in_.size()) return false;
    code_ = (code_ << 8) | uint8_t(in_[pos_++]);
    range_ <<= 8;
  }
  return true;
}

}  // namespace metropolis::replays
