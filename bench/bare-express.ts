// The framework floor for the benchmarks: a bare express route answering a constant JSON body,
// run as its own process so it is measured exactly like the app beside it.
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.post('/bare', (_req, res) => {
  res.json({ ok: true });
});
app.get('/bare', (_req, res) => {
  res.json({ ok: true });
});
const port = Number(process.argv[2] ?? 3990);
app.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${port}\n`));
