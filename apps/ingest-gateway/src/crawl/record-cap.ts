/**
 * One record (an NDJSON line, an element of a JSON array) longer than this, in UTF-8 bytes, is not
 * a request event: it is counted unreadable and never held whole.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** Stands for a record that was dropped while read (too long): it never parses. */
export const UNREADABLE_RECORD = '\u0000';
