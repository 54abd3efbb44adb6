// The framework floor for the benchmarks: a bare express route answering a constant JSON body,
// run as its own process so it is measured exactly like the app beside it. With DATABASE_URL set
// it also answers GET /bare-query after one `SELECT 1` on a pg pool the read API's size: what a
// single Postgres round trip per request leaves of the floor on this machine. With PAGE_STATEMENT
// (a statement's `{text, values}` as JSON, whose rows carry a `row` of JSON text and a `total`) it
// answers GET /bare-page with those rows as `{"data":[…],"total":N}`: the data's own floor, what
// any read path must at least do for the page (run its statement, receive the rows, send the bytes).
import express from 'express';
import pg from 'pg';

const app = express();
app.disable('x-powered-by');
app.post('/bare', (_req, res) => {
  res.json({ ok: true });
});
app.get('/bare', (_req, res) => {
  res.json({ ok: true });
});
if (process.env.DATABASE_URL) {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  app.get('/bare-query', async (_req, res) => {
    const { rows } = await pool.query('SELECT 1 AS ok');
    res.json({ ok: rows[0]?.ok === 1 });
  });
  const page = process.env.PAGE_STATEMENT ? JSON.parse(process.env.PAGE_STATEMENT) : undefined;
  if (page) {
    app.get('/bare-page', async (_req, res) => {
      const { rows } = await pool.query<{ row: string; total: number }>({ text: page.text, values: page.values });
      res.type('json').send(`{"data":[${rows.map((r) => r.row).join(',')}],"total":${rows[0]?.total ?? 0}}`);
    });
  }
}
const port = Number(process.argv[2] ?? 3990);
app.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${port}\n`));
