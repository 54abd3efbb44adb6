// The alert tests' seeds (`@vt/alerts/testing`): a team, rules, and the rows each condition reads.
export * from './seed.ts';
