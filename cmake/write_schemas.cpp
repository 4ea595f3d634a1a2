// uwsim_schema SCHEMA_DIR [--check]: writes the sections of schemas/*.schema.json that the
// format's tables describe (scenario/schema_tables.h) into the files in SCHEMA_DIR, leaving
// the rest of each file as it is. With --check, writes nothing and exits 1 if a file differs
// from what it would write (the ctest `schema_is_generated_from_tables`).
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "scenario/schema_tables.h"

using json = nlohmann::ordered_json;

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && std::string(argv[2]) != "--check")) {
    std::cerr << "usage: uwsim_schema SCHEMA_DIR [--check]\n";
    return 2;
  }
  const std::string dir = argv[1];
  const bool check = argc == 3;
  std::map<std::string, json> documents;
  std::map<std::string, std::string> texts;
  for (const auto& section : uwsim::scenario::generated_schema_sections()) {
    if (!documents.count(section.file)) {
      std::ifstream in(dir + "/" + section.file);
      std::stringstream text;
      text << in.rdbuf();
      if (!in) {
        std::cerr << "uwsim_schema: cannot read " << dir << "/" << section.file << "\n";
        return 2;
      }
      texts[section.file] = text.str();
      documents[section.file] = json::parse(texts[section.file]);
    }
    const json::json_pointer pointer(section.pointer);
    if (!documents[section.file].contains(pointer.parent_pointer())) {
      std::cerr << "uwsim_schema: " << section.file << " has no " << pointer.parent_pointer().to_string() << "\n";
      return 2;
    }
    documents[section.file][pointer] = json::parse(section.json);
  }
  int differing = 0;
  for (const auto& [file, document] : documents) {
    const std::string text = document.dump(2) + "\n";
    if (text == texts[file]) continue;
    ++differing;
    if (check) {
      std::cerr << dir << "/" << file << " is not what the tables say: run build/uwsim_schema schemas/\n";
    } else {
      std::ofstream(dir + "/" + file) << text;
      std::cout << "wrote " << dir << "/" << file << "\n";
    }
  }
  return check && differing > 0 ? 1 : 0;
}
