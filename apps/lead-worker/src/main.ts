import { leadWorkerConfigSchema } from '@vt/config';
import { bootApp } from '@vt/service-runtime';
import { startLeadWorker } from './start.ts';

bootApp('lead-worker', leadWorkerConfigSchema, startLeadWorker);
