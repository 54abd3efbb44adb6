import { ingestGatewayConfigSchema } from '@vt/config';
import { bootApp } from '@vt/service-runtime';
import { startIngestGateway } from './start.ts';

bootApp('ingest-gateway', ingestGatewayConfigSchema, startIngestGateway);
