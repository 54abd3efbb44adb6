export { type NamedSpan, namedSpans } from './highlights.ts';
export { type JudgeInput, judgeAnswer, type Verdict } from './judge.ts';
