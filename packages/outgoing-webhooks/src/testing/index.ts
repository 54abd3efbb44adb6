// The alert webhooks' test kit: a real HTTP receiver on loopback and the delivery worker in its
// real shell. `@vt/outgoing-webhooks/testing`.
export * from './delivery-worker.ts';
export * from './receiver.ts';
