import { consoleConfigSchema } from '@vt/config';
import { bootApp } from '@vt/service-runtime';
import { startConsole } from './start.ts';

bootApp('console', consoleConfigSchema, startConsole, { queryBound: true });
