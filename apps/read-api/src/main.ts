import { readApiConfigSchema } from '@vt/config';
import { bootApp } from '@vt/service-runtime';
import { startReadApi } from './start.ts';

bootApp('read-api', readApiConfigSchema, startReadApi, { queryBound: true });
