{
  "targets": [
    {
      "target_name": "lineage_parse",
      "sources": [
        "src/parse.c",
        "vendor/tree-sitter/lib/src/lib.c",
        "grammars/javascript/src/parser.c",
        "grammars/javascript/src/scanner.c",
        "grammars/typescript/typescript/src/parser.c",
        "grammars/typescript/typescript/src/scanner.c",
        "grammars/typescript/tsx/src/parser.c",
        "grammars/typescript/tsx/src/scanner.c",
        "grammars/c/src/parser.c",
        "grammars/java/src/parser.c",
        "grammars/python/src/parser.c",
        "grammars/python/src/scanner.c"
      ],
      "include_dirs": [
        "vendor/tree-sitter/lib/include",
        "vendor/tree-sitter/lib/src",
        # common/scanner.h includes tree_sitter/parser.h, which sits beside the TypeScript parser
        "grammars/typescript/typescript/src"
      ],
      "defines": ["NAPI_VERSION=8", "NDEBUG", "_POSIX_C_SOURCE=200112L", "_DEFAULT_SOURCE"],
      "cflags_c": ["-std=c11", "-O2", "-w"]
    }
  ]
}
