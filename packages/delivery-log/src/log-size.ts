/** Attempts kept per property per channel; older ones are pruned as new ones arrive. */
export const DELIVERY_LOG_SIZE = 50;
