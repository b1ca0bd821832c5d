export interface TokenStream {
  /** hashed normalised token kinds */
  kinds: number[];
  /** 0-based line of each token */
  lines: number[];
  /** 0-based last line of each token (multi-line strings) */
  endLines: number[];
  identifiers: { text: string; line: number }[];
  strings: { text: string; line: number }[];
  comments: { text: string; line: number }[];
}

export function emptyStream(): TokenStream {
  return { kinds: [], lines: [], endLines: [], identifiers: [], strings: [], comments: [] };
}
