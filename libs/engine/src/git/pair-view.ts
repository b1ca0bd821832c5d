import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runGit, type GitRunOptions } from './runner';

/**
 * A scratch bare repository that sees the objects of both repositories of a
 * pair through `objects/info/alternates`, so git itself can answer questions
 * that need both histories at once (`merge-base`, `rev-list A...B`) without
 * copying an object or materialising either history. Neither repository is
 * written to. Shallow boundaries of both sides are honoured (their `shallow`
 * files are merged), and each side's commit-graph is used where it exists.
 */
export class PairView {
  private constructor(readonly gitDir: string) {}

  static open(originGitDir: string, targetGitDir: string): PairView {
    const dir = mkdtempSync(join(tmpdir(), 'lineage-pair-'));
    try {
      mkdirSync(join(dir, 'objects', 'info'), { recursive: true });
      mkdirSync(join(dir, 'refs', 'heads'), { recursive: true });
      writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(dir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
      const sides = [...new Set([resolve(originGitDir), resolve(targetGitDir)])];
      writeFileSync(join(dir, 'objects', 'info', 'alternates'), sides.map((g) => join(g, 'objects')).join('\n') + '\n');
      const shallow = new Set<string>();
      for (const g of sides) {
        const f = join(g, 'shallow');
        if (existsSync(f)) for (const line of readFileSync(f, 'utf8').split('\n')) if (/^[0-9a-f]{40}$/.test(line)) shallow.add(line);
      }
      if (shallow.size) writeFileSync(join(dir, 'shallow'), [...shallow].sort().join('\n') + '\n');
      return new PairView(dir);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** Whether either side is a shallow clone (answers then stop at its boundary). */
  get shallow(): boolean {
    return existsSync(join(this.gitDir, 'shallow'));
  }

  run(args: readonly string[], opts: Omit<GitRunOptions, 'gitDir'> = {}): Promise<Buffer> {
    return runGit(args, { ...opts, gitDir: this.gitDir });
  }

  close(): void {
    rmSync(this.gitDir, { recursive: true, force: true });
  }
}
