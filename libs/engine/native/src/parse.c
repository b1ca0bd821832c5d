/*
 * The engine's tokeniser walk in C, for the grammars built here (JavaScript, TypeScript, TSX, C, Java, Python).
 *
 * The same grammar sources and the same tree-sitter runtime as the WASM files the engine otherwise loads
 * (tree-sitter-wasms's grammars, web-tree-sitter 0.25.10), so the trees are the same; the walk below is
 * tokenize/treesitter.ts's, node for node, and hands back what it would have read through the cursor. A test
 * compares the two token streams over real code.
 *
 *   tokenize(language, text, categories) -> Int32Array | null
 *     language:   0 javascript, 1 typescript, 2 tsx, 3 c, 4 java, 5 python
 *     text:       the file as a JavaScript string, parsed as UTF-16 (offsets in code units, as web-tree-sitter's)
 *     categories: Uint8Array, the walker's category of each node type id (treesitter.ts: CAT_*)
 *     result:     four integers per node the walk keeps, in text order: category, type id, start, end;
 *                 null when tree-sitter gives no tree
 *   types(language) -> [name, named][]  (the type table treesitter.ts builds its categories from)
 *
 * Each thread that loads the addon gets its own parsers and buffers (instance data).
 */
#include <node_api.h>
#include <stdlib.h>
#include <string.h>

#include "tree_sitter/api.h"

const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_c(void);
const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_python(void);

#define LANGUAGES 6
static const TSLanguage *(*const LANGUAGE[LANGUAGES])(void) = {
    tree_sitter_javascript, tree_sitter_typescript, tree_sitter_tsx, tree_sitter_c, tree_sitter_java, tree_sitter_python,
};

/* treesitter.ts's categories */
#define CAT_COMMENT 1
#define CAT_STRING 2
#define CAT_SKIP 5

typedef struct {
  TSParser *parser[LANGUAGES];
  uint16_t *text;
  size_t text_cap;
  int32_t *out;
  size_t out_cap;
} Thread;

static void thread_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Thread *t = data;
  for (int i = 0; i < LANGUAGES; i++)
    if (t->parser[i]) ts_parser_delete(t->parser[i]);
  free(t->text);
  free(t->out);
  free(t);
}

