import { tokenizeGeneric } from './generic';
import { tokenizeTreeSitter } from './treesitter';
import type { TokenStream } from './types';

export type { TokenStream } from './types';
export { GRAMMARS, grammarLoads } from './treesitter';

/** Tokenise a file: its language's tree-sitter grammar when there is one, else the generic lexer. */
export async function tokenize(language: string | null, text: string): Promise<TokenStream> {
  if (language) {
    const ts = await tokenizeTreeSitter(language, text);
    if (ts) return ts;
  }
  return tokenizeGeneric(text);
}
