/**
 * Fixes to grammar binaries of tree-sitter-wasms, applied to the bytes before they are loaded.
 *
 * tree-sitter calls an external scanner's `deserialize(payload, NULL, 0)` before every scan that no external token
 * precedes (the start of each parse among them), and the scanner must then return to its initial state. The Lua
 * grammar's scanner (tree-sitter-lua 2.1.3) ignores a length other than 2, and `create` leaves its state
 * uninitialised, so each parse began in whatever state the thread's last parse ended: `local a, b = c, d` parsed
 * right only as the first Lua parse of a thread, and later as an error holding a string. Which file came first on
 * which thread depends on scheduling, so Lua fingerprints were neither right nor repeatable. The fix adds the
 * missing branch: any other length resets the state ({ started, depth } = { 0, 0 }).
 *
 * A fix names the exact body it replaces: a grammar built otherwise is loaded as it is (and the tests that parse
 * each language twice say so).
 */
interface BodyFix {
  /** the grammar's file name in tree-sitter-wasms/out, without `tree-sitter-` and `.wasm` */
  grammar: string;
  /** the exported function whose body is replaced */
  exported: string;
  /** its body (locals and code, without the size) as shipped, hex */
  from: string;
  /** the body that replaces it, hex */
  to: string;
}

const FIXES: BodyFix[] = [
  {
    grammar: 'lua',
    exported: 'tree_sitter_lua_external_scanner_deserialize',
    // if (length == 2) { state->started = buffer[0]; state->depth = buffer[1]; }
    from: '00' + '200241024604' + '40' + '200020012c0000360200' + '200020012c0001360204' + '0b' + '0b',
    // the same, then: else { state->started = 0; state->depth = 0; }
    to:
      '00' +
      '200241024604' +
      '40' +
      '200020012c0000360200' +
      '200020012c0001360204' +
      '05' +
      '20004100360200' +
      '20004100360204' +
      '0b' +
      '0b',
  },
];

/** The grammar's bytes with its fixes applied (the same bytes when none applies). */
export function fixGrammar(grammar: string, wasm: Uint8Array): Uint8Array {
  let out = wasm;
  for (const f of FIXES)
    if (f.grammar === grammar) out = replaceBody(out, f.exported, Buffer.from(f.from, 'hex'), Buffer.from(f.to, 'hex'));
  return out;
}

/** Replaces an exported function's body when it is exactly `from`; any other module is returned unchanged. */
export function replaceBody(wasm: Uint8Array, exported: string, from: Uint8Array, to: Uint8Array): Uint8Array {
  const b = Buffer.from(wasm.buffer, wasm.byteOffset, wasm.byteLength);
  if (b.length < 8 || b.readUInt32LE(0) !== 0x6d736100 || b.readUInt32LE(4) !== 1) return wasm;
  let p = 8;
  const leb = (): number => {
    let r = 0;
    let shift = 0;
    for (;;) {
      const x = b[p++]!;
      r += (x & 0x7f) * 2 ** shift;
      if (!(x & 0x80)) return r;
      shift += 7;
    }
  };
  const skipName = (): void => {
    const len = leb(); // read before p is: `p += leb()` would add to the old p
    p += len;
  };
  const skipLimits = (): void => {
    const flags = b[p++]!;
    leb();
    if (flags & 1) leb();
  };
  let importedFunctions = 0;
  let index = -1;
  // Reads past the end give undefined, which ends every loop: a truncated module comes back unchanged.
  while (p < b.length) {
    const header = p;
    const id = b[p++]!;
    const size = leb();
    const start = p;
    const end = start + size;
    if (id === 2) {
      for (let n = leb(); n > 0; n--) {
        skipName();
        skipName();
        const kind = b[p++]!;
        if (kind === 0) {
          leb();
          importedFunctions++;
        } else if (kind === 1) {
          p++; // reference type
          skipLimits();
        } else if (kind === 2) skipLimits();
        else if (kind === 3)
          p += 2; // value type, mutability
        else return wasm;
      }
    } else if (id === 7) {
      for (let n = leb(); n > 0; n--) {
        const len = leb();
        const name = b.toString('utf8', p, p + len);
        p += len;
        const kind = b[p++]!;
        const i = leb();
        if (kind === 0 && name === exported) index = i;
      }
    } else if (id === 10 && index >= importedFunctions) {
      const at = index - importedFunctions;
      const count = leb();
      for (let i = 0; i < count; i++) {
        const bodyStart = p;
        const bodySize = leb();
        const codeStart = p;
        p += bodySize;
        if (i !== at) continue;
        if (!b.subarray(codeStart, p).equals(from)) return wasm;
        const section = Buffer.concat([b.subarray(start, bodyStart), uleb(to.length), to, b.subarray(p, end)]);
        return Buffer.concat([b.subarray(0, header), Buffer.from([10]), uleb(section.length), section, b.subarray(end)]);
      }
      return wasm;
    }
    p = end;
  }
  return wasm;
}

/** The bytes of an unsigned LEB128 number. */
function uleb(n: number): Buffer {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
}
