-- The read model of /v1/responses (issue 31): each answer keeps the part of its list row that only
-- changes with the answer itself, rendered once as JSON text beside it, so a page is assembled by
-- Postgres from stored fragments instead of being read column by column, parsed and re-serialised.
-- The prompt text and the property name change on their own; they are joined at read time.

-- A float8 written as JavaScript's JSON.stringify writes it, so a fragment is byte for byte what the
-- API wrote before. Postgres and V8 both print the shortest digits that read back as the same number
-- (extra_float_digits >= 1, pinned here whatever the session says); they differ only in where they
-- switch to exponents (Postgres below 1e-4 and from 1e15, JavaScript below 1e-6 and from 1e21), in
-- padding the exponent ("1e-07" against "1e-7") and in -0. NaN and infinities have no JSON: null.
CREATE FUNCTION "json_number_as_js"(value float8) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET extra_float_digits = 1
AS $$
DECLARE
  printed text := abs(value)::text;
  digits text;
  -- JavaScript's n (ECMA-262 Number::toString): the value is 0.digits × 10^n.
  n int;
  k int;
  e int;
  shorter text;
  shorter_n int;
BEGIN
  IF value = 'NaN'::float8 OR value = 'Infinity'::float8 OR value = '-Infinity'::float8 THEN
    RETURN 'null';
  END IF;
  IF value = 0 THEN
    RETURN '0';
  END IF;
  IF position('e' in printed) > 0 THEN
    digits := replace(split_part(printed, 'e', 1), '.', '');
    n := split_part(printed, 'e', 2)::int + 1;
  ELSIF position('.' in printed) > 0 THEN
    digits := replace(printed, '.', '');
    n := position('.' in printed) - 1;
  ELSE
    digits := printed;
    n := length(printed);
  END IF;
  -- Leading zeros ("0.00012") move the point; trailing ones ("1000") are not digits of the value.
  n := n - (length(digits) - length(ltrim(digits, '0')));
  digits := rtrim(ltrim(digits, '0'), '0');
  k := length(digits);
  -- Postgres's printer (Ryu) and V8's break some ties at 17 digits apart (3.5804442981149472e+16,
  -- where V8 writes 35804442981149470): when 16 digits read back as the same double, they are the
  -- shortest, and JavaScript writes those.
  IF k = 17 THEN
    shorter := rtrim(((left(digits, 16)::bigint + CASE WHEN substr(digits, 17, 1) >= '5' THEN 1 ELSE 0 END))::text, '0');
    IF length(rtrim(left(digits, 16), '9')) = 0 AND substr(digits, 17, 1) >= '5' THEN
      shorter_n := n + 1; -- 9999999999999999|5 rounds up to 1 and moves the point
    ELSE
      shorter_n := n;
    END IF;
    -- (Rounded up past the largest double, it reads back as no double at all.)
    IF ('0.' || shorter || 'e' || shorter_n)::numeric <= '1.7976931348623157e308'::numeric
      AND ('0.' || shorter || 'e' || shorter_n)::float8 = abs(value) THEN
      digits := shorter;
      n := shorter_n;
      k := length(digits);
    END IF;
  END IF;
  IF k <= n AND n <= 21 THEN
    printed := digits || repeat('0', n - k);
  ELSIF 0 < n AND n <= 21 THEN
    printed := left(digits, n) || '.' || substr(digits, n + 1);
  ELSIF -6 < n AND n <= 0 THEN
    printed := '0.' || repeat('0', -n) || digits;
  ELSE
    e := n - 1;
    printed := left(digits, 1) || CASE WHEN k > 1 THEN '.' || substr(digits, 2) ELSE '' END
      || 'e' || CASE WHEN e < 0 THEN '-' ELSE '+' END || abs(e)::text;
  END IF;
  RETURN CASE WHEN value < 0 THEN '-' || printed ELSE printed END;
END
$$;

-- The middle of a /v1/responses row, from "model" to "language", as JSON.stringify wrote it: keys
-- in the row's order, no spaces, a verdict without a mention carrying no mention details (READ-23).
-- IMMUTABLE for the generated column: to_char with only numeric fields reads no locale.
CREATE FUNCTION "response_list_fragment"(
  model text, day date, mentioned boolean, matched_term text, "position" int, sentiment float8, excerpt text,
  source_urls text[], country text, language text
) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT '"model":' || to_json(model)::text
    || ',"date":"' || to_char(day, 'YYYY-MM-DD') || '"'
    || ',"mentioned":' || CASE WHEN mentioned THEN 'true' ELSE 'false' END
    || ',"matchedTerm":' || CASE WHEN mentioned THEN coalesce(to_json(matched_term)::text, 'null') ELSE 'null' END
    || ',"position":' || CASE WHEN mentioned THEN coalesce("position"::text, 'null') ELSE 'null' END
    || ',"sentiment":' || CASE WHEN mentioned THEN coalesce(json_number_as_js(sentiment), 'null') ELSE 'null' END
    || ',"excerpt":' || to_json(excerpt)::text
    || ',"sourceUrls":' || array_to_json(source_urls)::text
    || ',"country":' || coalesce(to_json(country)::text, 'null')
    || ',"language":' || coalesce(to_json(language)::text, 'null')
$$;

-- The cited URLs in citation order, copied from response_sources (which the sources endpoints
-- aggregate by domain), written by the statement that stores the answer.
ALTER TABLE "responses" ADD COLUMN "source_urls" TEXT[] NOT NULL DEFAULT '{}';

UPDATE "responses" r SET "source_urls" = s.urls
FROM (
  SELECT "response_id", array_agg("url" ORDER BY "ordinal") AS urls FROM "response_sources" GROUP BY "response_id"
) s
WHERE s."response_id" = r."id";

-- Rendered by Postgres whenever the row is written, so no writer can leave it behind; adding it
-- rewrites the table once, which renders every stored answer.
ALTER TABLE "responses"
  ADD COLUMN "list_fragment" TEXT NOT NULL GENERATED ALWAYS AS (
    response_list_fragment("model", "day", "mentioned", "matched_term", "position", "sentiment", "excerpt", "source_urls",
      "country", "language")
  ) STORED;

-- Writers that insert sources on their own (seeds, imports written before this) keep source_urls in
-- step: after each insert into response_sources, the answers it touched take their URLs again. A
-- writer that stored them with the answer (storeJudgedAnswers) costs a comparison, not a write.
-- Sources are only ever deleted with their answer or replaced with it, so deletes need nothing.
CREATE FUNCTION "response_sources_copy_urls"() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE "responses" r SET "source_urls" = s.urls
  FROM (
    SELECT "response_id", array_agg("url" ORDER BY "ordinal") AS urls
    FROM "response_sources"
    WHERE "response_id" IN (SELECT "response_id" FROM inserted)
    GROUP BY "response_id"
  ) s
  WHERE r."id" = s."response_id" AND r."source_urls" IS DISTINCT FROM s.urls;
  RETURN NULL;
END
$$;

CREATE TRIGGER "response_sources_copy_urls"
  AFTER INSERT ON "response_sources"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "response_sources_copy_urls"();
