// The lineage timeline as server-rendered SVG: both histories on a common time axis, the part they share,
// the fork point, each side's commits after it, and where matched material first appears. Everything is read
// from the case report's chronology (the facts the engine recorded in the manifest); nothing is guessed.
import { html, type Html } from './html';
import { day, shortCommit } from './wording';

type Side = 'origin' | 'target';

/** What the timeline reads: the chronology facts (`at`: Unix seconds as a decimal string) and the pinned pair. */
export interface TimelineSource {
  chronology: readonly { kind: string; side: string; commit: string | null; at: string | null; description: string }[];
  pair: Record<Side, { commit: string; committedAt?: string | null; url?: string | null }>;
}

export interface TimelinePoint {
  commit: string | null;
  at: number | null;
}

export interface TimelineData {
  sides: Record<Side, { pinned: TimelinePoint | null; oldest: TimelinePoint | null; walked: number | null }>;
  fork: (TimelinePoint & { after: Record<Side, number | null> }) | null;
  sharedCommits: number | null;
  /** Matched fingerprints dated in both histories: how often each side has them first. */
  material: Record<Side, number> | null;
  declaredBy: Side | null;
}

const num = (s: string | null | undefined): number | null => (s !== null && s !== undefined && /^[0-9]{1,16}$/.test(s) ? Number(s) : null);

/** What the timeline needs, from the engine's chronology facts (their wording is the engine's, see libs/engine). */
export function timelineFrom(report: TimelineSource): TimelineData {
  const find = (kind: string, side?: string) => report.chronology.find((c) => c.kind === kind && (side === undefined || c.side === side));
  const point = (c: { commit: string | null; at: string | null } | undefined): TimelinePoint | null =>
    c ? { commit: c.commit, at: num(c.at) } : null;
  const side = (s: Side) => {
    const pinned = find('PINNED_COMMIT', s);
    const walked = pinned ? /^(\d+) commits? walked/.exec(pinned.description) : null;
    return {
      pinned: point(pinned) ?? { commit: report.pair[s].commit, at: num(report.pair[s].committedAt) },
      oldest: point(find('OLDEST_COMMIT_WALKED', s)),
      walked: walked ? Number(walked[1]) : null,
    };
  };
  const forkFact = find('FORK_POINT');
  let fork: TimelineData['fork'] = null;
  if (forkFact) {
    const m = /origin made (\d+) commits? after it, target (\d+)/.exec(forkFact.description);
    fork = { commit: forkFact.commit, at: num(forkFact.at), after: { origin: m ? Number(m[1]) : null, target: m ? Number(m[2]) : null } };
  }
  const shared = find('SHARED_COMMITS');
  const sharedCount = shared ? /^(\d+) commits? in both/.exec(shared.description) : null;
  const material = find('MATERIAL_FIRST_APPEARANCE');
  const mm = material ? /earlier in origin: (\d+); earlier in target: (\d+)/.exec(material.description) : null;
  const declared = report.chronology.find((c) => c.kind === 'DECLARED_UPSTREAM' && c.side !== 'both');
  return {
    sides: { origin: side('origin'), target: side('target') },
    fork,
    sharedCommits: sharedCount ? Number(sharedCount[1]) : null,
    material: mm ? { origin: Number(mm[1]), target: Number(mm[2]) } : null,
    declaredBy: declared ? (declared.side as Side) : null,
  };
}

export const GEOMETRY = {
  width: 960,
  height: 250,
  left: 120,
  right: 240,
  lane: { origin: 62, shared: 112, target: 162 },
  axis: 215,
  /** At most this many dots for the commits after the fork point; more are summarised by the label. */
  maxDots: 40,
};

export interface Laid {
  x: (t: number) => number;
  t0: number;
  t1: number;
}

/** The time scale: every known date on the axis; one point in time is widened to a day either side. */
export function scale(data: TimelineData): Laid {
  const times = [
    data.fork?.at,
    ...(['origin', 'target'] as const).flatMap((s) => [data.sides[s].pinned?.at, data.sides[s].oldest?.at]),
  ].filter((t): t is number => typeof t === 'number');
  let t0 = times.length ? Math.min(...times) : 0;
  let t1 = times.length ? Math.max(...times) : 1;
  if (t1 - t0 < 1) {
    t0 -= 86_400;
    t1 += 86_400;
  }
  const w = GEOMETRY.width - GEOMETRY.left - GEOMETRY.right;
  return { t0, t1, x: (t: number) => round(GEOMETRY.left + ((t - t0) / (t1 - t0)) * w) };
}

