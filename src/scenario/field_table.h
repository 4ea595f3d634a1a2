// The scenario format, one table per spec struct: each row names a key, the member it fills,
// the kind of value, its sign, unit and one line of documentation; defaults are the struct's
// own. One generic reader (read_table) reads a mapping by its table: unknown keys with "did you
// mean", missing required keys, each value checked as its kind says, at the value's
// file:line:col. The same rows describe the keys in the JSON schema editors use
// (schema_tables.h writes them into schemas/). Checks across keys and sections (a matrix's
// definiteness, names that refer to other sections, times in order) stay in the section
// readers, after the table has read what it can.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scenario/yaml_reader.h"

namespace uwsim::scenario {

enum class ValueKind { number, vector, choice, string, table, list, custom };

struct TableInfo;

// What a key is, for the reader and the schema.
struct KeyInfo {
  std::string_view key;
  ValueKind kind = ValueKind::number;
  std::string_view doc;                 // one line, no final period; the unit is appended
  std::string_view unit;                // "" for dimensionless values
  Sign sign = Sign::any;
  int size = 0;                         // a vector's length
  std::vector<std::string> options;     // a choice's words
  bool required = false;
  std::string default_json;             // the struct's default as JSON ("" = none shown)
  std::function<TableInfo()> sub;       // a table: its keys; a list: its items' keys
  std::string_view schema;              // custom: the value's JSON schema, but "description"
};

// Keys of which a mapping holds at most one: two ways to give `what` ("the attitude").
struct Exclusive {
  std::string_view what;
  std::vector<std::string_view> keys;
  bool one_required = false;  // exactly one (the section reader reports none)
};

// What a table is, for the schema: its keys and which of them exclude each other.
struct TableInfo {
  std::string_view doc;
  std::vector<KeyInfo> keys;
  std::vector<Exclusive> exclusive;
  // Groups of keys of which at least one must be given (`inertia` or a `shape` to derive it
  // from); the section reader reports none, in its own words.
  std::vector<std::vector<std::string_view>> one_needed;
  bool nullable = false;                // an empty key ("initial:") means the defaults
};

template <class S>
struct Row {
  KeyInfo info;
  // Reads the present value `f` into `out`; reports what is wrong with it.
  std::function<void(Reader&, const Field&, S&)> read;

  Row&& needed() && {
    info.required = true;
    return std::move(*this);
  }
  // A default the row's kind cannot take from the struct (a custom key's), as JSON.
  Row&& with_default(std::string json) && {
    info.default_json = std::move(json);
    return std::move(*this);
  }
  // The struct's default is not what an absent key means (a shape derives it, say).
  Row&& no_default() && {
    info.default_json.clear();
    return std::move(*this);
  }
};

template <class S>
struct Table {
  TableInfo describe;  // keys filled from the rows by make_table
  std::vector<Row<S>> rows;

  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    out.reserve(rows.size());
    for (const auto& r : rows) out.emplace_back(r.info.key);
    return out;
  }
  const Row<S>* row(std::string_view key) const {
    for (const auto& r : rows)
      if (r.info.key == key) return &r;
    return nullptr;
  }
};

template <class S>
Table<S> make_table(std::string_view doc, std::vector<Row<S>> rows,
                    std::vector<Exclusive> exclusive = {}, bool nullable = false) {
  Table<S> t;
  t.describe.doc = doc;
  t.describe.exclusive = std::move(exclusive);
  t.describe.nullable = nullable;
  t.rows = std::move(rows);
  for (const auto& r : t.rows) t.describe.keys.push_back(r.info);
  return t;
}

template <class S>
Mapping read_table(Reader& r, const Field& f, const Table<S>& table, S& out,
                   const std::vector<std::string>& extra = {});
// The rows of `table` from `m`, a mapping (`self`) opened with (at least) the table's keys.
template <class S>
void read_rows(Reader& r, Mapping& m, const Field& self, const Table<S>& table, S& out);

inline KeyInfo key_info(std::string_view key, ValueKind kind, std::string_view doc, std::string_view unit = "",
                        Sign sign = Sign::any, int size = 0) {
  KeyInfo info;
  info.key = key;
  info.kind = kind;
  info.doc = doc;
  info.unit = unit;
  info.sign = sign;
  info.size = size;
  return info;
}

// A default as JSON text; "" for one JSON cannot hold (infinity: "never").
std::string default_text(double x);
std::string default_text(const Eigen::VectorXd& v);

// Rows of the kinds the generic reader knows.
template <class S>
Row<S> number(std::string_view key, double S::*member, Sign sign, std::string_view unit, std::string_view doc) {
  KeyInfo info = key_info(key, ValueKind::number, doc, unit, sign);
  info.default_json = default_text(S{}.*member);
  return {std::move(info), [member, sign, unit](Reader& r, const Field& f, S& out) {
            if (auto x = r.number(f, sign, unit)) out.*member = *x;
          }};
}

template <class S, int N>
Row<S> vector(std::string_view key, Eigen::Matrix<double, N, 1> S::*member, Sign sign, std::string_view unit,
              std::string_view doc) {
  KeyInfo info = key_info(key, ValueKind::vector, doc, unit, sign, N);
  info.default_json = default_text(Eigen::VectorXd(S{}.*member));
  return {std::move(info), [member, sign, unit](Reader& r, const Field& f, S& out) {
            if (auto v = r.numbers(f, N, sign, unit)) out.*member = *v;
          }};
}

