// Test helpers: parse a snippet with the pinned grammars (the tree lives as long as the helper).
#pragma once

#include <tree_sitter/api.h>

#include <string>

extern "C" const TSLanguage* tree_sitter_python(void);
extern "C" const TSLanguage* tree_sitter_cpp(void);

struct Parsed {
  std::string source;
  TSParser* parser = nullptr;
  TSTree* tree = nullptr;
  Parsed(std::string src, const TSLanguage* lang) : source(std::move(src)) {
    parser = ts_parser_new();
    ts_parser_set_language(parser, lang);
    tree = ts_parser_parse_string(parser, nullptr, source.data(), static_cast<uint32_t>(source.size()));
  }
  ~Parsed() {
    ts_tree_delete(tree);
    ts_parser_delete(parser);
  }
  Parsed(const Parsed&) = delete;
  Parsed& operator=(const Parsed&) = delete;
  TSNode root() const { return ts_tree_root_node(tree); }
};
