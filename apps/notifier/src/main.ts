import { notifierConfigSchema } from '@vt/config';
import { bootApp } from '@vt/service-runtime';
import { startNotifier } from './start.ts';

bootApp('notifier', notifierConfigSchema, (config, logger) => startNotifier(config, logger));