static napi_value fail(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static int language_arg(napi_env env, napi_value v, int32_t *lang) {
  return napi_get_value_int32(env, v, lang) == napi_ok && *lang >= 0 && *lang < LANGUAGES;
}

static int push(Thread *t, size_t *n, int32_t cat, int32_t id, TSNode node) {
  if (*n + 4 > t->out_cap) {
    size_t cap = t->out_cap ? t->out_cap * 2 : 1 << 16;
    int32_t *out = realloc(t->out, cap * sizeof *out);
    if (!out) return 0;
    t->out = out;
    t->out_cap = cap;
  }
  t->out[(*n)++] = cat;
  t->out[(*n)++] = id;
  t->out[(*n)++] = (int32_t)(ts_node_start_byte(node) >> 1);
  t->out[(*n)++] = (int32_t)(ts_node_end_byte(node) >> 1);
  return 1;
}

static napi_value tokenize(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  Thread *t;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) return fail(env, "tokenize(language, text, categories)");
  if (napi_get_instance_data(env, (void **)&t) != napi_ok || !t) return fail(env, "the addon was not initialised");
  int32_t lang;
  if (!language_arg(env, argv[0], &lang)) return fail(env, "language: 0 to 5");
  size_t len;
  if (napi_get_value_string_utf16(env, argv[1], NULL, 0, &len) != napi_ok) return fail(env, "text: a string");
  if (len > UINT32_MAX / 2 - 1) return fail(env, "text: too long");
  if (len + 1 > t->text_cap) {
    uint16_t *text = malloc((len + 1) * sizeof *text);
    if (!text) return fail(env, "text: out of memory");
    free(t->text);
    t->text = text;
    t->text_cap = len + 1;
  }
  napi_get_value_string_utf16(env, argv[1], (char16_t *)t->text, len + 1, &len);
  napi_typedarray_type type;
  size_t cat_len;
  void *cat_data;
  if (napi_get_typedarray_info(env, argv[2], &type, &cat_len, &cat_data, NULL, NULL) != napi_ok || type != napi_uint8_array)
    return fail(env, "categories: a Uint8Array");
  const uint8_t *cat = cat_data;

  if (!t->parser[lang]) {
    t->parser[lang] = ts_parser_new();
    ts_parser_set_language(t->parser[lang], LANGUAGE[lang]());
  }
  napi_value result;
  TSTree *tree = ts_parser_parse_string_encoding(t->parser[lang], NULL, (const char *)t->text, (uint32_t)(len * 2), TSInputEncodingUTF16LE);
  if (!tree) {
    napi_get_null(env, &result);
    return result;
  }
  /* treesitter.ts's walk: comments and strings are kept whole; other nodes are descended into, and a leaf is kept
     unless its category skips it or tree-sitter inserted it (MISSING). */
  size_t n = 0;
  int ok = 1;
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&c);
    TSSymbol id = ts_node_symbol(node);
    uint8_t k = id < cat_len ? cat[id] : 0;
    if (k == CAT_COMMENT || k == CAT_STRING) {
      ok = push(t, &n, k, id, node);
    } else if (ts_tree_cursor_goto_first_child(&c)) {
      continue;
    } else if (k != CAT_SKIP && !ts_node_is_missing(node)) {
      ok = push(t, &n, k, id, node);
    }
    if (!ok) break;
    int moved = ts_tree_cursor_goto_next_sibling(&c);
    while (!moved && ts_tree_cursor_goto_parent(&c)) moved = ts_tree_cursor_goto_next_sibling(&c);
    if (!moved) break;
  }
  ts_tree_cursor_delete(&c);
  ts_tree_delete(tree);
  if (!ok) return fail(env, "out of memory");
  void *data;
  napi_value buffer;
  if (napi_create_arraybuffer(env, n * sizeof(int32_t), &data, &buffer) != napi_ok) return NULL;
  if (n) memcpy(data, t->out, n * sizeof(int32_t));
  napi_create_typedarray(env, napi_int32_array, n, buffer, 0, &result);
  return result;
}

static napi_value types(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t lang;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || !language_arg(env, argv[0], &lang))
    return fail(env, "types(language): 0 to 5");
  const TSLanguage *l = LANGUAGE[lang]();
  uint32_t count = ts_language_symbol_count(l);
  napi_value list;
  napi_create_array_with_length(env, count, &list);
  for (uint32_t i = 0; i < count; i++) {
    napi_value pair, name, named;
    napi_create_array_with_length(env, 2, &pair);
    napi_create_string_utf8(env, ts_language_symbol_name(l, (TSSymbol)i), NAPI_AUTO_LENGTH, &name);
    napi_get_boolean(env, ts_language_symbol_type(l, (TSSymbol)i) == TSSymbolTypeRegular, &named);
    napi_set_element(env, pair, 0, name);
    napi_set_element(env, pair, 1, named);
    napi_set_element(env, list, i, pair);
  }
  return list;
}

NAPI_MODULE_INIT() {
  Thread *t = calloc(1, sizeof *t);
  if (!t || napi_set_instance_data(env, t, thread_free, NULL) != napi_ok) {
    free(t);
    napi_throw_error(env, NULL, "lineage_parse: out of memory");
    return NULL;
  }
  napi_value fn;
  napi_create_function(env, "tokenize", NAPI_AUTO_LENGTH, tokenize, NULL, &fn);
  napi_set_named_property(env, exports, "tokenize", fn);
  napi_create_function(env, "types", NAPI_AUTO_LENGTH, types, NULL, &fn);
  napi_set_named_property(env, exports, "types", fn);
  return exports;
}
