#include "scenario/flow_depth.h"

#include <cstddef>

namespace uwsim::scenario {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

class FlowScan {
 public:
  FlowScan(std::string_view text, int limit) : text_(text), limit_(limit) {}

  std::optional<TextPosition> run() {
    while (i_ < text_.size()) {
      begin_line();
      if (i_ >= text_.size()) break;
      if (auto found = scan_line()) return found;
    }
    return std::nullopt;
  }

 private:
  // At the start of a line: skips it whole while inside a block scalar (blank or indented
  // deeper than the line that opened it), else moves past the indentation.
  void begin_line() {
    while (i_ < text_.size()) {
      std::size_t indent = 0;
      while (i_ + indent < text_.size() && text_[i_ + indent] == ' ') ++indent;
      const std::size_t rest = i_ + indent;
      const bool empty = rest >= text_.size() || text_[rest] == '\n';
      if (block_scalar_ && (empty || static_cast<int>(indent) > block_indent_)) {
        next_line();
        continue;
      }
      block_scalar_ = false;
      line_indent_ = static_cast<int>(indent);
      i_ = rest;
      node_start_ = true;
      return;
    }
  }

  void next_line() {
    while (i_ < text_.size() && text_[i_] != '\n') ++i_;
    if (i_ < text_.size()) {
      ++i_;
      ++line_;
      line_start_ = i_;
    }
  }

  // Moves past a quoted scalar starting at i_ (which may span lines).
  void skip_quoted() {
    const char quote = text_[i_++];
    while (i_ < text_.size()) {
      const char c = text_[i_];
      if (c == '\n') {
        ++i_;
        ++line_;
        line_start_ = i_;
        continue;
      }
      if (quote == '"' && c == '\\') {
        i_ += 2;
        continue;
      }
      ++i_;
      if (c == quote) {
        if (quote == '\'' && i_ < text_.size() && text_[i_] == '\'') {
          ++i_;  // '' is a quote inside single quotes
          continue;
        }
        return;
      }
    }
  }

  std::optional<TextPosition> open() {
    if (++depth_ > limit_) {
      return TextPosition{line_, static_cast<int>(i_ - line_start_) + 1};
    }
    node_start_ = true;
    ++i_;
    return std::nullopt;
  }

  bool ends_token(std::size_t at) const { return at >= text_.size() || is_blank(text_[at]) || text_[at] == '\n'; }

  std::optional<TextPosition> scan_line() {
    while (i_ < text_.size() && text_[i_] != '\n') {
      const char c = text_[i_];
      if (c == '#' && (i_ == line_start_ || is_blank(text_[i_ - 1]))) break;  // a comment
      if (is_blank(c)) {
        ++i_;
        continue;
      }
      if ((c == '"' || c == '\'') && node_start_) {
        skip_quoted();
        node_start_ = false;
        continue;
      }
      if (depth_ > 0) {  // flow context
        if (c == '[' || c == '{') {
          if (auto found = open()) return found;
          continue;
        }
        if (c == ']' || c == '}') --depth_;
        node_start_ = c == ',' || c == ':' || c == '?';
        ++i_;
        continue;
      }
      // Block context.
      if (node_start_) {
        if (c == '[' || c == '{') {
          if (auto found = open()) return found;
          continue;
        }
        if (c == '|' || c == '>') {  // a block scalar: its lines follow
          block_scalar_ = true;
          block_indent_ = line_indent_;
          break;
        }
        if ((c == '-' || c == '?' || c == ':') && ends_token(i_ + 1)) {
          ++i_;
          continue;
        }
        if (c == '&' || c == '!' || c == '*') {  // anchor, tag or alias: a node may follow
          while (i_ < text_.size() && !ends_token(i_)) ++i_;
          continue;
        }
        node_start_ = false;  // a plain scalar
        ++i_;
        continue;
      }
      if (c == ':' && ends_token(i_ + 1)) node_start_ = true;
      ++i_;
    }
    next_line();
    return std::nullopt;
  }

  std::string_view text_;
  int limit_;
  std::size_t i_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0;
  int depth_ = 0;
  bool node_start_ = true;
  int line_indent_ = 0;
  bool block_scalar_ = false;
  int block_indent_ = 0;
};

}  // namespace

std::optional<TextPosition> flow_nested_deeper_than(std::string_view text, int limit) {
  return FlowScan(text, limit).run();
}

}  // namespace uwsim::scenario
