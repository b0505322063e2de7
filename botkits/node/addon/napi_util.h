// Small helpers over Node-API's C interface (node_api.h) for the engine addon:
// errors thrown as JavaScript exceptions, values in and out, and native
// objects wrapped in JavaScript ones with a type tag, so that a method called
// on the wrong kind of object throws instead of reading the wrong memory.
#pragma once

#include <node_api.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metropolis::node {

// Throws `message` as an Error (or a TypeError) unless an exception is already
// pending; returns nullptr, which every callback may return after a throw.
inline napi_value Throw(napi_env env, const std::string& message, bool type_error = false) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) {
    if (type_error)
      napi_throw_type_error(env, nullptr, message.c_str());
    else
      napi_throw_error(env, nullptr, message.c_str());
  }
  return nullptr;
}

// The failed Node-API call's own message, thrown.
inline napi_value ThrowLast(napi_env env) {
  const napi_extended_error_info* info = nullptr;
  napi_get_last_error_info(env, &info);
  return Throw(env, std::string("Node-API: ") + (info && info->error_message ? info->error_message : "call failed"));
}

// Returns nullptr from the callback (with the exception thrown) unless `call` is napi_ok.
#define NAPI_CALL(env, call)                                          \
  do {                                                                \
    if ((call) != napi_ok) return ::metropolis::node::ThrowLast(env); \
  } while (0)

// The callback's arguments (missing ones undefined) and `this`.
struct Args {
  napi_value self = nullptr;
  std::vector<napi_value> v;
  napi_value operator[](size_t i) const { return v[i]; }
};
inline bool GetArgs(napi_env env, napi_callback_info info, size_t count, Args* out) {
  size_t argc = count;
  out->v.assign(count, nullptr);
  if (napi_get_cb_info(env, info, &argc, count ? out->v.data() : nullptr, &out->self, nullptr) != napi_ok) return false;
  napi_value undefined;
  napi_get_undefined(env, &undefined);
  for (size_t i = argc; i < count; ++i) out->v[i] = undefined;
  return true;
}

inline napi_valuetype TypeOf(napi_env env, napi_value v) {
  napi_valuetype t = napi_undefined;
  napi_typeof(env, v, &t);
  return t;
}
inline bool IsMissing(napi_env env, napi_value v) {
  const napi_valuetype t = TypeOf(env, v);
  return t == napi_undefined || t == napi_null;
}

inline napi_value Int(napi_env env, int64_t v) {
  napi_value out = nullptr;
  napi_create_int64(env, v, &out);
  return out;
}
inline napi_value Double(napi_env env, double v) {
  napi_value out = nullptr;
  napi_create_double(env, v, &out);
  return out;
}
inline napi_value Bool(napi_env env, bool v) {
  napi_value out = nullptr;
  napi_get_boolean(env, v, &out);
  return out;
}
inline napi_value String(napi_env env, const std::string& v) {
  napi_value out = nullptr;
  napi_create_string_utf8(env, v.data(), v.size(), &out);
  return out;
}
inline napi_value BigInt(napi_env env, uint64_t v) {
  napi_value out = nullptr;
  napi_create_bigint_uint64(env, v, &out);
  return out;
}
inline napi_value Undefined(napi_env env) {
  napi_value out = nullptr;
  napi_get_undefined(env, &out);
  return out;
}
inline void Set(napi_env env, napi_value object, const char* key, napi_value value) {
  napi_set_named_property(env, object, key, value);
}
inline napi_value Object(napi_env env) {
  napi_value out = nullptr;
  napi_create_object(env, &out);
  return out;
}
template <class Range, class Fn>
napi_value Array(napi_env env, const Range& items, Fn make) {
  napi_value out = nullptr;
  napi_create_array(env, &out);
  uint32_t i = 0;
  for (const auto& item : items) napi_set_element(env, out, i++, make(item));
  return out;
}
// A BigUint64Array of `values`: one allocation, no BigInt per element until read.
inline napi_value BigUint64Array(napi_env env, const uint64_t* values, size_t n) {
  void* data = nullptr;
  napi_value buffer = nullptr, out = nullptr;
  if (napi_create_arraybuffer(env, n * sizeof(uint64_t), &data, &buffer) != napi_ok) return ThrowLast(env);
  for (size_t i = 0; i < n; ++i) static_cast<uint64_t*>(data)[i] = values[i];
  if (napi_create_typedarray(env, napi_biguint64_array, n, buffer, 0, &out) != napi_ok) return ThrowLast(env);
  return out;
}

// Reads a string; false (nothing thrown) when `v` is not one.
inline bool GetString(napi_env env, napi_value v, std::string* out) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, v, nullptr, 0, &length) != napi_ok) return false;
  out->assign(length, '\0');
  return napi_get_value_string_utf8(env, v, out->data(), length + 1, &length) == napi_ok;
}

// An integer in [lo, hi] from a Number or a BigInt; false with *error otherwise.
inline bool GetInt(napi_env env, napi_value v, int64_t lo, int64_t hi, int64_t* out, std::string* error) {
  const napi_valuetype t = TypeOf(env, v);
  if (t == napi_number) {
    double d = 0;
    napi_get_value_double(env, v, &d);
    if (d == double(int64_t(d)) && d >= double(lo) && d <= double(hi)) {
      *out = int64_t(d);
      return true;
    }
  } else if (t == napi_bigint) {
    bool lossless = false;
    int64_t x = 0;
    napi_get_value_bigint_int64(env, v, &x, &lossless);
    if (lossless && x >= lo && x <= hi) {
      *out = x;
      return true;
    }
  }
  *error = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return false;
}

// A 64-bit unsigned value from a BigInt, a safe non-negative Number, or a
// decimal or 0x string; false with *error otherwise.
inline bool GetUint64(napi_env env, napi_value v, uint64_t* out, std::string* error) {
  const napi_valuetype t = TypeOf(env, v);
  if (t == napi_bigint) {
    bool lossless = false;
    napi_get_value_bigint_uint64(env, v, out, &lossless);
    if (lossless) return true;
  } else if (t == napi_number) {
    double d = 0;
    napi_get_value_double(env, v, &d);
    if (d >= 0 && d <= 9007199254740991.0 && d == double(uint64_t(d))) {
      *out = uint64_t(d);
      return true;
    }
  } else if (t == napi_string) {
    std::string s;
    GetString(env, v, &s);
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const std::string digits = hex ? s.substr(2) : s;
    if (!digits.empty() && digits.size() <= (hex ? 16u : 20u)) {
      uint64_t x = 0;
      bool ok = true;
      for (char c : digits) {
        int d = c >= '0' && c <= '9'          ? c - '0'
                : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                              : -1;
        const uint64_t base = hex ? 16 : 10;
        if (d < 0 || x > (UINT64_MAX - uint64_t(d)) / base) {
          ok = false;
          break;
        }
        x = x * base + uint64_t(d);
      }
      if (ok) {
        *out = x;
        return true;
      }
    }
  }
  *error = "a 64-bit unsigned integer (BigInt, Number or decimal string)";
  return false;
}

}  // namespace metropolis::node
