export { type ImportResult, importAnswers } from './import-answers.ts';
export { type JudgingTerms, judgingTermsFrom, judgingTermsOf } from './judging-terms.ts';
export { type JudgedAnswer, storeJudgedAnswers } from './store-answers.ts';
