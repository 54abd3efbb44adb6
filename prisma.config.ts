// Prisma CLI configuration. The project applies migrations with its own runner
// (`pnpm db:migrate`), so this file matters only where Prisma's engines can be downloaded:
// there `prisma migrate status|deploy` read the same migrations and agree with the runner.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/visibility' },
});
