export { type JudgeInput, judgeAnswer, type Verdict } from './judge.ts';