template <class S>
Row<S> text(std::string_view key, std::string S::*member, std::string_view doc) {
  KeyInfo info = key_info(key, ValueKind::string, doc);
  return {std::move(info), [member](Reader& r, const Field& f, S& out) {
            if (auto s = r.string(f)) out.*member = *s;
          }};
}

// One of `options` (word → value), e.g. {{"rk4", IntegratorKind::rk4}, {"dopri5", …}}.
template <class S, class E>
Row<S> choice(std::string_view key, E S::*member, std::vector<std::pair<std::string, E>> options,
              std::string_view doc) {
  KeyInfo info = key_info(key, ValueKind::choice, doc);
  std::vector<E> values;
  for (auto& [word, value] : options) {
    info.options.push_back(word);
    values.push_back(value);
    if (value == S{}.*member) info.default_json = "\"" + word + "\"";
  }
  std::vector<std::string> words = info.options;
  return {std::move(info), [member, words = std::move(words), values](Reader& r, const Field& f, S& out) {
            if (auto k = r.choice(f, words)) out.*member = values[*k];
          }};
}

// A mapping of the keys of `sub`, read by `read` (which calls read_table), or, with no `read`,
// by the section reader (the row documents it).
template <class S, class T>
Row<S> sub_table(std::string_view key, std::string_view doc, const Table<T>& (*sub)(),
             std::function<void(Reader&, const Field&, S&)> read) {
  KeyInfo info = key_info(key, ValueKind::table, doc);
  info.sub = [sub] { return sub().describe; };
  return {std::move(info), std::move(read)};
}

// A mapping read by its own table into the member `member`; an empty value ("key:") means the
// defaults where the table allows it (nullable), else it is reported as no mapping.
template <class S, class T>
Row<S> sub_table(std::string_view key, T S::*member, const Table<T>& (*sub)(), std::string_view doc) {
  return sub_table<S, T>(key, doc, sub, [member, sub](Reader& r, const Field& f, S& out) {
    if (!f.value.IsNull() || !sub().describe.nullable) read_table(r, f, sub(), out.*member);
  });
}

// A row of T's used in S's table, reading into S's member `part` (a struct inside the spec).
template <class S, class T>
Row<S> inside(T S::*part, Row<T> row) {
  std::function<void(Reader&, const Field&, S&)> read;
  if (row.read)
    read = [part, inner = std::move(row.read)](Reader& r, const Field& f, S& out) { inner(r, f, out.*part); };
  return {std::move(row.info), std::move(read)};
}

// A list (or null: none) of mappings of the keys of `item`, read by `read`.
template <class S>
Row<S> list_of(std::string_view key, std::string_view doc, std::function<TableInfo()> item,
               std::function<void(Reader&, const Field&, S&)> read) {
  KeyInfo info = key_info(key, ValueKind::list, doc);
  info.sub = std::move(item);
  return {std::move(info), std::move(read)};
}

// A key read by hand (a name checked against another section, a value whose form decides its
// meaning): `schema` is its value's JSON schema, `read` reads it.
template <class S>
Row<S> custom(std::string_view key, std::string_view doc, std::string_view schema,
              std::function<void(Reader&, const Field&, S&)> read) {
  KeyInfo info = key_info(key, ValueKind::custom, doc);
  info.schema = schema;
  return {std::move(info), std::move(read)};
}

// A key the section reader reads itself (a name checked against another section, a time
// checked against another key): the table lists and documents it, and read_table reports it
// missing when it is needed, but leaves its value to the section reader.
template <class S>
Row<S> by_hand(std::string_view key, std::string_view doc, std::string_view schema) {
  KeyInfo info = key_info(key, ValueKind::custom, doc);
  info.schema = schema;
  return {std::move(info), {}};
}

// Reports each group of `info.exclusive` with more than one key in `m` (the mapping `self`),
// at the group's last key in the file: "<self>: give <what> either as 'a' or as 'b', not
// both". Returns the keys not to read (those of such groups).
std::vector<std::string_view> check_exclusive(Reader& r, const Mapping& m, const Field& self,
                                              const TableInfo& info);

// Opens `f` as a mapping of `table`'s keys (and `extra`, which the caller reads), reports
// missing required keys and keys that exclude each other, and reads every present row into
// `out`. The mapping is returned for the caller's checks across keys; ok() is false if `f`
// was no mapping.
template <class S>
Mapping read_table(Reader& r, const Field& f, const Table<S>& table, S& out,
                   const std::vector<std::string>& extra) {
  std::vector<std::string> known = table.keys();
  known.insert(known.end(), extra.begin(), extra.end());
  Mapping m(r, f, known);
  if (!m.ok()) return m;
  read_rows(r, m, f, table, out);
  return m;
}

template <class S>
void read_rows(Reader& r, Mapping& m, const Field& self, const Table<S>& table, S& out) {
  const std::vector<std::string_view> skipped = check_exclusive(r, m, self, table.describe);
  for (const Row<S>& row : table.rows) {
    if (std::find(skipped.begin(), skipped.end(), row.info.key) != skipped.end()) continue;
    const Field value = row.info.required ? m.require(row.info.key) : m.get(row.info.key);
    if (value.present() && row.read) row.read(r, value, out);
  }
}

}  // namespace uwsim::scenario
