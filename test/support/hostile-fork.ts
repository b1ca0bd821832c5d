// A fork whose shared history holds a file named `<img src=x onerror=alert(1)>.js` with a `</script><script>` body:
// what the pages (test/e2e/pages.test.ts) and the CLI's HTML report (test/e2e/html-report.test.ts) must show as text.
import { join } from 'node:path';
import { buildRepo, type CommitSpec } from '../fixtures/git-builder';
import { genModule, render } from '../fixtures/codegen';

export const HOSTILE = '<img src=x onerror=alert(1)>.js';
export const SCRIPT_BODY = '</script><script>alert(2)</script>';
const DAY = 86_400;
const T0 = 1_600_000_000;

/** Three shared commits (the hostile file among them), then one commit on each side; the target declares it. */
export function buildHostileFork(dir: string): { origin: string; target: string } {
  const code = [
    `// ${SCRIPT_BODY}`,
    render(genModule(4242, 30), 'javascript'),
    `const banner = "${SCRIPT_BODY}<img src=x onerror=alert(3)>";`,
    'module.exports.banner = banner;',
    '',
  ].join('\n');
  const pkg = (name: string) => JSON.stringify({ name, version: '1.0.0', main: HOSTILE }, null, 2) + '\n';
  const shared: CommitSpec[] = [
    { time: T0, message: 'start', files: { 'README.md': '# hostile-core\n\nA library.\n', 'package.json': pkg('hostile-core') } },
    { time: T0 + 10 * DAY, message: `add ${HOSTILE}`, files: { [HOSTILE]: code } },
    { time: T0 + 20 * DAY, message: 'docs', files: { 'docs/notes.md': '# Notes\n\nHow it works.\n' } },
  ];
  const origin = join(dir, 'hostile', 'origin.git');
  const target = join(dir, 'hostile', 'target.git');
  buildRepo(origin, {
    commits: [...shared, { time: T0 + 35 * DAY, message: 'core: more docs', files: { 'docs/more.md': '# More\n\nMore notes.\n' } }],
  });
  buildRepo(target, {
    commits: [
      ...shared,
      {
        time: T0 + 25 * DAY,
        message: 'fork: rename',
        files: { 'README.md': '# hostile-plus\n\nForked from hostile-core, with extras.\n', 'package.json': pkg('hostile-plus') },
      },
      { time: T0 + 30 * DAY, message: 'fork: extras', files: { 'docs/extras.md': '# Extras\n\nSome extras.\n' } },
    ],
  });
  return { origin, target };
}
