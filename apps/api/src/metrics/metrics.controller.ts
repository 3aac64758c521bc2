// /metrics for the Prometheus scraper (docs/operations.md): its text format, not the envelope; behind
// METRICS_TOKEN when set. Left out of the OpenAPI document: it is for operators, not organisations.
import { Controller, Get, Header, Headers, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { METRICS_TOKEN_REQUIRED, metricsScrapeAllowed } from '@svc/runtime';
import { Registry } from 'prom-client';

import { Public } from '../auth/decorators.js';
import { RawResponse } from '../common/envelope.js';
import { unauthenticated } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from './metrics.service.js';

@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  @Public()
  @RawResponse()
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  scrape(@Headers('authorization') authorization: string | undefined): Promise<string> {
    if (!metricsScrapeAllowed(authorization, this.config.metricsToken)) {
      throw unauthenticated(METRICS_TOKEN_REQUIRED, { 'www-authenticate': 'Bearer' });
    }
    return this.metrics.metrics();
  }
}
