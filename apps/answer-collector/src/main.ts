import { answerCollectorConfigSchema } from '@vt/config';
import { bootApp } from '@vt/service-runtime';
import { startAnswerCollector } from './start.ts';

bootApp('answer-collector', answerCollectorConfigSchema, (config, logger) => startAnswerCollector(config, logger));
