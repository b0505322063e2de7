#include "services/accounts/seat_sealer.h"

#include <sodium.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace metropolis::accounts {
namespace {

constexpr size_t kNonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
constexpr size_t kTagBytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;
constexpr int kBase64 = sodium_base64_VARIANT_ORIGINAL;

// The key file's bytes are hashed under this label, so that the same file given
// to another purpose some day yields another key.
constexpr std::string_view kKeyLabel = "metropolis web_seats key v1";
static_assert(kKeyLabel.size() >= crypto_generichash_KEYBYTES_MIN &&
              kKeyLabel.size() <= crypto_generichash_KEYBYTES_MAX);
static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == 32);

void AppendBigEndian(std::string* out, uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(char((value >> (8 * i)) & 0xff));
}

// Every field with its length before it, so that no two rows' data read alike
// (game "a", host "bc" against game "ab", host "c").
std::string AssociatedData(const SeatPlace& place) {
  std::string ad = "web_seats v1";
  AppendBigEndian(&ad, uint64_t(place.identity_id), 8);
  AppendBigEndian(&ad, uint32_t(place.seat), 4);
  for (std::string_view field : {place.game_id, place.host}) {
    AppendBigEndian(&ad, field.size(), 4);
    ad.append(field);
  }
  return ad;
}

std::string RowName(const SeatPlace& place) {
  return "the seat token stored for identity " + std::to_string(place.identity_id) + " in game '" +
         std::string(place.game_id) + "'";
}

const unsigned char* Bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

}  // namespace

SeatSealer::SeatSealer(std::string_view key_material) {
  if (key_material.size() < kMinKeyMaterialBytes)
    throw std::invalid_argument("a seat key needs at least " + std::to_string(kMinKeyMaterialBytes) + " bytes, not " +
                                std::to_string(key_material.size()));
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start (no random source)");
  crypto_generichash(key_, sizeof key_, Bytes(key_material), key_material.size(), Bytes(kKeyLabel), kKeyLabel.size());
}

SeatSealer::~SeatSealer() { sodium_memzero(key_, sizeof key_); }

std::string SeatSealer::Seal(std::string_view token, const SeatPlace& place) const {
  const std::string ad = AssociatedData(place);
  std::vector<unsigned char> sealed(kNonceBytes + token.size() + kTagBytes);
  randombytes_buf(sealed.data(), kNonceBytes);
  unsigned long long length = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(sealed.data() + kNonceBytes, &length, Bytes(token), token.size(),
                                             Bytes(ad), ad.size(), nullptr, sealed.data(), key_);
  std::string out(kPrefix);
  const size_t prefix = out.size();
  out.resize(prefix + sodium_base64_ENCODED_LEN(sealed.size(), kBase64));
  sodium_bin2base64(out.data() + prefix, out.size() - prefix, sealed.data(), sealed.size(), kBase64);
  out.resize(out.size() - 1);  // the terminating NUL bin2base64 writes
  return out;
}

grpc::Status SeatSealer::Open(std::string_view stored, const SeatPlace& place, std::string* token) const {
  if (!IsSealed(stored))
    return {grpc::StatusCode::DATA_LOSS, RowName(place) + " is not sealed text (no '" + std::string(kPrefix) + "')"};
  const std::string_view text = stored.substr(kPrefix.size());
  std::vector<unsigned char> sealed(text.size());  // base64 is never shorter than what it encodes
  size_t length = 0;
  const char* end = nullptr;
  if (sodium_base642bin(sealed.data(), sealed.size(), text.data(), text.size(), nullptr, &length, &end, kBase64) != 0 ||
      end != text.data() + text.size())
    return {grpc::StatusCode::DATA_LOSS, RowName(place) + " is not sealed text (not base64)"};
  if (length < kNonceBytes + kTagBytes)
    return {grpc::StatusCode::DATA_LOSS, RowName(place) + " is not sealed text (" + std::to_string(length) +
                                             " bytes; a nonce and a tag take " +
                                             std::to_string(kNonceBytes + kTagBytes) + ")"};
  const std::string ad = AssociatedData(place);
  std::string clear(length - kNonceBytes - kTagBytes, '\0');
  unsigned long long clear_length = 0;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(reinterpret_cast<unsigned char*>(clear.data()), &clear_length, nullptr,
                                                 sealed.data() + kNonceBytes, length - kNonceBytes, Bytes(ad),
                                                 ad.size(), sealed.data(), key_) != 0)
    return {grpc::StatusCode::DATA_LOSS,
            RowName(place) +
                " does not open with this service's seat key: sealed under another key, altered, or sealed for "
                "another row"};
  clear.resize(clear_length);
  *token = std::move(clear);
  return grpc::Status::OK;
}

bool ReadSeatKeyFile(const std::string& path, std::string* key_material, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  if (in) bytes << in.rdbuf();  // an empty file inserts nothing: its size is said below
  if (!in || in.bad()) {
    *error = "--seat-key-file " + path + ": cannot be read";
    return false;
  }
  std::string material = bytes.str();
  if (material.size() < SeatSealer::kMinKeyMaterialBytes) {
    *error = "--seat-key-file " + path + ": " + std::to_string(material.size()) + " bytes; a key needs at least " +
             std::to_string(SeatSealer::kMinKeyMaterialBytes) + " (e.g. head -c 32 /dev/urandom > FILE)";
    sodium_memzero(material.data(), material.size());
    return false;
  }
  *key_material = std::move(material);
  return true;
}

}  // namespace metropolis::accounts
