export { type ImportResult, importAnswers } from './import-answers.ts';
export { type JudgingTerms, judgingTermsOf } from './judging-terms.ts';
export { type JudgedAnswer, storeJudgedAnswers } from './store-answers.ts';
