#include "scenario/printable.h"

#include <algorithm>
#include <cstdio>

namespace uwsim::scenario {

namespace {

// The length of the well-formed UTF-8 character at text[i], 0 if there is none.
std::size_t character_length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t extra = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) extra = 1;
  else if (c == 0xE0) extra = 2, low = 0xA0;
  else if (c == 0xED) extra = 2, high = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF) extra = 2;
  else if (c == 0xF0) extra = 3, low = 0x90;
  else if (c == 0xF4) extra = 3, high = 0x8F;
  else if (c >= 0xF1 && c <= 0xF3) extra = 3;
  else return 0;
  if (i + extra >= text.size()) return 0;
  for (std::size_t k = 1; k <= extra; ++k) {
    const unsigned char b = byte(i + k);
    if (b < (k == 1 ? low : 0x80) || b > (k == 1 ? high : 0xBF)) return 0;
  }
  return extra + 1;
}

char32_t decode(std::string_view text, std::size_t i, std::size_t length) {
  const auto c = static_cast<unsigned char>(text[i]);
  if (length == 1) return c;
  char32_t value = c & (0xFF >> (length + 1));
  for (std::size_t k = 1; k < length; ++k) value = (value << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  return value;
}

bool is_bidi_control(char32_t c) {
  return c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}
bool is_control(char32_t c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

void escape(char32_t c, std::string& out) {
  char code[12];
  if (c == '\n') out += "\\n";
  else if (c == '\r') out += "\\r";
  else if (c == '\t') out += "\\t";
  else if (c < 0x80) std::snprintf(code, sizeof code, "\\x%02x", static_cast<unsigned>(c)), out += code;
  else std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(c)), out += code;
}

// printable() of text up to `limit` characters; `cut` says whether characters were left.
std::string escaped(std::string_view text, std::size_t limit, bool& cut) {
  std::string out;
  out.reserve(std::min(text.size(), limit * 4));
  std::size_t i = 0, count = 0;
  for (; i < text.size() && count < limit; ++count) {
    const std::size_t length = character_length(text, i);
    if (length == 0) {  // not UTF-8: the byte itself
      char code[8];
      std::snprintf(code, sizeof code, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(text[i])));
      out += code;
      ++i;
      continue;
    }
    const char32_t c = decode(text, i, length);
    if (is_control(c) || is_bidi_control(c)) escape(c, out);
    else out.append(text.substr(i, length));
    i += length;
  }
  cut = i < text.size();
  return out;
}

}  // namespace

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = character_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::size_t code_points(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string printable(std::string_view text) {
  bool cut = false;
  return escaped(text, text.size(), cut);
}

std::string shown(std::string_view text, std::size_t limit) {
  bool cut = false;
  std::string out = escaped(text, limit, cut);
  if (cut) out += "…";
  return out;
}

std::optional<std::string> name_character_problem(std::string_view name) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < name.size(); ++count) {
    const std::size_t length = character_length(name, i);
    if (length == 0) {  // not UTF-8: Reader::string reports it
      ++i;
      continue;
    }
    const char32_t c = decode(name, i, length);
    i += length;
    if (!is_control(c) && !is_bidi_control(c)) continue;
    char code[64];
    std::snprintf(code, sizeof code, "character %zu is U+%04X", count + 1, static_cast<unsigned>(c));
    return std::string(code) + (is_control(c) ? ", a control character"
                                              : ", a bidirectional control (it reorders how text is shown)");
  }
  return std::nullopt;
}

}  // namespace uwsim::scenario
