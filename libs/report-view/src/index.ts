// The public surface of @lineage/report-view: the case report's view, shared by the gateway's pages and the CLI's
// offline HTML report (one renderer, one look).
export { Html, escapeHtml, html, query, raw, safeHref, type Interpolation } from './html';
export {
  CHRONOLOGY_WORDS,
  CONFIDENCE_WORDS,
  DIRECTION_WORDS,
  EVIDENCE_WORDS,
  LAYER_WORDS,
  SIGNALS,
  STAGE_WORDS,
  VERDICT_WORDS,
  day,
  isoTime,
  plural,
  repositoryName,
  shortCommit,
  visible,
  wordsFor,
} from './wording';
export {
  GEOMETRY,
  renderTimeline,
  scale,
  timelineFrom,
  type Laid,
  type TimelineData,
  type TimelinePoint,
  type TimelineSource,
} from './timeline';
export {
  evidenceAnchor,
  evidenceItem,
  sideBySide,
  signalGroupsOf,
  signalList,
  timelineSection,
  type FragmentOutcome,
  type SideBySide,
  type ViewEvidenceItem,
  type ViewFragment,
  type ViewLocation,
} from './evidence';
export { PAGES_CSS } from './styles';