const round = (n: number) => Math.round(n * 10) / 10;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The SVG (an `img` with a title and a description that says the same in words), then the same in a paragraph,
 * and links to the evidence of the fork point and of the material's first appearance (outside the image: an
 * `img` holds nothing interactive).
 */
export function renderTimeline(data: TimelineData, anchors: { fork?: string; material?: string } = {}): Html {
  const G = GEOMETRY;
  const { x, t0, t1 } = scale(data);
  const parts: Html[] = [];
  const words: string[] = [];
  const sideName = (s: Side) => (s === 'origin' ? 'Origin' : 'Target');
  const fork = data.fork && data.fork.at !== null ? data.fork : null;
  const xFork = fork ? x(fork.at!) : null;

  // Lane labels.
  for (const s of ['origin', 'target'] as const)
    parts.push(html`<text class="lane-label" x="8" y="${G.lane[s] + 4}">${sideName(s)}</text>`);
  if (fork) parts.push(html`<text class="lane-label lane-shared" x="8" y="${G.lane.shared + 4}">Shared</text>`);

  if (fork && xFork !== null) {
    const oldest = Math.min(fork.at!, ...(['origin', 'target'] as const).map((s) => data.sides[s].oldest?.at ?? fork.at!));
    const xStart = x(oldest);
    parts.push(
      html`<line class="shared-line" id="timeline-shared" x1="${xStart}" y1="${G.lane.shared}" x2="${xFork}" y2="${G.lane.shared}"><title>${
        data.sharedCommits !== null ? `${plural(data.sharedCommits, 'commit')} in both histories` : 'history both repositories share'
      }</title></line>`,
    );
    words.push(
      `The histories share ${data.sharedCommits !== null ? plural(data.sharedCommits, 'commit') : 'commits'} up to the fork point ${shortCommit(fork.commit)} (${day(fork.at)}).`,
    );
  }

  for (const s of ['origin', 'target'] as const) {
    const side = data.sides[s];
    const y = G.lane[s];
    const pinnedAt = side.pinned?.at ?? null;
    const xEnd = pinnedAt !== null ? x(pinnedAt) : GEOMETRY.width - G.right;
    if (fork && xFork !== null) {
      const xe = Math.max(xEnd, xFork + 12);
      const mid = round(xFork + Math.min(24, (xe - xFork) / 2));
      parts.push(
        html`<path class="branch branch-${s}" d="M ${xFork} ${G.lane.shared} C ${mid} ${G.lane.shared}, ${xFork} ${y}, ${mid} ${y} L ${xe} ${y}"/>`,
      );
      const after = fork.after[s];
      if (after !== null && after > 0) {
        const dots = Math.min(after, G.maxDots);
        const from = mid;
        const step = (xe - from) / (dots + 1);
        for (let i = 1; i <= dots; i++)
          parts.push(html`<circle class="commit commit-${s}" cx="${round(from + step * i)}" cy="${y}" r="3"/>`);
      }
      words.push(
        `After it the ${s} made ${after !== null ? plural(after, 'commit') : 'an unknown number of commits'}, up to its pinned commit ${shortCommit(side.pinned?.commit ?? null)} (${day(pinnedAt)}).`,
      );
      parts.push(
        html`<text class="after-label" x="${xe + 10}" y="${y + 18}">${after !== null ? `${plural(after, 'commit')} after the fork` : ''}</text>`,
      );
    } else {
      const xs = side.oldest?.at !== null && side.oldest?.at !== undefined ? x(side.oldest.at) : G.left;
      parts.push(html`<line class="branch branch-${s}" x1="${xs}" y1="${y}" x2="${Math.max(xEnd, xs + 2)}" y2="${y}"/>`);
      if (side.oldest?.at !== null && side.oldest?.at !== undefined) {
        parts.push(
          html`<circle class="oldest" cx="${xs}" cy="${y}" r="4"><title>${`oldest commit walked ${shortCommit(side.oldest.commit)}, ${day(side.oldest.at)}`}</title></circle>`,
        );
      }
      words.push(
        `The ${s}'s history runs from ${day(side.oldest?.at ?? null)} to its pinned commit ${shortCommit(side.pinned?.commit ?? null)} (${day(pinnedAt)})${side.walked !== null ? `, ${plural(side.walked, 'commit')} walked` : ''}.`,
      );
    }
    parts.push(
      html`<circle class="pinned pinned-${s}" id="timeline-pinned-${s}" cx="${xEnd}" cy="${y}" r="7"><title>${`${sideName(s)}'s pinned commit ${shortCommit(side.pinned?.commit ?? null)}, ${day(pinnedAt)}`}</title></circle>`,
    );
    parts.push(
      html`<text class="pinned-label" x="${xEnd + 10}" y="${y + 4}">${`${shortCommit(side.pinned?.commit ?? null)} · ${day(pinnedAt)}`}</text>`,
    );
  }

  if (fork && xFork !== null) {
    const fx = html`<circle class="fork" id="timeline-fork" cx="${xFork}" cy="${G.lane.shared}" r="8"><title>${`Fork point ${shortCommit(fork.commit)}, ${day(fork.at)}: the newest commit both histories hold`}</title></circle>`;
    parts.push(fx);
    parts.push(
      html`<text class="fork-label" x="${xFork - 14}" y="${G.lane.shared - 14}" text-anchor="end">${`fork ${shortCommit(fork.commit)} · ${day(fork.at)}`}</text>`,
    );
  }

  // Where matched material first appears: the side that has it first more often.
  if (data.material && (data.material.origin > 0 || data.material.target > 0)) {
    const m = data.material;
    const first: Side | null = m.origin === m.target ? null : m.origin > m.target ? 'origin' : 'target';
    words.push(
      `Matched material dated in both histories appears earlier in the origin ${m.origin} times and earlier in the target ${m.target} times.`,
    );
    if (first) {
      const y = G.lane[first];
      const xm = fork && xFork !== null ? round(xFork + 30) : G.left + 4;
      const marker = html`<g class="material" id="timeline-material"><rect x="${xm}" y="${y - 22}" width="12" height="12" transform="rotate(45 ${xm + 6} ${y - 16})"/><title>${`matched material appears first in the ${first} (${m[first]} times, ${m.origin === 0 || m.target === 0 ? 'never' : `${m[first === 'origin' ? 'target' : 'origin']} times`} in the other)`}</title></g>`;
      parts.push(marker);
      parts.push(html`<text class="material-label" x="${xm + 18}" y="${y - 12}">${`material first in the ${first}`}</text>`);
    }
  }
  if (data.declaredBy) words.push(`The ${data.declaredBy} declares the other repository as its upstream.`);

  // The axis: first and last dates, and the fork's.
  parts.push(html`<line class="axis" x1="${G.left}" y1="${G.axis}" x2="${G.width - G.right}" y2="${G.axis}"/>`);
  parts.push(html`<text class="axis-label" x="${G.left}" y="${G.axis + 18}" text-anchor="start">${day(t0)}</text>`);
  parts.push(html`<text class="axis-label" x="${G.width - G.right}" y="${G.axis + 18}" text-anchor="end">${day(t1)}</text>`);
  if (fork && xFork !== null) parts.push(html`<line class="axis-tick" x1="${xFork}" y1="${G.axis - 5}" x2="${xFork}" y2="${G.axis + 5}"/>`);

  const description = words.join(' ') || 'The case records no dated history.';
  return html`<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${G.width} ${G.height}" role="img" aria-labelledby="timeline-title timeline-desc" data-t0="${t0}" data-t1="${t1}">
<title id="timeline-title">Lineage timeline of both histories</title>
<desc id="timeline-desc">${description}</desc>
${parts.map((p) => html`${p}\n`)}</svg>
<p class="timeline-words">${description}</p>
${anchors.fork || anchors.material ? html`<p class="timeline-links">Evidence: ${anchors.fork ? html`<a href="${anchors.fork}">the fork point</a>` : ''}${anchors.fork && anchors.material ? ' · ' : ''}${anchors.material ? html`<a href="${anchors.material}">where matched material first appears</a>` : ''}</p>` : ''}`;
}
