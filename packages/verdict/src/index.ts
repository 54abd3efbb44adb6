export { EXCERPT_MAX } from './excerpt.ts';
export { type JudgeInput, judgeAnswer, type Verdict } from './judge.ts';
export { findMentions, type Mention, type TermSet } from './mentions.ts';
export { normalizeSourceUrl, sourceDomain } from './source-urls.ts';
