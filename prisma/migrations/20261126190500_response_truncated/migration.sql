-- A partial answer (issue 32): the platform's reason it stopped before the end of its answer
-- (OpenAI's max_output_tokens, Perplexity's length, Anthropic's max_tokens or pause_turn, Gemini's
-- MAX_TOKENS…), as its SDK reported it; null for a whole answer, and for every answer stored before
-- this (they were not told apart) or imported. A nullable column without a default: adding it
-- rewrites nothing.
ALTER TABLE "responses" ADD COLUMN "truncated" TEXT;
