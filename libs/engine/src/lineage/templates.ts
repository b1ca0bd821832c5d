// What a README says its project was generated from: a template or starter kit, cited by its repository next to
// "built with", "bootstrapped with", "generated from", … Two unrelated applications made from one template hold the
// template's files, made in one commit on each side: cookiecutter-django's apps carry the badge "Built with
// Cookiecutter Django" linking github.com/cookiecutter/cookiecutter-django; Create React App writes "This project was
// bootstrapped with [Create React App](https://github.com/facebook/create-react-app)".
import { hostedRepos } from './names';

const GENERATED = /\b(?:built|bootstrapped|generated|scaffolded|created|initiali[sz]ed)\s+(?:with|from|using|by)\b/i;
/** A badge's link may sit on a line of its own before its alt text (reStructuredText's `:target:`, then `:alt:`). */
const LINES_BEFORE = 2;

/** Hosted `owner/repo`s cited on or just before a line that says the project was generated from them, sorted. */
export function templatesCited(docs: readonly { text: string }[]): string[] {
  const out = new Set<string>();
  for (const d of docs) {
    const lines = d.text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!GENERATED.test(lines[i]!)) continue;
      for (const r of hostedRepos(lines.slice(Math.max(0, i - LINES_BEFORE), i + 1).join('\n'))) out.add(r);
    }
  }
  return [...out].sort();
}

/** The first template both sides cite that is neither side's own repository, or null. */
export function commonTemplate(origin: readonly string[], target: readonly string[], own: ReadonlySet<string>): string | null {
  const t = new Set(target);
  return origin.find((r) => t.has(r) && !own.has(r)) ?? null;
}
