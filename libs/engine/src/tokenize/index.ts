import { tokenizeGeneric } from './generic';
import { tokenizeTreeSitter } from './treesitter';
import type { TokenStream } from './types';

export type { TokenStream } from './types';
export { GRAMMARS, grammarLoads } from './treesitter';

/**
 * Tokenise a file: its language's tree-sitter grammar when there is one, else the generic lexer. `kindsOnly`: the
 * grammar's walk leaves out the texts of identifiers, strings and comments (the kinds and lines are the same).
 */
export async function tokenize(language: string | null, text: string, kindsOnly = false): Promise<TokenStream> {
  if (language) {
    const ts = await tokenizeTreeSitter(language, text, kindsOnly);
    if (ts) return ts;
  }
  return tokenizeGeneric(text);
}
