import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { Registry } from 'prom-client';

import { Public } from '../auth/decorators.js';
import { RawResponse } from '../common/envelope.interceptor.js';
import { MetricsService } from './metrics.service.js';

@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /** For the Prometheus scraper: its text format, not the envelope. */
  @Get('metrics')
  @Public()
  @RawResponse()
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  @ApiProduces(Registry.PROMETHEUS_CONTENT_TYPE)
  @ApiOkResponse({
    description: 'Prometheus text format',
    content: { [Registry.PROMETHEUS_CONTENT_TYPE]: { schema: { type: 'string' } } },
  })
  scrape(): Promise<string> {
    return this.metrics.metrics();
  }
}
