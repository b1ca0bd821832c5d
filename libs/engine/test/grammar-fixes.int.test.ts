// A parse must not depend on what the thread parsed before: which file comes after which on a worker depends on
// scheduling, so state a grammar carries from one parse to the next makes fingerprints unrepeatable. The Lua grammar's
// scanner did (tokenize/grammar-fixes.ts). grammar-load.int.test.ts compares every grammar's tokens across fresh
// runtimes that parse in varied orders; these cases pin the Lua fix and the binary patch itself.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fixGrammar, replaceBody } from '../src/tokenize/grammar-fixes';
import { tokenizeTreeSitter } from '../src/tokenize/treesitter';

jest.setTimeout(60_000);

describe('Lua parses that follow other parses', () => {
  it('Lua: `local a, b = c, d` is two names and two values, not an error holding a string, on every parse', async () => {
    for (let i = 0; i < 3; i++) {
      await tokenizeTreeSitter('lua', 'x = "unfinished');
      const ts = await tokenizeTreeSitter('lua', 'local a, b = c, d\nlocal e = "x"\n');
      expect(ts!.strings).toEqual([{ text: 'x', line: 1 }]);
      expect(ts!.kinds).toHaveLength(12);
    }
  });
});

describe('fixGrammar', () => {
  const out = join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
  const lua = readFileSync(join(out, 'tree-sitter-lua.wasm'));

  it("replaces the Lua scanner's deserialize with one that resets on any other length, and nothing else", () => {
    const fixed = fixGrammar('lua', lua);
    expect(WebAssembly.validate(Uint8Array.from(fixed))).toBe(true);
    expect(fixed.length).toBe(lua.length + 15); // the else branch: two stores of zero
    const exports = (m: Uint8Array) => WebAssembly.Module.exports(new WebAssembly.Module(Uint8Array.from(m)));
    const imports = (m: Uint8Array) => WebAssembly.Module.imports(new WebAssembly.Module(Uint8Array.from(m)));
    expect(exports(fixed)).toEqual(exports(lua));
    expect(imports(fixed)).toEqual(imports(lua));
  });

  it('leaves other grammars, and a body other than the one it names, as they are', () => {
    const c = readFileSync(join(out, 'tree-sitter-c.wasm'));
    expect(fixGrammar('c', c)).toBe(c);
    expect(replaceBody(lua, 'tree_sitter_lua_external_scanner_deserialize', Buffer.from('000b', 'hex'), Buffer.from('000b', 'hex'))).toBe(
      lua,
    );
    expect(replaceBody(lua, 'no_such_export', Buffer.from('000b', 'hex'), Buffer.from('000b', 'hex'))).toBe(lua);
    expect(replaceBody(Buffer.from('not wasm'), 'x', Buffer.alloc(0), Buffer.alloc(0)).toString()).toBe('not wasm');
  });
});
