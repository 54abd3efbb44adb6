import { crawlWorkerConfigSchema } from '@vt/config';
import { bootApp } from '@vt/service-runtime';
import { startCrawlWorker } from './start.ts';

bootApp('crawl-worker', crawlWorkerConfigSchema, startCrawlWorker);
